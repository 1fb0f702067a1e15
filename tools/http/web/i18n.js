// Every visible string comes from one catalogue per language (i18n/LANG.json). The language is
// the one chosen on the page (kept in localStorage), else the first of the browser's languages
// that has a catalogue, else English: index.html's inline script chooses it (preferredLanguage).

export const LANGUAGES = [
  {code: 'en', name: 'English'},
  {code: 'fr', name: 'Français'},
  {code: 'pt', name: 'Português'},
  {code: 'he', name: 'עברית'},
  {code: 'th', name: 'ไทย'},
  {code: 'ja', name: '日本語'},
];
const RIGHT_TO_LEFT = new Set(['he']);
const STORAGE_KEY = 'mancala.language';

let language = 'en';
let catalogue = {};
let english = {};
let plurals = new Intl.PluralRules('en');

export function currentLanguage() {
  return language;
}

export function isRightToLeft() {
  return RIGHT_TO_LEFT.has(language);
}

// The page's inline script (index.html) chooses before the first paint, so that a right-to-left
// language is drawn so from the start; its choice is read here, not made a second time.
export function preferredLanguage() {
  const chosen = document.documentElement.dataset.preferredLanguage;
  return LANGUAGES.some((l) => l.code === chosen) ? chosen : 'en';
}

async function fetchCatalogue(code) {
  const response = await fetch(`i18n/${code}.json`);
  if (!response.ok) throw new Error(`no catalogue for ${code}`);
  return response.json();
}

export async function setLanguage(code, remember) {
  // Both at once: English (which the others fall back on) is not waited for before the other.
  const [englishNow, chosen] = await Promise.all([
    english.app ? english : fetchCatalogue('en'), code === 'en' ? null : fetchCatalogue(code)]);
  english = englishNow;
  catalogue = chosen || english;
  language = code;
  plurals = new Intl.PluralRules(code);
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, code);
    } catch {
      // Not remembered; the page still switches.
    }
  }
  document.documentElement.lang = code;
  document.documentElement.dir = isRightToLeft() ? 'rtl' : 'ltr';
}

function lookup(table, key) {
  let node = table;
  for (const part of key.split('.')) {
    if (node === undefined || node === null) return undefined;
    node = node[part];
  }
  return node;
}

// Numbers, letters and names put into a right-to-left sentence are isolated (FSI ... PDI), so
// that "C", "+4" or "25–23" keep their own direction.
function isolate(value) {
  return isRightToLeft() ? `\u2068${value}\u2069` : String(value);
}

// The text of `key`, with {name} replaced by params.name. A text with plural forms is an object
// {one, two, few, many, other} chosen by params.count. Text that is never shown (an accessible
// name) takes {isolate: false}: screen readers want no direction marks.
export function t(key, params = {}, {isolate: isolating = true} = {}) {
  let text = lookup(catalogue, key);
  if (text === undefined) text = lookup(english, key);
  if (text === undefined) return key;
  if (typeof text === 'object' && !Array.isArray(text)) {
    const form = plurals.select(Number(params.count ?? 0));
    text = text[form] ?? text.other;
  }
  return String(text).replace(/\{(\w+)\}/g, (whole, name) =>
    !(name in params) ? whole : isolating ? isolate(params[name]) : String(params[name]));
}

// A list of texts (the rules of a game).
export function list(key) {
  const value = lookup(catalogue, key) ?? lookup(english, key);
  return Array.isArray(value) ? value : [];
}

// Fills the page's fixed texts: data-i18n (text), data-i18n-label (aria-label),
// data-i18n-title (title).
export function translatePage(root = document) {
  for (const element of root.querySelectorAll('[data-i18n]')) {
    element.textContent = t(element.dataset.i18n);
  }
  for (const element of root.querySelectorAll('[data-i18n-label]')) {
    element.setAttribute('aria-label', t(element.dataset.i18nLabel));
  }
  for (const element of root.querySelectorAll('[data-i18n-title]')) {
    element.title = t(element.dataset.i18nTitle);
  }
  document.title = t('app.title');
}
