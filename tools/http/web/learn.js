// Learn from your mistakes: back to each mistake and blunder of the review (review.js), the
// position before it on the board, to find a better move. A move as good as the best (the same
// value in the review's analysis of that position) is accepted; another is refused ("try
// again"); Show plays the better move. Against the computer these are your mistakes; between two
// people on the device, both sides'. The state's `learn`: {plies (the mistakes' plies), index,
// status: 'asking' | 'wrong' | 'right' | 'shown' | 'done', tried (a letter) and triedScore (its
// value for the mover), after (the position after the move tried or shown, GET
// /api/v1/position), found, shown (how many of each)}.
import {api} from './api.js';
import {againstComputer, humanSide, playerName} from './game.js';
import {t} from './i18n.js';
import {currentReview, MARKS, positionValue} from './review.js';
import {showError} from './status.js';
import {state, update} from './store.js';
import {signed} from './words.js';

const LEARNED = new Set(['mistake', 'blunder']);
let drawing = false;  // the position after a move is being asked for: no second answer meanwhile

// The mistakes one learns from, by ply.
export function mistakesToLearn(review) {
  if (!review || review.status !== 'done') return [];
  const mine = (side) => !againstComputer() || side === humanSide();
  return review.judged.filter((j) => LEARNED.has(j.mark) && mine(j.side)).map((j) => j.ply);
}

// The mistake being asked, while its position is on the board: {ply, judged}, or null.
export function learnAsked() {
  const {learn, replay} = state();
  if (!learn || learn.status === 'done') return null;
  const ply = learn.plies[learn.index];
  if (!replay || replay.ply !== ply - 1) return null;
  const review = currentReview();
  return review ? {ply, judged: review.judged[ply - 1]} : null;
}

// Whether a house may be tried now (the question stands, its position on the board).
export function learnTakesMove() {
  const asked = learnAsked();
  return !!asked && ['asking', 'wrong'].includes(state().learn.status) && !state().busy;
}

// Each returns the number of moves of the position to show (the replay's ply: the position
// before the mistake), or null; the panel shows it (history.js), which this module, read by the
// board, cannot import (history.js reaches the board through play.js).
export function startLearning() {
  const plies = mistakesToLearn(currentReview());
  if (!plies.length) return null;
  update({learn: {plies, index: 0, status: 'asking', tried: null, after: null, found: 0,
                  shown: 0}});
  return plies[0] - 1;
}

// Another mistake (step +1 or -1), or back to the one asked (step 0); past the last, the end.
export function goToMistake(step) {
  const learn = state().learn;
  if (!learn) return null;
  const index = learn.index + step;
  if (index < 0) return null;
  if (index >= learn.plies.length) {
    update({learn: {...learn, status: 'done'}});
    return null;
  }
  update({learn: {...learn, index, status: 'asking', tried: null, after: null}});
  return learn.plies[index] - 1;
}

// The position after `letter` played where the mistake was made, drawn on the board with
// `patch` (the answer) once the server gives it; dropped if learning moved on meanwhile.
async function drawAfter(letter, patch) {
  const learn = state().learn;
  const {game, start, moves} = state();
  const ply = learn.plies[learn.index];
  drawing = true;
  try {
    const after = await api.position(game, start, [...moves.slice(0, ply - 1), letter], 'last');
    if (state().learn === learn) update({learn: {...learn, ...patch, after}});
  } catch (error) {
    showError(error);
  } finally {
    drawing = false;
  }
}

// A move tried: as good as the best, or not.
export async function tryMove(letter) {
  if (!learnTakesMove() || drawing) return;
  const learn = state().learn;
  const value = positionValue(learn.plies[learn.index]);
  const tried = value && value.moves.find((m) => m.move === letter);
  if (!tried) return;
  if (tried.score < value.score) {
    return void update({learn: {...learn, status: 'wrong', tried: letter,
                                triedScore: tried.score}});
  }
  await drawAfter(letter, {status: 'right', tried: letter, found: learn.found + 1});
}

// Show: the better move played on the board.
export async function showBetter() {
  const learn = state().learn;
  const asked = learnAsked();
  if (!asked || !['asking', 'wrong'].includes(learn.status) || drawing) return;
  await drawAfter(asked.judged.better, {status: 'shown', shown: learn.shown + 1});
}

export function stopLearning() {
  update({learn: null});
}

// What learning says now: which mistake of how many, the question or its answer; at the end, how
// many were found and shown. Said in the panel and beside the status (a phone shows it with the
// board).
export function learnText() {
  const learn = state().learn;
  const review = currentReview();
  if (!learn || !review) return '';
  if (learn.status === 'done') {
    return t('learn.done', {found: learn.found, shown: learn.shown, count: learn.plies.length});
  }
  const ply = learn.plies[learn.index];
  const judged = review.judged[ply - 1];
  const player = playerName(judged.side);
  const best = signed(judged.best);
  const texts = {
    asking: () => t('learn.ask', {ply, move: judged.move, mark: MARKS[judged.mark], player}),
    wrong: () => t('learn.wrong', {move: learn.tried, player, value: signed(learn.triedScore),
                                   best}),
    right: () => t('learn.right', {move: learn.tried, player, best}),
    shown: () => t('learn.shown', {move: judged.better, player, best}),
  };
  const text = `${t('learn.counter', {index: learn.index + 1, count: learn.plies.length})} ` +
               texts[learn.status]();
  return learnAsked() ? text : `${text} ${t('learn.away')}`;
}
