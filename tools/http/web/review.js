// The game review: every position of the game valued, each move judged by what it lost against
// the best move of its position (review-panel.js, value-graph.js and the move list draw it;
// learn.js goes back to the mistakes). Each position is one analysis (GET /api/v1/analyse, the
// same answer the hint and the analysis panel show), asked one at a time within the server's
// limits on an analysis; the review can be cancelled, and stops when the game changes.
//
// Values are final store differences (what `score` means in the API): for a position, South's
// (positive: South ahead); for a move, the mover's. A value is "exact" (from the endgame tables,
// or proven by the solver) or a search's estimate (with its depth).
import {analysisKey, answeredAnalysis} from './analyses.js';
import {api} from './api.js';
import {puzzleAsked, sideOfLetter} from './game.js';
import {t} from './i18n.js';
import {state, update} from './store.js';
import {signed, sourceText} from './words.js';

// Each position's share of the server's analysis time: tables and solver answer at once where
// they know the position; elsewhere a search of this long.
export const REVIEW_SECONDS = 1;
const KEPT_POSITIONS = 3000;  // analyses kept across reviews (a position's value never changes)
const BUSY_RETRIES = 10;      // a 503 (the server's queue full) is asked again, this many times
const BUSY_WAIT_MS = 1500;

// Value lost by a move (points of the final store difference, the mover's), at least: a seed
// that changes sides moves the difference by 2, so these are 1, 3 and 6 seeds given away. A move
// that turns a win into a draw or a loss, or a draw into a loss, is a blunder whatever it lost.
export const THRESHOLDS = {inaccuracy: 2, mistake: 6, blunder: 12};
export const MARKS = {inaccuracy: '?!', mistake: '?', blunder: '??'};

const valued = new Map();  // analysisKey -> the position's value and its moves' (see valueOf)
let running = null;        // {key, controller} of the review under way

// What a review keeps of an analysis: the side to move, the value, where it comes from, and each
// move's value (to judge the move played, and a move tried when learning from mistakes).
function valueOf(data) {
  const best = data.moves[0];
  return {side: data.side_to_move, score: data.score, exact: !!data.exact,
          provenance: data.provenance, depth: best && best.depth ? best.depth : null,
          best: data.best && data.best.length ? data.best[0] : best.move,
          moves: data.moves.map((m) => ({move: m.move, score: m.score, exact: !!m.exact}))};
}

function keep(key, value) {
  valued.delete(key);
  valued.set(key, value);
  if (valued.size > KEPT_POSITIONS) valued.delete(valued.keys().next().value);
}

// The review's key: the whole game. A move, an undo or another game make another key.
export function reviewKey() {
  const {game, start, moves} = state();
  return analysisKey(game, start, moves);
}

// Whether the game may be reviewed: over, or between two people on this device (a record loaded,
// a link opened: nobody's opponent to help against), with a move to judge; not while the daily
// puzzle asks or a position is being set up.
export function reviewable() {
  const {view, moves, opponent, editor} = state();
  return !!view && moves.length > 0 && !editor && !puzzleAsked() &&
         (view.game_over || opponent === 'human');
}

// The review of the game on the board, or null (none asked, or of a game since changed).
export function currentReview() {
  const review = state().review;
  return review && review.key === reviewKey() ? review : null;
}

// A move's class by the value it lost (`loss` >= 0) and the result it gave away, or null.
export function classify(best, played) {
  const loss = best - played;
  if (loss <= 0) return null;
  if (Math.sign(played) < Math.sign(best) || loss >= THRESHOLDS.blunder) return 'blunder';
  if (loss >= THRESHOLDS.mistake) return 'mistake';
  if (loss >= THRESHOLDS.inaccuracy) return 'inaccuracy';
  return null;
}

// The review from the values of the positions: `points` (South's value of each position, ply 0
// to the end) and `judged` (each move, ply 1 to the end: the mover's value before, of the move
// played and of the best, its class, the better move).
function judge(values, moves) {
  const points = values.map((v, ply) => {
    if (!v) return null;
    if (v.over) return {ply, value: v.value, exact: true, provenance: 'end', depth: null};
    const value = v.side === 'South' ? v.score : 0 - v.score;  // 0, not -0
    return {ply, value, exact: v.exact, provenance: v.provenance, depth: v.depth};
  });
  const judged = moves.map((letter, k) => {
    const before = values[k];
    const played = before.moves.find((m) => m.move === letter);
    const exact = before.exact && played.exact;
    const mark = classify(before.score, played.score);
    return {ply: k + 1, move: letter, side: sideOfLetter(letter), best: before.score,
            played: played.score, exact, mark,
            better: mark ? before.best : null};
  });
  return {points, judged};
}

// Starts (or resumes) the review of the game: positions already valued are not asked again.
export async function startReview() {
  if (!reviewable()) return;
  const key = reviewKey();
  if (running && running.key === key) return;
  stopRunning();
  const controller = new AbortController();
  running = {key, controller};
  const {game, start, moves, view} = state();
  // Every position before a move, and the last one unless the game is over there (its value is
  // then the result itself).
  const total = moves.length + (view.game_over ? 0 : 1);
  const values = new Array(moves.length + 1).fill(null);
  if (view.game_over) {
    values[moves.length] = {over: true, value: view.result.south - view.result.north};
  }
  const progress = (status, done, extra = {}) => {
    if (running && running.key === key) update({review: {key, status, done, total, ...extra}});
  };
  let done = 0;
  progress('working', done);
  try {
    for (let ply = 0; ply < total; ++ply) {
      const prefix = moves.slice(0, ply);
      const positionKey = analysisKey(game, start, prefix);
      let value = valued.get(positionKey);
      if (!value) {
        // The hint's or the panel's answer for this position, when the page has it.
        const answered = answeredAnalysis(positionKey);
        value = answered ? valueOf(answered)
                         : valueOf(await askAnalysis(game, start, prefix, controller.signal));
        keep(positionKey, value);
      }
      values[ply] = value;
      progress('working', ++done);
    }
  } catch (error) {
    if (controller.signal.aborted) return;
    progress('error', done, {error});
    running = null;
    return;
  }
  if (controller.signal.aborted) return;
  progress('done', done, judge(values, moves));
  running = null;
}

async function askAnalysis(game, start, prefix, signal) {
  for (let retry = 0;; ++retry) {
    try {
      return await api.analyse(game, start, prefix, REVIEW_SECONDS, signal);
    } catch (error) {
      if (signal.aborted || error.status !== 503 || retry >= BUSY_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS));
      if (signal.aborted) throw error;
    }
  }
}

function stopRunning() {
  if (!running) return;
  running.controller.abort();
  running = null;
}

// Cancel: no further request; the positions valued so far are kept for a review resumed later.
export function cancelReview() {
  const review = currentReview();
  stopRunning();
  if (review && review.status === 'working') update({review: {...review, status: 'cancelled'}});
}

// Closes the review (its panel), cancelling it if it runs.
export function closeReview() {
  stopRunning();
  update({review: null, learn: null});
}

// The value of the position before move `ply` (1-based) and of each of its moves, as the review
// found them (learn.js judges a move tried with them), or undefined.
export function positionValue(ply) {
  const {game, start, moves} = state();
  return valued.get(analysisKey(game, start, moves.slice(0, ply - 1)));
}

// A view that draws nothing: when the game changes under a review (a move, Undo, another game),
// the review stops and closes. Deferred, since a view may not change the state while drawn.
export function followGame() {
  const {review, game, start, moves} = state();
  if (!review) return;
  if (review.key !== analysisKey(game, start, moves)) queueMicrotask(() => {
    if (state().review && state().review.key !== reviewKey()) closeReview();
  });
}

// The value of position `ply` in words, South's, and where it comes from: for the graph's points
// and the move list.
export function pointText(review, ply) {
  const point = review.points[ply];
  const {moves} = state();
  if (!point) return ply ? t('moves.move', {ply, move: moves[ply - 1]}) : t('review.start');
  const source = point.provenance === 'end' ? t('review.end')
                                            : sourceText(point.provenance, point.depth);
  const value = signed(point.value);
  return ply ? t('review.point', {ply, move: moves[ply - 1], value, source})
             : t('review.pointStart', {value, source});
}

// A judged move's mark in words: its class, what it lost (the mover's values), the better move;
// an estimate said as one.
export function markText(judged) {
  const text = t('review.markOf', {mark: MARKS[judged.mark], kind: t(`review.${judged.mark}`),
                                   before: signed(judged.best), after: signed(judged.played),
                                   better: judged.better});
  return judged.exact ? text : `${text} ${t('review.estimated')}`;
}
