// The daily puzzle: each day, for each game with endgame tables, one position with exactly one
// winning move (or, where none wins, exactly one that saves the draw), South to move. It is
// derived from the date alone, so every player gets the same one that day and the server keeps
// nothing: the date and the game seed a small generator that spreads an even number of seeds
// (6 to 10, within the tables) over the houses with equal stores; the tables judge it, and the
// next seed is tried until one position has a single best move. Answered once a day; a streak of
// days kept on the device. The panel that asks it is puzzle-panel.js.
import {ANALYSIS_SECONDS} from './analyses.js';
import {api} from './api.js';
import {catalogue} from './catalogue.js';
import {keepGame, setupOfGame, tableCovering} from './game.js';
import {fnv1a32} from './hash.js';
import {t} from './i18n.js';
import {keepPuzzleRecord, puzzleRecord} from './storage.js';
import {state, update} from './store.js';
import {tidy} from './words.js';

const PUZZLE_TRIES = 400;

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
export function puzzleGames() {
  if (!catalogue()) return [];
  return catalogue().games.flatMap((info) => {
    const setup = setupOfGame(info.default);
    const table = tableCovering(info.default, 0);
    return table ? [{kind: info.kind, game: info.default, houses: setup.houses,
                     seeds: setup.seeds, table}] : [];
  });
}

// The candidate position number `n` of the day for `puzzle`: a position string, South to move.
function puzzleCandidate(puzzle, date, n) {
  const random = generator(fnv1a32(`${date}|${puzzle.game}|${n}`));
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

// The day's puzzle for `puzzle` (an entry of puzzleGames()): {position, answer, best, n}, or
// null when no try gave one.
export async function findPuzzle(puzzle, date) {
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

// The player's answer to the puzzle asked: right or wrong by the tables, then the line after the
// best move, and the streak (one answer a day counts).
export async function answerPuzzle(letter) {
  const p = {...state().puzzle, status: 'answered', played: letter, line: null};
  update({puzzle: p});
  const right = letter === p.best.move;
  const record = puzzleRecord();
  const key = `${p.date}|${p.game}`;
  // An earlier day's puzzle (opened from a link) is judged but counts for no day.
  if (!p.practice && !(key in record.answered)) {
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
  // Said only while this puzzle is still the one on the page (puzzle-panel.js words it).
  if (state().puzzle === p) {
    update({puzzle: {...p, line}});
    keepGame();
  }
}

// What the puzzle says: the search for it, the question while it stands, then the verdict with
// the line of perfect play (once known). Said in the panel and, on the game's board, beside the
// status (phones show the panel far below the board).
export function puzzleText(p) {
  if (!p) return t('puzzle.about');
  if (p.status === 'looking') return t('puzzle.looking');
  if (p.status === 'none') return t('puzzle.none');
  if (p.status === 'asked') return t(p.best.category === 'win' ? 'puzzle.findWin' : 'puzzle.findDraw');
  if (!p.line) return '';
  const played = p.answer.moves.find((m) => m.move === p.played);
  const category = t(`puzzle.category.${played.category}`);
  return tidy(`${t(p.played === p.best.move ? 'puzzle.right' : 'puzzle.wrong',
                   {move: p.played, category, best: p.best.move})} ` +
              t('puzzle.line', {line: p.line.join(' ')}));
}
