// Links: the page's address can hold a game, a position or a daily puzzle, so that a board can be
// sent to someone (Copy link), and opening the address shows it. The part after '#' (never sent
// to the server) is one of
//   #game=kalah:6:4&start=POSITION&moves=CFb   a game: its GAME string, its start (left out for
//                                              the game's own) and its moves (left out for none)
//   #game=kalah:6:4&position=POSITION          a position, to play from
//   #puzzle=2026-12-06&game=kalah:6:4          the daily puzzle of that day (made again from the
//                                              date, as every player's is)
//   #trainer=cd8b89cd&game=kalah:6:4           a puzzle of the trainer's library, by its id
//                                              (counted for the rating unless met before)
// Everything read from an address is checked as strictly as what the device keeps (storage.js):
// only these names, each once, each value of its own shape and size; then the server replays
// the game (it refuses a position or a move the rules do not allow). A link that fails is said in
// words, and the board stays as it was. A game going is not thrown away without asking. The link
// opened is taken off the address, so that a reload finds the game kept on the device (by then
// the link's, if it was opened).
import {api} from './api.js';
import {kindInfo} from './catalogue.js';
import {editedPosition} from './editor.js';
import {gameGoing, setupOfGame} from './game.js';
import {t} from './i18n.js';
import {askFirst, showGame} from './play.js';
import {puzzleGames} from './puzzle.js';
import {PUZZLE_ID_SHAPE, libraryOf, trainerGames} from './puzzle-library.js';
import {startPuzzle} from './puzzle-panel.js';
import {fillSetup} from './setup.js';
import {state, update} from './store.js';
import {openTrainerPuzzle} from './trainer-panel.js';
import {answererKey, errorMessage, today} from './words.js';

const $ = (id) => document.getElementById(id);

// The longest address part read: 3000 moves (the server's limit) and a position, with room.
const LONGEST_LINK = 3400;
// The names a link may give, each with the reason said when its value is not of its shape.
const NAMES = {game: 'game', start: 'position', position: 'position', moves: 'moves',
               puzzle: 'date', trainer: 'trainer'};
const GAME_SHAPE = /^[a-z]{1,20}(:[a-z0-9-]{1,30}){0,3}$/;
const POSITION_SHAPE = /^\d{1,4}(-\d{1,4}){2,26}-[SN]$/;
const MOVES_SHAPE = /^[A-Za-z]{0,3000}$/;
const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

// The link to what the board shows: a position being set up once the server has found it legal,
// the daily puzzle or the trainer's puzzle while it is the game, else the game (or, without moves
// from a start of its own, the position).
export function linkOf({game, start, moves, puzzle, trainer, editor}) {
  const address = `${location.origin}${location.pathname}#`;
  if (editor && editor.check && editor.check.status === 'ok') {
    return `${address}game=${game}&position=${editedPosition(editor)}`;
  }
  if (puzzle && ['asked', 'answered'].includes(puzzle.status) && puzzle.position === start) {
    return `${address}puzzle=${puzzle.date}&game=${puzzle.game}`;
  }
  if (trainer && trainer.position === start) return `${address}trainer=${trainer.id}&game=${game}`;
  if (start && !moves.length) return `${address}game=${game}&position=${start}`;
  return `${address}game=${game}${start ? `&start=${start}` : ''}` +
         `${moves.length ? `&moves=${moves.join('')}` : ''}`;
}

// A name or value of a bad link, fit to be said: no control characters, at most 24 characters.
function shown(text) {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f\u2066-\u2069\u202a-\u202e]/g, '');
  return clean.length > 24 ? `${clean.slice(0, 24)}…` : clean;
}

function badLink(reason, params = {}) {
  return {bad: {reason, params}};
}

// Whether `date` (YYYY-MM-DD) is a day of the calendar, today or before.
function pastDay(date) {
  const match = DATE_SHAPE.exec(date);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number);
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day &&
         date <= today().dashes;
}

// The link in an address's '#' part: null for none; {bad: {reason, params}} for one that is not
// of its shape; else {puzzle: {date, entry}}, {trainer: {id, entry}} or {game, start, moves}.
export function readLink(hash) {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!text) return null;
  if (text.length > LONGEST_LINK) return badLink('long');
  const fields = new Map();
  for (const part of text.split('&')) {
    const equals = part.indexOf('=');
    const name = equals >= 0 ? part.slice(0, equals) : part;
    if (!Object.hasOwn(NAMES, name)) return badLink('part', {part: shown(name)});
    if (fields.has(name)) return badLink('twice', {part: name});
    let value = '';
    try {
      if (equals >= 0) value = decodeURIComponent(part.slice(equals + 1));
    } catch {
      return badLink(NAMES[name]);  // a broken %-escape
    }
    fields.set(name, value);
  }
  const game = fields.get('game');
  if (game === undefined || !GAME_SHAPE.test(game) || !kindInfo(game.split(':')[0])) {
    return badLink('game');
  }
  if (fields.has('puzzle')) {
    if (fields.size !== 2) return badLink('mixed');
    const date = fields.get('puzzle');
    if (!pastDay(date)) return badLink('date');
    const entry = puzzleGames().find((g) => g.game === game);
    if (!entry) return badLink('noPuzzle');
    return {puzzle: {date, entry}};
  }
  if (fields.has('trainer')) {
    if (fields.size !== 2) return badLink('mixed');
    const id = fields.get('trainer');
    const entry = trainerGames().find((g) => g.game === game);
    if (!PUZZLE_ID_SHAPE.test(id) || !entry) return badLink('trainer');
    return {trainer: {id, entry}};
  }
  if (fields.has('position') && (fields.has('start') || fields.has('moves'))) {
    return badLink('mixed');
  }
  const start = fields.get('position') ?? fields.get('start') ?? '';
  if (start !== '' && !POSITION_SHAPE.test(start)) return badLink('position');
  const moves = fields.get('moves') ?? '';
  if (!MOVES_SHAPE.test(moves)) return badLink('moves');
  return {game, start, moves: moves.split('').filter(Boolean)};
}

// Takes the link off the page's address (the page's history keeps no entry for it).
function forgetLink() {
  history.replaceState(null, '', `${location.pathname}${location.search}`);
}

function sayBadLink({reason, params}, detail = '') {
  // The reason is a sentence of the page's language (its own names isolated): not isolated whole.
  const text = t('link.bad', {reason: t(`link.reason.${reason}`, params)}, {isolate: false});
  update({message: {text, detail}});
}

// Opens the link in the page's address, if any: asked when a game is going.
export async function openLinkOfPage() {
  const link = readLink(location.hash);
  forgetLink();
  if (!link) return;
  if (link.bad) return void sayBadLink(link.bad);
  if (link.puzzle) {
    const {date, entry} = link.puzzle;
    const message = {text: t('link.openedPuzzle', {game: t(`game.${entry.kind}`), date}),
                     notice: true};
    const go = () => startPuzzle(entry, true, {date, message});
    if (gameGoing()) return void askFirst(go, 'link');
    return void await go();
  }
  if (link.trainer) {
    // The library read first: a puzzle it lacks is said before anything is asked.
    const {entry, id} = link.trainer;
    try {
      if (!(await libraryOf(entry)).some((p) => p.id === id)) {
        return void sayBadLink({reason: 'trainer', params: {}});
      }
    } catch (error) {
      return void update({message: errorMessage(error)});
    }
    const go = () => openTrainerPuzzle(entry, id);
    if (gameGoing()) return void askFirst(go, 'link');
    return void await go();
  }
  // The server replays the game: a position or a move the rules refuse is said, in its words.
  let view;
  try {
    view = await api.position(link.game, link.start, link.moves, 'none');
  } catch (error) {
    if (error.status === 400) {
      return void sayBadLink({reason: answererKey('refused'), params: {}}, error.message);
    }
    return void update({message: errorMessage(error)});
  }
  const go = async () => {
    // Played on this device, as a loaded record is: the form says so.
    const setup = {...setupOfGame(view.game), opponent: 'human', first: 'me'};
    update({setup, opponent: 'human', computerSide: null});
    fillSetup();
    const text = link.moves.length
      ? t('link.openedGame', {game: t(`game.${setup.kind}`), count: link.moves.length})
      : t('link.openedPosition', {game: t(`game.${setup.kind}`)});
    await showGame(view.game, link.start, link.moves, {text, notice: true});
  };
  if (gameGoing()) askFirst(go, 'link');
  else await go();
}

// Copy link: the link is shown in a field (selected, to copy by hand where the browser does not
// let the page write to the clipboard) and written to the clipboard.
export async function copyLink() {
  update({linkShown: true});
  const field = $('link-text');
  field.focus();
  field.select();
  try {
    await navigator.clipboard.writeText(field.value);
    update({message: {text: t('link.copied'), notice: true}});
  } catch {
    update({message: {text: t('link.copyByHand'), notice: true}});
  }
}

// The link field, once Copy link is pressed: always the link to what the board shows now.
export function renderLink() {
  const {linkShown, view, game, start, moves, puzzle, trainer, editor} = state();
  const box = $('link-box');
  box.hidden = !linkShown || !view;
  if (box.hidden) return;
  $('link-text').value = linkOf({game, start, moves, puzzle, trainer, editor});
}
