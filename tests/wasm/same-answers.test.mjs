// The browser's engine (tools/wasm, WebAssembly in node) and the server (`mancala serve`, the
// native binary on a loopback port) give the same answers to the same JSON API requests: the
// catalogue, positions, table values, computer moves of every level (levels 5 and 6 on a node
// budget, so that the speed of the machine does not enter), analyses to a fixed depth inside and
// outside the tables, records. Both have the Kalah and Oware tables to the same depth, the
// server's from `mancala db build`, the engine's built layer by layer in memory, and part of them
// handed back as kept bytes, as a page does on its next visit. Only the time each took is left
// out of the comparison.
//
// Environment: MANCALA_BINARY (the native command), MANCALA_WASM_ENGINE (mancala-engine.js, its
// .wasm beside it). Run by CTest (tests/CMakeLists.txt) when the build was given the engine.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';
import {pathToFileURL} from 'node:url';
import {isDeepStrictEqual} from 'node:util';

const BINARY = process.env.MANCALA_BINARY;
const ENGINE = process.env.MANCALA_WASM_ENGINE;
const DEPTH = 10;  // seeds: both sides' tables, built in a second or two each way

let server;
let url;
let engine;
let db;

before(async () => {
  db = mkdtempSync(join(tmpdir(), 'mancala-wasm-'));
  for (const game of ['kalah', 'oware'])
    execFileSync(BINARY, ['db', 'build', game, '--max-seeds', String(DEPTH), '--out', db,
                          '--threads', '1'], {stdio: 'ignore'});
  server = spawn(BINARY, ['serve', '--port', '0', '--db', db], {stdio: ['ignore', 'pipe', 'inherit']});
  url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/board is at (http:\S+)/);
      if (match) resolve(match[1].replace(/\/$/, ''));
    });
    server.on('exit', (code) => reject(new Error(`mancala serve exited with ${code}: ${out}`)));
  });
  const {default: createMancalaEngine} = await import(pathToFileURL(ENGINE).href);
  engine = await createMancalaEngine({wasmBinary: readFileSync(ENGINE.replace(/\.js$/, '.wasm'))});
});

after(() => {
  if (server) server.kill('SIGTERM');
  if (db) rmSync(db, {recursive: true, force: true});
});

function call(name, ...args) {
  const types = args.map((a) => (typeof a === 'number' ? 'number' : 'string'));
  return engine.ccall(name, 'string', types, args);
}

// The engine's answer to a request: {status, body}.
function ask_engine(name, params = {}, body = '') {
  return JSON.parse(call('mancala_request', name, JSON.stringify(params), body));
}

async function ask_server(name, params = {}, body = '') {
  const query = new URLSearchParams(params).toString();
  const ask = () => fetch(`${url}/api/v1/${name}${query ? `?${query}` : ''}`,
                          body ? {method: 'POST', body,
                                  headers: {'Content-Type': 'application/json'}} : {});
  let response;
  try {
    response = await ask();
  } catch (e) {
    // The server closes a connection idle for 5 s; while the engine's call held this thread that
    // long, fetch could not see it close and sent on it. Asked again on a new connection.
    if (e.cause?.code !== 'UND_ERR_SOCKET') throw e;
    response = await ask();
  }
  return {status: response.status, body: await response.json()};
}

// The answer without what the time it took decides ("seconds" wherever it is), with the place of
// the tables named alike ("in DIR" for the server, "built in this browser" for the engine) and
// without the server's advice on building tables (the browser has no command line).
function comparable(value) {
  if (Array.isArray(value)) return value.map(comparable);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'seconds')
                                  .map(([key, v]) => [key, comparable(v)]));
  if (typeof value === 'string')
    return value.replaceAll(`in ${db}`, 'PLACE').replaceAll('built in this browser', 'PLACE')
        .replace(/ \(build them with: [^)]*\)$/, '');
  return value;
}

// Whether an analysis to a fixed depth was cut by the time limit (a move it could not prove
// searched less deep than asked): on a loaded machine one side may stop a search the other
// finished, which is no difference of theirs; such a pair is asked again, a few times.
function cutByTime(name, params, answer) {
  if (name !== 'analyse' || !params.depth || answer.status !== 200) return false;
  return answer.body.moves.some((m) => !m.exact && m.depth < Number(params.depth));
}

async function same(name, params = {}, body = '') {
  for (let attempt = 1; ; ++attempt) {
    const native = await ask_server(name, params, body);
    let browser;
    try {
      browser = ask_engine(name, params, body);
    } catch (e) {
      throw new Error(`${name} ${JSON.stringify(params)} ${body}: ${e.message}`);
    }
    const cut = cutByTime(name, params, native) || cutByTime(name, params, browser);
    if (cut && attempt < 3 && !isDeepStrictEqual(comparable(browser), comparable(native))) continue;
    assert.deepEqual(comparable(browser), comparable(native),
                     `${name} ${JSON.stringify(params)} ${body}` +
                     (cut ? ` (an analysis cut by the time limit, attempt ${attempt})` : ''));
    return native;
  }
}

// Kalah's tables built in the engine; Oware's built to 6 and the rest handed back as kept bytes
// from a second engine (what the page keeps between visits): both must answer alike.
async function build_tables() {
  for (let s = 0; s <= DEPTH; ++s) {
    const reply = JSON.parse(call('mancala_build_layer', 'kalah'));
    assert.equal(reply.max_seeds, s, JSON.stringify(reply));
  }
  const {default: createMancalaEngine} = await import(pathToFileURL(ENGINE).href);
  const builder =
      await createMancalaEngine({wasmBinary: readFileSync(ENGINE.replace(/\.js$/, '.wasm'))});
  for (let s = 0; s <= DEPTH; ++s) {
    JSON.parse(builder.ccall('mancala_build_layer', 'string', ['string'], ['oware']));
    if (s <= 6) {
      JSON.parse(call('mancala_build_layer', 'oware'));
      continue;
    }
    const size = builder.ccall('mancala_layer_size', 'number', ['string', 'number'], ['oware', s]);
    const at = builder.ccall('mancala_layer_data', 'number', ['string', 'number'], ['oware', s]);
    const kept = builder.HEAP8.slice(at, at + size);
    const to = engine._malloc(size);
    engine.HEAP8.set(kept, to);
    const reply = JSON.parse(
        engine.ccall('mancala_add_layer', 'string', ['string', 'number', 'number'],
                     ['oware', to, size]));
    engine._free(to);
    assert.equal(reply.max_seeds, s, JSON.stringify(reply));
  }
}

test('tables built and kept are refused when they are not a layer', () => {
  const to = engine._malloc(3);
  const reply = JSON.parse(engine.ccall('mancala_add_layer', 'string',
                                        ['string', 'number', 'number'], ['kalah', to, 3]));
  engine._free(to);
  assert.match(reply.error, /layer 0 has 3 bytes where it should have \d+/);
  assert.match(JSON.parse(call('mancala_build_layer', 'congkak')).error, /no endgame tables/);
});

test('the same answers from the browser\'s engine as from the server', async () => {
  await build_tables();
  await same('games');
  const positions = {
    'kalah': ['', '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S', '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S',
              '0-0-0-0-0-1-2-0-0-0-0-1-20-24-S', '3-0-2-1-0-0-0-2-1-1-0-0-19-19-N'],
    'kalah:6:3:empty-capture': ['', '1-0-2-0-0-3-0-1-1-0-0-1-14-13-S'],
    'oware': ['', '4-4-0-5-5-5-5-4-4-4-4-4-0-0-N', '0-0-0-1-1-0-0-0-1-0-0-14-8-23-N',
              '1-0-0-1-0-0-1-0-0-0-0-1-20-24-S', '2-1-0-0-3-0-1-0-2-0-1-0-18-20-S'],
    'oware:4:grand-slam-captures': ['', '1-0-3-0-0-2-0-1-0-0-2-1-19-19-S'],
    'congkak': ['', '9-9-1-8-8-8-8-8-0-0-9-1-9-9-10-1-S'],
  };
  for (const [game, list] of Object.entries(positions)) {
    for (const position of list) {
      const where = position ? {game, position} : {game};
      const ok = (reply) => assert.equal(reply.status, 200, JSON.stringify(reply.body));
      ok(await same('position', where));
      if (!game.startsWith('congkak')) await same('tables', where);  // 404 above the tables
      for (let level = 1; level <= 6; ++level)
        ok(await same('move', {}, JSON.stringify({...where, level, seed: 7,
                                                  ...(level >= 5 ? {nodes: 20000} : {})})));
      ok(await same('analyse', {...where, depth: '5'}));
    }
  }
  await same('position', {game: 'oware', moves: 'CeFa', played: 'all'});
  const record = await same('record', {}, JSON.stringify({game: 'kalah', moves: 'CFa',
                                                          tags: {South: 'me'}}));
  await same('record/parse', {}, JSON.stringify({record: record.body.record}));
  // Refusals too: the same status, message and field.
  await same('move', {}, JSON.stringify({game: 'kalah', level: 9}));
  await same('analyse', {game: 'oware', moves: 'ZZ'});
  await same('tables', {game: 'congkak'});
  await same('position', {game: 'oware:4:grand-slam'});
  await same('tables', {game: 'kalah', position: '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S'});
});
