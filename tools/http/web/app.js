// The web board: the game being played, the controls and the panels. The server applies every
// rule: the page keeps the GAME string, the start position and the moves, and asks.
import {api} from './api.js';
import {BoardView} from './board.js';
import {LANGUAGES, currentLanguage, list, preferredLanguage, setLanguage, t,
        translatePage} from './i18n.js';
import {keepGame as keepGameOnDevice, keepPuzzleRecord, keepSetup, keptGame, keptSetup,
        puzzleRecord} from './storage.js';
import {effectText, errorMessage, formatNumber, outcomeText, signed, sourceText, tidy,
        today} from './words.js';

const ANALYSIS_SECONDS = 2;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
// A phone held upright gets the board turned a quarter (board.js).
const narrow = window.matchMedia('(max-width: 640px)');
const $ = (id) => document.getElementById(id);

const state = {
  games: null,      // GET /api/v1/games
  setup: {kind: 'kalah', houses: 6, seeds: 4, variant: 'standard', opponent: '2', first: 'me'},
  game: '',         // GAME string being played
  start: '',        // its start position ('' for the game's own start)
  moves: [],        // letters played
  view: null,       // GET /api/v1/position for the current position
  lastMove: null,   // the last move, as the API describes it (MOVE)
  opponent: 'human',  // or a level, 1-6
  computerSide: null, // 'South' or 'North' against the computer
  token: 0,         // changes when the game is replaced, so that late answers are dropped
  busy: false,      // a move is being asked for or animated
  thinkingNow: false,
  hint: null,       // {letter, text}
  thinking: null,   // the computer's last thinking
  analysisOpen: false,
  analysisToken: 0,
  analysis: null,   // {status: 'working'|'done'|'over'|'error', data, error}
  message: null,    // {text, notice}
  animation: null,  // {skip} while a sowing is drawn
  replay: null,     // {ply, view}: an earlier position shown from the move list; null: the game
  sowing: null,     // the letter of the player's own move while it is drawn
  sown: [],         // the moves drawn since the player last moved (a computer's whole turn)
  thinkings: [],    // the computer's thinking by ply, so that Undo leaves the last one shown
  autoOpened: false,  // the analysis opened itself once this game, on entering the tables
  summary: null,    // the game-over summary: {status, result, changes, known}
  confirmNew: false,  // New game asked while a game is going: waiting for the player's yes
  afterConfirm: null, // what the yes does: a new game, or the daily puzzle
  puzzle: null,     // the daily puzzle being asked: {status, date, game, position, best, ...}
};

let board;

// ---------------------------------------------------------------- games and players

function gameString(setup) {
  if (setup.kind === 'oware') return `oware:${setup.seeds}:${setup.variant}`;
  const option = setup.variant === 'standard' ? '' : `:${setup.variant}`;
  return `${setup.kind}:${setup.houses}:${setup.seeds}${option}`;
}

// The setup fields of a canonical GAME string (kalah:6:4[:empty-capture], oware:4:abapa,
// congkak:7:7[:no-capture-first-lap]).
function setupOfGame(name) {
  const parts = name.split(':');
  if (parts[0] === 'oware') {
    return {kind: 'oware', houses: 6, seeds: Number(parts[1]), variant: parts[2] || 'abapa'};
  }
  return {kind: parts[0], houses: Number(parts[1]), seeds: Number(parts[2]),
          variant: parts[3] || 'standard'};
}

function sideOfLetter(letter) {
  return letter === letter.toUpperCase() ? 'South' : 'North';
}

function againstComputer() {
  return state.opponent !== 'human';
}

function humanSide() {
  return state.computerSide === 'South' ? 'North' : 'South';
}

function isComputerTurn() {
  return againstComputer() && state.view && !state.view.game_over &&
         state.view.side_to_move === state.computerSide;
}

function isHumanTurn() {
  return state.view && !state.view.game_over && !isComputerTurn();
}

function playerName(side) {
  if (!againstComputer()) return t(`side.${side}`);
  if (side !== state.computerSide) return t('player.you');
  return Number(state.opponent) === 6 ? t('player.pro') : t('player.computer', {level: state.opponent});
}

// How a record names the players: as `mancala play` does.
function recordName(side) {
  if (!againstComputer() || side !== state.computerSide) return 'Human';
  const level = state.games.levels.find((l) => l.level === Number(state.opponent));
  return `mancala level ${state.opponent} (${level ? level.name : ''})`;
}

// The number of moves that Undo keeps: against the computer, those before your last move (the
// computer's answers go with it); between two players on this device, all but the last. null:
// nothing to take back.
function undoTarget() {
  const moves = state.moves;
  if (!againstComputer()) return moves.length ? moves.length - 1 : null;
  let i = moves.length - 1;
  while (i >= 0 && sideOfLetter(moves[i]) !== humanSide()) --i;
  return i >= 0 ? i : null;
}

// The moves grouped by turn: a turn is one side's moves in a row (an extra-turn chain is one turn).
function turnsOf(moves) {
  const turns = [];
  moves.forEach((letter, ply) => {
    const side = sideOfLetter(letter);
    const last = turns[turns.length - 1];
    if (last && last.side === side) last.moves.push({letter, ply});
    else turns.push({side, moves: [{letter, ply}]});
  });
  return turns;
}

// The endgame table that covers positions of `game` with `seeds` seeds on the board, or null
// (a table's name is the command line's: kalah:6, kalah:6:empty-capture, oware:abapa). Asking
// only then keeps 404s out of the console.
function tableCovering(game, seeds) {
  if (!state.games || !game) return null;
  const s = setupOfGame(game);
  const info = kindInfo(s.kind);
  if (!info) return null;
  const name = s.kind === 'oware' ? `oware:${s.variant}`
             : `${s.kind}:${s.houses}${s.variant === 'standard' ? '' : `:${s.variant}`}`;
  const table = info.tables.find((entry) => entry.table === name);
  return table && seeds <= table.max_seeds ? table : null;
}

function seedsOnBoard(positionString, houses) {
  return positionString.split('-').slice(0, 2 * houses).reduce((n, f) => n + Number(f), 0);
}

// Kept after every change of the moves (not on every render).
function keepGame() {
  keepGameOnDevice({game: state.game, start: state.start, moves: state.moves,
                    opponent: state.opponent, computerSide: state.computerSide});
}

function countsOf(view) {
  const b = view.board;
  return [...b.south, ...b.north, b.south_store, b.north_store];
}

function showError(error) {
  state.message = errorMessage(error);
}

// Runs `work(stale)` with the page busy (buttons off, board not playable) and renders after it.
// stale() tells whether the game was replaced meanwhile: work must then change nothing, and its
// answer is dropped. Errors are shown. Returns whether the game is still the same. The page stays
// busy when the computer is to move next, so that nothing is enabled for a moment between the
// moves of its turn.
async function whileBusy(work) {
  const token = state.token;
  const stale = () => token !== state.token;
  state.busy = true;
  render();
  let failed = false;
  try {
    await work(stale);
  } catch (error) {
    failed = true;
    if (!stale()) showError(error);
  } finally {
    if (!stale()) state.busy = !failed && isComputerTurn();
  }
  if (stale()) return false;
  render();
  return true;
}

// Says `text` once to screen readers (a polite live region, apart from the board).
function announce(text) {
  const region = $('announce');
  region.textContent = '';
  // A change of text is what is announced: cleared first, so that the same words said twice
  // in a row are said again.
  requestAnimationFrame(() => { region.textContent = text; });
}

// ---------------------------------------------------------------- drawing

function boardModel(overrides = {}) {
  const view = state.view;
  const last = state.lastMove;
  return {
    counts: countsOf(view),
    sideToMove: view.side_to_move,
    over: view.game_over,
    legal: new Set(view.moves.map((m) => m.move)),
    playable: !state.busy && isHumanTurn(),
    lastMove: last ? {from: last.sowing[0].from, lastSlot: last.last_slot,
                      captured: last.captured_slots} : null,
    hint: state.hint ? state.hint.letter : null,
    active: null,
    // Whose each house is, said with it: South's and North's, or yours and the computer's.
    houseLabel: (letter, count) =>
      t('board.houseOf', {letter, count, side: ownerName(sideOfLetter(letter))}, {isolate: false}),
    storeLabel: (slot, count) =>
      t('board.store', {side: t(slot === 2 * view.houses ? 'side.South' : 'side.North'), count},
        {isolate: false}),
    ...overrides,
  };
}

// A house's owner, as a screen reader says it before the house.
function ownerName(side) {
  if (!againstComputer()) return t(`side.${side}`);
  return side === humanSide() ? t('owner.you') : t('owner.computer');
}

function statusText() {
  const view = state.view;
  if (!view) return t('app.loading');
  if (view.game_over) {
    const r = view.result;
    const you = againstComputer() && r.winner === humanSide();
    const text = r.winner === 'draw' ? t('status.draw', {south: r.south, north: r.north})
                 : you ? t('status.youWin', {south: r.south, north: r.north})
                       : t('status.wins', {player: playerName(r.winner), south: r.south,
                                           north: r.north});
    return r.repetition ? `${text} ${t('status.repetition')}` : text;
  }
  const player = playerName(view.side_to_move);
  if (state.thinkingNow) return t('status.thinking', {player});
  if (state.replay) return t('moves.viewing', {ply: state.replay.ply, count: state.moves.length});
  // Not "your move" while your own sowing is still drawn.
  if (state.sowing) return t('status.sowing', {move: state.sowing});
  const again = state.lastMove && state.lastMove.extra_turn;
  if (againstComputer() && view.side_to_move === humanSide()) {
    return t(again ? 'status.youAgain' : 'status.yourMove');
  }
  return t(again ? 'status.again' : 'status.toMove', {player});
}

function renderThinking() {
  const show = $('show-thinking').checked && againstComputer();
  $('thinking').hidden = !show;
  if (!show) return;
  // The computer's last thinking still in the game (after an Undo, the one before).
  const k = state.thinkings.slice(0, state.moves.length + 1).reverse().find(Boolean) || null;
  let text = t('thinking.none');
  if (k) {
    if (k.level === 1) text = t('thinking.random');
    else if (k.level === 2) text = t('thinking.greedy');
    else if (k.from_tables) text = t('thinking.tables', {score: signed(k.score)});
    else {
      text = t('thinking.search', {
        depth: k.depth, score: signed(k.score),
        exactness: t(k.exact ? 'thinking.exact' : 'thinking.estimate'),
        line: k.pv.join(' '),
        nodes: new Intl.NumberFormat(currentLanguage()).format(k.nodes),
        seconds: new Intl.NumberFormat(currentLanguage(), {minimumFractionDigits: 2,
                                                            maximumFractionDigits: 2})
                     .format(k.seconds),
      });
    }
  }
  $('thinking-text').textContent = text;
}

// One group of moves in the analysis panel (winning, drawing, losing, or a search's all): each
// a button that plays it, with its value and, outside the tables, whether the value is exact.
function analysisGroup(title, kind, moves, exactTag, playable) {
  const group = document.createElement('div');
  group.className = `analysis-group group-${kind}`;
  if (title) {
    const heading = document.createElement('h3');
    heading.textContent = title;
    group.appendChild(heading);
  }
  const items = document.createElement('ul');
  items.className = 'analysis-moves';
  for (const m of moves) {
    const item = document.createElement('li');
    item.dataset.move = m.move;
    item.dataset.score = m.score;
    item.dataset.exact = m.exact;
    if (m.category) item.dataset.category = m.category;
    const button = document.createElement('button');
    button.type = 'button';
    button.disabled = !playable;
    button.title = t('analysis.line', {line: m.line.join(' ')});
    button.setAttribute('aria-label', t('analysis.play', {move: m.move, score: signed(m.score)},
                                        {isolate: false}));
    const move = document.createElement('span');
    move.className = 'move';
    move.textContent = m.move;
    const score = document.createElement('span');
    score.className = 'value';
    score.textContent = ` ${signed(m.score)}`;
    button.append(move, score);
    if (exactTag) {
      const tag = document.createElement('span');
      tag.className = m.exact ? 'exact' : 'estimate';
      tag.textContent = t(m.exact ? 'analysis.exact' : 'analysis.estimate');
      button.appendChild(tag);
    }
    button.addEventListener('click', () => playHuman(m.move));
    item.appendChild(button);
    items.appendChild(item);
  }
  group.appendChild(items);
  return group;
}

// The verdict of an analysis for the side to move, as a sentence: win, draw or loss by N with
// perfect play where exact, else the estimate; and where the value comes from.
function verdictText(data) {
  const you = againstComputer() && data.side_to_move === humanSide();
  const player = playerName(data.side_to_move);
  const best = data.moves[0];
  const source = sourceText(data.provenance, best && best.depth);
  if (data.exact) {
    return t(you ? 'verdict.exactYou' : 'verdict.exact',
             {player, outcome: outcomeText(data.score, you), source});
  }
  return t(you ? 'verdict.estimateYou' : 'verdict.estimate',
           {player, score: signed(data.score), source});
}

// The analysis panel, like a tablebase page: the verdict on top (the only part read out when it
// changes), the best line, then every move with its value, grouped as winning, drawing and
// losing inside the tables; each move plays when pressed.
function renderAnalysis() {
  const toggle = $('analysis-toggle');
  toggle.setAttribute('aria-expanded', String(state.analysisOpen));
  $('analysis').hidden = !state.analysisOpen;
  if (!state.analysisOpen) return;
  const body = $('analysis-body');
  const summary = $('analysis-summary');
  body.replaceChildren();
  delete body.dataset.source;
  const a = state.analysis;
  const paragraph = (text, className) => {
    const p = document.createElement('p');
    p.textContent = text;
    if (className) p.className = className;
    body.appendChild(p);
    return p;
  };
  const say = (text) => {
    if (summary.textContent !== text) summary.textContent = text;
  };
  if (!a || a.status === 'working') return void say(t('analysis.working'));
  if (a.status === 'over') return void say(t('analysis.over'));
  if (a.status === 'error') return void say(errorMessage(a.error).text);
  const data = a.data;
  say(verdictText(data));
  body.dataset.source = data.source;
  if (data.line && data.line.length) {
    const line = paragraph(`${t('analysis.bestLine')} `, 'best-line-row');
    const moves = document.createElement('span');
    moves.className = 'best-line';
    moves.textContent = data.line.join(' ');
    line.appendChild(moves);
  }
  paragraph(t('analysis.for', {player: playerName(data.side_to_move)}));
  // How far the server's tables reach: they grow while `scripts/run.sh` builds deeper layers.
  const reach = data.tables ? data.tables.max_seeds : -1;
  paragraph(reach >= 0 ? t('analysis.reach', {seeds: reach}) : t('analysis.noTables'),
            'tables-reach');
  const playable = !state.busy && isHumanTurn() && !state.replay &&
                   analysisKey(state.game, state.start, state.moves) === a.key;
  if (data.source === 'tables') {
    for (const [kind, title] of [['win', 'analysis.winning'], ['draw', 'analysis.drawing'],
                                 ['loss', 'analysis.losing']]) {
      const moves = data.moves.filter((m) => m.category === kind);
      if (moves.length) body.appendChild(analysisGroup(t(title), kind, moves, false, playable));
    }
  } else {
    paragraph(t('analysis.search', {seconds: formatNumber(data.seconds, 1)}));
    body.appendChild(analysisGroup('', 'search', data.moves, true, playable));
  }
}

// The game-over summary: the result and score, and the moves after which the exact value of the
// game changed (a move that gave away seeds against perfect play), where the tables or the
// solver knew the value before and after it.
function renderSummary() {
  const section = $('summary');
  const sum = state.summary;
  const over = state.view && state.view.game_over && !state.replay;
  section.hidden = !over || !sum;
  if (section.hidden) return;
  const body = $('summary-body');
  const p = (text) => {
    const e = document.createElement('p');
    e.textContent = text;
    return e;
  };
  const parts = [p(statusText())];
  if (sum.status === 'working') parts.push(p(t('summary.working')));
  else if (sum.status === 'done') {
    section.dataset.known = String(sum.known);
    section.dataset.changes = String(sum.changes.length);
    if (!sum.known) parts.push(p(t('summary.unknown')));
    else if (!sum.changes.length) parts.push(p(t('summary.noChange', {ply: sum.firstKnown})));
    else {
      parts.push(p(t('summary.changes', {ply: sum.firstKnown})));
      const items = document.createElement('ol');
      for (const c of sum.changes) {
        const li = document.createElement('li');
        li.value = c.ply;
        li.dataset.ply = String(c.ply);
        li.textContent = t('summary.change', {move: c.move, player: playerName(c.side),
                                              before: signed(c.before), after: signed(c.after),
                                              count: c.before - c.after});
        items.appendChild(li);
      }
      parts.push(items);
    }
  }
  body.replaceChildren(...parts);
}

function renderRules() {
  const kind = state.game ? setupOfGame(state.game).kind : state.setup.kind;
  $('rules-title').textContent = t('rules.title', {game: t(`game.${kind}`)});
  const fill = (element, items) => {
    element.replaceChildren(...items.map((text) => {
      const item = document.createElement('li');
      item.textContent = text;
      return item;
    }));
  };
  fill($('rules-board'), list('rules.board'));
  fill($('rules-list'), list(`rules.${kind}`));
}

function renderMoveList() {
  const list = $('move-list');
  const shown = state.replay ? state.replay.ply : state.moves.length;
  list.replaceChildren(...turnsOf(state.moves).map((turn) => {
    const item = document.createElement('li');
    item.dataset.side = turn.side;
    const who = document.createElement('span');
    who.className = 'turn-side';
    who.textContent = playerName(turn.side);
    item.appendChild(who);
    for (const m of turn.moves) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.textContent = m.letter;
      button.dataset.ply = String(m.ply + 1);
      if (m.ply + 1 === shown) button.setAttribute('aria-current', 'step');
      button.addEventListener('click', () => showPly(m.ply + 1));
      item.appendChild(button);
    }
    return item;
  }));
  const current = list.querySelector('[aria-current]');
  if (current && !state.replay) list.scrollTop = list.scrollHeight;
  else if (current) current.scrollIntoView({block: 'nearest'});
  const idle = !state.busy;
  $('replay-first').disabled = !idle || shown === 0;
  $('replay-back').disabled = !idle || shown === 0;
  $('replay-forward').disabled = !idle || !state.replay;
  $('replay-last').disabled = !idle || !state.replay;
}

function render() {
  const view = state.view;
  $('status').textContent = statusText();
  if (!view) return;
  if (!state.animation) {
    if (state.replay) {
      const past = state.replay.view;
      const last = past.played.length ? past.played[0] : null;
      board.render(boardModel({
        counts: countsOf(past), sideToMove: past.side_to_move, over: past.game_over,
        playable: false, hint: null,
        lastMove: last ? {from: last.sowing[0].from, lastSlot: last.last_slot,
                          captured: last.captured_slots} : null,
      }));
    } else {
      board.render(boardModel());
    }
  }
  // The state in attributes, for the browser tests.
  const frame = $('board-frame');
  frame.dataset.game = state.game;
  frame.dataset.position = view.position;
  frame.dataset.shown = state.replay ? state.replay.view.position : view.position;
  frame.dataset.turned = String(board.turned);
  frame.dataset.over = String(view.game_over);
  frame.dataset.busy = String(state.busy);
  frame.dataset.sown = state.sown.join('');
  for (const side of ['North', 'South']) {
    $(`${side.toLowerCase()}-caption`).textContent =
      againstComputer() ? t('caption', {side: t(`side.${side}`), player: playerName(side)})
                        : t(`side.${side}`);
  }
  $('score').textContent = t('status.score', {south: view.board.south_store,
                                              north: view.board.north_store});
  const message = $('message');
  message.textContent = state.message ? state.message.text : '';
  message.classList.toggle('notice', !!(state.message && state.message.notice));
  if (state.message && state.message.detail) {
    const detail = document.createElement('small');
    detail.className = 'detail';
    detail.lang = 'en';
    detail.dir = 'ltr';
    detail.textContent = state.message.detail;
    message.appendChild(detail);
  }
  if (state.confirmNew) {
    const ask = document.createElement('span');
    ask.className = 'confirm';
    ask.textContent = t('confirm.newGame');
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.id = 'confirm-yes';
    yes.textContent = t('confirm.yes');
    yes.addEventListener('click', () => {
      const then = state.afterConfirm;
      state.afterConfirm = null;
      state.confirmNew = false;
      if (then) then();
      else newGame(true);
    });
    const no = document.createElement('button');
    no.type = 'button';
    no.id = 'confirm-no';
    no.textContent = t('confirm.no');
    no.addEventListener('click', () => {
      state.confirmNew = false;
      state.afterConfirm = null;
      render();
    });
    message.replaceChildren(ask, yes, no);
  }
  const hintText = $('hint-text');
  hintText.textContent = state.hint ? state.hint.text : '';
  // The hint's move and value in attributes, for the browser tests.
  hintText.dataset.move = state.hint && state.hint.letter ? state.hint.letter : '';
  hintText.dataset.score = state.hint && state.hint.letter ? state.hint.score : '';
  hintText.dataset.provenance = state.hint && state.hint.letter ? state.hint.provenance : '';
  const idle = !state.busy;
  $('undo').disabled = !idle || undoTarget() === null;
  // No hint while the daily puzzle's question stands: it would be the answer.
  $('hint').disabled = !idle || view.game_over || !isHumanTurn() || !!state.replay ||
                       (!!state.puzzle && state.puzzle.status === 'asked');
  $('save').disabled = !idle;
  $('load').disabled = !idle;
  renderMoveList();
  renderThinking();
  renderAnalysis();
  renderSummary();
  renderRules();
  renderPuzzle();
}

// ---------------------------------------------------------------- the sowing, seed by seed

function wait(ms, animation) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    animation.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

// Draws `move` (a MOVE object) from the counts before it: each pick-up, then each seed. Quick,
// skipped by a tap or a key, and not drawn at all under prefers-reduced-motion.
async function animate(move, before) {
  // Every move drawn is listed (data-sown on the board), so a test sees a whole computer turn.
  state.sown.push(move.move);
  if (reducedMotion.matches) return;
  const counts = before.slice();
  const seeds = move.sowing.reduce((n, s) => n + s.seeds, 0);
  // 150 ms a seed, faster for long sowings: about 2 s at most for any move.
  const delay = Math.max(5, Math.min(150, 2000 / Math.max(1, seeds)));
  const animation = {skipped: false, wake: null};
  animation.skip = () => {
    animation.skipped = true;
    if (animation.wake) animation.wake();
  };
  state.animation = animation;
  $('skip-note').hidden = false;
  // The move being drawn, for the browser tests (each sowing of a computer's turn is drawn).
  $('board-frame').dataset.sowing = move.move;
  const from = move.sowing[0].from;
  const frame = (active) => board.render(boardModel({
    counts, playable: false, hint: null, active,
    lastMove: {from, lastSlot: active, captured: []},
  }));
  try {
    for (const sowing of move.sowing) {
      counts[sowing.from] -= sowing.seeds;
      frame(sowing.from);
      await wait(delay, animation);
      for (const slot of sowing.slots) {
        if (animation.skipped) return;
        counts[slot] += 1;
        frame(slot);
        await wait(delay, animation);
      }
      if (animation.skipped) return;
    }
  } finally {
    state.animation = null;
    $('skip-note').hidden = true;
    delete $('board-frame').dataset.sowing;
  }
}

function skipAnimation() {
  if (state.animation) state.animation.skip();
}

// ---------------------------------------------------------------- playing

async function loadView(played) {
  return api.position(state.game, state.start, state.moves, played);
}

async function playHuman(letter) {
  if (state.busy || !isHumanTurn() || state.replay) return;
  const move = state.view.moves.find((m) => m.move === letter);
  if (!move) return;
  state.hint = null;
  state.message = null;
  state.confirmNew = false;
  state.sowing = letter;
  state.sown = [];
  if (state.puzzle && state.puzzle.status === 'asked' && state.moves.length === 0 &&
      state.start === state.puzzle.position) {
    answerPuzzle(letter);
  }
  const same = await whileBusy(async (stale) => {
    try {
      const moves = [...state.moves, letter];
      const next = api.position(state.game, state.start, moves, 'none');
      await animate(move, countsOf(state.view));
      const view = await next;
      if (stale()) return;
      state.moves = moves;
      state.view = view;
      state.lastMove = move;
      state.thinkings.length = moves.length;
      keepGame();
    } finally {
      state.sowing = null;
    }
  });
  if (!same) return;
  state.sown = [];
  render();
  await afterMove();
}

// After a move: the analysis of the new position, the computer's answer, and the summary when
// the game is over.
async function afterMove() {
  refreshAnalysis();
  await computerTurns();
  if (state.view && state.view.game_over) summarise();
}

// The computer's whole turn, one move (one sowing of an extra-turn chain) at a time: each is
// asked for, drawn, listed and said before the next.
async function computerTurns() {
  let retries = 0;
  while (isComputerTurn()) {
    const token = state.token;
    state.busy = true;
    state.thinkingNow = true;
    render();
    let reply;
    try {
      reply = await api.move(state.game, state.start, state.moves, Number(state.opponent));
    } catch (error) {
      if (token !== state.token) return;
      if (error.status === 503 && retries++ < 10) {
        state.message = {text: t('app.busy')};
        render();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        continue;
      }
      state.busy = false;
      state.thinkingNow = false;
      showError(error);
      render();
      return;
    }
    if (token !== state.token) return;
    state.thinkingNow = false;
    state.message = null;
    const same = await whileBusy(async (stale) => {
      const moves = [...state.moves, reply.move];
      const next = api.position(state.game, state.start, moves, 'none');
      await animate(reply.played, countsOf(state.view));
      const view = await next;
      if (stale()) return;
      state.moves = moves;
      state.view = view;
      state.lastMove = reply.played;
      state.thinking = reply.thinking;
      state.thinkings[moves.length] = reply.thinking;
      keepGame();
      const effect = effectText(reply.played);
      announce(t('announce.played', {player: playerName(reply.played.side), move: reply.move})
               + (effect ? ` ${effect}` : ''));
    });
    if (!same) return;
    refreshAnalysis();
  }
}

// The board for this game and screen, turned when you play North against the computer.
function buildBoard(houses) {
  const turned = againstComputer() && humanSide() === 'North';
  if (board.houses !== houses || board.tall !== narrow.matches || board.turned !== turned) {
    board.build(houses, narrow.matches, turned);
  }
  // Each caption beside its side's row: North's above the board unless the board is turned.
  const frame = $('board-frame');
  const [above, below] = turned ? ['south', 'north'] : ['north', 'south'];
  frame.before($(`${above}-caption`));
  frame.after($(`${below}-caption`));
}

// Shows the position after the first `ply` moves (the move list's replay); the last ply is the
// game itself, playable again.
async function showPly(ply) {
  if (state.busy || !state.view) return;
  ply = Math.max(0, Math.min(ply, state.moves.length));
  if (ply === state.moves.length) {
    state.replay = null;
    return render();
  }
  await whileBusy(async (stale) => {
    const view = await api.position(state.game, state.start, state.moves.slice(0, ply), 'last');
    if (!stale()) state.replay = {ply, view};
  });
}

function stepReplay(step) {
  const shown = state.replay ? state.replay.ply : state.moves.length;
  return showPly(shown + step);
}

// Replaces the game: a new one, one loaded from a record, or the same after an undo.
async function showGame(game, start, moves, message) {
  ++state.token;
  state.game = game;
  state.start = start;
  state.moves = moves;
  state.thinkingNow = false;
  state.hint = null;
  state.thinking = null;
  state.thinkings.length = moves.length;
  state.message = message || null;
  state.replay = null;
  state.summary = null;
  state.confirmNew = false;
  state.sown = [];
  if (!moves.length) state.autoOpened = false;
  if (state.puzzle && start !== state.puzzle.position) state.puzzle = null;
  skipAnimation();
  keepGame();
  // Busy at once, before the new game's first render: until then the board on the page is the
  // old game's, and nothing (a tap, a script waiting for the board) may take it for the new one.
  $('board-frame').dataset.busy = 'true';
  const same = await whileBusy(async (stale) => {
    const view = await loadView('last');
    if (stale()) return;
    buildBoard(view.houses);
    state.view = view;
    state.lastMove = view.played.length ? view.played[0] : null;
  });
  if (!same) return;
  await afterMove();
}

// A game is going when it is not over and you have played in it: New game asks first.
function gameGoing() {
  if (!state.view || state.view.game_over) return false;
  return againstComputer() ? state.moves.some((m) => sideOfLetter(m) === humanSide())
                           : state.moves.length > 0;
}

function newGame(confirmed = false) {
  if (!confirmed && gameGoing()) {
    state.confirmNew = true;
    render();
    $('confirm-yes').focus();
    return Promise.resolve();
  }
  state.confirmNew = false;
  const setup = readSetup();
  state.setup = setup;
  keepSetup(setup);
  state.opponent = setup.opponent;
  // Started from the form below the board (a phone scrolls to it): the board comes back in view.
  window.scrollTo(0, 0);
  state.computerSide = setup.opponent === 'human' ? null
                                                 : setup.first === 'computer' ? 'South' : 'North';
  return showGame(gameString(setup), '', []);
}

async function undo() {
  if (state.busy) return;
  const keep = undoTarget();
  if (keep === null) return;
  await showGame(state.game, state.start, state.moves.slice(0, keep));
}

// One analysis per position, asked once and shared by the hint and the analysis panel, so the two
// always show the same answer (the server computes it in one place: /api/v1/analyse). The latest
// few positions are kept; a failed request is forgotten so that it can be asked again, and one
// still running for a position the game has left is dropped (playing quickly with the panel open
// would otherwise queue answers nobody waits for).
const analyses = new Map();  // "game|start|moves" -> {answer (a promise), abort, settled}
const ANALYSES_KEPT = 8;

function analysisKey(game, start, moves) {
  return `${game}|${start || ''}|${moves.join('')}`;
}

function analysisOf(game, start, moves) {
  const key = analysisKey(game, start, moves);
  let found = analyses.get(key);
  if (!found) {
    const controller = new AbortController();
    found = {abort: () => controller.abort(), settled: false};
    found.answer = api.analyse(game, start, moves, ANALYSIS_SECONDS, controller.signal);
    found.answer.then((data) => {
      found.settled = true;
      found.data = data;
    },
                      () => { if (analyses.get(key) === found) analyses.delete(key); });
    analyses.set(key, found);
    if (analyses.size > ANALYSES_KEPT) analyses.delete(analyses.keys().next().value);
  }
  return found.answer;
}

// Drops the analyses still running for any position but the game's current one.
function dropStaleAnalyses() {
  const current = analysisKey(state.game, state.start, state.moves);
  for (const [key, entry] of analyses) {
    if (key !== current && !entry.settled) {
      entry.abort();
      analyses.delete(key);
    }
  }
}

// The hint is the analysis's best move, explained: what it does (an extra turn, a capture), its
// value (exact with perfect play, or a search's estimate) and where that value comes from.
async function hint() {
  if (state.busy || !isHumanTurn()) return;
  const player = playerName(state.view.side_to_move);
  const you = againstComputer();  // the hint is for your move: you are playing the computer
  const legal = state.view.moves;
  state.hint = {letter: null, text: t('hint.looking')};
  await whileBusy(async (stale) => {
    try {
      const data = await analysisOf(state.game, state.start, state.moves);
      if (stale()) return;
      const best = data.moves[0];
      const params = {move: best.move, player, effect: effectText(legal.find((m) =>
                        m.move === best.move)), source: sourceText(best.provenance, best.depth)};
      state.hint = {letter: best.move, score: best.score, provenance: best.provenance,
                    text: tidy(best.exact
                                   ? t(you ? 'hint.exactYou' : 'hint.exact',
                                       {...params, outcome: outcomeText(best.score, you)})
                                   : t(you ? 'hint.estimateYou' : 'hint.estimate',
                                       {...params, score: signed(best.score)}))};
    } catch (error) {
      state.hint = null;
      throw error;
    }
  });
}

// The analysis of the current position, when the panel is open. The panel opens by itself, once a
// game, when the game enters the tables: from then on every move's exact value is known.
async function refreshAnalysis() {
  dropStaleAnalyses();
  if (!state.view) return;
  if (!state.analysisOpen && !state.autoOpened && !state.view.game_over &&
      tableCovering(state.game, state.view.seeds_on_board)) {
    state.autoOpened = true;
    state.analysisOpen = true;
  }
  if (!state.analysisOpen) return;
  const token = ++state.analysisToken;
  if (state.view.game_over) {
    state.analysis = {status: 'over'};
    return renderAnalysis();
  }
  const key = analysisKey(state.game, state.start, state.moves);
  state.analysis = {status: 'working'};
  renderAnalysis();
  try {
    const data = await analysisOf(state.game, state.start, state.moves);
    if (token !== state.analysisToken) return;
    state.analysis = {status: 'done', data, key};
  } catch (error) {
    if (token !== state.analysisToken) return;
    state.analysis = {status: 'error', error};
  }
  renderAnalysis();
}

// The exact value of the game, for South (the final store difference with perfect play), before
// each move: from the tables for every position they cover, and from the analyses this page
// already has where they were exact. The moves that changed it are the game's mistakes.
async function summarise() {
  const token = state.token;
  const {game, start, moves} = state;
  state.summary = {status: 'working'};
  renderSummary();
  let changes = [], known = 0, firstKnown = 0;
  try {
    const whole = await api.position(game, start, moves, 'all');
    const first = await api.position(game, start, [], 'none');
    const houses = whole.houses;
    const positions = [first.position, ...whole.played.map((m) => m.position)];
    const southValue = new Array(positions.length).fill(null);
    const forSouth = (positionString, score) => positionString.endsWith('S') ? score : -score;
    await Promise.all(positions.map(async (p, ply) => {
      if (ply === positions.length - 1) {
        const r = whole.result;
        southValue[ply] = r.south - r.north;
        return;
      }
      const cached = analyses.get(analysisKey(game, start, moves.slice(0, ply)));
      if (cached && cached.data && cached.data.exact) {
        southValue[ply] = forSouth(p, cached.data.score);
      } else if (tableCovering(game, seedsOnBoard(p, houses))) {
        const answer = await api.tables(game, start, moves.slice(0, ply));
        southValue[ply] = forSouth(p, answer.score);
      }
    }));
    // The last position is the end itself: known, but not "knowledge".
    known = southValue.slice(0, -1).filter((v) => v !== null).length;
    firstKnown = southValue.findIndex((v) => v !== null) + 1;
    for (let ply = 0; ply + 1 < positions.length; ++ply) {
      const before = southValue[ply], after = southValue[ply + 1];
      if (before === null || after === null || before === after) continue;
      const side = sideOfLetter(moves[ply]);
      const sign = side === 'South' ? 1 : -1;
      changes.push({ply: ply + 1, move: moves[ply], side, before: sign * before,
                    after: sign * after});
    }
  } catch (error) {
    if (token !== state.token) return;
    state.summary = {status: 'error'};
    showError(error);
    return render();
  }
  if (token !== state.token) return;
  state.summary = {status: 'done', changes, known, firstKnown};
  renderSummary();
}

async function save() {
  try {
    const date = today();
    const {record} = await api.writeRecord(state.game, state.start, state.moves, {
      South: recordName('South'), North: recordName('North'), Date: date.dots,
    });
    const file = `mancala-${state.game.replaceAll(':', '-')}-${date.dashes}.txt`;
    const url = URL.createObjectURL(new Blob([record], {type: 'text/plain'}));
    const link = document.createElement('a');
    link.href = url;
    link.download = file;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    state.message = {text: t('record.saved', {file}), notice: true};
  } catch (error) {
    showError(error);
  }
  render();
}

async function load(file) {
  if (file.size > 60000) {
    state.message = {text: t('record.tooLarge')};
    return render();
  }
  let record;
  try {
    record = await api.readRecord(await file.text());
  } catch (error) {
    state.message = {text: t('record.notRecord'), detail: error.message};
    return render();
  }
  const setup = {...setupOfGame(record.game), opponent: 'human', first: 'me'};
  state.setup = setup;
  state.opponent = 'human';
  state.computerSide = null;
  fillSetup();
  const moves = record.moves.split('');
  await showGame(record.game, record.start, moves,
                 {text: t('record.loaded', {game: t(`game.${setup.kind}`), count: moves.length}),
                  notice: true});
}

// ---------------------------------------------------------------- the daily puzzle
//
// Each day, for each game with endgame tables, one position with exactly one winning move (or,
// where none wins, exactly one that saves the draw), South to move. It is derived from the date
// alone, so every player gets the same one that day and the server keeps nothing: the date and
// the game seed a small generator that spreads an even number of seeds (6 to 10, within the
// tables) over the houses with equal stores; the tables judge it, and the next seed is tried
// until one position has a single best move. Answered once a day; a streak of days kept here.

const PUZZLE_TRIES = 400;

// A 32-bit hash of a text (FNV-1a), the seed of the day's generator.
function hashText(text) {
  let h = 0x811c9dc5;
  for (const c of text) {
    h ^= c.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// mulberry32: a small generator of numbers in [0, 1), the same in every browser.
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), a | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// The games that have a daily puzzle: a table for the standard rules of the game's default size.
function puzzleGames() {
  if (!state.games) return [];
  return state.games.games.flatMap((info) => {
    const setup = setupOfGame(info.default);
    const table = tableCovering(info.default, 0);
    return table ? [{kind: info.kind, game: info.default, houses: setup.houses,
                     seeds: setup.seeds, table}] : [];
  });
}

// The candidate position number `n` of the day for `puzzle`: a position string, South to move.
function puzzleCandidate(puzzle, date, n) {
  const random = generator(hashText(`${date}|${puzzle.game}|${n}`));
  const h = puzzle.houses;
  const most = Math.min(10, puzzle.table.max_seeds);
  const sizes = [6, 8, 10].filter((k) => k <= most);
  const onBoard = sizes[Math.floor(random() * sizes.length)];
  const houses = new Array(2 * h).fill(0);
  for (let k = 0; k < onBoard; ++k) houses[Math.floor(random() * 2 * h)] += 1;
  const store = (2 * h * puzzle.seeds - onBoard) / 2;
  return [...houses, store, store, 'S'].join('-');
}

// Whether a tables answer makes a puzzle: not over, and one move alone has the best category.
function onlyMove(answer) {
  if (answer.game_over || answer.moves.length < 2) return null;
  const best = answer.moves[0];
  if (best.category === 'loss') return null;
  const same = answer.moves.filter((m) => m.category === best.category);
  return same.length === 1 ? best : null;
}

async function findPuzzle(puzzle, date) {
  for (let n = 0; n < PUZZLE_TRIES; ++n) {
    const position = puzzleCandidate(puzzle, date, n);
    const houses = position.split('-').slice(0, 2 * puzzle.houses).map(Number);
    // Both sides need seeds, South several moves, for a position to be a question at all.
    if (houses.slice(0, puzzle.houses).filter(Boolean).length < 2 ||
        !houses.slice(puzzle.houses).some(Boolean)) continue;
    let answer;
    try {
      answer = await api.tables(puzzle.game, position, []);
    } catch (error) {
      if (error.status === 400) continue;  // a position the rules refuse: the next one
      throw error;
    }
    const best = onlyMove(answer);
    if (best) return {position, answer, best, n};
  }
  return null;
}

function dayBefore(date) {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

function renderPuzzle() {
  const section = $('puzzle');
  const games = puzzleGames();
  section.hidden = !games.length;
  if (!games.length) return;
  const record = puzzleRecord();
  $('puzzle-streak').textContent = t('puzzle.streak', {count: record.streak});
  $('puzzle-games').replaceChildren(...games.map((g) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.game = g.game;
    button.textContent = t('puzzle.play', {game: t(`game.${g.kind}`)});
    button.disabled = state.busy;
    button.addEventListener('click', () => startPuzzle(g));
    return button;
  }));
  const p = state.puzzle;
  const text = $('puzzle-text');
  text.textContent = !p ? t('puzzle.about')
                   : p.status === 'looking' ? t('puzzle.looking')
                   : p.status === 'none' ? t('puzzle.none')
                   : p.status === 'asked' ? t(p.best.category === 'win' ? 'puzzle.findWin'
                                                                        : 'puzzle.findDraw')
                   : p.text;
  section.dataset.position = p && p.position ? p.position : '';
  section.dataset.answer = p && p.best && p.status !== 'asked' ? p.best.move : '';
  section.dataset.status = p ? p.status : '';
}

async function startPuzzle(puzzle) {
  if (state.busy) return;
  if (gameGoing()) {
    state.confirmNew = true;
    state.afterConfirm = () => startPuzzle(puzzle);
    return render();
  }
  const date = today().dashes;
  state.puzzle = {status: 'looking', date, game: puzzle.game};
  renderPuzzle();
  let found;
  try {
    found = await findPuzzle(puzzle, date);
  } catch (error) {
    state.puzzle = null;
    showError(error);
    return render();
  }
  if (!found) {
    state.puzzle = {status: 'none'};
    return renderPuzzle();
  }
  // Played on this device, as a loaded record is: the form says so.
  state.setup = {...setupOfGame(puzzle.game), opponent: 'human', first: 'me'};
  fillSetup();
  state.opponent = 'human';
  state.computerSide = null;
  state.puzzle = {status: 'asked', date, game: puzzle.game, kind: puzzle.kind,
                  position: found.position, best: found.best, answer: found.answer};
  await showGame(puzzle.game, found.position, []);
  // The panel would give the answer away: closed while the question stands.
  state.analysisOpen = false;
  state.autoOpened = true;
  render();
  window.scrollTo(0, 0);
}

// The player's answer: right or wrong by the tables, then the line after the best move, and the
// streak (one answer a day counts).
async function answerPuzzle(letter) {
  const p = state.puzzle;
  p.status = 'answered';
  const played = p.answer.moves.find((m) => m.move === letter);
  const right = letter === p.best.move;
  const record = puzzleRecord();
  const key = `${p.date}|${p.game}`;
  if (!(key in record.answered)) {
    record.answered[key] = right;
    if (right) {
      if (record.last !== p.date) record.streak = record.last === dayBefore(p.date) ? record.streak + 1 : 1;
      record.last = p.date;
    } else {
      record.streak = 0;
      record.last = '';
    }
    keepPuzzleRecord(record);
  }
  let line = [p.best.move];
  try {
    // Asked apart from the shared analyses: those of positions left are dropped, and the game
    // moves on from this one at once.
    const analysis = await api.analyse(p.game, p.position, [], ANALYSIS_SECONDS);
    line = analysis.line;
  } catch {
    // The line is a help; the answer stands without it.
  }
  const category = t(`puzzle.category.${played.category}`);
  p.text = tidy(`${t(right ? 'puzzle.right' : 'puzzle.wrong', {move: letter, category,
                                                                 best: p.best.move})} ` +
                t('puzzle.line', {line: line.join(' ')}));
  renderPuzzle();
}

// ---------------------------------------------------------------- the setup form

function option(value, text, selected) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  o.selected = String(value) === String(selected);
  return o;
}

function kindInfo(kind) {
  return state.games.games.find((g) => g.kind === kind);
}

function readSetup() {
  return {
    kind: $('setup-kind').value,
    houses: Number($('setup-houses').value),
    seeds: Number($('setup-seeds').value),
    variant: $('setup-variant').value,
    opponent: $('setup-opponent').value,
    first: $('setup-first').value,
  };
}

// Fills the form from state.setup, with the ranges the server plays.
function fillSetup() {
  const s = state.setup;
  const info = kindInfo(s.kind) || kindInfo('kalah');
  const range = (min, max) => Array.from({length: max - min + 1}, (_, i) => min + i);
  $('setup-kind').replaceChildren(...state.games.games.map((g) =>
    option(g.kind, t(`game.${g.kind}`), s.kind)));
  const houses = Math.min(Math.max(s.houses, info.houses.min), info.houses.max);
  $('setup-houses').replaceChildren(...range(info.houses.min, info.houses.max).map((n) =>
    option(n, String(n), houses)));
  $('setup-houses').disabled = info.houses.min === info.houses.max;
  const seeds = Math.min(Math.max(s.seeds, info.seeds.min), info.seeds.max);
  $('setup-seeds').replaceChildren(...range(info.seeds.min, info.seeds.max).map((n) =>
    option(n, String(n), seeds)));
  const variant = info.variants.some((v) => v.name === s.variant) ? s.variant
                                                                   : info.variants[0].name;
  $('setup-variant').replaceChildren(...info.variants.map((v) =>
    option(v.name, t(`variant.${info.kind}.${v.name}`), variant)));
  $('setup-opponent').replaceChildren(
    option('human', t('opponent.human'), s.opponent),
    ...state.games.levels.map((l) => option(String(l.level), t(`opponent.level${l.level}`),
                                            s.opponent)));
  $('setup-first').replaceChildren(option('me', t('first.me'), s.first),
                                   option('computer', t('first.computer'), s.first));
  $('setup-first').disabled = s.opponent === 'human';
  // The opponent's whole name under its list, which a phone may cut.
  $('opponent-note').textContent = $('setup-opponent').selectedOptions[0]?.textContent || '';
}

function onSetupChange() {
  const s = readSetup();
  if (s.kind !== state.setup.kind) {
    const info = kindInfo(s.kind);
    s.houses = info.houses.default;
    s.seeds = info.seeds.default;
    s.variant = info.variants[0].name;
  }
  state.setup = s;
  fillSetup();
}

function storedSetup() {
  const stored = keptSetup();
  if (!stored) return state.setup;
  const {kind, houses, seeds, variant, opponent, first} = stored;
  return {...state.setup, kind, houses, seeds, variant, opponent, first};
}

// ---------------------------------------------------------------- start

function fillLanguages() {
  $('language').replaceChildren(...LANGUAGES.map((l) => {
    const o = option(l.code, l.name, currentLanguage());
    o.lang = l.code;
    return o;
  }));
}

async function switchLanguage(code) {
  await setLanguage(code, true);
  translatePage();
  fillLanguages();
  if (state.games) fillSetup();
  render();
}

function onKey(event) {
  if (state.animation) {
    event.preventDefault();
    return skipAnimation();
  }
  const target = event.target;
  // Keys typed into a field are the field's; a checkbox (the thinking switch) types nothing.
  const typing = target instanceof HTMLInputElement && target.type !== 'checkbox';
  if (typing || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const replayKeys = {ArrowLeft: () => stepReplay(-1), ArrowRight: () => stepReplay(1),
                      Home: () => showPly(0), End: () => showPly(state.moves.length)};
  if (replayKeys[event.key] && state.view) {
    event.preventDefault();
    return void replayKeys[event.key]();
  }
  if (event.key.length !== 1 || !/[a-z]/i.test(event.key) || !isHumanTurn()) return;
  const letter = state.view.side_to_move === 'South' ? event.key.toUpperCase()
                                                      : event.key.toLowerCase();
  if (!state.view.moves.some((m) => m.move === letter)) return;
  event.preventDefault();
  playHuman(letter);
}

async function main() {
  await setLanguage(preferredLanguage(), false);
  translatePage();
  fillLanguages();
  board = new BoardView($('board'), (letter) => playHuman(letter));
  $('language').addEventListener('change', (e) => switchLanguage(e.target.value));
  document.addEventListener('keydown', onKey);
  $('board-frame').addEventListener('pointerdown', skipAnimation);
  $('setup').addEventListener('change', onSetupChange);
  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    newGame();
  });
  $('new-game').addEventListener('click', () => newGame());
  $('undo').addEventListener('click', () => undo());
  $('hint').addEventListener('click', () => hint());
  $('save').addEventListener('click', () => save());
  $('load').addEventListener('click', () => $('load-file').click());
  $('load-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) load(file);
  });
  $('show-thinking').addEventListener('change', () => renderThinking());
  $('replay-first').addEventListener('click', () => showPly(0));
  $('replay-back').addEventListener('click', () => stepReplay(-1));
  $('replay-forward').addEventListener('click', () => stepReplay(1));
  $('replay-last').addEventListener('click', () => showPly(state.moves.length));
  narrow.addEventListener('change', () => {
    if (!state.view) return;
    buildBoard(state.view.houses);
    render();
  });
  $('analysis-toggle').addEventListener('click', () => {
    state.analysisOpen = !state.analysisOpen;
    renderAnalysis();
    refreshAnalysis();
  });
  try {
    state.games = await api.games();
  } catch (error) {
    showError(error);
    $('status').textContent = state.message.text;
    return;
  }
  state.setup = storedSetup();
  fillSetup();
  state.setup = readSetup();
  if (!(await resumeGame())) await newGame();
  // The catalogue again now and then: layers a build lands beside the server are used (the
  // panel and the hints ask the tables only where the catalogue says they reach).
  setInterval(async () => {
    if (document.hidden) return;
    try {
      state.games = await api.games();
    } catch {
      // The next look will do; the page goes on with what it has.
    }
  }, 20000);
}

// The game kept on this device, if the server still plays it (a kept game the server refuses, an
// edited one say, is dropped for a new game).
async function resumeGame() {
  const kept = keptGame();
  if (!kept) return false;
  try {
    await api.position(kept.game, kept.start, kept.moves, 'none');
  } catch {
    return false;
  }
  const level = Number(kept.opponent);
  state.opponent = Number.isInteger(level) && level >= 1 && level <= 6 ? String(level) : 'human';
  state.computerSide = state.opponent === 'human' ? null
                                                  : kept.computerSide === 'South' ? 'South' : 'North';
  await showGame(kept.game, kept.start || '', kept.moves);
  return true;
}

main();
