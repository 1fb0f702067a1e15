// Which engine answers the page: the server's JSON API (`mancala serve`), or, on a board served as
// static files (the export of the WebAssembly build, docs/web-board.md "The board with no
// server"), the engine in this browser: engine-worker.js run as two Web Workers, one answering
// requests, one building the endgame tables. api.js asks through here; nothing else knows which.
const TABLE_TARGETS = {kalah: 14, oware: 12};  // seeds built in the browser, by kind

export const inBrowser =
    document.querySelector('meta[name="mancala-engine"]')?.content === 'browser';

let engine = null;  // the worker that answers
let tables = null;  // the worker that builds
let ready = null;   // resolves when the answering worker has loaded the engine
let nextId = 1;
const waiting = new Map();  // id -> {resolve, reject}
const reach = new Map();     // table name -> {max_seeds, target, building}
const tableOf = new Map();   // GAME string -> its table's name, as the builder named it
const listeners = new Set();

function start() {
  const url = new URL('engine-worker.js', import.meta.url);
  engine = new Worker(url, {type: 'module', name: 'engine'});
  ready = new Promise((resolve, reject) => {
    engine.onmessage = ({data}) => {
      if (data.type === 'ready') return void resolve();
      const found = waiting.get(data.id);
      if (!found) return;
      waiting.delete(data.id);
      found.resolve({status: data.status, body: data.body});
    };
    engine.onerror = (event) => {
      reject(new Error(event.message || 'the engine could not start'));
      for (const {reject: fail} of waiting.values()) fail(new Error('the engine stopped'));
      waiting.clear();
    };
  });
  tables = new Worker(url, {type: 'module', name: 'tables'});
  tables.onmessage = ({data}) => {
    if (data.game) tableOf.set(data.game, data.table);
    if (data.type === 'layer') {
      // The engine takes the layer (its bytes moved, not copied) before any later request.
      engine.postMessage({type: 'layer', game: data.game, bytes: data.bytes}, [data.bytes]);
      reach.set(data.table, {max_seeds: data.seeds, target: data.target,
                             building: data.seeds < data.target});
    } else if (data.type === 'tables') {
      reach.set(data.table, {max_seeds: data.max_seeds, target: data.target, building: false});
    } else {
      return;
    }
    for (const listener of listeners) listener(data.table);
  };
}

// A request of the JSON API (name: what follows /api/v1/), answered by the engine in this
// browser: {status, body}. A signal that aborts drops the answer (the engine finishes its work).
export async function askBrowserEngine(name, params, body, signal) {
  if (!engine) start();
  await ready;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, {resolve, reject});
    signal?.addEventListener('abort', () => {
      if (waiting.delete(id)) reject(new DOMException('the request was dropped', 'AbortError'));
    });
    engine.postMessage({id, name, params, body});
  });
}

// Asks the builder for the tables of `game` (a GAME string) before any other game's.
let lastWanted = '';
export function wantTables(game) {
  const target = TABLE_TARGETS[game.split(':')[0]];
  if (!inBrowser || target === undefined || game === lastWanted) return;
  lastWanted = game;
  if (!engine) start();
  tables.postMessage({type: 'tables', game, target});
}

// How far the browser's tables of `game`'s table reach while they are built: {max_seeds, target,
// building}; undefined for a game whose tables were never asked for (or that has none).
export function browserTablesReach(game) {
  const table = tableOf.get(game);
  if (table) return reach.get(table);
  if (game === lastWanted) return {max_seeds: -1, target: TABLE_TARGETS[game.split(':')[0]],
                                   building: true};
  return undefined;
}

// Calls listener(table) whenever a layer of the browser's tables lands.
export function onBrowserTables(listener) {
  listeners.add(listener);
}

// The static board plays with no network after one visit: its service worker (service-worker.js,
// written when the board is staged) keeps every file of this version. A new version's worker
// takes over once it holds all of its files; the page then reloads whole from it (the game going
// is kept, storage.js), so that it never runs old and new files together.
export function keepOffline() {
  if (!inBrowser || !('serviceWorker' in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (hadController) location.reload();
  });
  navigator.serviceWorker.register('service-worker.js').catch(() => {
    // No offline copy (a browser that refuses service workers here): the board still plays.
  });
}
