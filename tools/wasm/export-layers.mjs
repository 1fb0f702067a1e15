// Writes layers of the endgame tables for the static board to fetch instead of building them
// (docs/web-board.md, "Layers from the host"): each layer as the browser's engine builds it (one
// byte a position, tools/wasm/browser_tables.h), gzip-compressed, and a list of them with their
// SHA-256, OUT/tables.json:
//   {"engine": BUILD, "layers": {TABLE: {SEEDS: {"file", "size", "sha256"}}}}
// where BUILD is the first 16 hex digits of the SHA-256 of mancala-engine.wasm, TABLE is the engine's name of a game's table ("oware:abapa") and file is relative to OUT.
// The layers are built here by the same WebAssembly engine the page runs, so their bytes are the
// ones the page would build.
//
// Usage: node export-layers.mjs --engine DIR --out DIR GAME:FROM:TO...
//   GAME a GAME string without colons (kalah, oware), FROM..TO the layers written (the lower ones
//   are built here but left to the page, which builds them in less time than it would fetch them).
import {createHash} from 'node:crypto';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';
import {parseArgs} from 'node:util';
import {gzipSync} from 'node:zlib';

const {values: options, positionals: wanted} = parseArgs({
  options: {engine: {type: 'string'}, out: {type: 'string'}},
  allowPositionals: true,
});
if (!options.engine || !options.out || !wanted.length) {
  console.error('usage: node export-layers.mjs --engine DIR --out DIR GAME:FROM:TO...');
  process.exit(2);
}

const {default: createMancalaEngine} =
    await import(pathToFileURL(join(options.engine, 'mancala-engine.js')).href);
const wasm = readFileSync(join(options.engine, 'mancala-engine.wasm'));
const engine = await createMancalaEngine({wasmBinary: wasm});
const call = (name, ...args) =>
  JSON.parse(engine.ccall(name, 'string', args.map(() => 'string'), args));

// The engine build, as the page's worker knows it (stage_web_app.cmake): layers of another build
// are not taken.
const version = createHash('sha256').update(wasm).digest('hex').slice(0, 16);
const list = {engine: version, layers: {}};
for (const spec of wanted) {
  const match = /^([a-z]+):(\d+):(\d+)$/.exec(spec);
  if (!match || Number(match[2]) > Number(match[3])) {
    console.error(`export-layers: '${spec}' is not GAME:FROM:TO`);
    process.exit(2);
  }
  const [game, from, to] = [match[1], Number(match[2]), Number(match[3])];
  let reach = call('mancala_tables_reach', game);
  if (reach.error || to > reach.ceiling) {
    console.error(`export-layers: ${game} has no tables to ${to} seeds: ${reach.error || ''}`);
    process.exit(1);
  }
  const folder = reach.table.replaceAll(':', '-');
  mkdirSync(join(options.out, folder), {recursive: true});
  const layers = (list.layers[reach.table] = {});
  while (reach.max_seeds < to) {
    reach = call('mancala_build_layer', game);
    const seeds = reach.max_seeds;
    if (seeds < from) continue;
    const size = engine.ccall('mancala_layer_size', 'number', ['string', 'number'], [game, seeds]);
    const at = engine.ccall('mancala_layer_data', 'number', ['string', 'number'], [game, seeds]);
    const bytes = engine.HEAP8.subarray(at, at + size);
    const file = `${folder}/${seeds}.gz`;
    // node's gzip header holds no time: the same layer makes the same file, build after build.
    writeFileSync(join(options.out, file), gzipSync(bytes, {level: 9}));
    layers[seeds] = {file, size, sha256: createHash('sha256').update(bytes).digest('hex')};
  }
}
writeFileSync(join(options.out, 'tables.json'), `${JSON.stringify(list, null, 1)}\n`);
