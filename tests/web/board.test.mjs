// Browser tests of the web board: the real `mancala serve` binary on a loopback port, Debian's
// Chromium driven headless by playwright-core, a person's clicks, taps and keys. Given
// MANCALA_SCREENSHOTS (a folder), the tests save desktop (1280x800) and phone (390x844)
// screenshots there, for a person to open.
//
// Run by browser_test.sh (through CTest), which installs playwright-core, builds small tables
// (8 seeds) and sets MANCALA_BINARY, MANCALA_WEB_DB, MANCALA_WEB_DIR and MANCALA_WEB_I18N (the
// app's sources, tools/http/web, and its catalogues). MANCALA_BROWSER_PART=K/N runs only the K-th
// of N parts (every N-th test from the K-th), so that CTest can run the parts side by side.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {after, before, test as nodeTest} from 'node:test';

import {chromium} from 'playwright-core';

import {idle, newGame, playToTheEnd, snap, solveLine} from './board-actions.mjs';

const [PART, PARTS] = (process.env.MANCALA_BROWSER_PART || '1/1').split('/').map(Number);
let registered = 0;
function test(name, ...rest) {
  if (registered++ % PARTS === PART - 1) nodeTest(name, ...rest);
}

const BINARY = process.env.MANCALA_BINARY;
const DB = process.env.MANCALA_WEB_DB;
const SHOTS = process.env.MANCALA_SCREENSHOTS;
const DESKTOP = {width: 1280, height: 800};
const PHONE = {width: 390, height: 844};

let server;
let url;
let browser;

before(async () => {
  if (SHOTS) mkdirSync(SHOTS, {recursive: true});
  server = spawn(BINARY, ['serve', '--port', '0', '--db', DB, '--move-seconds', '1',
                          '--analyse-seconds', '2'], {stdio: ['ignore', 'pipe', 'inherit']});
  url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/board is at (http:\S+)/);
      if (match) resolve(match[1]);
    });
    server.on('exit', (code) => reject(new Error(`mancala serve exited with ${code}: ${out}`)));
  });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.kill('SIGTERM');
});

// A browser page with nothing stored (no language, setup or game kept) showing the board, as a
// first visit finds it. onPage(page) is called before the page is opened (to listen to it from its
// first request). hash: a link's part after '#' (link.js), opened with the page.
//
// A page that a test has closed with close() is used again by the next open() with the same
// locale, motion and touch (the context's own settings): its storage cleared (CDP's
// Storage.clearDataForOrigin, every kind), loaded anew from about:blank, its listeners and
// viewport set again. Measured on the 2-core build machine, a page loaded in a new context cost
// Chromium 2.2-2.6 s of CPU, in a page used again 1.0-1.1 s (its renderer process and compiled
// scripts kept), and the browser tests are bound by the CPU. onPage's tests (what a first visit
// asks of the server: the browser's cache kept would answer instead) always get a new context.
const idleSessions = new Map();
const PAGE_EVENTS = ['pageerror', 'console', 'request', 'requestfailed', 'response', 'dialog',
                     'download', 'popup'];

// The page's script errors and console errors, as they come, go to `problems` (returned).
function watchProblems(page, problems) {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  return problems;
}

async function open({locale = 'en-US', reducedMotion = 'reduce', viewport = DESKTOP, touch = false,
                     onPage = null, hash = ''} = {}) {
  const key = `${locale} ${reducedMotion} ${touch}`;
  let context;
  let page;
  const reused = !onPage && idleSessions.get(key)?.pop();
  if (reused) {
    ({context, page} = reused);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', {origin: new URL(url).origin, storageTypes: 'all'});
    await cdp.detach();
    await page.setViewportSize(viewport);
  } else {
    context = await browser.newContext({viewport, locale, reducedMotion, acceptDownloads: true,
                                        hasTouch: touch, isMobile: touch});
    page = await context.newPage();
  }
  if (onPage) onPage(page);
  const problems = watchProblems(page, []);
  // Which page load each request belongs to: leaving a page (a reload, a link) drops what it
  // was still fetching, which is no failure of the page's.
  let loads = 0;
  const loadOf = new WeakMap();
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) ++loads;
    else loadOf.set(request, loads);
  });
  page.on('requestfailed', (request) => {
    const aborted = request.failure()?.errorText === 'net::ERR_ABORTED';
    // The page itself drops the analysis of a position the game has left.
    const dropped = aborted && (request.url().includes('/api/v1/analyse') ||
                                (loadOf.has(request) && loadOf.get(request) < loads));
    if (!dropped) problems.push(`request failed: ${request.url()}`);
  });
  // Nothing but the server itself: no CDN, no fonts from elsewhere.
  page.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('blob:')) {
      problems.push(`request outside the server: ${request.url()}`);
    }
  });
  await page.goto(`${url}${hash}`);
  await idle(page);
  return {context, page, problems, key: onPage ? null : key};
}

async function position(page) {
  return page.locator('#board-frame').getAttribute('data-position');
}

// Desktop and phone screenshots of the page as it is.
async function shots(page, name) {
  if (!SHOTS) return;
  const size = page.viewportSize();
  for (const [suffix, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await snap(page, `${name}-${suffix}.png`, {fullPage: true});
  }
  await page.setViewportSize(size);
}

// Ends a test's page: fails on the page's problems, and keeps the page for the next open() (see
// open) unless it was given listeners from the start or the test opened other pages beside it.
async function close({context, page, problems, key}) {
  const others = context.pages().filter((p) => p !== page);
  if (key && !page.isClosed() && others.length === 0) {
    for (const event of PAGE_EVENTS) page.removeAllListeners(event);
    await page.goto('about:blank');
    if (!idleSessions.has(key)) idleSessions.set(key, []);
    idleSessions.get(key).push({context, page});
  } else {
    await context.close();
  }
  assert.deepEqual(problems, []);
}

// Opens the analysis panel unless it is open already (it opens by itself inside the tables).
async function openAnalysis(page) {
  if (await page.locator('#analysis-toggle').getAttribute('aria-expanded') !== 'true') {
    await page.click('#analysis-toggle');
  }
}

function dbQuery(game, positionString) {
  return JSON.parse(execFileSync(BINARY, ['db', 'query', game, positionString, '--db', DB,
                                          '--json']).toString());
}

// Loads a record; waits for its own message (a record loaded before left one on the line).
async function loadRecord(page, name, text) {
  const before = await page.locator('#message').textContent();
  await page.setInputFiles('#load-file', {name, mimeType: 'text/plain',
                                          buffer: Buffer.from(text)});
  await page.waitForFunction((b) => !['', b].includes(document.getElementById('message').textContent),
                             before);
  await idle(page);
}

for (const [kind, name] of [['kalah', 'Kalah'], ['oware', 'Oware'], ['congkak', 'Congkak']]) {
  test(`a whole game of ${name} by clicks against level 1`, async () => {
    const session = await open();
    const {page} = session;
    await newGame(page, {kind, opponent: 1});
    assert.match(await page.locator('#north-caption').textContent(), /Computer, level 1/);
    const clicks = await playToTheEnd(page);
    assert.ok(clicks > 3);
    // The move list grew a ply at a time (history.js appends): it is the list drawn whole, as
    // another language draws it again and this one back.
    const grown = await page.locator('#move-list').innerHTML();
    await chooseLanguage(page, 'fr');
    await chooseLanguage(page, 'en');
    assert.equal(await page.locator('#move-list').innerHTML(), grown);
    const status = await page.locator('#status').textContent();
    assert.match(status, /win|draw/);
    // Every seed ended in a store (or, after Oware's majority rule, some on the board).
    const total = {kalah: 48, oware: 48, congkak: 98}[kind];
    const fields = (await position(page)).split('-').slice(0, -1).map(Number);
    assert.equal(fields.reduce((a, b) => a + b, 0), total);
    await shots(page, `game-${kind}`);
    await close(session);
  });
}

// Kalah(6,4) from `start`, against level 1 as North, kept on the device and the page reloaded, as
// a returning player finds it; then Hint: the hint's text.
async function hintAfterReload(page, start) {
  await page.evaluate((s) => localStorage.setItem('mancala.game', JSON.stringify(
    {game: 'kalah:6:4', start: s, moves: [], opponent: '1', computerSide: 'North'})), start);
  await page.reload();
  await idle(page);
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([data-move=""])');
  return page.locator('#hint-text').textContent();
}

// The page's language chosen from its menu, once the page has taken it.
async function chooseLanguage(page, code) {
  await page.selectOption('#language', code);
  await page.waitForFunction((c) => document.documentElement.lang === c, code);
}

test('houses are buttons named by letter and seeds, played by click, key or Enter', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  const houseC = page.getByRole('button', {name: 'house C (South), 4 seeds', exact: true});
  await houseC.click();
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');
  await page.keyboard.press('f');  // South moves again: F
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-0-5-5-5-5-4-4-2-0-N');
  assert.match(await page.locator('#status').textContent(), /North to move/);
  await page.getByRole('button', {name: 'house b (North), 5 seeds', exact: true}).focus();
  await page.keyboard.press('Enter');
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-0-5-0-6-6-5-5-2-1-N');
  // North's b is empty now, and not a move.
  const b = page.getByRole('button', {name: 'house b (North), 0 seeds', exact: true});
  assert.equal(await b.getAttribute('aria-disabled'), 'true');
  await shots(page, 'keyboard');
  await close(session);
});

test('undo takes back your move and the computer\'s answer', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.getByRole('button', {name: 'house C (yours), 4 seeds', exact: true}).click();
  await idle(page);
  const afterC = await position(page);
  assert.equal(afterC, '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');  // an extra turn: still yours
  await page.getByRole('button', {name: 'house A (yours), 4 seeds', exact: true}).click();
  await idle(page);
  assert.notEqual(await position(page), afterC);
  await page.click('#undo');
  await idle(page);
  assert.equal(await position(page), afterC);
  assert.match(await page.locator('#status').textContent(), /You/);
  await shots(page, 'undo');
  await close(session);
});

test('the computer opens when it moves first, and plays South', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'congkak', opponent: 3, first: 'computer'});
  assert.notEqual(await position(page), '7-7-7-7-7-7-7-7-7-7-7-7-7-7-0-0-S');
  assert.match(await page.locator('#status').textContent(), /Your move|You win|wins|draw/);
  assert.equal(await page.locator('#north-caption').textContent(), 'North: You');
  assert.equal(await page.locator('#south-caption').textContent(), 'South: Computer, level 3');
  await shots(page, 'computer-first');
  await close(session);
});

test('the sowing is drawn seed by seed and a tap skips it', async () => {
  const session = await open({reducedMotion: 'no-preference'});
  const {page} = session;
  await newGame(page, {kind: 'kalah', houses: 6, seeds: 12, opponent: 'human'});
  await page.getByRole('button', {name: 'house A (South), 12 seeds', exact: true}).click();
  await page.waitForSelector('#skip-note:not([hidden])');
  // Midway: the emptied house is drawn empty while the seeds go round.
  await page.waitForTimeout(250);
  await snap(page, `animation-midway-desktop.png`);
  await page.locator('#board').click({position: {x: 5, y: 5}});
  await idle(page);
  assert.equal(await page.locator('#skip-note').isHidden(), true);
  assert.equal(await position(page), '0-13-13-13-13-13-13-13-13-13-13-13-1-0-N');
  await shots(page, 'animation');
  await close(session);
});

test('a hint and the analysis inside the tables agree with mancala db query', async () => {
  const session = await open();
  const {page} = session;
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';  // winning, drawing and losing moves
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${start}"]\n[Result "*"]\n\n*\n`);
  assert.equal(await position(page), start);
  const query = dbQuery('kalah', start);
  await page.click('#hint');
  await page.waitForSelector('.house.hint');
  const hinted = await page.locator('.house.hint').getAttribute('data-letter');
  assert.ok(query.best.includes(hinted), `hint ${hinted}, best ${query.best}`);
  assert.match(await page.locator('#hint-text').textContent(), /Best move: .* perfect play/);
  // Inside the tables the panel opens by itself.
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  assert.equal(await page.locator('#analysis-toggle').getAttribute('aria-expanded'), 'true');
  const shown = await page.locator('#analysis-body li').evaluateAll((items) =>
    items.map((li) => ({move: li.dataset.move, score: Number(li.dataset.score),
                        group: li.closest('.analysis-group').className})));
  const lead = 0;  // stores 20 and 20
  assert.equal(shown.length, query.moves.length);
  for (const m of query.moves) {
    const item = shown.find((s) => s.move === m.move);
    assert.ok(item, `move ${m.move} missing`);
    assert.equal(item.score, lead + m.value, `move ${m.move}`);
    const group = m.value > 0 ? 'group-win' : m.value < 0 ? 'group-loss' : 'group-draw';
    assert.ok(item.group.includes(group), `move ${m.move} in ${item.group}`);
  }
  await shots(page, 'analysis-tables');
  await close(session);
});

// The hint and the analysis panel are one answer: one request to /api/v1/analyse, whose best move
// (with its value and whether it is exact) the hint shows and the panel lists first.
async function expectHintIsTheAnalysisBest(page) {
  const analyses = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/analyse')) analyses.push(request.url());
  });
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([data-move=""])', {timeout: 30000});
  const hinted = await page.locator('#hint-text').evaluate((e) => ({...e.dataset}));
  await openAnalysis(page);
  await page.waitForSelector('#analysis-body li');
  const first = await page.locator('#analysis-body li').first().evaluate((li) => ({...li.dataset}));
  assert.equal(hinted.move, first.move);
  assert.equal(hinted.score, first.score);
  // One request at most: inside the tables the panel, opening by itself, may have asked already.
  assert.ok(analyses.length <= 1, analyses.join(' '));
  return hinted;
}

test('at the Kalah start the hint is the analysis panel\'s best move and value', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  const hinted = await expectHintIsTheAnalysisBest(page);
  const text = await page.locator('#hint-text').textContent();
  assert.ok(hinted.provenance === 'estimate' ? text.includes(`${Number(hinted.score) > 0 ? '+' : ''}${hinted.score}`)
                                             : /perfect play/.test(text), text);
  await close(session);
});

test('inside the tables the hint is the analysis panel\'s best move and value', async () => {
  const session = await open();
  const {page} = session;
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${start}"]\n[Result "*"]\n\n*\n`);
  const hinted = await expectHintIsTheAnalysisBest(page);
  assert.equal(hinted.provenance, 'tables');
  assert.equal(Number(hinted.score), dbQuery('kalah', start).score);
  await close(session);
});

test('outside the tables the analysis is marked as estimates', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'oware', opponent: 'human'});
  await openAnalysis(page);
  await page.waitForSelector('#analysis-body[data-source="search"] li', {timeout: 15000});
  assert.equal(await page.locator('#analysis-body li').count(), 6);
  assert.match(await page.locator('#analysis-body').textContent(), /Estimates/);
  await page.click('#show-thinking');
  await shots(page, 'analysis-search');
  await close(session);
});

test('Hebrew turns the page right to left and leaves the board as it is', async () => {
  const session = await open();
  const {page} = session;
  // Where each house and store lies on the board (the board itself moves with the page's
  // columns, which right to left swap sides).
  const boxes = async () => page.locator('.house .pit, .store .pit').evaluateAll((pits) =>
    pits.map((pit) => {
      const board = document.getElementById('board').getBoundingClientRect();
      const r = pit.getBoundingClientRect();
      return [Math.round(r.x - board.x), Math.round(r.y - board.y)];
    }));
  const english = await boxes();
  await page.selectOption('#language', 'he');
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'he');
  assert.equal(await page.locator('#board-frame').getAttribute('dir'), 'ltr');
  assert.deepEqual(await boxes(), english);
  // South's A is still on the left of F, North's a above F: sowing stays counter-clockwise.
  const x = async (letter) => (await page.locator(`.house[data-letter="${letter}"] .pit`)
    .boundingBox()).x;
  assert.ok(await x('A') < await x('F'));
  assert.ok(await x('a') > await x('f'));
  assert.match(await page.locator('#status').textContent(), /[\u0590-\u05ff]/);
  assert.equal(await page.getByRole('button', {name: 'גומה C (שלך), 4 זרעים', exact: true}).count(), 1);
  await shots(page, 'language-he');
  await close(session);
});

test('Japanese is chosen on the page and kept for the next visit', async () => {
  const session = await open();
  const {page} = session;
  await chooseLanguage(page, 'ja');
  assert.equal(await page.title(), 'マンカラ');
  assert.equal(await page.getByRole('button', {name: '穴 C（あなた）、種 4 個', exact: true}).count(), 1);
  await page.locator('#rules summary').click();
  assert.match(await page.locator('#rules-list').textContent(), /ストア/);
  await shots(page, 'language-ja');
  await page.reload();
  await idle(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  await close(session);
});

test('the language follows the browser, in every language', async () => {
  for (const [locale, code, word] of [['fr-FR', 'fr', 'Nouvelle partie'],
                                      ['pt-BR', 'pt', 'Novo jogo'], ['th-TH', 'th', 'เกมใหม่'],
                                      ['en-GB', 'en', 'New game']]) {
    const session = await open({locale});
    const {page} = session;
    assert.equal(await page.evaluate(() => document.documentElement.lang), code);
    assert.equal(await page.locator('#new-game').textContent(), word);
    await page.locator('#rules summary').click();
    await shots(page, `language-${code}`);
    await close(session);
  }
  // A language chosen on the page is kept over the browser's, from the first paint of the next
  // visit on (Hebrew right to left before the script has run).
  const session = await open({locale: 'fr-FR'});
  const {page} = session;
  await chooseLanguage(page, 'he');
  await page.reload();
  await idle(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'he');
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  await chooseLanguage(page, 'ja');
  await page.reload();
  await idle(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ja');
  assert.notEqual(await page.evaluate(() => document.documentElement.dir), 'rtl');
  await close(session);
});

test('a saved game loads back, and so does an Aualé .ogn record', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'oware', opponent: 'human'});
  for (const letter of ['F', 'a', 'E', 'b']) {
    await page.keyboard.press(letter.toLowerCase());
    await idle(page);
  }
  const played = await position(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  const saved = await download.path();
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await page.setInputFiles('#load-file', saved);
  await page.waitForFunction((p) =>
    document.getElementById('board-frame').dataset.position === p, played);
  assert.equal(await page.locator('#board-frame').getAttribute('data-game'), 'oware:4:abapa');
  const ogn = '[Variant "Oware Abapa"]\n[Event "Untitled"]\n[South "Human"]\n' +
              '[North "Aalina"]\n[Result "*"]\n\n1. F a 2. E b { a comment } 3. D c+2\n';
  await loadRecord(page, 'game.ogn', ogn);
  assert.match(await page.locator('#message').textContent(), /6 moves/);
  assert.equal(await position(page), '6-6-6-1-0-2-2-1-0-8-7-7-0-2-S');
  await page.click('#undo');  // two players on this device now: one move back
  await idle(page);
  assert.equal(await position(page), '5-5-5-0-1-2-2-1-8-7-6-6-0-0-N');
  await shots(page, 'record');
  await close(session);
});

// The turns in the move list, as the page shows them: [side, [letters...]] a turn.
async function moveList(page) {
  return page.locator('#move-list li').evaluateAll((items) => items.map((li) =>
    [li.dataset.side, [...li.querySelectorAll('button.move')].map((b) => b.textContent)]));
}

test('a reload in mid-game brings the game back, moves and opponent included', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'oware', opponent: 2});
  for (let i = 0; i < 3; ++i) {
    await page.locator('.house.legal .pit').first().click();
    await idle(page);
  }
  const before = {position: await position(page), moves: await moveList(page),
                  north: await page.locator('#north-caption').textContent()};
  assert.equal(before.moves.length, 6);  // three of yours, three answers
  await page.reload();
  await idle(page);
  assert.equal(await position(page), before.position);
  assert.deepEqual(await moveList(page), before.moves);
  assert.equal(await page.locator('#north-caption').textContent(), before.north);
  assert.match(await page.locator('#status').textContent(), /Your move/);
  // And it goes on: your move is answered by the computer kept with the game.
  await page.locator('.house.legal .pit').first().click();
  await idle(page);
  assert.equal((await moveList(page)).length, 8);
  await shots(page, 'reload');
  await close(session);
});

test('the move list keeps an extra-turn chain in one turn and steps back through it', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await page.keyboard.press('c');  // C ends in South's store: South moves again
  await idle(page);
  await page.keyboard.press('f');
  await idle(page);
  await page.keyboard.press('b');
  await idle(page);
  assert.deepEqual(await moveList(page), [['South', ['C', 'F']], ['North', ['b']]]);
  const now = await position(page);
  await page.keyboard.press('ArrowLeft');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               '4-4-0-5-5-0-5-5-5-5-4-4-2-0-N');
  assert.equal(await page.locator('.house.legal').count(), 0);  // a past position is not played
  await page.keyboard.press('Home');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S');
  await page.click('#move-list button[data-ply="1"]');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');
  await shots(page, 'replay');
  await page.keyboard.press('End');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), now);
  assert.ok(await page.locator('.house.legal').count() > 0);
  await close(session);
});

test('a computer turn of several sowings appears whole in the move list and in the animation',
     async () => {
  const session = await open({reducedMotion: 'no-preference'});
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  // Every sowing drawn, as the board frame names it while it is drawn.
  await page.evaluate(() => {
    window.drawn = [];
    const frame = document.getElementById('board-frame');
    new MutationObserver(() => {
      const sowing = frame.dataset.sowing;
      if (sowing && window.drawn[window.drawn.length - 1] !== sowing) window.drawn.push(sowing);
    }).observe(frame, {attributes: true, attributeFilter: ['data-sowing']});
  });
  // Level 4 (a fixed search: the same moves each time) opens Kalah with C, which ends in its
  // store, and moves again.
  await page.selectOption('#setup-opponent', '4');
  await page.selectOption('#setup-first', 'computer');
  await page.click('#setup-start');
  await page.waitForFunction(() => document.getElementById('board-frame').dataset.busy === 'false' &&
                                   /You/.test(document.getElementById('status').textContent),
                           null, {timeout: 30000});
  const turns = await moveList(page);
  assert.equal(turns.length, 1);
  assert.equal(turns[0][0], 'South');
  assert.ok(turns[0][1].length >= 2, JSON.stringify(turns));
  assert.deepEqual(await page.evaluate(() => window.drawn), turns[0][1]);
  assert.equal(await page.locator('#board-frame').getAttribute('data-sown'), turns[0][1].join(''));
  // Said to screen readers, and the houses say whose they are.
  assert.match(await page.locator('#announce').textContent(), /Computer, level 4 played/);
  assert.equal(await page.getByRole('button', {name: /^house a \(yours\)/}).count(), 1);
  assert.equal(await page.getByRole('button', {name: /^house A \(the computer's\)/}).count(), 1);
  await close(session);
});

test('the board turns when you play North, and Undo waits for a move of yours', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1, first: 'computer'});
  assert.equal(await page.locator('#board-frame').getAttribute('data-turned'), 'true');
  const box = async (letter) => page.locator(`.house[data-letter="${letter}"] .pit`).boundingBox();
  // Your row (North's a..f) is the one nearest you, from left to right, and South's is across.
  assert.ok((await box('a')).y > (await box('A')).y);
  assert.ok((await box('a')).x < (await box('f')).x);
  assert.equal(await page.locator('#undo').isDisabled(), true);  // only the computer has moved
  await page.locator('.house.legal .pit').first().click();
  await idle(page);
  assert.equal(await page.locator('#undo').isDisabled(), false);
  await shots(page, 'turned');
  await newGame(page, {kind: 'kalah', opponent: 1, first: 'me'});
  assert.equal(await page.locator('#board-frame').getAttribute('data-turned'), 'false');
  await close(session);
});

test('a hint speaks to you in your person', async () => {
  for (const [locale, wrong, right] of [['en-US', /You (wins|loses|draws)|for You/, /you|You/],
                                        ['fr-FR', /Vous (gagne|perd|fait)|pour Vous/, /vous/]]) {
    const session = await open({locale});
    const {page} = session;
    const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';
    await loadRecord(page, 'endgame.txt',
                     `[Game "kalah:6:4"]\n[Position "${start}"]\n[Result "*"]\n\n*\n`);
    // The loaded position, now against the computer: through the kept game, as a reload does.
    const text = await hintAfterReload(page, start);
    assert.doesNotMatch(text, wrong);
    assert.match(text, right);
    await close(session);
  }
});

test('playing on with the analysis open drops the analyses of positions already left', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'oware', opponent: 'human'});
  const asked = [], dropped = [];
  page.on('request', (r) => { if (r.url().includes('/api/v1/analyse')) asked.push(r.url()); });
  page.on('requestfailed', (r) => { if (r.url().includes('/api/v1/analyse')) dropped.push(r.url()); });
  await openAnalysis(page);
  for (const letter of ['f', 'a', 'e']) {  // each answered in 2 s; the moves come faster
    await page.keyboard.press(letter);
    await idle(page);
  }
  await page.waitForSelector('#analysis-body[data-source] li', {timeout: 20000});
  assert.equal(asked.length, 4);  // the start and the three positions after it
  assert.deepEqual(dropped, asked.slice(0, 3));
  assert.match(await position(page), /-N$/);
  await close(session);
});

// Where an element lies, rounded: [x, y, width, height].
async function boxOf(locator) {
  const b = await locator.boundingBox();
  return [b.x, b.y, b.width, b.height].map(Math.round);
}

function inside(box, viewport) {
  const [x, y, width, height] = box;
  return x >= 0 && y >= 0 && x + width <= viewport.width && y + height <= viewport.height;
}

// Phone first: the whole board (every house and both stores) and the action bar on the screen
// with nothing scrolled, upright and sideways, and the hinted house too after Hint.
for (const viewport of [{width: 360, height: 640}, {width: 390, height: 844},
                        {width: 844, height: 390}]) {
  test(`at ${viewport.width}x${viewport.height} the board and the action bar fit the screen`,
       async () => {
    const session = await open({viewport});
    const {page} = session;
    for (const first of ['me', 'computer']) {  // South's side, and the board turned for North
      await newGame(page, {kind: 'kalah', opponent: 1, first});
      const boxes = {};
      for (const selector of ['.house .pit', '.store .pit', '#undo', '#hint', '#analysis-toggle',
                              '#new-game', '#status']) {
        for (const [i, locator] of (await page.locator(selector).all()).entries()) {
          boxes[`${selector} ${i}`] = await boxOf(locator);
        }
      }
      for (const [name, box] of Object.entries(boxes)) {
        assert.ok(inside(box, viewport), `${first}: ${name} at ${box} outside ${JSON.stringify(viewport)}`);
      }
      console.log(`${viewport.width}x${viewport.height} (${first} first): board ` +
                  `${JSON.stringify(await boxOf(page.locator('#board')))}, action bar ` +
                  `${JSON.stringify(await boxOf(page.locator('.controls.actions')))}`);
      await page.click('#hint');
      await page.waitForSelector('.house.hint', {timeout: 30000});
      const hinted = await boxOf(page.locator('.house.hint .pit'));
      assert.ok(inside(hinted, viewport), `hinted house at ${hinted}`);
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      // The hint's words are beside the status, inside the status bar.
      assert.ok(inside(await boxOf(page.locator('#hint-text')), viewport));
      await snap(page, `phone-${viewport.width}x${viewport.height}-${first}.png`);
    }
    await close(session);
  });
}

// Whether a text is shown whole in its box (not cut by the status bar's fixed height).
async function whole(locator) {
  return locator.evaluate((e) => e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1);
}

test('on a phone the daily puzzle asks and answers beside the board, the question whole', async () => {
  const session = await open({viewport: {width: 360, height: 640}});
  const {page} = session;
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  await idle(page);
  const question = await page.locator('#puzzle-text').textContent();
  for (const viewport of [{width: 360, height: 640}, {width: 390, height: 844},
                          {width: 844, height: 390}]) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.equal(await page.locator('#hint-text').textContent(), question);
    assert.ok(inside(await boxOf(page.locator('#hint-text')), viewport), JSON.stringify(viewport));
    assert.ok(await whole(page.locator('#hint-text')), JSON.stringify(viewport));
  }
  await page.setViewportSize({width: 360, height: 640});
  const puzzle = await page.locator('#puzzle').getAttribute('data-position');
  await page.keyboard.press(dbQuery('kalah', puzzle).moves[0].move.toLowerCase());
  await page.waitForFunction(() => /Right/.test(document.getElementById('hint-text').textContent));
  assert.equal(await page.locator('#hint-text').textContent(),
               await page.locator('#puzzle-text').textContent());
  assert.ok(inside(await boxOf(page.locator('#hint-text')), {width: 360, height: 640}));
  assert.ok(await whole(page.locator('#hint-text')));
  await idle(page);
  await snap(page, `phone-360x640-puzzle.png`);
  await close(session);
});

test('at 360 px a hint is shown whole in every language', async () => {
  const viewport = {width: 360, height: 640};
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';  // D captures, F ends in the store
  const session = await open({viewport});
  const {page} = session;
  for (const code of ['en', 'fr', 'pt', 'he', 'th', 'ja']) {
    await chooseLanguage(page, code);
    const text = await hintAfterReload(page, start);
    assert.ok(await whole(page.locator('#hint-text')), `${code}: ${text}`);
    assert.ok(inside(await boxOf(page.locator('#hint-text')), viewport), code);
    assert.ok(inside(await boxOf(page.locator('.controls.actions')), viewport), code);
    await snap(page, `phone-360x640-hint-${code}.png`);
  }
  await close(session);
});

test('Analysis opened on a phone comes into view', async () => {
  const session = await open({viewport: PHONE});
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  assert.ok((await page.locator('#analysis-toggle').boundingBox()).y < PHONE.height);
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis:not([hidden])');
  await page.waitForFunction(() => {
    const top = document.getElementById('analysis').getBoundingClientRect().top;
    return top > -2 && top < window.innerHeight - 96;  // scrolled to it, to the subpixel
  }, null, {timeout: 5000});
  await close(session);
});

test('the rules describe the board as it is drawn: wide or turned on a phone, your side or North\'s',
     async () => {
  const session = await open();
  const {page} = session;
  const rules = async () => (await page.locator('#rules-board li').allTextContents()).join(' ');
  const cases = [[DESKTOP, 'me', /South \(the lower row\) and North \(the upper row\).*South's on the right, North's on the left.*South's A, B, C… from left to right, North's a, b, c… from right to left/],
                 [DESKTOP, 'computer', /South \(the upper row\) and North \(the lower row\).*South's on the left, North's on the right.*from right to left, North's a, b, c… from left to right/],
                 [PHONE, 'me', /South \(the left column\) and North \(the right column\).*South's at the bottom, North's at the top.*from top to bottom, North's a, b, c… from bottom to top/],
                 [PHONE, 'computer', /South \(the right column\) and North \(the left column\).*South's at the top, North's at the bottom.*from bottom to top, North's a, b, c… from top to bottom/]];
  for (const [viewport, first, expected] of cases) {
    await page.setViewportSize(viewport);
    await newGame(page, {kind: 'kalah', opponent: 1, first});
    assert.match(await rules(), expected, `${viewport.width} ${first}`);
  }
  await close(session);
});

test('the note to skip a sowing says Click with a mouse and Tap on a touch screen, over no count',
     async () => {
  for (const [touch, viewport, word] of [[false, DESKTOP, /^Click the board/],
                                         [true, PHONE, /^Tap the board/],
                                         [false, {width: 844, height: 390}, /^Click the board/]]) {
    const session = await open({reducedMotion: 'no-preference', viewport, touch});
    const {page} = session;
    await newGame(page, {kind: 'kalah', houses: 6, seeds: 12, opponent: 'human'});
    const house = page.getByRole('button', {name: 'house A (South), 12 seeds', exact: true});
    if (touch) await house.locator('.pit').tap();
    else await house.click();
    await page.waitForSelector('#skip-note:not([hidden])');
    assert.match(await page.locator('#skip-note').textContent(), word);
    const note = await page.locator('#skip-note').boundingBox();
    const board = await page.locator('#board').boundingBox();
    assert.ok(note.y + note.height <= board.y || note.y >= board.y + board.height,
              `the note ${JSON.stringify(note)} over the board ${JSON.stringify(board)}`);
    assert.ok(inside(await boxOf(page.locator('#skip-note')), viewport));
    if (!touch) await snap(page, `sowing-${viewport.width}x${viewport.height}.png`);
    await page.keyboard.press('x');
    await idle(page);
    await close(session);
  }
});

test('nothing moves during a sowing: the action bar and the board stay where they are', async () => {
  const session = await open({viewport: PHONE, reducedMotion: 'no-preference'});
  const {page} = session;
  await newGame(page, {kind: 'kalah', houses: 6, seeds: 12, opponent: 'human'});
  const where = async () => ({bar: await boxOf(page.locator('.controls.actions')),
                              board: await boxOf(page.locator('#board')),
                              caption: await boxOf(page.locator('#south-caption'))});
  const before = await where();
  await page.getByRole('button', {name: 'house A (South), 12 seeds', exact: true}).click();
  await page.waitForSelector('#skip-note:not([hidden])');
  assert.match(await page.locator('#status').textContent(), /Sowing A/);
  assert.deepEqual(await where(), before);
  await snap(page, `sowing-phone.png`);
  await page.locator('#board').click({position: {x: 5, y: 5}});
  await idle(page);
  assert.deepEqual(await where(), before);
  await close(session);
});

test('New game asks before it throws a game away', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.keyboard.press('a');
  await idle(page);
  const played = await position(page);
  await page.click('#new-game');
  await page.waitForSelector('#confirm-yes');
  await page.click('#confirm-no');
  assert.equal(await page.locator('#confirm-yes').count(), 0);
  assert.equal(await position(page), played);
  await page.click('#new-game');
  await page.click('#confirm-yes');
  await idle(page);
  assert.equal(await position(page), '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S');
  await close(session);
});

test('today\'s puzzle asked in mid-game starts on yes, without asking again', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.keyboard.press('a');
  await idle(page);
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  await page.click('#confirm-yes');
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  await idle(page);
  assert.equal(await page.locator('#confirm-yes').count(), 0);
  assert.equal(await position(page), await page.locator('#puzzle').getAttribute('data-position'));
  await close(session);
});

test('a question left unanswered does not take over New game\'s yes', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.keyboard.press('a');
  await idle(page);
  // The puzzle asks first; the player plays on instead of answering.
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  await page.waitForSelector('#confirm-yes');
  await page.locator('.house.legal .pit').first().click();
  await idle(page);
  await page.click('#new-game');
  await page.click('#confirm-yes');
  await idle(page);
  assert.equal(await page.locator('#confirm-yes').count(), 0);
  assert.equal(await position(page), '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S');
  assert.equal(await page.locator('#puzzle').getAttribute('data-status'), '');
  await close(session);
});

test('the tables panel: verdict, best line, every move by category, a move played from it',
     async () => {
  const session = await open();
  const {page} = session;
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${start}"]\n[Result "*"]\n\n*\n`);
  const query = dbQuery('kalah', start);
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  const verdict = await page.locator('#analysis-summary').textContent();
  const outcome = query.score > 0 ? `wins by ${query.score}` : query.score < 0
                ? `loses by ${-query.score}` : 'draws';
  assert.ok(verdict.includes(`South ${outcome}`) && verdict.includes('endgame tables'), verdict);
  const line = (await page.locator('.best-line').textContent()).split(' ');
  assert.ok(query.best.includes(line[0]), `${line} against ${query.best}`);
  // How far the tables reach (browser_test.sh builds them to 8 seeds).
  assert.equal(await page.locator('.tables-reach').textContent(),
               'The endgame tables know every position with up to 8 seeds on the board.');
  // Each move's category is the one db query gives.
  for (const m of query.moves) {
    const item = page.locator(`#analysis-body li[data-move="${m.move}"]`);
    assert.equal(await item.getAttribute('data-category'), m.category, m.move);
  }
  // The worst move, played from the panel.
  const worst = query.moves[query.moves.length - 1];
  await page.locator(`#analysis-body li[data-move="${worst.move}"] button`).click();
  await idle(page);
  assert.equal(await position(page), worst.position);
  await shots(page, 'tables-panel');
  // Then the hint explains itself: its move, what it does, its value and where it comes from.
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([data-move=""])');
  assert.match(await page.locator('#hint-text').textContent(),
               /^Best move: [a-f]\. .*perfect play North (wins|loses|draws).*\(exact, from the endgame tables\)\.$/);
  await close(session);
});

test('hints explain the move, its value and its source in every language', async () => {
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';  // D captures, F ends in the store
  const words = {en: /another turn|captures 2 seeds/, fr: /rejouez|prend 2 graines/,
                 pt: /joga outra vez|Captura 2 sementes/, he: /תור נוסף|לוכד/,
                 th: /เดินอีกตา|กิน/, ja: /もう一度|2粒を取ります/};
  const session = await open();
  const {page} = session;
  for (const code of Object.keys(words)) {
    await chooseLanguage(page, code);
    const text = await hintAfterReload(page, start);
    assert.match(text, words[code], `${code}: ${text}`);
    assert.doesNotMatch(text, /\{|\}|  /, `${code}: ${text}`);
  }
  await close(session);
});

test('the game-over summary marks the moves that changed the exact value', async () => {
  const session = await open();
  const {page} = session;
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${start}"]\n[Result "*"]\n\n*\n`);
  await playToTheEnd(page);
  await page.waitForSelector('#summary[data-known]');
  const moves = (await moveList(page)).flatMap(([, letters]) => letters);
  assert.equal(Number(await page.locator('#summary').getAttribute('data-known')), moves.length);
  // The values before and after each move, from db query: the summary lists exactly the moves
  // that changed the mover's value.
  const positions = await page.evaluate(async ({s, m}) => {
    const r = await fetch(`/api/v1/position?game=kalah&position=${s}&moves=${m}&played=all`);
    return (await r.json()).played.map((p) => p.position);
  }, {s: start, m: moves.join('')});
  const southValue = (p) => {
    const fields = p.split('-');
    const over = fields.slice(0, 6).every((f) => f === '0') || fields.slice(6, 12).every((f) => f === '0');
    if (over) {
      const n = fields.slice(0, 14).map(Number);
      const south = n[12] + n.slice(0, 6).reduce((a, b) => a + b, 0);
      const north = n[13] + n.slice(6, 12).reduce((a, b) => a + b, 0);
      return south - north;
    }
    const q = dbQuery('kalah', p);
    return p.endsWith('S') ? q.score : -q.score;
  };
  const values = [start, ...positions].map(southValue);
  const expected = [];
  for (let i = 0; i < moves.length; ++i) if (values[i] !== values[i + 1]) expected.push(i + 1);
  const listed = await page.locator('#summary li').evaluateAll((items) =>
    items.map((li) => Number(li.dataset.ply)));
  assert.deepEqual(listed, expected);
  await shots(page, 'summary');
  await close(session);
});

// Oware's tables play on past a majority where the game stops (issue 41): the hint, the panel and
// the summary must say what is true of the game. South to move, 23-17: F captures 3 and ends the
// game by the majority, 26-17 (+9), where the tables, playing on to the empty board, count +14
// and rank F first; B goes on, +10 by the tables' count.
const OWARE_MAJORITY = '1-2-0-0-0-1-2-0-0-0-0-2-23-17-S';

test('Oware: the hinted move that reaches a majority is told by its real end and gives nothing away',
     async () => {
  const session = await open();
  const {page} = session;
  await loadRecord(page, 'majority.txt',
                   `[Game "oware"]\n[Position "${OWARE_MAJORITY}"]\n[Result "*"]\n\n*\n`);
  assert.equal(await position(page), OWARE_MAJORITY);
  await page.click('#hint');
  await page.waitForSelector('#hint-text:not([data-move=""])');
  const hinted = await page.locator('#hint-text').evaluate((e) => ({...e.dataset}));
  const words = await page.locator('#hint-text').textContent();
  assert.equal(hinted.move, 'F');
  // The panel puts the hinted move first, its real end beside the tables' count, and says what
  // its values count.
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  const first = page.locator('#analysis-body li').first();
  assert.equal(await first.getAttribute('data-move'), 'F');
  assert.equal(await first.getAttribute('data-score'), '14');
  assert.equal(await first.locator('.ends').getAttribute('data-final'), '9');
  assert.match(await page.locator('.tables-count').textContent(), /past a majority/);
  assert.match(await page.locator('#analysis-summary').textContent(), /South wins by 9 seeds/);
  await page.locator('.house[data-letter="F"] .pit').click();
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-over'), 'true');
  // The hint's words are true of the game's end.
  const fields = (await position(page)).split('-').map(Number);
  const southLead = fields[12] - fields[13];
  assert.equal(southLead, 9);
  assert.equal(Number(hinted.said), southLead);
  assert.match(words, new RegExp(`South wins by ${southLead} seeds`), words);
  assert.doesNotMatch(words, /14/, words);
  // The summary does not say the hinted move gave seeds away.
  await page.waitForSelector('#summary[data-known]');
  assert.equal(await page.locator('#summary').getAttribute('data-changes'), '0');
  assert.doesNotMatch(await page.locator('#summary').textContent(), /given away|fewer/);
  await shots(page, 'oware-majority');
  await close(session);
});

test('Oware: a move that keeps the win below the best count is judged by the tables\' count, so named',
     async () => {
  const session = await open();
  const {page} = session;
  await loadRecord(page, 'majority.txt',
                   `[Game "oware"]\n[Position "${OWARE_MAJORITY}"]\n[Result "*"]\n\n*\n`);
  await page.locator('.house[data-letter="B"] .pit').click();
  await playToTheEnd(page);
  await page.waitForSelector('#summary[data-known]');
  const entry = page.locator('#summary li[data-ply="1"]');
  assert.equal(await entry.count(), 1);
  assert.match(await entry.textContent(), /^B, South: \+14 → \+10 by the tables' count, 4 seeds fewer$/);
  assert.doesNotMatch(await page.locator('#summary').textContent(), /given away/);
  await close(session);
});

test('replaying a finished game: the position shown speaks, moves are counted one way, and summary entries jump to theirs',
     async () => {
  const session = await open();
  const {page} = session;
  const start = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${start}"]\n[Result "*"]\n\n*\n`);
  await playToTheEnd(page);
  await page.waitForSelector('#summary[data-known]');
  const moves = (await moveList(page)).flatMap(([, letters]) => letters);
  const result = await page.locator('#status').textContent();
  assert.match(result, /wins|draw/);
  const entries = page.locator('#summary li button');
  assert.ok(await entries.count() > 0, 'the summary lists a move');
  const entry = entries.first();
  const ply = Number(await entry.getAttribute('data-ply'));
  await entry.click();
  await idle(page);
  const positions = await page.evaluate(async ({s, m}) => {
    const r = await fetch(`/api/v1/position?game=kalah&position=${s}&moves=${m}&played=all`);
    return (await r.json()).played.map((p) => p.position);
  }, {s: start, m: moves.join('')});
  const shown = await page.locator('#board-frame').getAttribute('data-shown');
  assert.equal(shown, positions[ply - 1]);
  // The status and the stores are the position's shown, not the game's end.
  assert.equal(await page.locator('#status').textContent(),
               `Viewing the position after move ${ply} of ${moves.length}: → or » returns to the game.`);
  const fields = shown.split('-');
  assert.equal(await page.locator('#score').textContent(),
               `Stores: South ${fields[12]}, North ${fields[13]}`);
  // The move list counts the same way: the move shown is number `ply`, its number drawn with it.
  const current = page.locator('#move-list button[aria-current="step"]');
  assert.equal(await current.getAttribute('data-ply'), String(ply));
  assert.equal(await current.evaluate((b) => getComputedStyle(b, '::before').content), `"${ply}"`);
  assert.equal(await current.getAttribute('aria-label'), `Move ${ply}: ${moves[ply - 1]}`);
  assert.equal(await page.locator('#move-list li').first().evaluate((li) =>
    getComputedStyle(li).listStyleType), 'none');
  // The summary stays, its entry marked, to go on to the next one.
  assert.equal(await page.locator('#summary').isVisible(), true);
  assert.equal(await entry.getAttribute('aria-current'), 'step');
  assert.equal(await page.locator('#summary p').first().textContent(), result);
  await shots(page, 'summary-replay');
  await page.keyboard.press('End');
  await idle(page);
  assert.equal(await page.locator('#status').textContent(), result);
  await close(session);
});

test('the focus stays on Hint, Undo, « ‹ › » and the moves of the list after they act', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  for (const key of ['a', 'b', 'B']) {
    await page.keyboard.press(key);
    await idle(page);
  }
  const focused = () => page.evaluate(() => {
    const e = document.activeElement;
    return e.id || (e.dataset.ply ? `ply ${e.dataset.ply}` : e.tagName);
  });
  const press = async (selector) => {
    await page.focus(selector);
    await page.keyboard.press('Enter');
    await idle(page);
  };
  await press('#hint');
  await page.waitForSelector('#hint-text:not([data-move=""])');
  await idle(page);
  assert.equal(await focused(), 'hint');
  await press('#undo');
  assert.equal(await focused(), 'undo');
  await press('#replay-back');
  assert.equal(await focused(), 'replay-back');
  await press('#move-list button[data-ply="1"]');
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               '0-5-5-5-5-4-4-4-4-4-4-4-0-0-N');
  assert.equal(await focused(), 'ply 1');
  // At the first position « and ‹ are off: the focus goes to the nearest button still on.
  await press('#replay-first');
  assert.equal(await focused(), 'replay-forward');
  await press('#replay-forward');
  assert.equal(await focused(), 'replay-forward');
  // Back at the game » is off: ‹ is the nearest on.
  await press('#replay-last');
  assert.equal(await focused(), 'replay-back');
  await close(session);
});

test('right to left, the replay buttons and arrow keys point the way the moves go', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await page.keyboard.press('a');
  await idle(page);
  await page.keyboard.press('b');
  await idle(page);
  const x = async (id) => (await page.locator(`#${id}`).boundingBox()).x;
  assert.ok(await x('replay-first') < await x('replay-last'));
  assert.deepEqual(await page.locator('.replay button').allTextContents(), ['«', '‹', '›', '»']);
  await page.selectOption('#language', 'he');
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  // The first position lies to the right, as the text begins; « and » are drawn mirrored.
  assert.ok(await x('replay-first') > await x('replay-back'));
  assert.ok(await x('replay-back') > await x('replay-forward'));
  assert.ok(await x('replay-forward') > await x('replay-last'));
  assert.deepEqual(await page.locator('.replay button').allTextContents(), ['»', '›', '‹', '«']);
  await page.locator('body').click({position: {x: 1, y: 1}});
  await page.keyboard.press('ArrowRight');  // back, to the right
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               '0-5-5-5-5-4-4-4-4-4-4-4-0-0-N');
  await page.keyboard.press('ArrowLeft');  // forward, to the left: the game again
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               await position(page));
  await page.keyboard.press('ArrowRight');
  await idle(page);
  await shots(page, 'replay-he');
  await close(session);
});

test('the ring where the last seed fell passes under the house letter, not through it', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await page.keyboard.press('a');  // A sows B, C, D and E: the last seed in E
  await idle(page);
  const hits = await page.evaluate(() => {
    const house = document.querySelector('.house.last-seed');
    const ring = house.querySelector('.last-seed-ring');
    const tab = house.querySelector('.letter-tab').getBoundingClientRect();
    const matrix = ring.getScreenCTM();
    const [cx, cy, r] = ['cx', 'cy', 'r'].map((a) => ring[a].baseVal.value);
    const found = [];
    // Points of the ring inside the letter's tab: what is seen there is the tab or its letter.
    for (let k = 0; k < 720; ++k) {
      const angle = (k / 720) * 2 * Math.PI;
      const p = new DOMPoint(cx + r * Math.cos(angle), cy + r * Math.sin(angle)).matrixTransform(matrix);
      if (p.x > tab.left + 1 && p.x < tab.right - 1 && p.y > tab.top + 1 && p.y < tab.bottom - 1) {
        found.push(document.elementFromPoint(p.x, p.y).getAttribute('class'));
      }
    }
    return {letter: house.dataset.letter, found};
  });
  assert.equal(hits.letter, 'E');
  assert.ok(hits.found.length > 0, 'the ring meets the tab');
  assert.ok(hits.found.every((c) => c === 'letter-tab' || c === 'letter'), hits.found.join(' '));
  assert.equal(await page.locator('.house .letter-tab').first().evaluate((e) =>
    getComputedStyle(e).fillOpacity), '1');
  await close(session);
});

test('every catalogue has every text of the English one', async () => {
  const {readFileSync} = await import('node:fs');
  const dir = process.env.MANCALA_WEB_I18N;
  const keys = (node, prefix = '') => Object.entries(node).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) && !('other' in v)
      ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]);
  const english = keys(JSON.parse(readFileSync(`${dir}/en.json`, 'utf8'))).sort();
  for (const code of ['fr', 'pt', 'he', 'th', 'ja']) {
    const other = keys(JSON.parse(readFileSync(`${dir}/${code}.json`, 'utf8'))).sort();
    assert.deepEqual(other, english, code);
  }
});

// The app is written as ES modules, joined into one app.js at build time
// (tools/http/stage_web_app.cmake): every module of tools/http/web is reached from app.js or from
// the worker of the static board, engine-worker.js, joined the same way (none left out of the page
// unnoticed; the worker's engine, mancala-engine.js, is the WebAssembly build's), their imports
// have no cycle (docs/web-board.md), and the page
// asks for that one script, served as JavaScript, which imports nothing more (a 404 would be a
// failed test too: close() finds its console error).
test('the page loads one script, every module of the app joined at build time', async () => {
  const {readdirSync, readFileSync} = await import('node:fs');
  const dir = process.env.MANCALA_WEB_DIR;
  const imports = new Map(readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) =>
    [f, [...readFileSync(`${dir}/${f}`, 'utf8').matchAll(/^import [^;]* from '\.\/([^']+)';$/gm)]
          .map((m) => m[1])]));
  const done = new Set();
  const visit = (file, path) => {
    if (file === 'mancala-engine.js' && path.at(-1) === 'engine-worker.js') return;
    assert.ok(imports.has(file), `${path.at(-1)} imports ${file}, which is not in ${dir}`);
    assert.ok(!path.includes(file), `an import cycle: ${[...path, file].join(' -> ')}`);
    if (done.has(file)) return;
    for (const next of imports.get(file)) visit(next, [...path, file]);
    done.add(file);
  };
  visit('app.js', []);
  visit('engine-worker.js', []);
  assert.deepEqual([...done].sort(), [...imports.keys()].sort(),
                   'a module neither app.js nor engine-worker.js imports');
  const loaded = new Map();
  const session = await open({onPage: (page) => page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.endsWith('.js')) {
      loaded.set(path.slice(1), `${response.status()} ${response.headers()['content-type']}`);
    }
  })});
  assert.deepEqual([...loaded.entries()], [['app.js', '200 text/javascript; charset=utf-8']]);
  const served = await session.page.evaluate(async () => (await fetch('/app.js')).text());
  assert.doesNotMatch(served, /^\s*(import|export)\b/m, 'the served app.js imports nothing');
  for (const name of ['renderAnalysis', 'glicko2Update', 'checkLibrary', 'buildBoard']) {
    assert.match(served, new RegExp(`function ${name}\\b`), `${name} is in the served app.js`);
  }
  await close(session);
});

// The board written into index.html (tools/http/web/first-board.html, put in at build time) is
// the one the page draws for a new game of the default setup, wide (a desktop) and tall (a phone),
// as the page keeps it for its next visit (board-view.js, boardMarkup: its controls' attributes
// left out, it is not played, and the classes that say which shape it is).
// MANCALA_UPDATE_FIRST_BOARD=1 writes the file from the page instead (then rebuild).
const FIRST_BOARD_FILE = `${process.env.MANCALA_WEB_DIR}/first-board.html`;

// The board the page kept (localStorage), once it has kept the one of the moves `moves`.
async function keptBoard(page, moves) {
  const kept = await page.waitForFunction((moves) => {
    const board = JSON.parse(localStorage.getItem('mancala.board'));
    return board && JSON.stringify(board.moves) === JSON.stringify(moves) && board;
  }, moves);
  return kept.jsonValue();
}

test('the board written into the page is the one the page draws for a new game, wide and tall',
     async () => {
  let drawn = '';
  for (const [shape, viewport] of [['wide', DESKTOP], ['tall', PHONE]]) {
    const session = await open({viewport});
    assert.equal(await session.page.locator('.first-board-drawn').count(), 0,
                 'the page\'s own board took its place');
    const kept = await keptBoard(session.page, []);
    assert.equal(kept.shape, shape);
    drawn += `      ${kept.markup}\n`;
    await close(session);
  }
  if (process.env.MANCALA_UPDATE_FIRST_BOARD === '1') writeFileSync(FIRST_BOARD_FILE, drawn);
  assert.equal(readFileSync(FIRST_BOARD_FILE, 'utf8'), drawn,
               `${FIRST_BOARD_FILE} is not the board the page draws: ` +
               'MANCALA_UPDATE_FIRST_BOARD=1 writes it anew (then build again)');
  const served = await (await fetch(url)).text();
  assert.ok(served.includes(drawn), 'the server sends index.html with the board written in');
  // index.html's script chooses the language among the page's own, as i18n.js does.
  const web = process.env.MANCALA_WEB_DIR;
  const spoken = readFileSync(`${web}/index.html`, 'utf8').match(/const spoken = \[([^\]]*)\]/)[1];
  const codes = [...readFileSync(`${web}/i18n.js`, 'utf8').matchAll(/\{code: '([a-z]+)'/g)]
    .map((m) => `'${m[1]}'`);
  assert.equal(spoken, codes.join(', '));
});

// A page whose app.js is held back until release() is called: what the page shows from its own
// markup and inline script alone, as a phone's browser does while the script is still on its way.
// Problems of the page (errors, a script refused by the Content-Security-Policy) go to `problems`.
async function pageWithScriptHeld(context, problems = []) {
  const page = await context.newPage();
  watchProblems(page, problems);
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await page.route('**/app.js', async (route) => {
    await released;
    await route.continue();
  });
  return {page, problems, release};
}

// What the page shows before its script has run: whether it says a new game is opened (the class
// index.html's script sets), and the board shown (the drawn one of the screen's shape) if any.
async function shownBeforeScript(page) {
  // The page parsed whole ('interactive': its module script waits for that, and is held).
  await page.waitForFunction(() => document.readyState !== 'loading');
  return page.evaluate(() => ({
    newGame: document.documentElement.classList.contains('first-board'),
    shown: [...document.querySelectorAll('.first-board-drawn')]
      .filter((svg) => getComputedStyle(svg).display !== 'none')
      .map((svg) => svg.classList.contains('tall') ? 'tall' : 'wide'),
    ownBoard: getComputedStyle(document.getElementById('board')).display !== 'none',
  }));
}

// Once the script has run: the board shown before it (its box `before`) gone, with the classes
// that showed it, and the page's own board in its very place.
async function assertOwnBoardInItsPlace(page, before) {
  assert.equal(await page.locator('.first-board-drawn').count(), 0);
  assert.deepEqual(await page.evaluate(() => ['first-board', 'kept-board']
    .filter((name) => document.documentElement.classList.contains(name))), []);
  const after = await page.locator('#board').boundingBox();
  for (const key of ['x', 'y', 'width', 'height']) {
    assert.ok(Math.abs(after[key] - before[key]) < 0.5, `${key}: ${before[key]} then ${after[key]}`);
  }
}

// In Hebrew the page is right to left from its first paint (index.html's script chooses the
// language, i18n.js reads its choice): on a desktop the board's column is then on the right already.
for (const [shape, viewport, locale] of [['wide', DESKTOP, 'en-US'], ['tall', PHONE, 'en-US'],
                                         ['wide', DESKTOP, 'he-IL']]) {
  test(`a first visit shows the ${shape} board before its script runs, and the page's own ` +
       `takes its place where it was (${locale})`, async () => {
    const context = await browser.newContext({viewport, locale, reducedMotion: 'reduce'});
    const {page, problems, release} = await pageWithScriptHeld(context);
    await page.goto(url, {waitUntil: 'commit'});
    await page.waitForSelector(`.first-board-drawn.${shape}`, {state: 'visible'});
    assert.deepEqual(await shownBeforeScript(page),
                     {newGame: true, shown: [shape], ownBoard: false});
    const direction = locale === 'he-IL' ? 'rtl' : 'ltr';
    assert.equal(await page.evaluate(() => document.documentElement.dir || 'ltr'), direction);
    const counts = await page.locator(`.first-board-drawn.${shape} .count`).allTextContents();
    assert.deepEqual(counts, [...Array(12).fill('4'), '0', '0']);
    const before = await page.locator(`.first-board-drawn.${shape}`).boundingBox();
    await snap(page, `first-board-${shape}-${locale}.png`);
    release();
    await idle(page);
    await assertOwnBoardInItsPlace(page, before);
    assert.equal(await page.evaluate(() => document.documentElement.dir), direction);
    // And it plays.
    await page.click('#board .house[data-letter="C"]');
    await idle(page);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// Where the page opens something else than a new game of the default setup, it shows no board
// until its own: a setup kept of another game or with the computer first, a link. A new game kept
// as it began (a visit that played nothing) shows it; a game kept with a move played, the board
// the page kept of it (the test after this one).
test('a setup of another game or a link shows no board before the page\'s own, a kept game its own',
     async () => {
  const context = await browser.newContext({viewport: DESKTOP, reducedMotion: 'reduce'});
  const problems = [];
  const visit = async (hash = '') => {
    const {page, release} = await pageWithScriptHeld(context, problems);
    await page.goto(`${url}${hash}`, {waitUntil: 'commit'});
    const shown = await shownBeforeScript(page);
    release();
    await idle(page);
    return {page, shown};
  };
  const none = {newGame: false, shown: [], ownBoard: false};
  // The first visit, then a second with the new game it kept.
  let {page, shown} = await visit();
  assert.deepEqual(shown, {newGame: true, shown: ['wide'], ownBoard: false});
  await page.close();
  ({page, shown} = await visit());
  assert.deepEqual(shown, {newGame: true, shown: ['wide'], ownBoard: false}, 'a new game kept');
  // A move played: the game kept is no longer the new game's; the board kept of it is shown.
  await page.click('#board .house[data-letter="C"]');
  await idle(page);
  await keptBoard(page, ['C']);
  await page.close();
  ({page, shown} = await visit());
  assert.deepEqual(shown, {newGame: false, shown: ['wide'], ownBoard: false}, 'a game kept');
  // Another game set up and begun: the setup and the game kept are Oware's.
  await newGame(page, {kind: 'oware', opponent: 2});
  await page.evaluate(() => localStorage.removeItem('mancala.game'));
  await page.close();
  ({page, shown} = await visit());
  assert.deepEqual(shown, none, 'a setup of Oware kept');
  // Kalah(6,4) with the computer first: its board is turned and the computer moves.
  await newGame(page, {kind: 'kalah', houses: 6, seeds: 4, opponent: 2, first: 'computer'});
  await page.evaluate(() => localStorage.removeItem('mancala.game'));
  await page.close();
  ({page, shown} = await visit());
  assert.deepEqual(shown, none, 'a setup with the computer first kept');
  await newGame(page, {kind: 'kalah', houses: 6, seeds: 4, opponent: 2});
  await page.close();
  // A link, even to a new game of the default setup.
  ({page, shown} = await visit('#game=kalah:6:4'));
  assert.deepEqual(shown, none, 'a link');
  assert.deepEqual(problems, []);
  await context.close();
});

// A game going comes back with the board the page kept of it, shown from the first paint before
// the script has run (index.html's second script), the page's own then drawn in its place; not
// when the board kept is of other moves than the game kept, nor of the other shape.
for (const [shape, viewport] of [['wide', DESKTOP], ['tall', PHONE]]) {
  test(`a game going shows the ${shape} board it was left with before its script runs, and the ` +
       'page\'s own takes its place', async () => {
    const context = await browser.newContext({viewport, reducedMotion: 'reduce'});
    const problems = [];
    let page = await context.newPage();
    watchProblems(page, problems);
    await page.goto(url);
    await idle(page);
    await newGame(page, {kind: 'kalah', houses: 6, seeds: 4, opponent: 1});
    for (const letter of ['C', 'A']) {  // C sows into South's store: South plays again
      await page.click(`#board .house[data-letter="${letter}"]`);
      await idle(page);
    }
    const moves = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.game')).moves);
    assert.ok(moves.length >= 3, `the computer answered: ${moves}`);
    const left = await position(page);
    const kept = await keptBoard(page, moves);
    assert.equal(kept.shape, shape);
    await page.close();

    const visit = async () => {
      const held = await pageWithScriptHeld(context, problems);
      await held.page.goto(url, {waitUntil: 'commit'});
      return {...held, shown: await shownBeforeScript(held.page)};
    };
    let release;
    let shown;
    ({page, release, shown} = await visit());
    assert.deepEqual(shown, {newGame: false, shown: [shape], ownBoard: false});
    assert.equal(await page.evaluate(() =>
      document.documentElement.classList.contains('kept-board')), true);
    const counts = await page.locator(`.first-board-drawn.${shape} .count`).allTextContents();
    assert.deepEqual(counts, left.split('-').slice(0, 14), 'the counts of the position left');
    const before = await page.locator(`.first-board-drawn.${shape}`).boundingBox();
    await snap(page, `kept-board-${shape}.png`);
    release();
    await idle(page);
    assert.equal(await position(page), left);
    await assertOwnBoardInItsPlace(page, before);
    // The board kept is of the position it shows: the one drawn now is the same drawing.
    assert.equal((await keptBoard(page, moves)).markup, kept.markup);
    // And it plays.
    const legal = await page.locator('#board .house.legal').first().getAttribute('data-letter');
    await page.click(`#board .house[data-letter="${legal}"]`);
    await idle(page);
    assert.notEqual(await position(page), left);
    await page.close();

    // A board kept of other moves than the game kept, or of the other shape: none shown.
    for (const change of [(board) => ({...board, moves: ['C']}),
                          (board) => ({...board, shape: shape === 'wide' ? 'tall' : 'wide'})]) {
      const other = await context.newPage();
      await other.goto(new URL('/favicon.svg', url).href);
      await other.evaluate(([board, game]) => {
        localStorage.setItem('mancala.board', JSON.stringify(board));
        localStorage.setItem('mancala.game', JSON.stringify(game));
      }, [change(kept), {game: 'kalah:6:4', start: '', moves, opponent: '1',
                         computerSide: 'North'}]);
      await other.close();
      ({page, release, shown} = await visit());
      assert.deepEqual(shown, {newGame: false, shown: [], ownBoard: false});
      release();
      await idle(page);
      assert.equal(await position(page), left);
      await page.close();
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// A first visit asks for its first position once: the request index.html preloads (a new game
// of the default setup), taken by the page rather than asked again.
test('a first visit asks for its first position once, the one the page preloads', async () => {
  const asked = [];
  const session = await open({onPage: (page) => page.on('request', (request) => {
    if (request.url().includes('/api/v1/position')) asked.push(request.url());
  })});
  const preloaded = await session.page.evaluate(() =>
    [...document.querySelectorAll('link[rel="preload"]')].map((l) => l.href)
      .filter((href) => href.includes('/api/v1/position')));
  assert.equal(preloaded.length, 1);
  assert.deepEqual(asked, preloaded);
  await close(session);
});

// Every request of a visit of the board in `context`, with how it was answered (CDP's view: a
// revalidated file is a 304, a file taken from the cache says so).
async function visitRequests(context) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  cdp.on('Network.requestWillBeSent', ({requestId, request}) => {
    requests.set(requestId, {path: new URL(request.url).pathname, status: 0, cached: false,
                             encoding: ''});
  });
  // The status as it came over the network: a revalidated file is a 304 there, and a 200 (from
  // the cache) in responseReceived.
  // (It may come before requestWillBeSent.)
  const wireStatus = new Map();
  cdp.on('Network.responseReceivedExtraInfo', ({requestId, statusCode}) => {
    wireStatus.set(requestId, statusCode);
  });
  cdp.on('Network.requestServedFromCache', ({requestId}) => {
    if (requests.has(requestId)) requests.get(requestId).cached = true;
  });
  cdp.on('Network.responseReceived', ({requestId, response}) => {
    const entry = requests.get(requestId);
    if (!entry) return;
    entry.status = response.status;
    entry.cached ||= Boolean(response.fromDiskCache);
    const headers = Object.fromEntries(Object.entries(response.headers)
                                           .map(([k, v]) => [k.toLowerCase(), v]));
    entry.encoding = headers['content-encoding'] || '';
    entry.vary = headers.vary || '';
  });
  await page.goto(url);
  await idle(page);
  assert.ok(await page.locator('#board .house').count() > 0);
  // Every request answered before the page goes (the icon may come after the board, under load).
  for (const deadline = Date.now() + 10000; Date.now() < deadline;) {
    if ([...requests.values()].every((r) => r.status !== 0)) break;
    await page.waitForTimeout(50);
  }
  await page.close();
  for (const [id, status] of wireStatus) if (requests.has(id)) requests.get(id).wireStatus = status;
  return [...requests.values()];
}

test('the app comes compressed, and a repeat visit downloads none of it again', async () => {
  const context = await browser.newContext({viewport: DESKTOP, locale: 'en-US'});
  const first = await visitRequests(context);
  const files = first.filter((r) => !r.path.startsWith('/api/'));
  assert.ok(files.some((r) => r.path === '/app.js'), JSON.stringify(first));
  for (const r of files) {
    assert.equal(r.status, 200, r.path);
    assert.match(r.encoding, /^(br|gzip)$/, `${r.path} is sent compressed`);
    assert.equal(r.vary, 'Accept-Encoding', r.path);
  }
  // The same profile again: the files are revalidated (304) or taken from the cache, the
  // catalogue of games too; none comes whole. (The game kept is resumed: its position is asked
  // with another query than the new game's, an answer the cache keeps for a day.)
  const repeat = await visitRequests(context);
  const whole = repeat.filter((r) => (r.wireStatus ?? r.status) === 200 && !r.cached &&
                                     r.path !== '/api/v1/position');
  assert.deepEqual(whole.map((r) => r.path), [], JSON.stringify(repeat));
  assert.equal(repeat.filter((r) => !r.path.startsWith('/api/')).length, files.length);
  await context.close();
});

test('on a touch screen the keyboard help is not shown', async () => {
  const context = await browser.newContext({viewport: PHONE, hasTouch: true, isMobile: true});
  const page = await context.newPage();
  await page.goto(url);
  await idle(page);
  assert.equal(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), true);
  assert.equal(await page.locator('.keys').isVisible(), false);
  await context.close();
});

test('the daily puzzle: the same position for everyone today, its one answer as db query says',
     async () => {
  for (const [game, kind] of [['kalah:6:4', 'kalah'], ['oware:4:abapa', 'oware']]) {
    const session = await open();
    const {page} = session;
    const ask = async (p) => {
      await p.click(`#puzzle-games button[data-game="${game}"]`);
      await p.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
      await idle(p);
      return p.locator('#puzzle').getAttribute('data-position');
    };
    const puzzle = await ask(page);
    assert.equal(await position(page), puzzle);
    const query = dbQuery(kind, puzzle);
    const best = query.moves[0];
    assert.notEqual(best.category, 'loss');
    assert.deepEqual(query.moves.filter((m) => m.category === best.category).map((m) => m.move),
                     [best.move], `${puzzle}: ${JSON.stringify(query.moves)}`);
    // Another player, the same day: the same position.
    const other = await open();
    assert.equal(await ask(other.page), puzzle);
    await close(other);
    await page.keyboard.press(best.move.toLowerCase());
    await page.waitForFunction(() => /Right/.test(document.getElementById('puzzle-text').textContent));
    assert.equal(await page.locator('#puzzle').getAttribute('data-answer'), best.move);
    assert.match(await page.locator('#puzzle-text').textContent(), /line with perfect play: [A-Fa-f]/);
    const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.puzzle')));
    assert.equal(kept.streak, 1);
    assert.match(await page.locator('#puzzle-streak').textContent(), /Streak: 1 day$/);
    await idle(page);
    await shots(page, `puzzle-${kind}`);
    await close(session);
  }
});

test('the daily puzzle can be neither read off the analysis nor lost by a reload', async () => {
  const session = await open();
  const {page} = session;
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  await idle(page);
  const puzzle = await page.locator('#puzzle').getAttribute('data-position');
  const best = dbQuery('kalah', puzzle).moves[0].move;
  const question = await page.locator('#puzzle-text').textContent();
  // While it asks, the analysis says nothing of the moves (the tables would be the answer).
  await openAnalysis(page);
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#analysis-body li').count(), 0);
  assert.match(await page.locator('#analysis-summary').textContent(), /Hidden until you answer/);
  assert.equal(await page.locator('#hint').isDisabled(), true);
  // A reload keeps the question: still asked, Hint still off, the answer still judged.
  await page.reload();
  await idle(page);
  assert.equal(await position(page), puzzle);
  assert.equal(await page.locator('#puzzle').getAttribute('data-status'), 'asked');
  assert.equal(await page.locator('#puzzle-text').textContent(), question);
  assert.equal(await page.locator('#hint').isDisabled(), true);
  await openAnalysis(page);
  await page.waitForTimeout(500);
  assert.equal(await page.locator('#analysis-body li').count(), 0);
  await page.keyboard.press(best.toLowerCase());
  await page.waitForFunction(() => /Right/.test(document.getElementById('puzzle-text').textContent));
  assert.equal((await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.puzzle')))).streak, 1);
  // Answered, the analysis is back; and a reload keeps the verdict.
  await page.waitForSelector('#analysis-body li');
  await idle(page);
  await page.reload();
  await idle(page);
  assert.equal(await page.locator('#puzzle').getAttribute('data-status'), 'answered');
  assert.match(await page.locator('#puzzle-text').textContent(), /Right/);
  // A kept puzzle of another shape is dropped with its game, never trusted.
  await page.evaluate(() => {
    const kept = JSON.parse(localStorage.getItem('mancala.game'));
    kept.puzzle.best = {move: 'Z', category: 'maybe'};
    localStorage.setItem('mancala.game', JSON.stringify(kept));
  });
  await page.reload();
  await idle(page);
  assert.equal(await page.locator('#puzzle').getAttribute('data-status'), '');
  assert.equal(await position(page), '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S');
  await shots(page, 'puzzle-reload');
  await close(session);
});

test('what local storage gives back is checked: a bad entry is dropped, not trusted', async () => {
  const session = await open();
  const {page} = session;
  // A puzzle record of another shape (it broke the puzzle: "Cannot use 'in' operator"), a setup
  // of wrong types, a kept game that is not even JSON.
  await page.evaluate(() => {
    localStorage.setItem('mancala.puzzle', JSON.stringify({answered: 'x', streak: 'many'}));
    localStorage.setItem('mancala.setup', JSON.stringify({kind: 7, houses: 'many', seeds: null}));
    localStorage.setItem('mancala.game', '{"game": "kalah", "moves": ');
  });
  await page.reload();
  await idle(page);
  assert.equal(await page.locator('#setup-kind').inputValue(), 'kalah');
  assert.equal(await page.locator('#setup-houses').inputValue(), '6');
  const kept = await page.evaluate(() => ({
    setup: JSON.parse(localStorage.getItem('mancala.setup') || 'null'),
    game: JSON.parse(localStorage.getItem('mancala.game') || 'null'),
  }));
  // Dropped, then written afresh by the new game.
  assert.ok(kept.setup === null || kept.setup.kind === 'kalah', JSON.stringify(kept.setup));
  assert.ok(kept.game === null || Array.isArray(kept.game.moves), JSON.stringify(kept.game));
  // The daily puzzle is answered, and its record starts again.
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  await idle(page);
  const puzzle = await page.locator('#puzzle').getAttribute('data-position');
  await page.keyboard.press(dbQuery('kalah', puzzle).moves[0].move.toLowerCase());
  await page.waitForFunction(() => /Right/.test(document.getElementById('puzzle-text').textContent));
  const record = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.puzzle')));
  assert.equal(record.streak, 1);
  assert.equal(Object.values(record.answered).length, 1);
  assert.match(await page.locator('#puzzle-streak').textContent(), /Streak: 1 day$/);
  await idle(page);
  await close(session);
});

// WCAG's contrast ratio of two colours given as 'rgb(r, g, b)' or [r, g, b].
function contrast(a, b) {
  const parse = (c) => Array.isArray(c) ? c : c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
  const luminance = (c) => {
    const [r, g, bl] = parse(c).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('house letters: 4.5:1 or more on the highlighted row, and larger on a phone', async () => {
  const session = await open({viewport: PHONE});
  const {page} = session;
  const styles = await page.evaluate(() => {
    const letter = document.querySelector('.house .letter');
    const tab = document.querySelector('.house .letter-tab');
    const band = document.querySelector('.turn-band.on');
    const wood = document.querySelector('.wood');
    const style = (e) => getComputedStyle(e);
    return {letter: style(letter).fill, tab: style(tab).fill,
            tabOpacity: Number(style(tab).fillOpacity), band: style(band).fill,
            wood: style(wood).fill, height: letter.getBoundingClientRect().height};
  });
  const rgb = (c) => c.match(/[\d.]+/g).map(Number);
  const over = (top, alpha, under) => top.slice(0, 3).map((v, i) => alpha * v + (1 - alpha) * under[i]);
  const band = rgb(styles.band);
  const lit = over(band, band[3] ?? 1, rgb(styles.wood));  // the wood under the lit band
  const behind = over(rgb(styles.tab), styles.tabOpacity, lit);
  const ratio = contrast(styles.letter, behind);
  console.log(`letter contrast on the lit row ${ratio.toFixed(1)}:1, letter ${styles.height.toFixed(1)} px high at 390x844`);
  assert.ok(ratio >= 4.5, `${ratio}`);
  assert.ok(styles.height >= 16, `${styles.height}`);
  await close(session);
});

test('a server error is told in the page\'s language, the server\'s English words apart', async () => {
  const session = await open();
  const {page} = session;
  await chooseLanguage(page, 'he');
  await page.setInputFiles('#load-file', {name: 'bad.txt', mimeType: 'text/plain',
                                          buffer: Buffer.from('[Game "nonsense"]\n\n1. Q *\n')});
  // The server answers 400 (a bad record): not a console error of the page's own.
  await page.waitForSelector('#message small[lang="en"]');
  const own = await page.locator('#message').evaluate((m) => m.firstChild.textContent);
  assert.match(own, /^[\u0590-\u05ff]/);
  assert.doesNotMatch(own, /[a-z]{3}/i);
  session.problems.splice(0, session.problems.length,
                          ...session.problems.filter((p) => !/status of 400/.test(p)));
  await close(session);
});

test('after Undo the thinking panel shows the computer\'s last thinking still in the game',
     async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 3});
  await page.click('#show-thinking');
  assert.match(await page.locator('#thinking-text').textContent(), /has not moved yet/);
  // A (no extra turn) and the computer's answer, then another move of yours and its answer.
  await page.getByRole('button', {name: 'house A (yours), 4 seeds', exact: true}).click();
  await idle(page);
  assert.match(await page.locator('#thinking-text').textContent(), /Searched/);
  await page.locator('.house.legal .pit').first().click();
  await idle(page);
  await page.click('#undo');
  await idle(page);
  // The computer's answer to A is still in the game: its thinking is shown, not an empty panel.
  assert.match(await page.locator('#thinking-text').textContent(), /Searched/);
  await close(session);
});

// The position editor and links (#41, item 7).

// Types a position string into the editor's fields (houses in sowing order, the stores, the side).
async function setUpPosition(page, positionString) {
  if (await page.locator('#editor').isHidden()) await page.click('#edit-position');
  const fields = positionString.split('-');
  const side = fields.pop();
  for (const [slot, count] of fields.entries()) await page.fill(`#editor-field-${slot}`, count);
  await page.selectOption('#editor-side', side === 'S' ? 'South' : 'North');
  await page.waitForFunction(() => !/Checking/.test(document.getElementById('editor-verdict').textContent));
}

// Waits until the board shows `positionString` (a link is opened once the page has a game).
async function showing(page, positionString) {
  await page.waitForSelector(`#board-frame[data-position="${positionString}"][data-busy="false"]`);
}

async function verdict(page) {
  await page.waitForFunction(() => {
    const v = document.getElementById('editor-verdict');
    return v.dataset.status === 'ok' || v.dataset.status === 'bad';
  });
  return page.locator('#editor-verdict').textContent();
}

test('a position set up in the editor is played and analysed from', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  await page.click('#edit-position');
  assert.equal(await page.locator('#edit-position').getAttribute('aria-expanded'), 'true');
  // The editor starts from the position on the board, and its fields are named for a screen reader.
  assert.equal(await page.getByLabel('house C (South)', {exact: true}).inputValue(), '4');
  await setUpPosition(page, '0-0-0-0-2-1-0-0-0-0-1-1-22-21-S');
  assert.equal(await verdict(page), 'A legal position: South to move.');
  assert.match(await page.locator('#editor-total').textContent(), /48 of 48/);
  assert.match(await page.locator('#status').textContent(), /Setting up a position/);
  // The board shows the position as it is typed, and nothing on it can be played meanwhile.
  assert.equal(await page.locator('#board-frame').getAttribute('data-editing'), 'true');
  assert.equal(await page.locator('.house.legal').count(), 0);
  await page.click('#editor-play');
  // The position is checked by the engine once more before it is played (the board is not busy
  // meanwhile: the editor holds it).
  await showing(page, '0-0-0-0-2-1-0-0-0-0-1-1-22-21-S');
  assert.ok(await page.locator('#editor').isHidden());
  assert.equal(await page.locator('#message').textContent(), 'Playing from the position set up.');
  await page.getByRole('button', {name: 'house E (South), 2 seeds', exact: true}).click();
  await idle(page);
  assert.equal(await position(page), '0-0-0-0-0-2-0-0-0-0-1-1-23-21-S');
  // A game is going now: Analyse from another position asks first, then opens the analysis.
  await setUpPosition(page, '0-0-0-1-0-1-0-1-0-1-0-0-24-20-N');
  assert.equal(await verdict(page), 'A legal position: North to move.');
  await page.click('#editor-analyse');
  assert.equal(await page.locator('#message .confirm').textContent(),
               'Play from the position set up? The game going will be lost.');
  assert.equal(await position(page), '0-0-0-0-0-2-0-0-0-0-1-1-23-21-S');
  await page.click('#confirm-yes');
  await idle(page);
  assert.equal(await position(page), '0-0-0-1-0-1-0-1-0-1-0-0-24-20-N');
  assert.equal(await page.locator('#analysis-toggle').getAttribute('aria-expanded'), 'true');
  await page.waitForSelector('#analysis-body[data-source="tables"]');
  await shots(page, 'editor-analysed');
  await close(session);
});

test('an illegal position is refused with its reason, in words', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  const start = await position(page);
  await page.click('#edit-position');
  await page.fill('#editor-field-0', '5');
  assert.equal(await verdict(page), '1 seed too many: this game is played with 48 seeds.');
  await page.click('#editor-play');
  await page.waitForTimeout(300);
  assert.equal(await position(page), start);
  assert.ok(await page.locator('#editor').isVisible());
  await page.fill('#editor-field-0', '1');
  assert.equal(await verdict(page), '3 seeds are missing: this game is played with 48 seeds.');
  await page.fill('#editor-field-0', '-1');
  assert.equal(await verdict(page), 'Give house A (South) a whole number of seeds, 0 or more.');
  assert.equal(await page.locator('#editor-field-0').getAttribute('aria-invalid'), 'true');
  // A position the rules call over: South to move with no seed in its houses.
  await setUpPosition(page, '0-0-0-0-0-0-0-0-0-0-0-0-24-24-S');
  assert.equal(await verdict(page), 'The game is over in this position (A draw, 24 to 24): ' +
                                    'set up one with a move to play.');
  await page.click('#editor-play');
  await page.waitForTimeout(300);
  assert.equal(await position(page), start);
  // In Hebrew, the same reason in Hebrew.
  await page.selectOption('#language', 'he');
  // The language is switched once its catalogue is in: the page's texts are then Hebrew.
  await page.waitForFunction(() => document.documentElement.lang === 'he' &&
    /[\u0590-\u05ff]/.test(document.getElementById('editor-title').textContent));
  await page.fill('#editor-field-0', '3');
  assert.match(await verdict(page), /זרעים יותר מדי/);
  await shots(page, 'editor-refused');
  // Escape closes the editor, and the board is the game's again.
  await page.locator('#editor-field-0').press('Escape');
  assert.ok(await page.locator('#editor').isHidden());
  assert.equal(await page.locator('#board-frame').getAttribute('data-editing'), 'false');
  await close(session);
});

test('the position editor fits a phone and a desktop, in English and Hebrew', async () => {
  for (const locale of ['en-US', 'he-IL']) {
    const language = locale.slice(0, 2);
    for (const [name, viewport] of [['phone-360x640', {width: 360, height: 640}],
                                    ['desktop', {width: 1366, height: 768}]]) {
      const touch = name.startsWith('phone');
      const session = await open({locale, viewport, touch});
      const {page} = session;
      await page.click('#edit-position');
      await page.fill('#editor-field-0', '5');
      await verdict(page);
      // Nothing of the editor leaves the screen's width: no sideways scrolling.
      const overflow = await page.evaluate(() => {
        const fields = [...document.querySelectorAll('#editor input, #editor button, #editor select')];
        return fields.filter((e) => {
          const box = e.getBoundingClientRect();
          return box.left < 0 || box.right > document.documentElement.clientWidth;
        }).map((e) => e.id);
      });
      assert.deepEqual(overflow, []);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <=
                                          document.documentElement.clientWidth));
      await page.locator('#editor').scrollIntoViewIfNeeded();
      await snap(page, `editor-${language}-${name}.png`);
      await snap(page, `editor-${language}-${name}-full.png`, {fullPage: true});
      await close(session);
    }
  }
});

test('a link holds a game, a position or the daily puzzle, and opens the same board', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  for (const letter of ['C', 'F', 'b']) {
    await page.keyboard.press(letter.toLowerCase());
    await idle(page);
  }
  const played = await position(page);
  await page.click('#copy-link');
  const gameLink = await page.locator('#link-text').inputValue();
  assert.equal(gameLink, `${url}#game=kalah:6:4&moves=CFb`);
  // A position set up: its link is the position's, as soon as the server finds it legal.
  await setUpPosition(page, '0-0-0-0-2-1-0-0-0-0-1-1-22-21-N');
  assert.equal(await verdict(page), 'A legal position: North to move.');
  assert.equal(await page.locator('#link-text').inputValue(),
               `${url}#game=kalah:6:4&position=0-0-0-0-2-1-0-0-0-0-1-1-22-21-N`);
  await page.click('#editor-play');
  await page.click('#confirm-yes');
  await idle(page);
  const positionLink = await page.locator('#link-text').inputValue();
  assert.equal(positionLink, `${url}#game=kalah:6:4&position=0-0-0-0-2-1-0-0-0-0-1-1-22-21-N`);
  await page.click('#puzzle-games button[data-game="kalah:6:4"]');
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  const puzzlePosition = await page.locator('#puzzle').getAttribute('data-position');
  const puzzleLink = await page.locator('#link-text').inputValue();
  assert.match(puzzleLink, /#puzzle=\d{4}-\d\d-\d\d&game=kalah:6:4$/);
  await close(session);

  // Someone else opens each link: the same board (played here between two people).
  const other = await open({hash: gameLink.slice(url.length)});
  await showing(other.page, played);
  assert.equal(await other.page.locator('#move-list .move').count(), 3);
  assert.equal(await other.page.locator('#message').textContent(),
               'A game of Kalah from a link, 3 moves. Both sides are played on this device.');
  // The link is taken off the address: a reload finds the game kept on the device.
  assert.ok(!other.page.url().includes('#'));
  await shots(other.page, 'link-game');
  await close(other);
  const third = await open({hash: positionLink.slice(url.length), locale: 'he-IL'});
  await showing(third.page, '0-0-0-0-2-1-0-0-0-0-1-1-22-21-N');
  await close(third);
  const fourth = await open({hash: puzzleLink.slice(url.length)});
  await fourth.page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  await showing(fourth.page, puzzlePosition);
  assert.equal(await fourth.page.locator('#hint').isDisabled(), true);
  await close(fourth);
});

test('a link opened while a game is going asks first', async () => {
  const session = await open();
  const {page, context} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.getByRole('button', {name: 'house A (yours), 4 seeds', exact: true}).click();
  await idle(page);
  const going = await position(page);
  // A link pasted into the open page's address.
  await page.goto(`${url}#game=kalah:6:4&moves=C`);
  await page.waitForSelector('#confirm-yes');
  assert.equal(await page.locator('#message .confirm').textContent(),
               'Open the link? The game going will be lost.');
  assert.equal(await page.locator('#confirm-yes').textContent(), 'Open the link');
  await page.click('#confirm-no');
  assert.equal(await position(page), going);
  // A link opened in a new tab: the game kept on the device comes back, then the question.
  const tab = await context.newPage();
  await tab.goto(`${url}#game=kalah:6:4&moves=C`);
  await tab.waitForSelector('#confirm-yes');
  await idle(tab);
  assert.equal(await position(tab), going);
  await shots(tab, 'link-asks');
  await tab.click('#confirm-yes');
  await showing(tab, '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');
  assert.match(await tab.locator('#north-caption').textContent(), /North/);
  await close(session);
});

test('a malformed link is explained, and the board goes on', async () => {
  const expected = [];
  const session = await open();
  const {page} = session;
  const cases = [
    ['#game=kalah:6:4&moves=A1', 'This link cannot be opened: its moves are not house letters.'],
    ['#colour=red', 'This link cannot be opened: it has a part this board does not know (colour).'],
    ['#game=kalah&game=oware', 'This link cannot be opened: it gives game twice.'],
    ['#game=chess:8', 'This link cannot be opened: it names no game this board plays.'],
    ['#game=kalah:6:4&position=4-4-x-S',
     'This link cannot be opened: its position is not written as one (counts joined by dashes, then S or N).'],
    ['#game=kalah:6:4&position=4-4-4-4-4-4-4-4-4-4-4-4-0-0-S&moves=C',
     'This link cannot be opened: it gives two things at once (a puzzle, a position, a game).'],
    ['#puzzle=2999-01-01&game=kalah:6:4',
     'This link cannot be opened: its puzzle\'s date is not a day up to today.'],
    ['#game=kalah:6:4&moves=%E0%A4%A', 'This link cannot be opened: its moves are not house letters.'],
  ];
  for (const [hash, said] of cases) {
    await page.goto(`${url}${hash}`);
    await page.waitForFunction((s) => document.getElementById('message').textContent === s, said);
    assert.equal(await position(page), '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', hash);
  }
  // A move the rules refuse: the server's own words below.
  await page.goto(`${url}#game=kalah:6:4&moves=Cc`);
  expected.push(/status of 400/);
  await page.waitForFunction(() => /refuses its game/.test(document.getElementById('message').textContent));
  assert.match(await page.locator('#message .detail').textContent(), /'c' is a North house/);
  await shots(page, 'link-bad');
  // The board still plays.
  await page.keyboard.press('c');
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');
  // The refused link's 400 is the only console error.
  session.problems.splice(0, session.problems.length,
                          ...session.problems.filter((p) => !expected.some((e) => e.test(p))));
  await close(session);
});

test('an earlier day\'s puzzle from a link is asked and judged, and counts for no day', async () => {
  const d = new Date();
  d.setDate(d.getDate() - 1);
  const two = (n) => String(n).padStart(2, '0');
  const yesterday = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  const session = await open({hash: `#puzzle=${yesterday}&game=kalah:6:4`});
  const {page} = session;
  await page.waitForSelector('#puzzle[data-status="asked"]', {timeout: 30000});
  const puzzle = await page.locator('#puzzle').getAttribute('data-position');
  await showing(page, puzzle);
  assert.equal(await page.locator('#message').textContent(),
               `The Kalah puzzle of ${yesterday}, from a link.`);
  await page.keyboard.press(dbQuery('kalah', puzzle).moves[0].move.toLowerCase());
  await page.waitForFunction(() => /Right/.test(document.getElementById('puzzle-text').textContent));
  // Judged, but no streak: the device's record of days answered is untouched.
  assert.equal(await page.evaluate(() => localStorage.getItem('mancala.puzzle')), null);
  assert.match(await page.locator('#puzzle-streak').textContent(), /Streak: 0 days$/);
  await close(session);
});

// The game review. ENDGAME: a Kalah(6,4) position of 8 seeds (inside the test tables: every value
// exact), South to move: D and F keep a win by 2, A draws, B loses by 2.
const ENDGAME = '1-2-0-1-0-1-0-1-0-2-0-0-20-20-S';

// The endgame loaded and played to its end between two people, South's first move A (a blunder:
// a win given away for a draw), then the first legal house each time. Returns the moves and the
// positions after each (GET /api/v1/position).
async function playedEndgame(page) {
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${ENDGAME}"]\n[Result "*"]\n\n*\n`);
  await page.keyboard.press('a');
  await idle(page);
  await playToTheEnd(page);
  const moves = await page.locator('#move-list button.move').evaluateAll((buttons) =>
    buttons.map((b) => b.textContent));
  const positions = await page.evaluate(async ({s, m}) => {
    const r = await fetch(`/api/v1/position?game=kalah&position=${s}&moves=${m}&played=all`);
    return (await r.json()).played.map((p) => p.position);
  }, {s: ENDGAME, m: moves.join('')});
  return {moves, positions: [ENDGAME, ...positions]};
}

// South's exact value of a Kalah(6,4) position (db query; the store difference where it is over).
function southValueOf(p) {
  const n = p.split('-').slice(0, 14).map(Number);
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  if (sum(n.slice(0, 6)) === 0 || sum(n.slice(6, 12)) === 0) {
    return n[12] + sum(n.slice(0, 6)) - n[13] - sum(n.slice(6, 12));
  }
  const q = dbQuery('kalah', p);
  return p.endsWith('S') ? q.score : 0 - q.score;  // 0, not -0
}

// Counts the analyses the page asks for, and notes every text of the review's progress line.
function countAnalyses(page) {
  const asked = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/analyse')) asked.push(Date.now());
  });
  return asked;
}

async function watchProgress(page) {
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push(
      document.getElementById('review-status').textContent))
      .observe(document.getElementById('review-status'), {childList: true, characterData: true,
                                                           subtree: true});
  });
}

// In Hebrew (right to left) a signed value is drawn as written: the sign left of the digits, never
// "2+" (the bidirectional algorithm puts a lone "+2" in a right-to-left line that way).
test('a signed value reads sign first in the Hebrew page', async () => {
  const session = await open({locale: 'he-IL'});
  const {page} = session;
  await loadRecord(page, 'endgame.txt',
                   `[Game "kalah:6:4"]\n[Position "${ENDGAME}"]\n[Result "*"]\n\n*\n`);
  await openAnalysis(page);
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  const drawn = await page.locator('#analysis-body .value').evaluateAll((spans) =>
    spans.map((span) => {
      const text = span.firstChild.textContent;
      const at = text.search(/[+-]/);
      if (at < 0) return {text, signLeft: null};
      const box = (i) => {
        const range = document.createRange();
        range.setStart(span.firstChild, i);
        range.setEnd(span.firstChild, i + 1);
        return range.getBoundingClientRect();
      };
      return {text, signLeft: box(at).left < box(at + 1).left};
    }));
  const signed = drawn.filter((d) => d.signLeft !== null);
  assert.ok(signed.length > 0, JSON.stringify(drawn));
  for (const d of signed) assert.ok(d.signLeft, `"${d.text}" drawn with its sign after the digits`);
  await close(session);
});

// The analysis follows the board: a finished game's earlier positions, replayed from the move
// list, are analysed (it said "the game is over" for each of them).
test('the analysis panel analyses a position replayed from a finished game', async () => {
  const session = await open();
  const {page} = session;
  const {positions} = await playedEndgame(page);
  await openAnalysis(page);
  await page.waitForFunction(() => document.getElementById('analysis-summary').textContent ===
                                   'The game is over: nothing to analyse.');
  await page.click('#move-list button.move[data-ply="1"]');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), positions[1]);
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
  const query = dbQuery('kalah', positions[1]);
  const n = positions[1].split('-');
  const lead = positions[1].endsWith('S') ? n[12] - n[13] : n[13] - n[12];
  const shown = await page.locator('#analysis-body li').evaluateAll((items) =>
    items.map((li) => ({move: li.dataset.move, score: Number(li.dataset.score)})));
  assert.deepEqual(shown.map((m) => m.move).sort(), query.moves.map((m) => m.move).sort());
  for (const m of query.moves) {
    assert.equal(shown.find((s) => s.move === m.move).score, lead + m.value, `move ${m.move}`);
  }
  assert.notEqual(await page.locator('#analysis-summary').textContent(),
                  'The game is over: nothing to analyse.');
  // Replayed, its moves are shown, not played.
  assert.equal(await page.locator('#analysis-body li button:not([disabled])').count(), 0);
  // Back at the game's end: over again.
  await page.click('#replay-last');
  await idle(page);
  await page.waitForFunction(() => document.getElementById('analysis-summary').textContent ===
                                   'The game is over: nothing to analyse.');
  // Learning from a mistake replays the position before it, but the panel gives no answer away.
  await page.click('#review-toggle');
  await page.waitForSelector('#review[data-status="done"]');
  await page.click('#learn-start');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), positions[0]);
  assert.equal(await page.locator('#analysis-summary').textContent(),
               'The game is over: nothing to analyse.');
  assert.equal(await page.locator('#analysis-body li').count(), 0);
  await close(session);
});

test('a finished game is reviewed: every position valued exactly, the graph moves the board, a blunder marked with the better move',
     async () => {
  const session = await open();
  const {page} = session;
  const asked = countAnalyses(page);
  const {moves, positions} = await playedEndgame(page);
  await watchProgress(page);
  await page.click('#review-toggle');
  await page.waitForSelector('#review[data-status="done"]');
  // The progress was said, position by position, out of the positions before each move.
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((text) => new RegExp(`^Valuing each position: \\d+ / ${moves.length}$`)
    .test(text)), seen.join('|'));
  assert.equal(Number(await page.locator('#review').getAttribute('data-total')), moves.length);
  // Every move carries the value of the position after it, exact, as db query gives it.
  const listed = await page.locator('#move-list button.move').evaluateAll((buttons) =>
    buttons.map((b) => ({value: Number(b.dataset.value), exact: b.dataset.exact,
                         mark: b.dataset.mark || null, better: b.dataset.better || null,
                         title: b.title})));
  assert.equal(listed.length, moves.length);
  listed.forEach((entry, k) => {
    assert.equal(entry.exact, 'true', `move ${k + 1}`);
    assert.equal(entry.value, southValueOf(positions[k + 1]), `move ${k + 1}`);
    assert.match(entry.title, /for South \((exact|the game's end)/);
  });
  // The graph: a point a position, each South's exact value.
  const points = await page.locator('#value-graph circle').evaluateAll((circles) =>
    circles.map((c) => [Number(c.dataset.ply), Number(c.dataset.value), c.dataset.exact]));
  assert.deepEqual(points, positions.map((p, ply) => [ply, southValueOf(p), 'true']));
  // The planted blunder: A gave a win by 2 away for a draw; D (the tables' first best) was better.
  assert.equal(listed[0].mark, 'blunder');
  assert.equal(listed[0].better, 'D');
  assert.equal(await page.locator('#move-list button.move[data-ply="1"] .move-mark').textContent(),
               '??');
  assert.equal(await page.locator('#move-list button.move[data-ply="1"] .move-better')
    .textContent(), 'better: D');
  const entry = page.locator('#review-marks li[data-ply="1"]');
  assert.equal(await entry.getAttribute('data-mark'), 'blunder');
  assert.match(await entry.textContent(), /^A\?\? South: blunder, \+2 → 0, better: D$/);
  // A move that kept its value is not marked: each mark is a value lost by the mover.
  positions.slice(0, -1).forEach((p, k) => {
    const sign = moves[k] === moves[k].toUpperCase() ? 1 : -1;
    const lost = sign * (southValueOf(p) - southValueOf(positions[k + 1]));
    if (lost <= 0) assert.equal(listed[k].mark, null, `move ${k + 1}`);
  });
  // A click on a point of the graph shows its position; the arrow keys step from there.
  await page.locator('#value-graph circle[data-ply="3"]').click();
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), positions[3]);
  assert.match(await page.locator('#graph-caption').textContent(),
               new RegExp(`^Move 3: ${moves[2]}, [+-]?\\d+ for South \\(exact`));
  assert.equal(await page.locator('#value-graph').getAttribute('aria-valuenow'), '3');
  await page.locator('#value-graph').focus();
  await page.keyboard.press('ArrowLeft');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), positions[2]);
  await page.keyboard.press('Home');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), ENDGAME);
  assert.match(await page.locator('#value-graph').getAttribute('aria-valuetext'),
               /^The start: \+2 for South \(exact, from the endgame tables\)$/);
  // A marked move's entry shows the position after it.
  await entry.locator('button').click();
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), positions[1]);
  await shots(page, 'review');
  // Closed and opened again: the same review at once, nothing asked again.
  await page.click('#review-toggle');
  assert.equal(await page.locator('#review').isHidden(), true);
  const before = asked.length;
  await page.click('#review-toggle');
  await page.waitForSelector('#review[data-status="done"]');
  assert.equal(asked.length, before);
  await close(session);
});

test('learning from a mistake accepts a move as good as the best, refuses a worse one, and shows the better',
     async () => {
  const session = await open();
  const {page} = session;
  const {moves} = await playedEndgame(page);
  await page.click('#review-toggle');
  await page.waitForSelector('#review[data-status="done"]');
  const mistakes = await page.locator('#review-marks li').evaluateAll((items) =>
    items.filter((li) => ['mistake', 'blunder'].includes(li.dataset.mark)).length);
  await page.click('#learn-start');
  await idle(page);
  // Back to the position before A, a question asked (beside the status too, for a phone).
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), ENDGAME);
  const question = `Mistake 1 of ${mistakes}. South played A?? at move 1: find a better move.`;
  assert.equal(await page.locator('#learn-text').textContent(), question);
  assert.equal(await page.locator('#hint-text').textContent(), question);
  // B loses by 2: refused.
  await page.getByRole('button', {name: 'house B (South), 2 seeds', exact: true}).click();
  await page.waitForSelector('#learn[data-status="wrong"]');
  assert.match(await page.locator('#learn-text').textContent(),
               /B is no better: -2 for South, where the best move keeps \+2\. Try again\.$/);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), ENDGAME);
  // F keeps the win by 2, as D does: accepted, though D is the tables' first.
  await page.keyboard.press('f');
  await page.waitForSelector('#learn[data-status="right"]');
  assert.match(await page.locator('#learn-text').textContent(), /Right: F keeps \+2 for South\.$/);
  const afterF = await page.evaluate(async (s) => (await (await fetch(
    `/api/v1/position?game=kalah&position=${s}&moves=F`)).json()).position, ENDGAME);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), afterF);
  // Again from the start: Show plays the better move.
  await page.click('#learn-stop');
  await idle(page);
  await page.click('#learn-start');
  await idle(page);
  await page.click('#learn-show');
  await page.waitForSelector('#learn[data-status="shown"]');
  const afterD = await page.evaluate(async (s) => (await (await fetch(
    `/api/v1/position?game=kalah&position=${s}&moves=D`)).json()).position, ENDGAME);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'), afterD);
  // On to the end: how many were found and shown.
  for (let k = 1; k <= mistakes; ++k) {
    await page.click('#learn-next');
    await idle(page);
  }
  assert.equal(await page.locator('#learn').getAttribute('data-status'), 'done');
  assert.equal(await page.locator('#learn-text').textContent(),
               `Done: 0 of ${mistakes} found, 1 shown.`);
  await page.click('#learn-stop');
  await idle(page);
  assert.equal(await page.locator('#board-frame').getAttribute('data-shown'),
               await position(page));
  assert.equal(moves[0], 'A');
  await close(session);
});

test('outside the tables the review says estimates and their depth, and Cancel stops its requests',
     async () => {
  const session = await open();
  const {page} = session;
  const asked = countAnalyses(page);
  // Not during a game against the computer: the review would be its opponent's help.
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.locator('.house.legal .pit').first().click();
  await idle(page);
  assert.equal(await page.locator('#review-toggle').isDisabled(), true);
  // Between two people, a few moves of Kalah(6,4): 48 seeds, beyond the tables and the solver.
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  for (const key of ['c', 'f', 'b', 'e', 'a', 'c']) {
    await page.keyboard.press(key);
    await idle(page);
  }
  assert.equal(await page.locator('#review-toggle').isDisabled(), false);
  await watchProgress(page);
  await page.click('#review-toggle');
  await page.waitForFunction(() => Number(document.getElementById('review').dataset.done) >= 2);
  await page.click('#review-cancel');
  const atCancel = asked.length;
  assert.equal(await page.locator('#review').getAttribute('data-status'), 'cancelled');
  const done = Number(await page.locator('#review').getAttribute('data-done'));
  assert.ok(done < 7, `${done} of 7 valued before Cancel`);
  assert.equal(await page.locator('#review-status').textContent(),
               `Stopped at ${done} / 7: Resume goes on from there.`);
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.includes('Valuing each position: 1 / 7'), seen.join('|'));
  // Nothing more is asked after Cancel (each position takes a second of the server's search).
  await page.waitForTimeout(2500);
  assert.equal(asked.length, atCancel);
  // Resumed: the positions already valued are not asked again.
  await page.click('#review-resume');
  await page.waitForSelector('#review[data-status="done"]', {timeout: 30000});
  assert.equal(asked.length, atCancel + 7 - done);
  const listed = await page.locator('#move-list button.move').evaluateAll((buttons) =>
    buttons.map((b) => [b.dataset.exact, b.querySelector('.move-value').textContent, b.title]));
  assert.equal(listed.length, 6);
  for (const [exact, value, title] of listed) {
    assert.equal(exact, 'false');
    assert.match(value, /^~[+-]?\d+$/);
    assert.match(title, /for South \(an estimate from a search \d+ moves deep\)/);
  }
  assert.equal(await page.locator('#value-graph circle.estimate').count(), 7);
  // A new move ends the review: it was of another game.
  await page.keyboard.press('End');
  await idle(page);
  await page.locator('.house.legal .pit').first().click();
  await idle(page);
  assert.equal(await page.locator('#review').isHidden(), true);
  assert.equal(await page.locator('#review-toggle').getAttribute('aria-expanded'), 'false');
  await close(session);
});

// Which of the drawn elements `selectors` finds leave the screen's width (ids, else classes or tags).
async function outsideTheScreen(page, selectors) {
  return page.evaluate((found) => [...document.querySelectorAll(found)].filter((e) => {
    const b = e.getBoundingClientRect();
    return b.width && (b.left < 0 || b.right > document.documentElement.clientWidth);
  }).map((e) => e.id || e.className || e.tagName), selectors);
}

test('the review and its questions fit a phone and a desktop, in English and Hebrew', async () => {
  for (const locale of ['en-US', 'he-IL']) {
    const language = locale.slice(0, 2);
    for (const [name, viewport] of [['phone-360x640', {width: 360, height: 640}],
                                    ['desktop-1366x768', {width: 1366, height: 768}]]) {
      const touch = name.startsWith('phone');
      const session = await open({locale, viewport, touch});
      const {page} = session;
      await playedEndgame(page);
      await page.click('#review-toggle');
      await page.waitForSelector('#review[data-status="done"]');
      // The panel was brought into view, and nothing of it leaves the screen's width.
      const box = await page.locator('#review').boundingBox();
      assert.ok(box.y < viewport.height, `the review panel starts at y = ${box.y}`);
      assert.deepEqual(await outsideTheScreen(page, '#review button, #review svg, #review p'), []);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <=
                                          document.documentElement.clientWidth));
      await snap(page, `review-${language}-${name}.png`);
      await snap(page, `review-${language}-${name}-full.png`, {fullPage: true});
      // Learning: the question beside the board, the board in view.
      await page.click('#learn-start');
      await idle(page);
      await page.evaluate(() => window.scrollTo(0, 0));
      assert.notEqual(await page.locator('#hint-text').textContent(), '');
      await snap(page, `review-learn-${language}-${name}.png`);
      await close(session);
    }
  }
});

// The game review and the puzzle trainer at a phone's two sizes, upright and turned, in every
// language (English and Hebrew are also seen at 360x640 and on a desktop above): nothing wider
// than the screen; screenshots review-LANG-SIZE and trainer-LANG-SIZE.
test('the review and the trainer fit a phone upright and turned, in every language', async () => {
  // One phone a language, turned between the looks (as a player turns it): each panel is seen
  // upright and turned, and a panel laid out at one size must fit the other.
  const upright = {width: 390, height: 844};
  const turned = {width: 844, height: 390};
  const fits = async (page, panel, language, name) => {
    assert.deepEqual(
      await outsideTheScreen(page, `#${panel} button, #${panel} svg, #${panel} p, #${panel} select`),
      [], `${panel} ${language} ${name}`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <=
                                        document.documentElement.clientWidth),
              `${panel} ${language} ${name}`);
  };
  for (const locale of ['en-US', 'fr-FR', 'pt-PT', 'he-IL', 'th-TH', 'ja-JP']) {
    const language = locale.slice(0, 2);
    const session = await open({locale, viewport: upright, touch: true});
    const {page} = session;
    assert.equal(await page.evaluate(() => document.documentElement.lang), language);
    await playedEndgame(page);
    await page.click('#review-toggle');
    await page.waitForSelector('#review[data-status="done"]');
    // Each language writes the entry its way (French: a space before the colon).
    if (language === 'fr') {
      assert.match(await page.locator('#review-marks li[data-ply="1"]').textContent(),
                   /^A\?\? Sud : gaffe, /);
    }
    await fits(page, 'review', language, 'phone-390x844');
    await snap(page, `review-${language}-phone-390x844.png`);
    await page.setViewportSize(turned);
    await fits(page, 'review', language, 'phone-844x390');
    await snap(page, `review-${language}-phone-844x390.png`);
    await page.click('#trainer-next');
    if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
    await page.waitForSelector('#trainer[data-status="asked"]');
    await idle(page);
    assert.notEqual(await page.locator('#hint-text').textContent(), '');
    await fits(page, 'trainer', language, 'phone-844x390');
    await snap(page, `trainer-${language}-phone-844x390.png`);
    await page.setViewportSize(upright);
    await fits(page, 'trainer', language, 'phone-390x844');
    await snap(page, `trainer-${language}-phone-390x844.png`);
    await page.locator('#trainer').scrollIntoViewIfNeeded();
    await snap(page, `trainer-panel-${language}-phone-390x844.png`);
    await close(session);
  }
});

// The trainer's puzzle on the board: its library entry (read from the app's own file) by the id
// the panel shows.
async function trainerPuzzle(page, file) {
  const {readFileSync} = await import('node:fs');
  const library = JSON.parse(readFileSync(`${process.env.MANCALA_WEB_DIR}/puzzles/${file}`, 'utf8'));
  await page.waitForSelector('#trainer[data-status="asked"]');
  await idle(page);
  const id = await page.locator('#trainer').getAttribute('data-id');
  const puzzle = library.puzzles.find((p) => p.id === id);
  assert.ok(puzzle, `puzzle ${id} is in ${file}`);
  assert.equal(await position(page), puzzle.position);
  return puzzle;
}

const shownRating = async (page) => Number(await page.locator('#trainer-rating').getAttribute('data-rating'));

test('the puzzle trainer: a puzzle solved along its line, the rating up, kept over a reload',
     async () => {
  const session = await open();
  const {page} = session;
  assert.match(await page.locator('#trainer-rating').textContent(), /^Your rating: 1500 ± 350$/);
  await page.click('#trainer-next');
  const puzzle = await trainerPuzzle(page, 'kalah-6-4.json');
  // While it asks, nothing shows the answer and nothing takes a move back.
  assert.equal(await page.locator('#hint').isDisabled(), true);
  assert.equal(await page.locator('#undo').isDisabled(), true);
  assert.match(await page.locator('#hint-text').textContent(),
               puzzle.goal === 'win' ? /find the only winning move/ : /Find the one that draws/);
  await solveLine(page, puzzle);
  assert.equal(await page.locator('#trainer').getAttribute('data-step'), String(puzzle.line.length));
  assert.match(await page.locator('#trainer-text').textContent(), /Solved! Rating \+\d+\.$/);
  const rating = await shownRating(page);
  assert.ok(rating > 1500, `${rating}`);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.trainer')));
  assert.equal(kept.solved, 1);
  assert.equal(kept.tried, 1);
  assert.equal(kept.pending, null);
  assert.ok(kept.ratings['kalah:6:4'].deviation < 350);
  assert.deepEqual(kept.played['kalah:6:4'], [puzzle.id]);
  await shots(page, 'trainer-solved');
  await page.reload();
  await idle(page);
  assert.equal(await shownRating(page), rating);
  // The next puzzle is another one (the board's game, a puzzle no longer, is thrown away on yes
  // when it goes on).
  await page.click('#trainer-next');
  if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  const next = await trainerPuzzle(page, 'kalah-6-4.json');
  assert.notEqual(next.id, puzzle.id);
  await close(session);
});

test('the puzzle trainer: a wrong move is refused and tried again, and a solution is played out',
     async () => {
  const session = await open();
  const {page} = session;
  await page.click('#trainer-next');
  const puzzle = await trainerPuzzle(page, 'kalah-6-4.json');
  // A legal move of South's that is not the answer (every non-empty house, in Kalah).
  const houses = puzzle.position.split('-').slice(0, 6).map(Number);
  const wrong = 'ABCDEF'.split('').find((letter, i) => houses[i] > 0 && letter !== puzzle.line[0]);
  await page.keyboard.press(wrong.toLowerCase());
  await page.waitForSelector('#trainer[data-missed="true"]');
  await idle(page);
  assert.equal(await position(page), puzzle.position);
  assert.match(await page.locator('#hint-text').textContent(), new RegExp(`^Not ${wrong}\\. Try again\\. Rating -\\d+\\.$`));
  const missed = await shownRating(page);
  assert.ok(missed < 1500, `${missed}`);
  await solveLine(page, puzzle);
  assert.match(await page.locator('#trainer-text').textContent(), /Solved, after a miss\./);
  // Counted once: solving after the miss changes nothing.
  assert.equal(await shownRating(page), missed);

  // The next, given up: its line played out on the board, counted as missed.
  await page.click('#trainer-next');
  const second = await trainerPuzzle(page, 'kalah-6-4.json');
  await page.click('#trainer-solution');
  await page.waitForSelector(`#trainer[data-status="shown"][data-step="${second.line.length}"]`);
  await idle(page);
  assert.match(await page.locator('#trainer-text').textContent(),
               new RegExp(`The solution: ${second.line.join(' ')}\\.`));
  assert.ok(await shownRating(page) < missed);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.trainer')));
  assert.equal(kept.tried, 2);
  assert.equal(kept.solved, 0);
  await close(session);
});

test('the puzzle trainer: a reload brings the puzzle back as it was, one left for a new game counts as missed, and Oware by theme',
     async () => {
  const session = await open();
  const {page} = session;
  await page.selectOption('#trainer-game', 'oware:4:abapa');
  await page.selectOption('#trainer-theme', 'feeding');
  await page.click('#trainer-next');
  const puzzle = await trainerPuzzle(page, 'oware-4.json');
  assert.ok(puzzle.themes.includes('feeding'));
  assert.equal(await page.locator('#board-frame').getAttribute('data-game'), 'oware:4:abapa');
  await page.reload();
  await idle(page);
  // Back as it was: the same puzzle, still asked (the hint still off), nothing counted, its game
  // chosen in the panel.
  assert.equal(await page.locator('#trainer').getAttribute('data-status'), 'asked');
  assert.equal(await page.locator('#trainer').getAttribute('data-id'), puzzle.id);
  assert.equal(await position(page), puzzle.position);
  assert.equal(await page.locator('#hint').isDisabled(), true);
  assert.equal(await page.locator('#trainer-game').inputValue(), 'oware:4:abapa');
  assert.equal(await shownRating(page), 1500);
  let kept = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.trainer')));
  assert.equal(kept.tried, 0);
  assert.equal(kept.pending.game, 'oware:4:abapa');
  // Left for a new game, then the page left: a miss, counted once, and no longer asked.
  await page.click('#new-game');
  if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  await idle(page);
  await page.reload();
  await idle(page);
  await page.selectOption('#trainer-game', 'oware:4:abapa');
  assert.ok(await shownRating(page) < 1500);
  assert.equal(await page.locator('#trainer').getAttribute('data-status'), '');
  kept = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.trainer')));
  assert.equal(kept.tried, 1);
  assert.equal(kept.pending, null);
  // A record of another shape is dropped, never trusted: a new player's rating again.
  await page.evaluate(() => localStorage.setItem('mancala.trainer', JSON.stringify(
    {ratings: {'kalah:6:4': {rating: 'high', deviation: -1, volatility: 0.06}}, played: {}})));
  await page.reload();
  await idle(page);
  assert.match(await page.locator('#trainer-rating').textContent(), /^Your rating: 1500 ± 350$/);
  assert.equal(await page.evaluate(() => localStorage.getItem('mancala.trainer')), null);
  await close(session);
});

test('a trainer puzzle has a link: the same puzzle asked elsewhere and counted, then practice once met',
     async () => {
  const session = await open();
  await session.page.click('#trainer-next');
  const puzzle = await trainerPuzzle(session.page, 'kalah-6-4.json');
  await session.page.click('#copy-link');
  const hash = new URL(await session.page.locator('#link-text').inputValue()).hash;
  assert.equal(hash, `#trainer=${puzzle.id}&game=kalah:6:4`);
  await close(session);
  // Another player (a fresh profile) opens it: the same puzzle, asked, counted for the rating.
  const other = await open({hash});
  const {page} = other;
  assert.equal((await trainerPuzzle(page, 'kalah-6-4.json')).id, puzzle.id);
  assert.equal(await page.locator('#message').textContent(),
               `Puzzle ${puzzle.id} of Kalah, from a link.`);
  assert.equal(await page.evaluate(() => location.hash), '');
  await solveLine(page, puzzle);
  assert.match(await page.locator('#trainer-text').textContent(), / Solved! Rating \+\d+\.$/);
  const rating = await shownRating(page);
  // Opened again once met: practice, its result changes nothing.
  await page.evaluate((h) => { location.hash = h; }, hash);
  const metBefore = () => /met before/.test(document.getElementById('message').textContent);
  await page.waitForFunction(`document.getElementById('confirm-yes') || (${metBefore})()`);
  if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  await page.waitForFunction(metBefore);
  assert.equal((await trainerPuzzle(page, 'kalah-6-4.json')).id, puzzle.id);
  await solveLine(page, puzzle);
  assert.match(await page.locator('#trainer-text').textContent(), /^Puzzle rated \d+\. Solved!$/);
  assert.equal(await shownRating(page), rating);
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('mancala.trainer')));
  assert.equal(kept.tried, 1);
  // An id the library lacks, or not written as one, is said, and the board stays.
  for (const bad of ['00000000', 'ZZ', '']) {
    await page.reload();
    await idle(page);
    const before = await position(page);
    await page.evaluate((h) => { location.hash = h; }, `#trainer=${bad}&game=kalah:6:4`);
    await page.waitForFunction(() => /cannot be opened/.test(document.getElementById('message').textContent));
    assert.equal(await page.locator('#message').textContent(),
                 'This link cannot be opened: it names no puzzle of the trainer for that game.');
    assert.equal(await position(page), before);
  }
  await close(other);
});

test('the puzzle trainer fits a phone, in English and Hebrew', async () => {
  const session = await open({viewport: {width: 360, height: 640}, touch: true});
  const {page} = session;
  for (const code of ['en', 'he']) {
    if (code !== 'en') await chooseLanguage(page, code);
    await page.click('#trainer-next');
    await page.waitForSelector('#trainer[data-status="asked"]');
    await idle(page);
    // The question beside the board, in view; nothing wider than the screen.
    assert.ok((await page.locator('#hint-text').textContent()).length > 0);
    assert.ok(await page.locator('#hint-text').isVisible());
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360));
    await page.locator('#trainer').scrollIntoViewIfNeeded();
    const box = await page.locator('#trainer').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 360, JSON.stringify(box));
    await snap(page, `trainer-phone-${code}.png`, {fullPage: true});
  }
  await close(session);
});

// Glickman's worked example ("Example of the Glicko-2 system"): a player of 1500 ± 200,
// volatility 0.06, beats a 1400 ± 30 and loses to 1550 ± 100 and 1700 ± 300.
test('the trainer\'s Glicko-2 gives the numbers of Glickman\'s worked example', async () => {
  const {glicko2Update} = await import(`${process.env.MANCALA_WEB_DIR}/glicko2.js`);
  const after = glicko2Update({rating: 1500, deviation: 200, volatility: 0.06},
                              [{rating: 1400, deviation: 30, score: 1},
                               {rating: 1550, deviation: 100, score: 0},
                               {rating: 1700, deviation: 300, score: 0}]);
  // The paper: 1464.06, 151.52, 0.05999 (its steps round as they go).
  assert.ok(Math.abs(after.rating - 1464.06) < 0.02, `${after.rating}`);
  assert.ok(Math.abs(after.deviation - 151.52) < 0.01, `${after.deviation}`);
  assert.ok(Math.abs(after.volatility - 0.05999) < 0.00001, `${after.volatility}`);
  // No games in a period: the deviation grows, the rating stays.
  const idleAfter = glicko2Update({rating: 1500, deviation: 200, volatility: 0.06}, []);
  assert.equal(idleAfter.rating, 1500);
  assert.ok(idleAfter.deviation > 200);
});

test('the page\'s checks take the shipped puzzle libraries and refuse a damaged one', async () => {
  const {readFileSync} = await import('node:fs');
  const {checkLibrary, trainerGames} = await import(`${process.env.MANCALA_WEB_DIR}/puzzle-library.js`);
  for (const entry of trainerGames()) {
    const doc = JSON.parse(readFileSync(`${process.env.MANCALA_WEB_DIR}/${entry.file}`, 'utf8'));
    assert.equal(checkLibrary(doc, entry).length, doc.count);
    assert.ok(doc.puzzles.every((p) => p.themes.every((theme) => entry.themes.includes(theme))));
    const damaged = structuredClone(doc);
    damaged.puzzles[0].line[0] = damaged.puzzles[0].line[0] === 'A' ? 'B' : 'A';
    assert.throws(() => checkLibrary(damaged, entry), /damaged/);
    assert.throws(() => checkLibrary({...doc, version: 2}, entry), /version 2/);
    assert.throws(() => checkLibrary(doc, trainerGames().find((g) => g !== entry)), /not of/);
  }
});
