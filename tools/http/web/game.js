// The game being played, read from the state: GAME strings, whose side is whose, who moves,
// the players' names, the turns of the move list, what Undo keeps, whether a game is going, the
// endgame table that covers a position; and the game kept on the device after each move.
import {catalogue, kindInfo} from './catalogue.js';
import {t} from './i18n.js';
import {keepGame as keepOnDevice} from './storage.js';
import {state} from './store.js';

export function gameString(setup) {
  if (setup.kind === 'oware') return `oware:${setup.seeds}:${setup.variant}`;
  const option = setup.variant === 'standard' ? '' : `:${setup.variant}`;
  return `${setup.kind}:${setup.houses}:${setup.seeds}${option}`;
}

// The setup fields of a canonical GAME string (kalah:6:4[:empty-capture], oware:4:abapa,
// congkak:7:7[:no-capture-first-lap]).
export function setupOfGame(name) {
  const parts = name.split(':');
  if (parts[0] === 'oware') {
    return {kind: 'oware', houses: 6, seeds: Number(parts[1]), variant: parts[2] || 'abapa'};
  }
  return {kind: parts[0], houses: Number(parts[1]), seeds: Number(parts[2]),
          variant: parts[3] || 'standard'};
}

export function sideOfLetter(letter) {
  return letter === letter.toUpperCase() ? 'South' : 'North';
}

export function againstComputer() {
  return state().opponent !== 'human';
}

export function humanSide() {
  return state().computerSide === 'South' ? 'North' : 'South';
}

export function isComputerTurn() {
  const {view, computerSide} = state();
  return againstComputer() && view && !view.game_over && view.side_to_move === computerSide;
}

export function isHumanTurn() {
  const view = state().view;
  return view && !view.game_over && !isComputerTurn();
}

export function playerName(side) {
  if (!againstComputer()) return t(`side.${side}`);
  const {opponent, computerSide} = state();
  if (side !== computerSide) return t('player.you');
  return Number(opponent) === 6 ? t('player.pro') : t('player.computer', {level: opponent});
}

// A house's owner, as a screen reader says it before the house.
export function ownerName(side) {
  if (!againstComputer()) return t(`side.${side}`);
  return side === humanSide() ? t('owner.you') : t('owner.computer');
}

// How a record names the players: as `mancala play` does.
export function recordName(side) {
  const {opponent, computerSide} = state();
  if (!againstComputer() || side !== computerSide) return 'Human';
  const level = catalogue().levels.find((l) => l.level === Number(opponent));
  return `mancala level ${opponent} (${level ? level.name : ''})`;
}

// The number of moves that Undo keeps: against the computer, those before your last move (the
// computer's answers go with it); between two players on this device, all but the last. null:
// nothing to take back.
export function undoTarget() {
  const moves = state().moves;
  if (!againstComputer()) return moves.length ? moves.length - 1 : null;
  let i = moves.length - 1;
  while (i >= 0 && sideOfLetter(moves[i]) !== humanSide()) --i;
  return i >= 0 ? i : null;
}

// A game is going when it is not over and you have played in it: New game asks first.
export function gameGoing() {
  const {view, moves} = state();
  if (!view || view.game_over) return false;
  return againstComputer() ? moves.some((m) => sideOfLetter(m) === humanSide())
                           : moves.length > 0;
}

// The moves grouped by turn: a turn is one side's moves in a row (an extra-turn chain is one turn).
export function turnsOf(moves) {
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
export function tableCovering(game, seeds) {
  if (!catalogue() || !game) return null;
  const s = setupOfGame(game);
  const info = kindInfo(s.kind);
  if (!info) return null;
  const name = s.kind === 'oware' ? `oware:${s.variant}`
             : `${s.kind}:${s.houses}${s.variant === 'standard' ? '' : `:${s.variant}`}`;
  const table = info.tables.find((entry) => entry.table === name);
  return table && seeds <= table.max_seeds ? table : null;
}

export function seedsOnBoard(positionString, houses) {
  return positionString.split('-').slice(0, 2 * houses).reduce((n, f) => n + Number(f), 0);
}

// The counts of a position (GET /api/v1/position) by slot: South's houses, North's, the stores.
export function countsOf(view) {
  const b = view.board;
  return [...b.south, ...b.north, b.south_store, b.north_store];
}

// The counts of the position being set up (editor.js), by slot as countsOf gives them: a field
// that is no count of seeds counts as none.
export function editedCounts(editor) {
  return editor.fields.map((f) => (/^\d{1,4}$/.test(f.trim()) ? Number(f) : 0));
}

// Kept after every change of the moves (not on every drawing).
export function keepGame() {
  const {game, start, moves, opponent, computerSide, puzzle: p, trainer: tr} = state();
  const puzzle = p && ['asked', 'answered'].includes(p.status) && p.position === start
    ? {status: p.status, date: p.date, game: p.game, kind: p.kind, position: p.position,
       best: p.best, answer: p.answer, played: p.played, line: p.line, practice: p.practice}
    : null;
  const trainer = tr && tr.position === start
    ? {status: tr.status, game: tr.game, kind: tr.kind, id: tr.id, position: tr.position,
       line: tr.line, goal: tr.goal, themes: tr.themes, rating: tr.rating, missed: tr.missed,
       counted: tr.counted, change: tr.change, wrong: tr.wrong}
    : null;
  keepOnDevice({game, start, moves, opponent, computerSide, puzzle, trainer});
}

// Whether the daily puzzle's question, or a trainer's puzzle, stands: nothing may show its answer
// (the hint, the analysis).
export function puzzleAsked() {
  const p = state().puzzle;
  return (!!p && p.status === 'asked') || trainerAsked();
}

// Whether the trainer's puzzle on the board still asks (puzzle-trainer.js): not yet solved, nor
// its solution shown.
export function trainerAsked() {
  const {trainer, start} = state();
  return !!trainer && trainer.status === 'asked' && trainer.position === start;
}
