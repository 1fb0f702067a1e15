// The board on the page: the SVG board (board.js) built for the game's size, the screen's shape
// and the side played, drawn from the state (or from the earlier position the move list shows),
// held still while a sowing is drawn (sowing.js); the board frame's attributes that the browser
// tests read, the captions beside each row and the score (of the position shown).
import {BoardView} from './board.js';
import {againstComputer, countsOf, editedCounts, humanSide, isHumanTurn, ownerName,
        playerName, sideOfLetter} from './game.js';
import {t} from './i18n.js';
import {learnAsked, learnTakesMove} from './learn.js';
import {keepBoard} from './storage.js';
import {state} from './store.js';

// A phone held upright gets the board turned a quarter (board.js).
export const narrow = window.matchMedia('(max-width: 640px)');
const $ = (id) => document.getElementById(id);

let board = null;
let sowingShown = false;  // a sowing is drawn: the state's board waits for its end
let settled = false;      // the board shows the game's own position, settled (keepBoardSoon)
let keepAsked = false;
let lastKept = '';

// onPlay(letter): a playable house was clicked, tapped or pressed with Enter.
export function createBoard(onPlay) {
  board = new BoardView($('board'), onPlay);
}

// Takes the board written into the page (index.html, first-board.html) away: the page's own is
// drawn, or none can be (the server could not be reached), and a board that cannot be played is
// not left on the page.
export function dropFirstBoard() {
  for (const drawn of document.querySelectorAll('.first-board-drawn')) drawn.remove();
  document.documentElement.classList.remove('first-board', 'kept-board');
}

// The board on the page as a drawing alone, as it is kept for the next visit (and as
// first-board.html is written): not played (aria-hidden, no role, no focus, none of the page's
// data attributes) and marked with its shape, which the page's style sheet shows by the screen's.
export function boardMarkup() {
  const drawn = $('board').cloneNode(true);
  drawn.removeAttribute('id');
  for (const node of [drawn, ...drawn.querySelectorAll('*')]) {
    for (const name of node.getAttributeNames()) {
      if (/^(aria-|data-|role$|tabindex$)/.test(name)) node.removeAttribute(name);
    }
  }
  drawn.setAttribute('aria-hidden', 'true');
  drawn.classList.add('first-board-drawn', board.tall ? 'tall' : 'wide');
  return drawn.outerHTML;
}

// Keeps the board on the device once the page is idle, if it still shows the game's own position
// settled: a visit that comes back to this game shows it from its first paint (index.html), half
// a second and more before this script has drawn its own. Not again when nothing changed.
function keepBoardSoon() {
  if (keepAsked) return;
  keepAsked = true;
  const later = window.requestIdleCallback || ((task) => setTimeout(task, 200));
  later(() => {
    keepAsked = false;
    if (!settled) return;
    const {game, start, moves, computerSide} = state();
    const kept = {game, start, moves, computerSide, shape: board.tall ? 'tall' : 'wide',
                  markup: boardMarkup()};
    const text = JSON.stringify(kept);
    if (text === lastKept) return;
    lastKept = text;
    keepBoard(kept);
  });
}

// The board for this game and screen, turned when you play North against the computer.
export function buildBoard(houses) {
  const turned = againstComputer() && humanSide() === 'North';
  if (board.houses !== houses || board.tall !== narrow.matches || board.turned !== turned) {
    board.build(houses, narrow.matches, turned);
  }
  // The board written into the page gives way to this one, drawn in the same task: no frame
  // shows neither.
  dropFirstBoard();
  // Each caption beside its side's row: North's above the board unless the board is turned.
  const frame = $('board-frame');
  const [above, below] = turned ? ['south', 'north'] : ['north', 'south'];
  frame.before($(`${above}-caption`));
  frame.after($(`${below}-caption`));
}

// Where a move began, where its last seed fell and what it captured, as the board marks them.
function marksOf(move) {
  return move ? {from: move.sowing[0].from, lastSlot: move.last_slot,
                 captured: move.captured_slots} : null;
}

function boardModel(overrides = {}) {
  const {view, lastMove, busy, hint} = state();
  return {
    counts: countsOf(view),
    sideToMove: view.side_to_move,
    over: view.game_over,
    legal: new Set(view.moves.map((m) => m.move)),
    playable: !busy && isHumanTurn(),
    lastMove: marksOf(lastMove),
    hint: hint ? hint.letter : null,
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

// One moment of a sowing: `counts` by slot, the move begun at slot `from`, a seed in `active`.
export function drawSowing(counts, from, active) {
  sowingShown = true;
  settled = false;
  board.render(boardModel({counts, playable: false, hint: null, active,
                           lastMove: {from, lastSlot: active, captured: []}}));
}

export function endSowing() {
  sowingShown = false;
}

export function renderBoard() {
  const {view, replay, editor} = state();
  if (!view) return;
  let model;
  if (editor) {
    // The position being set up, as it is typed: nothing to play, nothing marked.
    model = boardModel({counts: editedCounts(editor), sideToMove: editor.side, over: false,
                        legal: new Set(), playable: false, hint: null, lastMove: null});
  } else if (replay && learnAsked() && state().learn.after) {
    // Learning from a mistake: the move found, or the better one shown, played on the board.
    const after = state().learn.after;
    model = boardModel({counts: countsOf(after), sideToMove: after.side_to_move,
                        over: after.game_over, playable: false, hint: null,
                        lastMove: marksOf(after.played[0])});
  } else if (replay && learnAsked()) {
    // Learning from a mistake: the position before it, its moves to try.
    const past = replay.view;
    model = boardModel({counts: countsOf(past), sideToMove: past.side_to_move, over: false,
                        legal: new Set(past.moves.map((m) => m.move)),
                        playable: learnTakesMove(), hint: null,
                        lastMove: marksOf(past.played.length ? past.played[0] : null)});
  } else if (replay) {
    const past = replay.view;
    model = boardModel({
      counts: countsOf(past), sideToMove: past.side_to_move, over: past.game_over,
      playable: false, hint: null,
      lastMove: marksOf(past.played.length ? past.played[0] : null),
    });
  } else {
    model = boardModel();
  }
  settled = !editor && !replay && !sowingShown && !state().busy && !state().hint;
  if (!sowingShown) board.render(model);
  if (settled) keepBoardSoon();
}

export function renderFrame() {
  const {view, game, replay, busy, sown, editor} = state();
  if (!view) return;
  // The state in attributes, for the browser tests.
  const frame = $('board-frame');
  frame.dataset.game = game;
  frame.dataset.position = view.position;
  // Learning from a mistake, the move found or shown is on the board.
  const learned = replay && learnAsked() && state().learn.after;
  frame.dataset.shown = learned ? learned.position : replay ? replay.view.position : view.position;
  frame.dataset.turned = String(board.turned);
  frame.dataset.over = String(view.game_over);
  frame.dataset.busy = String(busy);
  frame.dataset.sown = sown.join('');
  frame.dataset.editing = String(!!editor);
  for (const side of ['North', 'South']) {
    $(`${side.toLowerCase()}-caption`).textContent =
      againstComputer() ? t('caption', {side: t(`side.${side}`), player: playerName(side)})
                        : t(`side.${side}`);
  }
  // The stores of the position shown: an earlier one's while the move list shows it.
  const shown = replay ? replay.view : view;
  $('score').textContent = t('status.score', {south: shown.board.south_store,
                                              north: shown.board.north_store});
}
