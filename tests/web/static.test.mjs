// Browser tests of the board with no server (docs/web-board.md, "The board with no server"): the
// static board the WebAssembly build stages (BUILD-WASM/web-static) served by `python3 -m
// http.server` on a loopback port, the engine running in the page's workers, Debian's Chromium
// driven headless by playwright-core. Each test saves phone screenshots in MANCALA_SCREENSHOTS.
//
// Run by browser_test.sh (through CTest) when it is given the static board (MANCALA_WEB_STATIC);
// MANCALA_BINARY is the native command, whose tables judge the browser's.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {after, before, test} from 'node:test';

import {chromium} from 'playwright-core';

import {idle, keptKeys, newGame, playToTheEnd} from './board-actions.mjs';

const BINARY = process.env.MANCALA_BINARY;
const STATIC = process.env.MANCALA_WEB_STATIC;
const SHOTS = process.env.MANCALA_SCREENSHOTS;
const PHONE = {width: 390, height: 844};

let server;
let url;
let browser;
const profiles = [];

before(async () => {
  mkdirSync(SHOTS, {recursive: true});
  server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1',
                             '--directory', STATIC], {stdio: ['ignore', 'pipe', 'pipe']});
  url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/port (\d+)/);
      if (match) resolve(`http://127.0.0.1:${match[1]}/`);
    });
    server.on('exit', (code) => reject(new Error(`http.server exited with ${code}: ${out}`)));
  });
  server.stderr.resume();  // its request log
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
  for (const profile of profiles) rmSync(profile, {recursive: true, force: true});
});

function watch(page, problems) {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('blob:')) {
      problems.push(`request outside the board's host: ${request.url()}`);
    }
  });
}

// A fresh phone (no storage) showing the static board.
async function open({locale = 'en-US'} = {}) {
  const context = await browser.newContext({viewport: PHONE, locale, isMobile: true,
                                            hasTouch: true, reducedMotion: 'reduce'});
  const page = await context.newPage();
  const problems = [];
  watch(page, problems);
  await page.goto(url);
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
  await page.screenshot({path: join(SHOTS, 'static-oware-analysis-phone.png')});
  const clicks = await playToTheEnd(page);
  assert.ok(clicks > 3);
  assert.match(await page.locator('#status').textContent(), /win|draw/);
  await page.screenshot({path: join(SHOTS, 'static-oware-end-phone.png')});
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
  const position = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';
  await page.evaluate((p) => localStorage.setItem('mancala.game', JSON.stringify(
    {game: 'kalah:6:4', start: p, moves: [], opponent: 'human', computerSide: null})), position);
  await page.reload();
  await idle(page);
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  const db = mkdtempSync(join(tmpdir(), 'mancala-static-'));
  profiles.push(db);
  execFileSync(BINARY, ['db', 'build', 'kalah', '--max-seeds', '9', '--out', db, '--quiet']);
  const truth = JSON.parse(execFileSync(BINARY, ['db', 'query', 'kalah', position, '--db', db,
                                                 '--json']).toString());
  const text = await page.locator('#analysis-body').innerText();
  for (const m of truth.moves) {
    const signed = m.score > 0 ? `\\+${m.score}` : String(m.score);
    assert.match(text, new RegExp(`\\b${m.move} ${signed}\\b`), text);
  }
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
  await page.screenshot({path: join(SHOTS, 'static-offline-phone.png')});
  await context.close();
  assert.deepEqual(problems, []);
});
