// The rules panel: how the board is laid out as it is drawn (wide or turned a quarter on a phone
// held upright, and a half turn when you play North against the computer), and the rules of the
// game being played (or, before one, of the game chosen in the form), in the page's language.
import {narrow} from './board-view.js';
import {againstComputer, humanSide, setupOfGame} from './game.js';
import {list, t} from './i18n.js';
import {state} from './store.js';

const $ = (id) => document.getElementById(id);

// Where each side's row and store are drawn, and the order of its letters (board.js draws it).
const LAYOUTS = {
  wide: {south: 'lower', north: 'upper', southStore: 'right', northStore: 'left',
         southOrder: 'leftToRight', northOrder: 'rightToLeft'},
  wideTurned: {south: 'upper', north: 'lower', southStore: 'left', northStore: 'right',
               southOrder: 'rightToLeft', northOrder: 'leftToRight'},
  tall: {south: 'left', north: 'right', southStore: 'bottom', northStore: 'top',
         southOrder: 'topToBottom', northOrder: 'bottomToTop'},
  tallTurned: {south: 'right', north: 'left', southStore: 'top', northStore: 'bottom',
               southOrder: 'bottomToTop', northOrder: 'topToBottom'},
};

function layoutTexts() {
  const turned = againstComputer() && humanSide() === 'North';
  const l = LAYOUTS[`${narrow.matches ? 'tall' : 'wide'}${turned ? 'Turned' : ''}`];
  const word = (group, name) => t(`rules.layout.${group}.${name}`);
  return [
    t('rules.layout.where', {south: word('row', l.south), north: word('row', l.north),
                             southStore: word('store', l.southStore),
                             northStore: word('store', l.northStore)}),
    t('rules.layout.letters', {southOrder: word('order', l.southOrder),
                               northOrder: word('order', l.northOrder)}),
  ];
}

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
  fill($('rules-board'), layoutTexts());
  fill($('rules-list'), list(`rules.${kind}`));
}
