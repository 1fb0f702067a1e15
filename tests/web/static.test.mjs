// Browser tests of the board with no server (docs/web-board.md, "The board with no server"): the
// static board the WebAssembly build stages (BUILD-WASM/web-static) served by `python3 -m
// http.server` on a loopback port, the engine running in the page's workers, Debian's Chromium
// driven headless by playwright-core. Given MANCALA_SCREENSHOTS (a folder), the tests save phone
// screenshots there.
//
// Run by browser_test.sh (through CTest) when it is given the static board (MANCALA_WEB_STATIC);
// MANCALA_BINARY is the native command, whose tables judge the browser's; MANCALA_WEB_DIR the web
// app's sources (tools/http/web), beside which tools/wasm's scripts are.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync}
    from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {gzipSync} from 'node:zlib';
import {after, before, test} from 'node:test';

import {chromium} from 'playwright-core';

import {idle, keptKeys, newGame, playToTheEnd, snap, solveLine} from './board-actions.mjs';

const BINARY = process.env.MANCALA_BINARY;
const STATIC = process.env.MANCALA_WEB_STATIC;
const SHOTS = process.env.MANCALA_SCREENSHOTS;
// The script that writes the host's layers when the board is staged (tools/wasm).
const EXPORT_LAYERS = join(process.env.MANCALA_WEB_DIR, '..', '..', 'wasm', 'export-layers.mjs');
const PHONE = {width: 390, height: 844};

const servers = [];
let url;       // the static board's, as staged
let served;    // the paths asked of it, in order
let browser;
const profiles = [];

// `python3 -m http.server` serving `dir` on a loopback port: {url, served}, `served` the paths
// asked of it (from its request log), in order.
async function serve(dir) {
  const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1',
                                   '--directory', dir], {stdio: ['ignore', 'pipe', 'pipe']});
  servers.push(server);
  const paths = [];
  let log = '';
  server.stderr.on('data', (chunk) => {
    log += chunk;
    const lines = log.split('\n');
    log = lines.pop();
    for (const line of lines) {
      const request = line.match(/"GET (\S+) HTTP/);
      if (request) paths.push(request[1]);
    }
  });
  const address = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/port (\d+)/);
      if (match) resolve(`http://127.0.0.1:${match[1]}/`);
    });
    server.on('exit', (code) => reject(new Error(`http.server exited with ${code}: ${out}`)));
  });
  return {url: address, served: paths};
}

before(async () => {
  if (SHOTS) mkdirSync(SHOTS, {recursive: true});
  ({url, served} = await serve(STATIC));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  for (const server of servers) server.kill('SIGTERM');
  for (const profile of profiles) rmSync(profile, {recursive: true, force: true});
});

function watch(page, problems, host = url) {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(host) && !request.url().startsWith('blob:')) {
      problems.push(`request outside the board's host: ${request.url()}`);
    }
  });
}

// A fresh phone (no storage) showing the static board (as served from `host`).
async function open({locale = 'en-US', viewport = PHONE, host = url} = {}) {
  const context = await browser.newContext({viewport, locale, isMobile: true,
                                            hasTouch: true, reducedMotion: 'reduce'});
  const page = await context.newPage();
  const problems = [];
  watch(page, problems, host);
  await page.goto(host);
  await idle(page);
  return {context, page, problems};
}

async function close({context, problems}) {
  await context.close();
  assert.deepEqual(problems, []);
}

async function hintText(page) {
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([data-move=""])');
  return page.locator('#hint-text').textContent();
}

// Waits until the browser keeps layer `seeds` of `table`'s tables ("kalah:6").
async function tablesReach(page, table, seeds) {
  const deadline = Date.now() + 120000;
  while (!(await keptKeys(page)).some((key) => key.endsWith(`/${table}/${seeds}`))) {
    assert.ok(Date.now() < deadline, `layer ${seeds} of ${table} is not kept`);
    await page.waitForTimeout(200);
  }
}

test('the static board plays a whole game of Oware against level 4 with no server, hint and analysis included', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'oware', opponent: 4});
  assert.match(await page.locator('#north-caption').textContent(), /level 4/);
  assert.match(await hintText(page), /Suggested move: [A-F]/);
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-body .tables-reach');
  await snap(page, 'static-oware-analysis-phone.png');
  const clicks = await playToTheEnd(page);
  assert.ok(clicks > 3);
  assert.match(await page.locator('#status').textContent(), /win|draw/);
  await snap(page, 'static-oware-end-phone.png');
  await close(session);
});

test('the tables are built in the browser, kept, and a damaged layer is built again, never used', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await tablesReach(page, 'kalah:6', 14);
  const key = (await keptKeys(page)).find((k) => k.endsWith('/kalah:6/9'));
  assert.ok(key);
  // One byte of layer 9 changed where it is kept: its checksum no longer matches.
  await page.evaluate((key) => new Promise((resolve) => {
    const opened = indexedDB.open('mancala-tables');
    opened.onsuccess = () => {
      const transaction = opened.result.transaction('layers', 'readwrite');
      const store = transaction.objectStore('layers');
      const get = store.get(key);
      get.onsuccess = () => {
        const value = get.result;
        const bytes = new Int8Array(value.bytes);
        bytes[17] = bytes[17] === 5 ? 6 : 5;
        store.put(value, key);
      };
      transaction.oncomplete = () => {
        opened.result.close();
        resolve();
      };
    };
  }), key);
  await page.reload();
  await idle(page);
  // Built again and kept anew: the layer's bytes match their checksum once more.
  await page.waitForFunction(async (key) => {
    const opened = await new Promise((r) => {
      const o = indexedDB.open('mancala-tables');
      o.onsuccess = () => r(o.result);
    });
    const value = await new Promise((r) => {
      const g = opened.transaction('layers').objectStore('layers').get(key);
      g.onsuccess = () => r(g.result);
    });
    opened.close();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', value.bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('') === value.sha256;
  }, key, {timeout: 60000});
  // And the values the board gives are the tables' (the native command's, built apart).
  await assertPanelGivesTheTables(page, 'kalah', 'kalah:6:4', '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S', 9);
  await close(session);
});

// Tables to `seeds` seeds of `kind` built by the native command, in a folder of their own.
const nativeTables = new Map();
function nativeTablesOf(kind, seeds) {
  const name = `${kind}/${seeds}`;
  if (!nativeTables.has(name)) {
    const db = mkdtempSync(join(tmpdir(), 'mancala-static-'));
    profiles.push(db);
    execFileSync(BINARY, ['db', 'build', kind, '--max-seeds', String(seeds), '--out', db, '--quiet']);
    nativeTables.set(name, db);
  }
  return nativeTables.get(name);
}

// Opens `position` of `game` (kind `kind`) on the board and checks that its analysis gives every
// move the value of the native command's tables to `seeds` seeds.
async function assertPanelGivesTheTables(page, kind, game, position, seeds) {
  await page.evaluate(({game, position}) => localStorage.setItem('mancala.game', JSON.stringify(
    {game, start: position, moves: [], opponent: 'human', computerSide: null})), {game, position});
  await page.reload();
  await idle(page);
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  const truth = JSON.parse(execFileSync(BINARY, ['db', 'query', kind, position, '--db',
                                                 nativeTablesOf(kind, seeds), '--json']).toString());
  const text = await page.locator('#analysis-body').innerText();
  for (const m of truth.moves) {
    const signed = m.score > 0 ? `\\+${m.score}` : String(m.score);
    assert.match(text, new RegExp(`\\b${m.move} ${signed}\\b`), text);
  }
  return truth;
}

// Where each kept layer of `table` came from ({SEEDS: 'built' or 'host'}).
function keptFrom(page, table) {
  return page.evaluate(async (table) => {
    const opened = await new Promise((resolve) => {
      const r = indexedDB.open('mancala-tables');
      r.onsuccess = () => resolve(r.result);
    });
    const entries = await new Promise((resolve) => {
      const store = opened.transaction('layers').objectStore('layers');
      const keys = store.getAllKeys();
      const values = store.getAll();
      values.onsuccess = () => resolve(keys.result.map((key, i) => [key, values.result[i]]));
    });
    opened.close();
    const from = {};
    for (const [key, value] of entries) {
      const [, name, seeds] = key.split('/');
      if (name === table) from[seeds] = value.from;
    }
    return from;
  }, table);
}

test('Oware\'s deepest layers come from the host that serves the board, as deep as it offers them, each checked: a damaged one is built instead', async () => {
  // An Oware position with 12 seeds on the board, whose moves are worth other than 0: a layer
  // of zeros taken for the real one would show.
  const position = '2-1-0-3-0-1-1-0-2-0-1-1-18-18-S';
  const table = 'oware:abapa';
  // The board as staged: layers 10 to 12 asked of the host and taken from it.
  let session = await open();
  await newGame(session.page, {kind: 'oware', opponent: 'human'});
  await tablesReach(session.page, table, 12);
  for (const seeds of [10, 11, 12]) assert.ok(served.includes(`/tables/oware-abapa/${seeds}.gz`));
  const from = await keptFrom(session.page, table);
  assert.deepEqual([from[9], from[10], from[11], from[12]], ['built', 'host', 'host', 'host']);
  const truth = await assertPanelGivesTheTables(session.page, 'oware', 'oware:4:abapa', position, 12);
  assert.ok(truth.moves.some((m) => m.score !== 0));
  await close(session);

  // The same board on a host that offers one layer more (13), and whose layer 12 is damaged (the
  // right size, every value 0): its checksum fails, and the layer is built in the browser
  // instead; the tables then go as deep as the host offers.
  const copy = mkdtempSync(join(tmpdir(), 'mancala-static-copy-'));
  profiles.push(copy);
  cpSync(STATIC, copy, {recursive: true});
  execFileSync('node', [EXPORT_LAYERS, '--engine', copy, '--out', join(copy, 'tables'),
                        'oware:10:13']);
  const list = JSON.parse(readFileSync(join(copy, 'tables', 'tables.json')));
  const entry = list.layers[table]['12'];
  writeFileSync(join(copy, 'tables', entry.file), gzipSync(Buffer.alloc(entry.size)));
  const damaged = await serve(copy);
  session = await open({host: damaged.url});
  await newGame(session.page, {kind: 'oware', opponent: 'human'});
  await tablesReach(session.page, table, 13);
  assert.ok(damaged.served.includes('/tables/oware-abapa/12.gz'));
  const fromDamaged = await keptFrom(session.page, table);
  assert.deepEqual([fromDamaged[11], fromDamaged[12], fromDamaged[13]], ['host', 'built', 'host']);
  await assertPanelGivesTheTables(session.page, 'oware', 'oware:4:abapa', position, 12);
  await close(session);
});

test('the static board speaks each language at 360 pixels without naming a server, and fits', async () => {
  // The word for a server in each catalogue: the board with no server never says it.
  // (Hebrew joins "the", "to" and "in" to the word; שרשרת, a chain, holds its letters.)
  const server = {en: /server/i, fr: /serveur/i, pt: /servidor/i,
                  he: /(?<!\p{L})[הלב]?שרת(?!\p{L})/u, th: /เซิร์ฟเวอร์/, ja: /サーバー/};
  // Three at a time: most of each is waiting for the analysis's two seconds.
  const languages = Object.entries(server);
  await Promise.all([0, 1, 2].map(async (first) => {
    for (let at = first; at < languages.length; at += 3) await speaks(...languages[at]);
  }));
  async function speaks(language, word) {
    const session = await open({locale: language, viewport: {width: 360, height: 640}});
    const {page} = session;
    await newGame(page, {kind: 'oware', opponent: 3});
    await page.click('#analysis-toggle');
    await page.waitForSelector('#analysis-body li');
    assert.equal(await page.evaluate(() => document.documentElement.lang), language);
    const text = await page.evaluate(() => document.body.innerText);
    assert.doesNotMatch(text, word, `${language}: ${text}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth),
              `${language}: the page is wider than the phone`);
    await snap(page, `static-${language}-360.png`);
    await snap(page, `static-${language}-360-full.png`, {fullPage: true});
    await close(session);
  }
});

test('every level, records, the daily puzzle and the puzzle trainer work on the static board', async () => {
  const session = await open();
  const {page} = session;
  const position = () => page.locator('#board-frame').getAttribute('data-position');
  // Each level opens a game of Kalah.
  for (const level of [1, 2, 3, 4, 5, 6]) {
    await newGame(page, {kind: 'kalah', opponent: level, first: 'computer'});
    await page.waitForSelector('.house.legal');
    assert.ok(await page.locator('#move-list button.move').count() >= 1, `level ${level}`);
  }
  // A game saved as a record, and loaded back.
  await newGame(page, {kind: 'oware', opponent: 'human'});
  for (const letter of ['f', 'a', 'e', 'b']) {
    await page.keyboard.press(letter);
    await idle(page);
  }
  const played = await position();
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await page.setInputFiles('#load-file', await download.path());
  await page.waitForFunction((p) =>
    document.getElementById('board-frame').dataset.position === p, played);
  // Today's puzzle, asked and judged.
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  await idle(page);
  await page.locator('.house.legal .pit').first().click();
  await page.waitForSelector('#puzzle[data-status="answered"]');
  // A puzzle of the trainer, solved along its line.
  await page.click('#trainer-next');
  if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  await page.waitForSelector('#trainer[data-status="asked"]');
  await idle(page);
  const library = JSON.parse(readFileSync(join(STATIC, 'puzzles', 'kalah-6-4.json'), 'utf8'));
  const id = await page.locator('#trainer').getAttribute('data-id');
  const asked = library.puzzles.find((p) => p.id === id);
  assert.ok(asked, `puzzle ${id} is in the library`);
  await solveLine(page, asked);
  await close(session);
});

test('a new version of the board replaces the kept one whole, and the page reloads itself into it', async () => {
  const copy = mkdtempSync(join(tmpdir(), 'mancala-static-versions-'));
  profiles.push(copy);
  cpSync(STATIC, copy, {recursive: true});
  const host = await serve(copy);
  const session = await open({host: host.url});
  const {page} = session;
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  const before = await page.evaluate(() => caches.keys());
  assert.equal(before.length, 1);
  // A new version on the host: a changed app.js, and the service worker that lists it under a
  // new version (as staging writes them).
  appendFileSync(join(copy, 'app.js'), "\nwindow.boardVersion = 'next';\n");
  const worker = readFileSync(join(copy, 'service-worker.js'), 'utf8');
  const version = worker.match(/const VERSION = '([0-9a-f]+)'/)[1];
  writeFileSync(join(copy, 'service-worker.js'),
                worker.replace(`'${version}'`, `'${version.replace(/./, (c) => (c === '0' ? '1' : '0'))}'`));
  // The next visit starts on the kept version (served by the kept service worker), finds the new
  // one, and reloads itself into it once it holds every file: the page then runs the new app.js,
  // and only the new version's cache is left.
  await page.reload();
  await page.waitForFunction(() => window.boardVersion === 'next', null, {timeout: 30000});
  await page.waitForFunction(async (old) => {
    const names = await caches.keys();
    return names.length === 1 && names[0] !== old;
  }, before[0], {timeout: 30000});
  await idle(page);
  await close(session);
});

test('after one visit the board loads and plays offline, and Chromium finds it installable', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'mancala-profile-'));
  profiles.push(profile);
  // A profile of its own: Chromium reports no incognito context installable.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', viewport: PHONE,
    args: ['--headless', '--no-sandbox', '--disable-gpu'], reducedMotion: 'reduce'});
  const page = await context.newPage();
  const problems = [];
  watch(page, problems);
  await page.goto(url);
  await idle(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await context.newCDPSession(page);
  assert.deepEqual((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, []);
  await tablesReach(page, 'kalah:6', 12);
  await context.setOffline(true);
  await page.reload();
  await idle(page);
  await newGame(page, {kind: 'kalah', opponent: 6});
  assert.match(await hintText(page), /Suggested move: [A-F]/);
  const clicks = await playToTheEnd(page);
  assert.ok(clicks > 0);
  assert.match(await page.locator('#status').textContent(), /win|draw/);
  await snap(page, 'static-offline-phone.png');
  await context.close();
  assert.deepEqual(problems, []);
});
