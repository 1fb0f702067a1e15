// The game-over summary: the result and score, and the moves after which the exact value of the
// game changed (a move that gave away seeds against perfect play), where the tables or the solver
// knew the value before and after it.
import {analysisKey, answeredAnalysis} from './analyses.js';
import {api} from './api.js';
import {playerName, seedsOnBoard, sideOfLetter, tableCovering} from './game.js';
import {t} from './i18n.js';
import {statusText} from './status.js';
import {state, update} from './store.js';
import {errorMessage, signed} from './words.js';

// The exact value of the game, for South (the final store difference with perfect play), before
// each move: from the tables for every position they cover, and from the analyses this page
// already has where they were exact. The moves that changed it are the game's mistakes.
export async function summarise() {
  const {token, game, start, moves} = state();
  update({summary: {status: 'working'}});
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
      const cached = answeredAnalysis(analysisKey(game, start, moves.slice(0, ply)));
      if (cached && cached.exact) {
        southValue[ply] = forSouth(p, cached.score);
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
    if (token !== state().token) return;
    return void update({summary: {status: 'error'}, message: errorMessage(error)});
  }
  if (token !== state().token) return;
  update({summary: {status: 'done', changes, known, firstKnown}});
}

export function renderSummary() {
  const {view, replay, summary: sum} = state();
  const section = document.getElementById('summary');
  const over = view && view.game_over && !replay;
  section.hidden = !over || !sum;
  if (section.hidden) return;
  const body = document.getElementById('summary-body');
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
