// The rules panel: how the board is laid out, and the rules of the game being played (or, before
// one, of the game chosen in the form), in the page's language.
import {setupOfGame} from './game.js';
import {list, t} from './i18n.js';
import {state} from './store.js';

const $ = (id) => document.getElementById(id);

export function renderRules() {
  const {view, game, setup} = state();
  if (!view) return;
  const kind = game ? setupOfGame(game).kind : setup.kind;
  $('rules-title').textContent = t('rules.title', {game: t(`game.${kind}`)});
  const fill = (element, items) => {
    element.replaceChildren(...items.map((text) => {
      const item = document.createElement('li');
      item.textContent = text;
      return item;
    }));
  };
  fill($('rules-board'), list('rules.board'));
  fill($('rules-list'), list(`rules.${kind}`));
}
