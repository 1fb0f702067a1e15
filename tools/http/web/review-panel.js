// The game review's panel: Review (the switch below the board), the progress ("12 / 54") with
// Cancel or Resume, then the value graph, how many moves of each kind each side made, the marked
// moves with the better move (each a button that shows the position after it), and learning from
// the mistakes: the question, Show, the previous and next mistake, the summary at the end. The
// review itself is review.js; learning, learn.js.
import {playerName} from './game.js';
import {bringIntoView, giveFocusBack, holdFocus} from './focus.js';
import {showPly} from './history.js';
import {t} from './i18n.js';
import {goToMistake, learnAsked, learnText, mistakesToLearn, showBetter, startLearning,
        stopLearning} from './learn.js';
import {cancelReview, closeReview, currentReview, MARKS, markText, pointText, reviewable,
        startReview, THRESHOLDS} from './review.js';
import {state} from './store.js';
import {createValueGraph, drawValueGraph} from './value-graph.js';
import {errorMessage} from './words.js';

const $ = (id) => document.getElementById(id);
let hovered = null;  // the graph's point under the pointer, said in the caption

export function wireReview() {
  $('review-toggle').addEventListener('click', toggleReview);
  $('review-cancel').addEventListener('click', cancelReview);
  $('review-resume').addEventListener('click', () => startReview());
  createValueGraph($('value-graph'), {
    onSelect: (ply) => showPly(ply),
    onHover: (ply) => {
      hovered = ply;
      drawCaption();
    },
  });
  $('learn-start').addEventListener('click', () => show(startLearning()));
  $('learn-show').addEventListener('click', showBetter);
  $('learn-back').addEventListener('click', () => show(goToMistake(0)));
  $('learn-prev').addEventListener('click', () => show(goToMistake(-1)));
  $('learn-next').addEventListener('click', () => show(goToMistake(1)));
  $('learn-stop').addEventListener('click', () => {
    stopLearning();
    showPly(state().moves.length);
  });
}

function show(ply) {
  if (ply !== null && ply !== undefined) showPly(ply);
}

// Opened: the review starts (at once where every position is known already), and the panel is
// brought into view when it lies below the screen (a phone). Closed: the review stops.
function toggleReview() {
  if (state().review) return closeReview();
  startReview();
  bringIntoView($('review'));
}

function shownPly() {
  const {replay, moves} = state();
  return replay ? replay.ply : moves.length;
}

function drawCaption() {
  const review = currentReview();
  if (!review || review.status !== 'done') return;
  const ply = hovered ?? shownPly();
  $('graph-caption').textContent = pointText(review, ply);
}

export function renderReview() {
  const {view, busy} = state();
  if (!view) return;
  const review = currentReview();
  const toggle = $('review-toggle');
  holdFocus(toggle, () => toggle);
  toggle.setAttribute('aria-expanded', String(!!review));
  toggle.disabled = !review && (busy || !reviewable());
  const section = $('review');
  section.hidden = !review;
  if (!review) return void giveFocusBack();
  section.dataset.status = review.status;
  section.dataset.done = String(review.done);
  section.dataset.total = String(review.total);
  const working = review.status === 'working';
  $('review-progress').hidden = review.status === 'done';
  $('review-bar').max = review.total;
  $('review-bar').value = review.done;
  if (review.status !== 'done') {
    $('review-status').textContent =
      review.status === 'error' ? errorMessage(review.error).text
      : t(working ? 'review.progress' : 'review.stopped', {done: review.done, total: review.total});
  }
  // Cancel and Resume take each other's place: the focus goes to the one shown.
  const shownButton = () => ($('review-cancel').hidden ? $('review-resume') : $('review-cancel'));
  for (const id of ['review-cancel', 'review-resume']) holdFocus($(id), shownButton);
  $('review-cancel').hidden = !working;
  $('review-resume').hidden = working;
  $('review-done').hidden = review.status !== 'done';
  if (review.status === 'done') drawDone(review);
  giveFocusBack();
}

function drawDone(review) {
  const marks = {};
  for (const j of review.judged) if (j.mark) marks[j.ply] = j.mark;
  drawValueGraph($('value-graph'), {points: review.points, marks, shown: shownPly(),
                                     describe: (ply) => pointText(review, ply)});
  $('value-graph').setAttribute('aria-label', t('review.graph'));
  drawCaption();
  const exact = review.points.filter((p) => p && p.exact).length;
  $('review-valued').textContent = t('review.valued', {exact,
                                                      estimates: review.points.length - exact});
  $('review-legend').textContent = t('review.legend', {inaccuracy: THRESHOLDS.inaccuracy,
                                                      mistake: THRESHOLDS.mistake,
                                                      blunder: THRESHOLDS.blunder});
  $('review-counts').replaceChildren(...['South', 'North'].map((side) => {
    const li = document.createElement('li');
    const count = (mark) => review.judged.filter((j) => j.side === side && j.mark === mark).length;
    li.textContent = t('review.counts', {player: playerName(side),
                                         inaccuracies: count('inaccuracy'),
                                         mistakes: count('mistake'), blunders: count('blunder')});
    return li;
  }));
  drawMarks(review);
  drawLearning(review);
}

// The marked moves, each a button that shows the position after it.
function drawMarks(review) {
  const list = $('review-marks');
  const focused = document.activeElement;
  if (focused && list.contains(focused)) {
    const ply = focused.dataset.ply;
    holdFocus(focused, () => list.querySelector(`button[data-ply="${ply}"]`));
  }
  const shown = shownPly();
  list.replaceChildren(...review.judged.filter((j) => j.mark).map((j) => {
    const li = document.createElement('li');
    li.value = j.ply;
    li.dataset.ply = String(j.ply);
    li.dataset.mark = j.mark;
    li.dataset.better = j.better;
    li.dataset.exact = String(j.exact);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = `review-move ${j.mark}`;
    button.dataset.ply = String(j.ply);
    button.textContent = t('review.entry', {move: `${j.move}${MARKS[j.mark]}`,
                                            player: playerName(j.side), text: markText(j)});
    if (shown === j.ply) button.setAttribute('aria-current', 'step');
    button.addEventListener('click', () => showPly(j.ply));
    li.appendChild(button);
    return li;
  }));
}

// Learning from the mistakes: the button that starts it, then the question and its answers.
function drawLearning(review) {
  const {learn, busy} = state();
  const mistakes = mistakesToLearn(review);
  const start = $('learn-start');
  // A button of learning hidden by its own press (Learn, Show, Next at the end, Stop): the focus
  // goes to the first of learning's buttons shown, or to Learn.
  const LEARNING = ['learn-start', 'learn-show', 'learn-back', 'learn-next', 'learn-prev',
                    'learn-stop'];
  const shownOf = (id) => () => [id, ...LEARNING].map($).find((b) => !b.hidden &&
                                                                    !b.closest('[hidden]'));
  for (const id of LEARNING) holdFocus($(id), shownOf(id));
  start.disabled = busy || !mistakes.length;
  start.hidden = !!learn;
  $('learn-none').hidden = !!mistakes.length;
  const box = $('learn');
  box.hidden = !learn;
  if (!learn) return;
  box.dataset.status = learn.status;
  const asked = learnAsked();
  $('learn-text').textContent = learnText();
  const answering = !!asked && ['asking', 'wrong'].includes(learn.status);
  $('learn-show').hidden = !answering;
  $('learn-show').disabled = busy;
  $('learn-back').hidden = !!asked || learn.status === 'done';
  $('learn-prev').hidden = learn.status === 'done';
  $('learn-prev').disabled = busy || learn.index === 0;
  $('learn-next').hidden = learn.status === 'done';
  $('learn-next').disabled = busy;
  $('learn-next').textContent = t(learn.index + 1 < learn.plies.length ? 'learn.next'
                                                                         : 'learn.finish');
  $('learn-stop').textContent = t(learn.status === 'done' ? 'learn.close' : 'learn.stop');
}
