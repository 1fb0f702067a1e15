// The settings: the New game form (the game, its size and rules, the opponent, who moves first),
// filled with the ranges the server plays and remembered on the device; and the language switch.
// The form holds its own fields; the state's copy (state().setup) follows it.
import {catalogue, kindInfo} from './catalogue.js';
import {LANGUAGES, currentLanguage, setLanguage, t, translatePage} from './i18n.js';
import {keptSetup} from './storage.js';
import {redraw, state, update} from './store.js';

const $ = (id) => document.getElementById(id);

function option(value, text, selected) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  o.selected = String(value) === String(selected);
  return o;
}

export function readSetup() {
  return {
    kind: $('setup-kind').value,
    houses: Number($('setup-houses').value),
    seeds: Number($('setup-seeds').value),
    variant: $('setup-variant').value,
    opponent: $('setup-opponent').value,
    first: $('setup-first').value,
  };
}

// Fills the form from state().setup, with the ranges the server plays.
export function fillSetup() {
  const s = state().setup;
  const {games, levels} = catalogue();
  const info = kindInfo(s.kind) || kindInfo('kalah');
  const range = (min, max) => Array.from({length: max - min + 1}, (_, i) => min + i);
  $('setup-kind').replaceChildren(...games.map((g) =>
    option(g.kind, t(`game.${g.kind}`), s.kind)));
  const houses = Math.min(Math.max(s.houses, info.houses.min), info.houses.max);
  $('setup-houses').replaceChildren(...range(info.houses.min, info.houses.max).map((n) =>
    option(n, String(n), houses)));
  $('setup-houses').disabled = info.houses.min === info.houses.max;
  const seeds = Math.min(Math.max(s.seeds, info.seeds.min), info.seeds.max);
  $('setup-seeds').replaceChildren(...range(info.seeds.min, info.seeds.max).map((n) =>
    option(n, String(n), seeds)));
  const variant = info.variants.some((v) => v.name === s.variant) ? s.variant
                                                                   : info.variants[0].name;
  $('setup-variant').replaceChildren(...info.variants.map((v) =>
    option(v.name, t(`variant.${info.kind}.${v.name}`), variant)));
  $('setup-opponent').replaceChildren(
    option('human', t('opponent.human'), s.opponent),
    ...levels.map((l) => option(String(l.level), t(`opponent.level${l.level}`), s.opponent)));
  $('setup-first').replaceChildren(option('me', t('first.me'), s.first),
                                   option('computer', t('first.computer'), s.first));
  $('setup-first').disabled = s.opponent === 'human';
  // The opponent's whole name under its list, which a phone may cut.
  $('opponent-note').textContent = $('setup-opponent').selectedOptions[0]?.textContent || '';
}

// A field of the form changed: another game takes its own default size and rules.
export function onSetupChange() {
  const s = readSetup();
  if (s.kind !== state().setup.kind) {
    const info = kindInfo(s.kind);
    s.houses = info.houses.default;
    s.seeds = info.seeds.default;
    s.variant = info.variants[0].name;
  }
  update({setup: s});
  fillSetup();
}

// The form as last used on this device (checked), else as it is.
export function storedSetup() {
  const stored = keptSetup();
  if (!stored) return state().setup;
  const {kind, houses, seeds, variant, opponent, first} = stored;
  return {...state().setup, kind, houses, seeds, variant, opponent, first};
}

export function fillLanguages() {
  $('language').replaceChildren(...LANGUAGES.map((l) => {
    const o = option(l.code, l.name, currentLanguage());
    o.lang = l.code;
    return o;
  }));
}

export async function switchLanguage(code) {
  await setLanguage(code, true);
  translatePage();
  fillLanguages();
  if (catalogue()) fillSetup();
  redraw();
}
