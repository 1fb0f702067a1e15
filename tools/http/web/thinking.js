// The computer's thinking, shown while "Show the computer's thinking" is on: after each computer
// move its depth, score (proven or an estimate), best line, positions searched and time; after an
// Undo, that of the computer's last move still in the game. The switch is the checkbox itself:
// its change draws this view again.
import {againstComputer} from './game.js';
import {currentLanguage, t} from './i18n.js';
import {state} from './store.js';
import {signed} from './words.js';

const $ = (id) => document.getElementById(id);

export function renderThinking() {
  const {view, thinkings, moves} = state();
  if (!view) return;
  const show = $('show-thinking').checked && againstComputer();
  $('thinking').hidden = !show;
  if (!show) return;
  // The computer's last thinking still in the game (after an Undo, the one before).
  const k = thinkings.slice(0, moves.length + 1).reverse().find(Boolean) || null;
  let text = t('thinking.none');
  if (k) {
    if (k.level === 1) text = t('thinking.random');
    else if (k.level === 2) text = t('thinking.greedy');
    // An Oware score from the tables is their count unless the move ended the game: named so.
    else if (k.from_tables) {
      text = t(k.margin === 'tables' ? 'thinking.tablesCount' : 'thinking.tables',
               {score: signed(k.score)});
    } else {
      text = t('thinking.search', {
        depth: k.depth, score: signed(k.score),
        exactness: t(k.exact ? 'thinking.exact' : 'thinking.estimate'),
        line: k.pv.join(' '),
        nodes: new Intl.NumberFormat(currentLanguage()).format(k.nodes),
        seconds: new Intl.NumberFormat(currentLanguage(), {minimumFractionDigits: 2,
                                                            maximumFractionDigits: 2})
                     .format(k.seconds),
      });
    }
  }
  $('thinking-text').textContent = text;
}
