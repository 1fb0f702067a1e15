// What the page keeps on the device (localStorage): the game being played, the last setup, the
// daily puzzle's record. Every entry read back is checked whole before it is used: one that
// another version of the page wrote, or that was edited by hand, is dropped (removed), never
// trusted (a puzzle record of {"answered": "x"} broke the daily puzzle).

const SETUP_KEY = 'mancala.setup';
// The game being played, kept after every move: a reload, or a phone that drops the tab, finds
// it again (GAME string, start, moves, opponent and side: the server replays the rest), with the
// daily puzzle or the trainer's puzzle when the game is one (a reload must neither drop the
// question nor the judging of its answer).
const GAME_KEY = 'mancala.game';
// The board last drawn of the game being played, settled (no sowing drawn, nothing asked, no
// hint marked), with the game it shows: index.html's second inline script shows it from the next
// visit's first paint when it is the kept game's (docs/web-board.md, "Loading fast"). Written by
// the page, read by that script alone.
const BOARD_KEY = 'mancala.board';
const PUZZLE_KEY = 'mancala.puzzle';
// The puzzle trainer's record: a Glicko-2 rating a game and the puzzles already met.
const TRAINER_KEY = 'mancala.trainer';
// The ids of puzzles met that are kept a game: enough to go through a library before repeating.
const TRAINER_PLAYED_KEPT = 2000;

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isShortText(value, most = 200) {
  return typeof value === 'string' && value.length <= most;
}

// The entry under `key` when `valid` accepts it; else null, a bad entry removed.
function storedEntry(key, valid) {
  try {
    const text = localStorage.getItem(key);
    if (text === null) return null;
    let kept;
    try {
      kept = JSON.parse(text);
    } catch {
      kept = undefined;
    }
    if (kept !== undefined && valid(kept)) return kept;
    localStorage.removeItem(key);
  } catch {
    // Storage is off (private browsing): nothing kept.
  }
  return null;
}

// Not kept when storage is off (private browsing) or full.
function keep(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Not kept: the page goes on without it.
  }
}

const OPPONENTS = ['human', '1', '2', '3', '4', '5', '6'];

const isLetter = (m) => typeof m === 'string' && /^[A-Za-z]$/.test(m);
const CATEGORIES = ['win', 'draw', 'loss'];
const isMoveValue = (m) => isPlainObject(m) && isLetter(m.move) && CATEGORIES.includes(m.category);

// The daily puzzle played as the kept game: its question still asked, or answered (the move
// played, and the line once known; `practice` when it is an earlier day's, from a link). Only
// what the page judges and says with.
function validKeptPuzzle(puzzle, game, start) {
  return isPlainObject(puzzle) && ['asked', 'answered'].includes(puzzle.status) &&
         typeof puzzle.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(puzzle.date) &&
         puzzle.game === game && isShortText(puzzle.kind, 40) && puzzle.position === start &&
         [undefined, true].includes(puzzle.practice) &&
         isMoveValue(puzzle.best) && isPlainObject(puzzle.answer) &&
         Array.isArray(puzzle.answer.moves) && puzzle.answer.moves.length <= 52 &&
         puzzle.answer.moves.every(isMoveValue) &&
         puzzle.answer.moves.some((m) => m.move === puzzle.best.move) &&
         (puzzle.status === 'asked'
            ? puzzle.played === undefined
            : puzzle.answer.moves.some((m) => m.move === puzzle.played)) &&
         (puzzle.line === undefined || puzzle.line === null ||
          (Array.isArray(puzzle.line) && puzzle.line.length <= 400 && puzzle.line.every(isLetter)));
}

// The trainer's puzzle played as the kept game (puzzle-trainer.js): asked, solved or its solution
// shown, with whether it was missed and counted already (a reload counts nothing again).
function validKeptTrainer(trainer, game, start) {
  return isPlainObject(trainer) && ['asked', 'solved', 'shown'].includes(trainer.status) &&
         trainer.game === game && trainer.position === start && isShortText(trainer.kind, 40) &&
         isShortText(trainer.id, 40) && Array.isArray(trainer.line) && trainer.line.length > 0 &&
         trainer.line.length <= 64 && trainer.line.every(isLetter) &&
         ['win', 'draw'].includes(trainer.goal) && Array.isArray(trainer.themes) &&
         trainer.themes.length <= 16 && trainer.themes.every((x) => isShortText(x, 40)) &&
         Number.isSafeInteger(trainer.rating) && typeof trainer.missed === 'boolean' &&
         typeof trainer.counted === 'boolean' &&
         (trainer.change === null || Number.isSafeInteger(trainer.change)) &&
         (trainer.wrong === null || isLetter(trainer.wrong));
}

function validKeptGame(kept) {
  return isPlainObject(kept) && isShortText(kept.game) &&
         (kept.start === undefined || kept.start === null || isShortText(kept.start)) &&
         Array.isArray(kept.moves) && kept.moves.every(isLetter) &&
         (kept.opponent === undefined || OPPONENTS.includes(kept.opponent)) &&
         [undefined, null, 'South', 'North'].includes(kept.computerSide) &&
         (kept.puzzle === undefined || kept.puzzle === null ||
          validKeptPuzzle(kept.puzzle, kept.game, kept.start)) &&
         (kept.trainer === undefined || kept.trainer === null ||
          validKeptTrainer(kept.trainer, kept.game, kept.start));
}

function validPuzzleRecord(kept) {
  return isPlainObject(kept) && Number.isSafeInteger(kept.streak) && kept.streak >= 0 &&
         typeof kept.last === 'string' && (kept.last === '' || /^\d{4}-\d{2}-\d{2}$/.test(kept.last)) &&
         isPlainObject(kept.answered) &&
         Object.entries(kept.answered).every(([key, right]) => isShortText(key) &&
                                                                 typeof right === 'boolean');
}

function validSetup(kept) {
  return isPlainObject(kept) && isShortText(kept.kind, 40) && Number.isSafeInteger(kept.houses) &&
         Number.isSafeInteger(kept.seeds) && isShortText(kept.variant, 40) &&
         OPPONENTS.includes(kept.opponent) && ['me', 'computer'].includes(kept.first);
}

// {game, start, moves, opponent, computerSide, puzzle, trainer}: puzzle, when the game is the
// daily puzzle's, is {status, date, game, kind, position, best, answer: {moves}, played, line},
// each move value {move, category}; trainer, when it is the trainer's puzzle, the trainer's state
// (puzzle-trainer.js).
export function keepGame(game) {
  keep(GAME_KEY, game);
}

export function keptGame() {
  return storedEntry(GAME_KEY, validKeptGame);
}

// {game, start, moves, computerSide, shape: 'wide' or 'tall', markup: the board's SVG}
export function keepBoard(board) {
  keep(BOARD_KEY, board);
}

// {kind, houses, seeds, variant, opponent, first}
export function keepSetup(setup) {
  keep(SETUP_KEY, setup);
}

export function keptSetup() {
  return storedEntry(SETUP_KEY, validSetup);
}

// {streak (days in a row answered right), last (its last day), answered ({"date|game": right})}
export function puzzleRecord() {
  const kept = storedEntry(PUZZLE_KEY, validPuzzleRecord);
  return kept ? {streak: kept.streak, last: kept.last, answered: kept.answered}
              : {streak: 0, last: '', answered: {}};
}

export function keepPuzzleRecord(record) {
  keep(PUZZLE_KEY, record);
}

function validRating(r) {
  return isPlainObject(r) && [r.rating, r.deviation, r.volatility].every(Number.isFinite) &&
         r.rating > -5000 && r.rating < 10000 && r.deviation > 0 && r.deviation <= 500 &&
         r.volatility > 0 && r.volatility < 1;
}

function validTrainerRecord(kept) {
  return isPlainObject(kept) && isPlainObject(kept.ratings) && isPlainObject(kept.played) &&
         Object.entries(kept.ratings).every(([game, r]) => isShortText(game, 40) && validRating(r)) &&
         Object.entries(kept.played).every(([game, ids]) =>
           isShortText(game, 40) && Array.isArray(ids) && ids.length <= TRAINER_PLAYED_KEPT &&
           ids.every((id) => typeof id === 'string' && /^[0-9a-f]{8}$/.test(id))) &&
         Number.isSafeInteger(kept.solved) && kept.solved >= 0 &&
         Number.isSafeInteger(kept.tried) && kept.tried >= 0 &&
         (kept.pending === undefined || kept.pending === null ||
          (isPlainObject(kept.pending) && isShortText(kept.pending.game, 40) &&
           Number.isSafeInteger(kept.pending.rating)));
}

// {ratings: {GAME: {rating, deviation, volatility}}, played: {GAME: [ids, latest last]},
//  solved, tried, pending}: pending is the puzzle on the board not yet counted ({game, rating}),
// counted as missed if the page is left before it is.
export function trainerRecord() {
  const kept = storedEntry(TRAINER_KEY, validTrainerRecord);
  return kept ? {pending: null, ...kept}
              : {ratings: {}, played: {}, solved: 0, tried: 0, pending: null};
}

export function keepTrainerRecord(record) {
  const played = Object.fromEntries(Object.entries(record.played).map(
    ([game, ids]) => [game, ids.slice(-TRAINER_PLAYED_KEPT)]));
  keep(TRAINER_KEY, {...record, played});
}
