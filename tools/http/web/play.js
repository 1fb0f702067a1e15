// Playing: your moves and the computer's, each asked of the server and drawn; a new game, one
// loaded or resumed, Undo; and the page kept busy (buttons off, board not playable) while an
// answer is awaited. The server applies every rule: the page keeps the GAME string, the start
// position and the moves, and asks.
import {allowAutoOpen, refreshAnalysis} from './analysis.js';
import {api, askFirstPosition} from './api.js';
import {buildBoard} from './board-view.js';
import {countsOf, gameGoing, gameString, isComputerTurn, isHumanTurn, keepGame, playerName,
        trainerAsked, undoTarget} from './game.js';
import {t} from './i18n.js';
import {answerPuzzle} from './puzzle.js';
import {clearMiss, lineAnswer, markSolvedWhenDone, solutionMove,
        trainerJudges} from './puzzle-trainer.js';
import {readSetup, storedSetup} from './setup.js';
import {animate, skipAnimation} from './sowing.js';
import {announce, showError} from './status.js';
import {keepSetup, keptGame} from './storage.js';
import {state, update} from './store.js';
import {summarise} from './summary.js';
import {effectText, errorMessage} from './words.js';

let afterConfirm = null;  // what New game's yes does instead of a new game (a puzzle)

// The thinkings of the first `plies` moves, as many entries as plies (the computer's at its own).
function thinkingsUpTo(plies) {
  const kept = state().thinkings.slice(0, plies);
  kept.length = plies;
  return kept;
}

// Runs `work(stale)` with the page busy (buttons off, board not playable). stale() tells whether
// the game was replaced meanwhile: work must then change nothing, and its answer is dropped.
// Errors are shown. Returns whether the game is still the same. The page stays busy when the
// computer is to move next, so that nothing is enabled for a moment between the moves of its turn.
export async function whileBusy(work) {
  const token = state().token;
  const stale = () => token !== state().token;
  update({busy: true});
  let failed = false;
  try {
    await work(stale);
  } catch (error) {
    failed = true;
    if (!stale()) showError(error);
  } finally {
    if (!stale()) update({busy: !failed && isComputerTurn()});
  }
  return !stale();
}

export async function playHuman(letter) {
  const {busy, replay, view} = state();
  if (busy || !isHumanTurn() || replay || state().editor) return;
  const move = view.moves.find((m) => m.move === letter);
  if (!move) return;
  // The trainer's puzzle judges the move first: a wrong one is not played (try again), and the
  // computer's answers along its line are the trainer's to play.
  if (trainerJudges(letter) === 'refuse') return;
  // A move answers no pending question: New game's yes must not then do what was asked before.
  afterConfirm = null;
  update({hint: null, message: null, confirmNew: false});
  const {puzzle, moves: before, start} = state();
  if (puzzle && puzzle.status === 'asked' && before.length === 0 && start === puzzle.position) {
    answerPuzzle(letter);
  }
  if (!(await playLetter(letter))) return;
  clearMiss();
  if (!(await playLine(lineAnswer))) return;
  markSolvedWhenDone();
  await afterMove();
}

// The pause before each move the trainer's line plays by itself, for the eye to follow.
const LINE_PAUSE_MS = 250;

// Plays the moves `next()` gives (the trainer's line: the computer's answers, or a solution
// played out) until it gives none. Returns whether the game is still the same.
async function playLine(next) {
  for (let letter = next(); letter; letter = next()) {
    const {token} = state();
    update({busy: true});
    await new Promise((resolve) => setTimeout(resolve, LINE_PAUSE_MS));
    if (token !== state().token) return false;
    if (!(await playLetter(letter))) return false;
  }
  return true;
}

// The trainer's solution played out on the board (its puzzle given up: puzzle-trainer.js).
export async function playSolution() {
  if (!(await playLine(solutionMove))) return;
  await afterMove();
}

// Plays `letter` for the side to move, drawn seed by seed, and lists it: the player's move, or an
// answer of the trainer's line. Returns whether the game is still the same.
export async function playLetter(letter) {
  const move = state().view.moves.find((m) => m.move === letter);
  if (!move) return false;
  update({sowing: letter, sown: []});
  const same = await whileBusy(async (stale) => {
    try {
      const {game, start: from, moves: played, view: now} = state();
      const moves = [...played, letter];
      const next = api.position(game, from, moves, 'none');
      await animate(move, countsOf(now));
      const view = await next;
      if (stale()) return;
      update({moves, view, lastMove: move, thinkings: thinkingsUpTo(moves.length)});
      keepGame();
    } finally {
      update({sowing: null});
    }
  });
  if (same) update({sown: []});
  return same;
}

// After a move: the analysis of the new position, the computer's answer, and the summary when
// the game is over.
async function afterMove() {
  refreshAnalysis();
  await computerTurns();
  const view = state().view;
  if (view && view.game_over) summarise();
}

// The computer's whole turn, one move (one sowing of an extra-turn chain) at a time: each is
// asked for, drawn, listed and said before the next.
async function computerTurns() {
  let retries = 0;
  while (isComputerTurn()) {
    const token = state().token;
    update({busy: true, thinkingNow: true});
    let reply;
    try {
      const {game, start, moves, opponent} = state();
      reply = await api.move(game, start, moves, Number(opponent));
    } catch (error) {
      if (token !== state().token) return;
      if (error.status === 503 && retries++ < 10) {
        update({message: {text: t('app.busy')}});
        await new Promise((resolve) => setTimeout(resolve, 1500));
        continue;
      }
      update({busy: false, thinkingNow: false, message: errorMessage(error)});
      return;
    }
    if (token !== state().token) return;
    update({thinkingNow: false, message: null});
    const same = await whileBusy(async (stale) => {
      const {game, start, moves: played, view: now} = state();
      const moves = [...played, reply.move];
      const next = api.position(game, start, moves, 'none');
      await animate(reply.played, countsOf(now));
      const view = await next;
      if (stale()) return;
      const thinkings = state().thinkings.slice();
      thinkings[moves.length] = reply.thinking;
      update({moves, view, lastMove: reply.played, thinkings});
      keepGame();
      const effect = effectText(reply.played);
      announce(t('announce.played', {player: playerName(reply.played.side), move: reply.move})
               + (effect ? ` ${effect}` : ''));
    });
    if (!same) return;
    refreshAnalysis();
  }
}

// Replaces the game: a new one, one loaded from a record, or the same after an undo.
// `view`: the position's answer when the caller has it already (a resumed game).
export async function showGame(game, start, moves, message, view = null) {
  const {token, puzzle, trainer} = state();
  afterConfirm = null;
  // Busy at once, before the new game's first drawing: until then the board on the page is the
  // old game's, and nothing (a tap, a script waiting for the board) may take it for the new one.
  update({
    token: token + 1, game, start, moves, busy: true, thinkingNow: false, hint: null,
    thinkings: thinkingsUpTo(moves.length), message: message || null, replay: null,
    summary: null, confirmNew: false, sown: [], editor: null,
    puzzle: puzzle && start !== puzzle.position ? null : puzzle,
    trainer: trainer && start !== trainer.position ? null : trainer,
  });
  if (!moves.length) allowAutoOpen(true);
  skipAnimation();
  keepGame();
  const same = await whileBusy(async (stale) => {
    const now = state();
    const shown = view || await api.position(now.game, now.start, now.moves, 'last');
    if (stale()) return;
    buildBoard(shown.houses);
    update({view: shown, lastMove: shown.played.length ? shown.played[0] : null});
  });
  if (!same) return;
  await afterMove();
}

export function newGame(confirmed = false) {
  if (!confirmed && gameGoing()) {
    // New game's own question: its yes starts a new game, whatever was asked before.
    afterConfirm = null;
    update({confirmNew: 'newGame'});
    document.getElementById('confirm-yes').focus();
    return Promise.resolve();
  }
  const setup = readSetup();
  keepSetup(setup);
  const computerSide = setup.opponent === 'human' ? null
                     : setup.first === 'computer' ? 'South' : 'North';
  update({confirmNew: false, setup, opponent: setup.opponent, computerSide});
  // Started from the form below the board (a phone scrolls to it): the board comes back in view.
  window.scrollTo(0, 0);
  return showGame(gameString(setup), '', []);
}

// Asks before a game going is thrown away, as New game does; `then` is done on yes (and must
// not ask again: the game is still going when it runs). `question`: what is asked (message.js),
// New game's question unless a link or the position editor asks.
export function askFirst(then, question = 'newGame') {
  afterConfirm = then;
  update({confirmNew: question});
  document.getElementById('confirm-yes')?.focus();
}

// The answer to New game's question.
export function answerNewGame(yes) {
  const then = afterConfirm;
  afterConfirm = null;
  update({confirmNew: false});
  if (!yes) return;
  if (then) then();
  else newGame(true);
}

export async function undo() {
  if (state().busy || trainerAsked()) return;
  const keep = undoTarget();
  if (keep === null) return;
  const {game, start, moves} = state();
  await showGame(game, start, moves.slice(0, keep));
}

// Asks early for the position the page will most likely show first: the kept game's, else a new
// game of the setup kept (app.js, before the languages and the catalogue are in).
export function askFirstBoard() {
  const kept = keptGame();
  if (kept) askFirstPosition(kept.game, kept.start || '', kept.moves);
  else askFirstPosition(gameString(storedSetup()), '', []);
}

// The game kept on this device, if the server still plays it (a kept game the server refuses, an
// edited one say, is dropped for a new game).
export async function resumeGame() {
  const kept = keptGame();
  if (!kept) return false;
  // One request both checks the kept game and brings the position to draw.
  let view;
  try {
    view = await api.position(kept.game, kept.start, kept.moves, 'last');
  } catch {
    return false;
  }
  const level = Number(kept.opponent);
  const opponent = Number.isInteger(level) && level >= 1 && level <= 6 ? String(level) : 'human';
  // The daily puzzle comes back with its game: still asked (and judged), or answered.
  const puzzle = kept.puzzle ? {...kept.puzzle, line: kept.puzzle.status === 'answered'
                                                        ? kept.puzzle.line || [kept.puzzle.best.move]
                                                        : undefined}
                             : null;
  // The trainer's puzzle too, as it was (asked, missed, counted); its game chosen in the panel.
  const trainer = kept.trainer || null;
  update({opponent, puzzle, trainer, computerSide: opponent === 'human' ? null
                                     : kept.computerSide === 'South' ? 'South' : 'North',
          ...(trainer ? {trainerChoice: {game: trainer.game, theme: ''}} : {})});
  await showGame(kept.game, kept.start || '', kept.moves, undefined, view);
  return true;
}
