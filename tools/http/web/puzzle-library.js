// The puzzle trainer's libraries (puzzles/*.json, made by `mancala puzzles build` from the
// endgame tables and checked by `mancala puzzles verify`; docs/web-board.md): read once a game,
// and checked whole before use: the format and its version, the game, every puzzle's fields and
// the checksum over them (FNV-1a, as tools/service/puzzles.h computes it), so that a damaged or
// mismatched file is an error and never half a library. Which puzzle comes next is chosen here.
import {fnv1a32} from './hash.js';

export const LIBRARY_FORMAT = 'mancala-puzzles';
export const LIBRARY_VERSION = 1;

// Every theme a puzzle can carry (tools/service/puzzles.h, puzzle_themes).
export const THEMES = ['capture', 'extra-turn', 'extra-turn-chain', 'grand-slam', 'feeding',
                       'counting', 'saving'];

// The games with a library, by GAME string (the rule book's canonical names), its file, and the
// themes its rules can give (Kalah has extra turns, Oware grand slams and feeding).
const LIBRARIES = [
  {game: 'kalah:6:4', kind: 'kalah', houses: 6, file: 'puzzles/kalah-6-4.json',
   themes: ['capture', 'extra-turn', 'extra-turn-chain', 'counting', 'saving']},
  {game: 'oware:4:abapa', kind: 'oware', houses: 6, file: 'puzzles/oware-4.json',
   themes: ['capture', 'grand-slam', 'feeding', 'counting', 'saving']},
];

export function trainerGames() {
  return LIBRARIES;
}

// A puzzle's id: 8 hex digits (tools/service/puzzles.h).
export const PUZZLE_ID_SHAPE = /^[0-9a-f]{8}$/;

const loaded = new Map();  // game -> Promise of its library

// FNV-1a, 32 bits, as 8 hex digits, over text of ASCII characters.
export function fnv1a(text) {
  return fnv1a32(text).toString(16).padStart(8, '0');
}

const isLetter = (m) => typeof m === 'string' && /^[A-Za-z]$/.test(m);

function checkPuzzle(p, houses) {
  const fields = typeof p.position === 'string' ? p.position.split('-') : [];
  return p !== null && typeof p === 'object' && typeof p.id === 'string' &&
         PUZZLE_ID_SHAPE.test(p.id) && fields.length === 2 * houses + 3 &&
         fields.slice(0, -1).every((f) => /^\d{1,3}$/.test(f)) &&
         ['S', 'N'].includes(fields.at(-1)) && ['win', 'draw'].includes(p.goal) &&
         Array.isArray(p.line) && p.line.length >= 1 && p.line.length <= 64 &&
         p.line.every(isLetter) && Array.isArray(p.themes) &&
         p.themes.every((theme) => THEMES.includes(theme)) && Number.isSafeInteger(p.rating) &&
         Number.isSafeInteger(p.depth);
}

// The library's puzzles; throws an Error saying what is wrong with the file.
export function checkLibrary(doc, entry) {
  if (doc === null || typeof doc !== 'object' || doc.format !== LIBRARY_FORMAT) {
    throw new Error('not a puzzle library');
  }
  if (doc.version !== LIBRARY_VERSION) throw new Error(`a library of version ${doc.version}`);
  if (doc.game !== entry.game) throw new Error(`a library of ${doc.game}, not of ${entry.game}`);
  const houses = entry.houses;
  if (!Array.isArray(doc.puzzles) || doc.puzzles.length !== doc.count ||
      !doc.puzzles.every((p) => checkPuzzle(p, houses))) {
    throw new Error('a puzzle of the library is malformed');
  }
  const text = doc.puzzles.map((p) => `${p.id} ${p.position} ${p.goal} ${p.line.join(',')} ` +
                                      `${p.themes.join(',')} ${p.rating} ${p.depth}\n`).join('');
  if (fnv1a(text) !== doc.checksum) throw new Error('the library is damaged (its checksum fails)');
  return doc.puzzles;
}

// The puzzles of `game` (an entry of trainerGames()), fetched and checked once.
export function libraryOf(entry) {
  if (!loaded.has(entry.game)) {
    const promise = (async () => {
      const response = await fetch(entry.file);
      if (!response.ok) throw new Error(`${entry.file}: ${response.status}`);
      return checkLibrary(await response.json(), entry);
    })();
    // A failed read is tried again next time (a network that came back).
    promise.catch(() => loaded.delete(entry.game));
    loaded.set(entry.game, promise);
  }
  return loaded.get(entry.game);
}

// The next puzzle for a player of `rating`: of `theme` (or any, ''), not among `played` (ids)
// unless every one of them was, among the few rated nearest, one at random so that two players
// of one rating do not meet the same sequence. null when the theme has none.
export function nextPuzzle(puzzles, rating, theme, played, random = Math.random) {
  const ofTheme = puzzles.filter((p) => !theme || p.themes.includes(theme));
  if (!ofTheme.length) return null;
  const seen = new Set(played);
  const fresh = ofTheme.filter((p) => !seen.has(p.id));
  const pool = (fresh.length ? fresh : ofTheme)
    .slice().sort((a, b) => Math.abs(a.rating - rating) - Math.abs(b.rating - rating));
  const nearest = pool.slice(0, 8);
  return nearest[Math.floor(random() * nearest.length)];
}
