// The game's history: the move list (one line a turn, each move a button, numbered by ply, that
// shows the position after it) and the replay through it (« ‹ › », the arrow keys, Home and End); the last ply is
// the game itself, playable again.
import {refreshAnalysis} from './analysis.js';
import {api} from './api.js';
import {playerName, turnsOf} from './game.js';
import {t} from './i18n.js';
import {giveFocusBack, holdFocus} from './focus.js';
import {whileBusy} from './play.js';
import {currentReview, MARKS, markText, pointText} from './review.js';
import {state, update} from './store.js';
import {signed} from './words.js';

const $ = (id) => document.getElementById(id);
const REPLAY_BUTTONS = ['replay-first', 'replay-back', 'replay-forward', 'replay-last'];

// What the list on the page was drawn from: a render that changes none of it (a move being asked
// for, drawn, or analysed redraws this view several times a ply) leaves the list alone, and a
// game that only grew gets its new moves appended, so that a long game does not rebuild its whole
// list at every ply (on a slow phone that grew with the game).
let drawn = null;  // {moves, shown, reviewed, words}

export function renderMoveList() {
  const {view, moves, replay, busy} = state();
  if (!view) return;
  const list = $('move-list');
  const shown = replay ? replay.ply : moves.length;
  // A move of the list in focus is drawn again: the focus goes to the new button of that move.
  const focused = document.activeElement;
  if (focused && focused.parentElement && list.contains(focused)) {
    const ply = focused.dataset.ply;
    holdFocus(focused, () => list.querySelector(`button[data-ply="${ply}"]`));
  }
  for (const id of REPLAY_BUTTONS) holdFocus($(id), () => $(id));
  const review = currentReview();
  const reviewed = review && review.status === 'done' ? review : null;
  // The words of the list: its language and the players' names (against whom, on which side).
  const words = `${document.documentElement.lang}|${playerName('South')}|${playerName('North')}`;
  const same = drawn && drawn.reviewed === reviewed && drawn.words === words;
  if (same && drawn.moves === moves && drawn.shown === shown) {
    // Nothing the list shows has changed.
  } else if (same && !reviewed && !replay && drawn.shown === drawn.moves.length &&
             moves.length > drawn.moves.length &&
             drawn.moves.every((letter, ply) => moves[ply] === letter)) {
    list.querySelector('[aria-current]')?.removeAttribute('aria-current');
    appendTurns(list, turnsOf(moves), drawn.moves.length, shown, null);
    list.scrollTop = list.scrollHeight;
  } else {
    list.replaceChildren();
    appendTurns(list, turnsOf(moves), 0, shown, reviewed);
    const current = list.querySelector('[aria-current]');
    if (current && !replay) list.scrollTop = list.scrollHeight;
    else if (current) current.scrollIntoView({block: 'nearest'});
  }
  drawn = {moves, shown, reviewed, words};
  // Right to left (Hebrew) the buttons run from the right, and point the way the moves go there:
  // the first position is to the right. The browser does not mirror « and » in a button.
  const arrows = document.documentElement.dir === 'rtl' ? '»›‹«' : '«‹›»';
  REPLAY_BUTTONS.forEach((id, k) => { $(id).textContent = arrows[k]; });
  $('replay-first').disabled = busy || shown === 0;
  $('replay-back').disabled = busy || shown === 0;
  $('replay-forward').disabled = busy || !replay;
  $('replay-last').disabled = busy || !replay;
  giveFocusBack();
}

// The moves of `turns` from ply `from` on, one line a turn, as buttons: a turn the list's last
// line began (an extra turn's chain) goes on on that line.
function appendTurns(list, turns, from, shown, reviewed) {
  for (const turn of turns) {
    const plies = turn.moves.filter((m) => m.ply >= from);
    if (!plies.length) continue;
    let item = list.lastElementChild;
    if (plies.length === turn.moves.length || !item) {
      item = document.createElement('li');
      item.dataset.side = turn.side;
      const who = document.createElement('span');
      who.className = 'turn-side';
      who.textContent = playerName(turn.side);
      item.appendChild(who);
      list.appendChild(item);
    }
    for (const m of plies) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.textContent = m.letter;
      // Numbered by ply (every sowing one move, from 1), as the "Viewing" line and the summary
      // number them; the number is drawn before the letter (style.css), and said.
      button.dataset.ply = String(m.ply + 1);
      button.setAttribute('aria-label', t('moves.move', {ply: m.ply + 1, move: m.letter},
                                          {isolate: false}));
      if (m.ply + 1 === shown) button.setAttribute('aria-current', 'step');
      if (reviewed) markMove(button, reviewed, m.ply + 1);
      button.addEventListener('click', () => showPly(m.ply + 1));
      item.appendChild(button);
    }
  }
}

// A reviewed move (review.js): its mark (?!, ?, ??) after its letter, the value of the position
// after it (South's; "~" before a search's estimate), the better move of a marked one ("better:
// D"), and, said and on hover, where the value comes from and what the mark means.
function markMove(button, review, ply) {
  const judged = review.judged[ply - 1];
  const point = review.points[ply];
  const said = [pointText(review, ply)];
  if (judged.mark) {
    const mark = document.createElement('span');
    mark.className = `move-mark ${judged.mark}`;
    mark.textContent = MARKS[judged.mark];
    button.appendChild(mark);
    button.dataset.mark = judged.mark;
    button.dataset.better = judged.better;
    said.push(markText(judged));
  }
  if (point) {
    const value = document.createElement('span');
    value.className = `move-value ${point.exact ? 'exact' : 'estimate'}`;
    value.textContent = `${point.exact ? '' : '~'}${signed(point.value)}`;
    button.appendChild(value);
    button.dataset.value = String(point.value);
    button.dataset.exact = String(point.exact);
  }
  if (judged.better) {
    const better = document.createElement('span');
    better.className = 'move-better';
    better.textContent = t('review.better', {move: judged.better});
    button.appendChild(better);
  }
  button.title = said.join(' — ');
  button.setAttribute('aria-label', `${button.getAttribute('aria-label')}. ${said.join('. ')}`);
}

// Shows the position after the first `ply` moves.
export async function showPly(ply) {
  const {busy, view, moves} = state();
  if (busy || !view) return;
  ply = Math.max(0, Math.min(ply, moves.length));
  if (ply === moves.length) {
    if (!state().replay) return;
    update({replay: null});
    return void refreshAnalysis();
  }
  await whileBusy(async (stale) => {
    const {game, start, moves: played} = state();
    const past = await api.position(game, start, played.slice(0, ply), 'last');
    if (stale()) return;
    update({replay: {ply, view: past}});
    refreshAnalysis();
  });
}

export function stepReplay(step) {
  const {replay, moves} = state();
  return showPly((replay ? replay.ply : moves.length) + step);
}
