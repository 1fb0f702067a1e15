// Which engine answers the page: the server's JSON API (`mancala serve`), or, on a board served as
// static files (the export of the WebAssembly build, docs/web-board.md "The board with no
// server"), the engine in this browser: engine-worker.js run as Web Workers, two answering
// requests, one building the endgame tables. api.js asks through here; nothing else knows which.
const TABLE_TARGETS = {kalah: 14, oware: 12};  // seeds built in the browser, by kind
// The longest a request waits for its game's kept tables to be read back (engine.js, restored).
const RESTORE_WAIT_MS = 5000;

export const inBrowser =
    document.querySelector('meta[name="mancala-engine"]')?.content === 'browser';

// A worker answering requests, one at a time: the next is sent when the last is answered, so that
// a request dropped before its turn (the analysis of a position the game has left) costs nothing.
class Answerer {
  constructor(url, name) {
    this.worker = new Worker(url, {type: 'module', name});
    this.queue = [];      // {message, resolve, reject, signal}, not yet sent
    this.current = null;  // the one sent
    this.worker.onmessage = ({data}) => {
      if (data.type === 'ready' || !this.current) return;
      this.current.resolve({status: data.status, body: data.body});
      this.current = null;
      this.next();
    };
    this.worker.onerror = (event) => {
      const error = new Error(event.message || 'the engine stopped');
      for (const r of [this.current, ...this.queue]) r?.reject(error);
      this.current = null;
      this.queue = [];
    };
  }

  ask(message, signal) {
    return new Promise((resolve, reject) => {
      const request = {message, resolve, reject, signal};
      signal?.addEventListener('abort', () => {
        const at = this.queue.indexOf(request);
        if (at >= 0) this.queue.splice(at, 1);
        // Sent already: its answer is dropped when it comes.
        reject(new DOMException('the request was dropped', 'AbortError'));
      });
      this.queue.push(request);
      this.next();
    });
  }

  next() {
    if (this.current || !this.queue.length) return;
    this.current = this.queue.shift();
    this.worker.postMessage(this.current.message);
  }
}

// Two answering workers, so that a move never waits behind an analysis (the analysis panel asks
// one of 2 s for every position shown), and the builder.
let engine = null;   // moves, positions, tables, records
let analyst = null;  // analyses
let tables = null;   // the builder
const reach = new Map();     // table name -> {max_seeds, target, building}
const tableOf = new Map();   // GAME string -> its table's name, as the builder named it
let lastWanted = '';         // the GAME string whose tables were asked for last
const listeners = new Set();
// GAME string -> a promise settled once the builder has handed over the layers an earlier visit
// kept for its table: the game's requests wait for it, so that a returning player's first hint
// comes from the tables, not from a search made before they were read.
const restored = new Map();
const restoredNow = new Map();  // GAME string -> the resolve of its promise

function start() {
  const url = new URL('engine-worker.js', import.meta.url);
  engine = new Answerer(url, 'engine');
  analyst = new Answerer(url, 'analyst');
  tables = new Worker(url, {type: 'module', name: 'tables'});
  tables.onmessage = ({data}) => {
    if (data.game && data.table) tableOf.set(data.game, data.table);
    if (data.type === 'restored') {
      restoredNow.get(data.game)?.();
      return;
    }
    if (data.type === 'layer') {
      // Each answering worker takes the layer before any later request: one a copy, one the
      // bytes themselves (moved).
      analyst.worker.postMessage({type: 'layer', game: data.game, bytes: data.bytes.slice(0)});
      engine.worker.postMessage({type: 'layer', game: data.game, bytes: data.bytes}, [data.bytes]);
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
// browser: {status, body}. A signal that aborts drops the request, or its answer if it was sent.
// `game`: the GAME string the request is about, whose kept tables it waits for.
export async function askBrowserEngine(name, params, body, signal, game) {
  if (!engine) start();
  if (game && restored.has(game)) await restored.get(game);
  const answerer = name === 'analyse' ? analyst : engine;
  return answerer.ask({name, params, body}, signal);
}

// Asks the builder for the tables of `game` (a GAME string) before any other game's.
export function wantTables(game) {
  const target = TABLE_TARGETS[game.split(':')[0]];
  if (!inBrowser || target === undefined || game === lastWanted) return;
  lastWanted = game;
  if (!engine) start();
  if (!restored.has(game)) {
    // A builder that fails (no storage, say) must not hold the game's requests for ever.
    restored.set(game, new Promise((resolve) => {
      restoredNow.set(game, resolve);
      setTimeout(resolve, RESTORE_WAIT_MS);
    }));
  }
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
