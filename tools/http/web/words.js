// Sentences and numbers built from the catalogue (i18n.js) that several panels say alike: a
// signed value, a result, what a move does, where a value comes from, an error, today's date.
import {inBrowser} from './engine.js';
import {currentLanguage, t} from './i18n.js';

export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// A result in words, for "you" (`you`: the verb agrees) or a named player.
export function outcomeText(score, you) {
  const set = you ? 'outcomeYou' : 'outcome';
  if (score > 0) return t(`${set}.win`, {count: score});
  if (score < 0) return t(`${set}.loss`, {count: -score});
  return t(`${set}.draw`);
}

export function today() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, '0');
  return {dots: `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`,
          dashes: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`};
}

// The catalogue's key of a sentence that names who answers: on the board with no server the
// engine in the browser answers, and the sentence says so (KEY + "Here").
export function answererKey(key) {
  return inBrowser ? `${key}Here` : key;
}

// An error in the page's language, by its kind; the server's own words (the command line's, in
// English) go on a line of their own, marked as English, for those who can use them.
export function errorMessage(error) {
  const status = error ? error.status : -1;
  const key = status === 503 ? 'app.busy' : status === 0 ? 'app.offline'
            : status === 400 ? answererKey('app.refused')
            : status === 404 ? answererKey('app.notFound')
            : status >= 500 ? answererKey('app.serverError') : 'app.failed';
  return {text: t(key), detail: status === 503 || !error ? '' : error.message};
}

// A sentence with an empty part ({effect} of a move that does nothing special): no empty
// isolate marks, no double spaces.
export function tidy(text) {
  return text.replaceAll('\u2068\u2069', '').replace(/ {2,}/g, ' ').trim();
}

// What a move does, in words: an extra turn, a capture (empty for neither).
export function effectText(move) {
  if (!move) return '';
  const parts = [];
  if (move.extra_turn) parts.push(t('effect.extraTurn'));
  if (move.captured > 0) parts.push(t('effect.capture', {count: move.captured}));
  if (move.game_over) parts.push(t('effect.ends'));
  return parts.join(' ');
}

// Where a value comes from: the tables, the solver, or a search's estimate.
export function sourceText(provenance, depth) {
  if (provenance === 'tables') return t('source.tables');
  if (provenance === 'proven') return t('source.proven');
  return depth ? t('source.estimateDepth', {depth}) : t('source.estimate');
}

// What an analysis says of one of its moves (or of its best, for the position), true of the game
// being played (solver/rules/README.md, "Oware values from the tables"): a move that ends the
// game by its real end; one that goes on by its score, and where that score is the Oware tables'
// count (margin "tables": play going on past a majority) with a source that says so.
export function valueWords(entry, margin) {
  if (entry.ends_game && entry.final_score !== null && entry.final_score !== undefined) {
    return {score: entry.final_score, source: sourceText(entry.provenance, entry.depth)};
  }
  const counted = margin === 'tables' && entry.exact;
  const source = counted ? t(entry.provenance === 'tables' ? 'source.tablesCount'
                                                           : 'source.provenCount')
                         : sourceText(entry.provenance, entry.depth);
  return {score: entry.score, source};
}

export function formatNumber(n, decimals) {
  return new Intl.NumberFormat(currentLanguage(), {minimumFractionDigits: decimals,
                                                   maximumFractionDigits: decimals}).format(n);
}

// The server's own words under a sentence of ours: English, left to right, whatever the page's
// language and direction (an error's detail, or why the server refused a position).
export function appendServerWords(element, detail) {
  const words = document.createElement('small');
  words.className = 'detail';
  words.lang = 'en';
  words.dir = 'ltr';
  words.textContent = detail;
  element.appendChild(words);
}
