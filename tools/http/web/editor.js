// The position editor: any position of the game being played set up by hand (the seeds of every
// house and store, the side to move), drawn on the board as it is typed, then played or analysed
// from. The server is the judge of a position (GET /api/v1/position parses it with the rule
// book's own rules, and says whether the game is over there); the page words in the player's
// language the reasons it sees itself: a field that is no count of seeds, and the seed total its
// counter shows (every position of a game holds the seeds of its start). Anything else the server
// refuses is said with the server's own words. The panel is drawn by renderEditor.
import {toggleAnalysis} from './analysis.js';
import {api} from './api.js';
import {countsOf, editedCounts, gameGoing, playerName} from './game.js';
import {t} from './i18n.js';
import {askFirst, showGame} from './play.js';
import {resultText} from './status.js';
import {state, update} from './store.js';
import {answererKey, appendServerWords} from './words.js';

const $ = (id) => document.getElementById(id);

let asked = 0;  // checks asked: only the latest one's answer is kept

// The seeds every position of the game holds: those of the game's own position.
function gameTotal() {
  return countsOf(state().view).reduce((a, b) => a + b, 0);
}

// What field `slot` is, in words: a house by its letter and side, or a store.
function placeName(slot, houses) {
  if (slot < 2 * houses) {
    const south = slot < houses;
    const letter = String.fromCharCode((south ? 65 : 97) + slot % houses);
    return t('editor.house', {letter, side: t(south ? 'side.South' : 'side.North')});
  }
  return t('editor.store', {side: t(slot === 2 * houses ? 'side.South' : 'side.North')});
}

// The position string of the editor's fields (houses in sowing order, South's store, North's,
// S or N: solver/rules/README.md, "Notation").
export function editedPosition(editor = state().editor) {
  return [...editor.fields.map((f) => f.trim()), editor.side === 'South' ? 'S' : 'N'].join('-');
}

// The verdict on the fields as they are: {status: 'ok' | 'bad', text, detail, slot}. The
// reasons the page sees itself first; then the server's.
async function judge(editor) {
  const houses = state().view.houses;
  const bad = editor.fields.findIndex((f) => !/^\d{1,4}$/.test(f.trim()));
  if (bad >= 0) {
    return {status: 'bad', slot: bad, text: t('editor.notCount', {place: placeName(bad, houses)})};
  }
  const placed = editedCounts(editor).reduce((a, b) => a + b, 0);
  const total = gameTotal();
  if (placed !== total) {
    const key = placed < total ? 'editor.tooFew' : 'editor.tooMany';
    return {status: 'bad', text: t(key, {count: Math.abs(total - placed), total})};
  }
  let view;
  try {
    view = await api.position(state().game, editedPosition(editor), [], 'none');
  } catch (error) {
    return {status: 'bad', text: t(error.status === 400 ? answererKey('editor.refused') : 'app.failed'),
            detail: error.message};
  }
  if (view.game_over) return {status: 'bad', text: t('editor.over', {result: resultText(view)})};
  return {status: 'ok', text: t('editor.ok', {player: playerName(editor.side)})};
}

// Judges the editor's fields and shows the verdict; returns it (null when the fields changed
// meanwhile, or the editor closed).
async function check() {
  const editor = state().editor;
  if (!editor) return null;
  const token = ++asked;
  update({editor: {...editor, check: {status: 'checking', text: t('editor.checking')}}});
  const verdict = await judge(editor);
  if (token !== asked || !state().editor) return null;
  update({editor: {...state().editor, check: verdict}});
  return verdict;
}

// Opens the editor on the position shown (the game's, or an earlier one the move list shows).
export function openEditor() {
  const {view, replay, busy, editor} = state();
  if (!view || busy) return;
  if (editor) return void $('editor-field-0')?.focus();
  const shown = replay ? replay.view : view;
  update({editor: {fields: countsOf(shown).map(String), side: shown.side_to_move, check: null},
          hint: null});
  check();
  const panel = $('editor');
  const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  panel.scrollIntoView({block: 'nearest', behavior: reduced ? 'auto' : 'smooth'});
  $('editor-field-0').focus();
}

export function closeEditor() {
  ++asked;
  update({editor: null});
  $('edit-position').focus();
}

export function setField(slot, text) {
  const editor = state().editor;
  if (!editor) return;
  const fields = editor.fields.slice();
  fields[slot] = text;
  update({editor: {...editor, fields}});
  check();
}

export function setSide(side) {
  const editor = state().editor;
  if (!editor || !['South', 'North'].includes(side)) return;
  update({editor: {...editor, side}});
  check();
}

// Every house and store empty: a start for a position of few seeds.
export function emptyBoard() {
  const editor = state().editor;
  if (!editor) return;
  update({editor: {...editor, fields: editor.fields.map(() => '0')}});
  check();
}

// Plays (or, with `analyse`, analyses) from the position set up, once the server has judged it
// legal; a game going is not thrown away without asking.
export async function useEditedPosition(analyse) {
  if (state().busy || !state().editor) return;
  const verdict = await check();
  if (!verdict || verdict.status !== 'ok') return void $('editor-verdict').focus();
  const position = editedPosition();
  const go = async () => {
    await showGame(state().game, position, [], {text: t('editor.started'), notice: true});
    if (analyse && !state().analysisOpen) toggleAnalysis();
  };
  if (gameGoing()) askFirst(go, 'editor');
  else await go();
}

// The editor's panel: a field for every house and store (built for the game's size), the side
// to move, the seeds placed against the game's, and the verdict.
export function renderEditor() {
  const {editor, view, busy} = state();
  const panel = $('editor');
  panel.hidden = !editor;
  $('edit-position').setAttribute('aria-expanded', String(!!editor));
  if (!editor || !view) return;
  const houses = view.houses;
  const south = $('editor-south');
  const north = $('editor-north');
  if (panel.dataset.houses !== String(houses) || panel.dataset.language !== t('editor.house')) {
    panel.dataset.houses = String(houses);
    // The language's words are drawn with the fields: rebuilt when it changes.
    panel.dataset.language = t('editor.house');
    const field = (slot) => {
      const label = document.createElement('label');
      label.className = slot >= 2 * houses ? 'editor-field editor-store' : 'editor-field';
      const name = document.createElement('span');
      name.textContent = slot < 2 * houses
        ? String.fromCharCode((slot < houses ? 65 : 97) + slot % houses) : t('editor.storeShort');
      name.setAttribute('aria-hidden', 'true');
      const input = document.createElement('input');
      input.type = 'number';
      input.inputMode = 'numeric';
      input.min = '0';
      input.step = '1';
      input.id = `editor-field-${slot}`;
      input.dataset.slot = String(slot);
      input.setAttribute('aria-label', placeName(slot, houses).replace(/[\u2068\u2069]/g, ''));
      input.addEventListener('input', () => setField(slot, input.value));
      label.append(name, input);
      return label;
    };
    const range = (from, to) => Array.from({length: to - from}, (_, k) => from + k);
    south.replaceChildren(...range(0, houses).map(field), field(2 * houses));
    north.replaceChildren(...range(houses, 2 * houses).map(field), field(2 * houses + 1));
  }
  const total = gameTotal();
  editor.fields.forEach((text, slot) => {
    const input = $(`editor-field-${slot}`);
    // The field being typed in keeps its own text (the browser's, as typed).
    if (input.value !== text && document.activeElement !== input) input.value = text;
    input.max = String(total);
    const wrong = editor.check && editor.check.status === 'bad' && editor.check.slot === slot;
    input.setAttribute('aria-invalid', String(!!wrong));
  });
  const side = $('editor-side');
  if (side.value !== editor.side) side.value = editor.side;
  const placed = editedCounts(editor).reduce((a, b) => a + b, 0);
  $('editor-total').textContent = t('editor.total', {placed, total});
  const verdict = $('editor-verdict');
  const said = editor.check;
  verdict.textContent = said ? said.text : '';
  verdict.dataset.status = said ? said.status : '';
  if (said && said.detail) appendServerWords(verdict, said.detail);
  for (const id of ['editor-play', 'editor-analyse', 'editor-empty']) $(id).disabled = busy;
}
