// The game-over summary's panel: the result, then each move that changed the exact value, a
// button that shows the position after it (as the move list's buttons do: moves are numbered by
// ply, every sowing one move). It stays while the replay shows an earlier position, so that one
// can go from one entry to the next. The summary itself is summary.js.
import {playerName} from './game.js';
import {giveFocusBack, holdFocus} from './focus.js';
import {showPly} from './history.js';
import {t} from './i18n.js';
import {resultText} from './status.js';
import {state} from './store.js';
import {signed} from './words.js';

export function renderSummary() {
  const {view, replay, summary: sum} = state();
  const section = document.getElementById('summary');
  section.hidden = !view || !view.game_over || !sum;
  if (section.hidden) return;
  const body = document.getElementById('summary-body');
  const focused = document.activeElement;
  if (focused && body.contains(focused)) {
    const ply = focused.dataset.ply;
    holdFocus(focused, () => body.querySelector(`button[data-ply="${ply}"]`));
  }
  const p = (text) => {
    const e = document.createElement('p');
    e.textContent = text;
    return e;
  };
  const parts = [p(resultText(view))];
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
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'summary-move';
        button.dataset.ply = String(c.ply);
        // Oware values are the tables' count (play going on past a majority), named as such.
        button.textContent = t(sum.counted ? 'summary.changeCount' : 'summary.change',
                               {move: c.move, player: playerName(c.side), before: signed(c.before),
                                after: signed(c.after), count: c.before - c.after});
        if (replay && replay.ply === c.ply) button.setAttribute('aria-current', 'step');
        button.addEventListener('click', () => showPly(c.ply));
        li.appendChild(button);
        items.appendChild(li);
      }
      parts.push(items);
    }
  }
  body.replaceChildren(...parts);
  giveFocusBack();
}
