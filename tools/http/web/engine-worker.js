// The engine in the browser (docs/web-board.md, "The board with no server"): the WebAssembly build
// of the engine (tools/wasm, mancala-engine.js and .wasm beside this file) in a Web Worker, in one
// of two roles, named when the page starts the worker:
//   "engine" or "analyst"  answers the JSON API's requests ({name, params, body} -> {status,
//             body}), one at a time, and takes the endgame tables' layers the builder hands over;
//   "tables"  builds the tables layer by layer, or takes them from the browser's storage
//             (IndexedDB) where an earlier visit kept them, or from the host that served the page
//             where it offers them (tables/tables.json beside this file, written with the board by
//             tools/wasm/export-layers.mjs), each checked by its SHA-256 first: a damaged or
//             partial layer is built again, never used. Each layer is posted to the page (which
//             gives it to the engine) and kept for the next visit.
// Workers of their own, so that a request never waits for a layer being built (Oware's 12-seed
// layer takes seconds on a phone); the page runs two answering ones (engine.js).
import createMancalaEngine from './mancala-engine.js';

let engine = null;  // the WebAssembly module, once loaded
// The first 16 hex digits of the SHA-256 of mancala-engine.wasm, written in when the static board
// is staged (tools/http/stage_web_app.cmake); export-layers.mjs names the host's layers with it.
const ENGINE_BUILD = '@ENGINE_BUILD@';

function call(name, types, args) {
  return engine.ccall(name, 'string', types, args);
}

// Copies `bytes` into the engine's memory and installs them as the game's next layer.
function addLayer(game, bytes) {
  const at = engine._malloc(bytes.length);
  engine.HEAP8.set(bytes, at);
  const reply = JSON.parse(call('mancala_add_layer', ['string', 'number', 'number'],
                                [game, at, bytes.length]));
  engine._free(at);
  return reply;
}

function layerBytes(game, seeds) {
  const size = engine.ccall('mancala_layer_size', 'number', ['string', 'number'], [game, seeds]);
  const at = engine.ccall('mancala_layer_data', 'number', ['string', 'number'], [game, seeds]);
  return engine.HEAP8.slice(at, at + size);
}

// ---------------------------------------------------------------- the browser's storage

// A layer is kept under "BUILD/TABLE/SEEDS" as {bytes, sha256, from: 'built' or 'host'}.
const STORE = 'layers';

function openStorage() {
  return new Promise((resolve) => {
    let request;
    try {
      // Version 2: a database found without its store (made by another script, or by a version 1
      // that failed) is upgraded, which makes the store.
      request = indexedDB.open('mancala-tables', 2);
    } catch {
      resolve(null);  // no storage (a private window may refuse it): build every visit
      return;
    }
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(null);
  });
}

function stored(storage, key) {
  return new Promise((resolve) => {
    if (!storage) return resolve(undefined);
    const request = storage.transaction(STORE).objectStore(STORE).get(key);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => resolve(undefined);
  });
}

function store(storage, key, value) {
  return new Promise((resolve) => {
    if (!storage) return resolve();
    const transaction = storage.transaction(STORE, 'readwrite');
    transaction.objectStore(STORE).put(value, key);
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => resolve();  // full or refused: the next visit builds it again
    transaction.onabort = () => resolve();
  });
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------- the host's layers

// The layers the host offers (tables/tables.json: {engine, layers: {TABLE: {SEEDS: {file, size,
// sha256}}}}), or {} where it offers none, is unreachable (offline) or is another engine build's.
async function hostLayers(build) {
  try {
    const response = await fetch(new URL('tables/tables.json', self.location));
    if (!response.ok) return {};
    const list = await response.json();
    return list.engine === build && list.layers ? list.layers : {};
  } catch {
    return {};
  }
}

// The bytes of a layer the host offers, or null when they cannot be had whole: fetched,
// gunzipped (unless the host already did, sending it with Content-Encoding: gzip) and checked
// against the list's size and SHA-256.
async function fetchLayer(entry) {
  try {
    const response = await fetch(new URL(`tables/${entry.file}`, self.location));
    if (!response.ok) return null;
    let bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    }
    if (bytes.length !== entry.size || await sha256(bytes) !== entry.sha256) return null;
    return new Int8Array(bytes.buffer);
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- the roles

function answerRequests() {
  return (data) => {
    if (data.type === 'layer') {
      addLayer(data.game, new Int8Array(data.bytes));
      return;
    }
    const {name, params, body} = data;
    let reply;
    try {
      reply = JSON.parse(call('mancala_request', ['string', 'string', 'string'],
                              [name, JSON.stringify(params || {}), body || '']));
    } catch (error) {
      reply = {status: 500, body: {error: `the engine failed: ${error}`}};
    }
    self.postMessage(reply);
  };
}

// The layers of `game`'s tables up to `target` seeds (or as deep as the host offers them), kept
// ones first; each posted to the page as {type: 'layer', game, table, seeds, target, bytes} and
// then {type: 'tables', ...reach} once done. Stops between layers when another game is wanted first
// (stillFirst() false). True when the game needs nothing more (its tables reach the target, or it
// has none).
async function makeTables(storage, build, hosted, game, target, stillFirst) {
  let reach = JSON.parse(call('mancala_tables_reach', ['string'], [game]));
  if (reach.error) {
    self.postMessage({type: 'restored', game});
    return true;
  }
  const layerKey = (seeds) => `${build}/${reach.table}/${seeds}`;
  // Kept for the next visit, with the digest it will be checked against then.
  const keep = (seeds, bytes, digest, from) =>
    store(storage, layerKey(seeds), {bytes: bytes.buffer.slice(0), sha256: digest, from});
  const offered = hosted[reach.table] || {};
  target = Math.min(reach.ceiling, Math.max(target, ...Object.keys(offered).map(Number)));
  const fetching = new Map();  // seeds -> the promise of the host's bytes of that layer
  // First the layers kept by an earlier visit, as long as they are whole: the page waits for
  // them before it asks anything of this game (engine.js), since they take a moment to read
  // where building them takes seconds.
  let keptOnes = true;
  while (reach.max_seeds < target) {
    const seeds = reach.max_seeds + 1;
    let bytes = null;
    if (keptOnes) {
      const kept = await stored(storage, layerKey(seeds));
      if (kept && kept.bytes instanceof ArrayBuffer && kept.sha256 === await sha256(kept.bytes)) {
        const reply = addLayer(game, new Int8Array(kept.bytes));
        if (!reply.error) {
          bytes = new Int8Array(kept.bytes);
          reach = reply;
        }
      }
      if (!bytes) {
        keptOnes = false;
        self.postMessage({type: 'restored', game, table: reach.table});
        // Every layer the host offers from here up is asked for at once: the lower layers are
        // built while they come.
        for (const [at, entry] of Object.entries(offered)) {
          if (Number(at) >= seeds) fetching.set(Number(at), fetchLayer(entry));
        }
      }
    }
    if (!bytes && fetching.has(seeds)) {
      const fetched = await fetching.get(seeds);
      const reply = fetched && addLayer(game, fetched);
      if (reply && !reply.error) {
        bytes = fetched;
        reach = reply;
        // fetchLayer checked the bytes against the list's digest.
        await keep(seeds, bytes, offered[seeds].sha256, 'host');
      }
    }
    if (!bytes) {
      reach = JSON.parse(call('mancala_build_layer', ['string'], [game]));
      if (reach.error) return true;
      bytes = layerBytes(game, seeds);
      await keep(seeds, bytes, await sha256(bytes), 'built');
    }
    self.postMessage({type: 'layer', game, table: reach.table, seeds, target, bytes: bytes.buffer},
                     [bytes.buffer]);
    // Between layers: the page's next wish (another game first) is read.
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!stillFirst()) return false;
  }
  if (keptOnes) self.postMessage({type: 'restored', game, table: reach.table});
  self.postMessage({type: 'tables', game, table: reach.table, max_seeds: reach.max_seeds, target});
  return true;
}

function buildTables() {
  const wanted = [];  // [{game, target}], the first first
  let running = false;
  let storage = null;
  // Kept layers are the engine build's own: a new build makes its tables anew (its builder may
  // order or value a layer otherwise), and takes only the host's layers of the same build.
  let hosted = null;   // the host's layers (hostLayers), asked once
  async function run() {
    if (running) return;
    running = true;
    const asked = hosted || hostLayers(ENGINE_BUILD);
    storage = storage || await openStorage();
    hosted = await asked;
    while (wanted.length) {
      const {game, target} = wanted[0];
      const done = await makeTables(storage, ENGINE_BUILD, hosted, game, target,
                                    () => wanted.length > 0 && wanted[0].game === game);
      // Done: off the list. Not done: another game came first; this one goes on after it.
      const at = wanted.findIndex((w) => w.game === game);
      if (done && at >= 0) wanted.splice(at, 1);
    }
    running = false;
  }
  return (data) => {
    // {type: 'tables', game, target}: this game first.
    const at = wanted.findIndex((w) => w.game === data.game);
    if (at >= 0) wanted.splice(at, 1);
    wanted.unshift({game: data.game, target: data.target});
    run();
  };
}

// The handler is set before the engine is loaded: a message that came while it loads would be lost
// otherwise (a worker's messages are not held until its module has run to its end). They wait for
// the engine, in the order they came. (Each worker loads the WebAssembly itself; Chromium compiles
// the same bytes once for all three: handing them one module compiled by the page changed neither
// the time to the first board nor the CPU time spent.)
const loading = createMancalaEngine().then((module) => {
  engine = module;
  const handle = self.name === 'tables' ? buildTables() : answerRequests();
  self.postMessage({type: 'ready'});
  return handle;
});
self.onmessage = async ({data}) => (await loading)(data);
