// Browser tests of the web board: the real `mancala serve` binary on a loopback port, Debian's
// Chromium driven headless by playwright-core, a person's clicks, taps and keys. Each test saves
// a desktop (1280x800) and a phone (390x844) screenshot in MANCALA_SCREENSHOTS.
//
// Run by browser_test.sh (through CTest), which installs playwright-core, builds small tables
// (8 seeds) and sets MANCALA_BINARY, MANCALA_WEB_DB and MANCALA_SCREENSHOTS.
import assert from 'node:assert/strict';
import {execFileSync, spawn} from 'node:child_process';
import {mkdirSync} from 'node:fs';
import {after, before, test} from 'node:test';

import {chromium} from 'playwright-core';

const BINARY = process.env.MANCALA_BINARY;
const DB = process.env.MANCALA_WEB_DB;
const SHOTS = process.env.MANCALA_SCREENSHOTS;
const DESKTOP = {width: 1280, height: 800};
const PHONE = {width: 390, height: 844};

let server;
let url;
let browser;

before(async () => {
  mkdirSync(SHOTS, {recursive: true});
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

// A fresh browser profile (no stored language or setup) showing the board.
async function open({locale = 'en-US', reducedMotion = 'reduce', viewport = DESKTOP} = {}) {
  const context = await browser.newContext({viewport, locale, reducedMotion, acceptDownloads: true});
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // The page drops the analysis of a position the game has left: that is no failure.
    const dropped = request.url().includes('/api/v1/analyse') &&
                    request.failure()?.errorText === 'net::ERR_ABORTED';
    if (!dropped) problems.push(`request failed: ${request.url()}`);
  });
  // Nothing but the server itself: no CDN, no fonts from elsewhere.
  page.on('request', (request) => {
    if (!request.url().startsWith(url) && !request.url().startsWith('blob:')) {
      problems.push(`request outside the server: ${request.url()}`);
    }
  });
  await page.goto(url);
  await idle(page);
  return {context, page, problems};
}

async function idle(page) {
  await page.waitForSelector('#board-frame[data-busy="false"]');
}

async function position(page) {
  return page.locator('#board-frame').getAttribute('data-position');
}

// Desktop and phone screenshots of the page as it is.
async function shots(page, name) {
  const size = page.viewportSize();
  for (const [suffix, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    await page.screenshot({path: `${SHOTS}/${name}-${suffix}.png`, fullPage: true});
  }
  await page.setViewportSize(size);
}

async function close({context, problems}) {
  await context.close();
  assert.deepEqual(problems, []);
}

async function newGame(page, {kind, houses, seeds, variant, opponent, first = 'me'}) {
  await page.selectOption('#setup-kind', kind);
  if (houses) await page.selectOption('#setup-houses', String(houses));
  if (seeds) await page.selectOption('#setup-seeds', String(seeds));
  if (variant) await page.selectOption('#setup-variant', variant);
  await page.selectOption('#setup-opponent', String(opponent));
  if (opponent !== 'human') await page.selectOption('#setup-first', first);
  await page.click('#setup-start');
  await idle(page);
}

// Plays the first legal house until the game ends; returns the number of clicks.
async function playToTheEnd(page) {
  let clicks = 0;
  for (;;) {
    await idle(page);
    if (await page.locator('#board-frame').getAttribute('data-over') === 'true') return clicks;
    assert.ok(++clicks < 400, 'the game does not end');
    await page.locator('.house.legal .pit').first().click();
  }
}

function dbQuery(game, positionString) {
  return JSON.parse(execFileSync(BINARY, ['db', 'query', game, positionString, '--db', DB,
                                          '--json']).toString());
}

async function loadRecord(page, name, text) {
  await page.setInputFiles('#load-file', {name, mimeType: 'text/plain',
                                          buffer: Buffer.from(text)});
  await page.waitForFunction(() => document.getElementById('message').textContent !== '');
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

test('houses are buttons named by letter and seeds, played by click, key or Enter', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 'human'});
  const houseC = page.getByRole('button', {name: 'house C, 4 seeds', exact: true});
  await houseC.click();
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');
  await page.keyboard.press('f');  // South moves again: F
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-0-5-5-5-5-4-4-2-0-N');
  assert.match(await page.locator('#status').textContent(), /North to move/);
  await page.getByRole('button', {name: 'house b, 5 seeds', exact: true}).focus();
  await page.keyboard.press('Enter');
  await idle(page);
  assert.equal(await position(page), '4-4-0-5-5-0-5-0-6-6-5-5-2-1-N');
  // North's b is empty now, and not a move.
  const b = page.getByRole('button', {name: 'house b, 0 seeds', exact: true});
  assert.equal(await b.getAttribute('aria-disabled'), 'true');
  await shots(page, 'keyboard');
  await close(session);
});

test('undo takes back your move and the computer\'s answer', async () => {
  const session = await open();
  const {page} = session;
  await newGame(page, {kind: 'kalah', opponent: 1});
  await page.getByRole('button', {name: 'house C, 4 seeds', exact: true}).click();
  await idle(page);
  const afterC = await position(page);
  assert.equal(afterC, '4-4-0-5-5-5-4-4-4-4-4-4-1-0-S');  // an extra turn: still yours
  await page.getByRole('button', {name: 'house A, 4 seeds', exact: true}).click();
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
  await page.getByRole('button', {name: 'house A, 12 seeds', exact: true}).click();
  await page.waitForSelector('#skip-note:not([hidden])');
  // Midway: the emptied house is drawn empty while the seeds go round.
  await page.waitForTimeout(250);
  await page.screenshot({path: `${SHOTS}/animation-midway-desktop.png`});
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
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-body[data-source="tables"] li');
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
  await page.click('#analysis-toggle');
  await page.waitForSelector('#analysis-body li');
  const first = await page.locator('#analysis-body li').first().evaluate((li) => ({...li.dataset}));
  assert.equal(hinted.move, first.move);
  assert.equal(hinted.score, first.score);
  assert.equal(analyses.length, 1, analyses.join(' '));
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
  await page.click('#analysis-toggle');
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
  assert.equal(await page.getByRole('button', {name: 'גומה C, 4 זרעים', exact: true}).count(), 1);
  await shots(page, 'language-he');
  await close(session);
});

test('Japanese is chosen on the page and kept for the next visit', async () => {
  const session = await open();
  const {page} = session;
  await page.selectOption('#language', 'ja');
  await page.waitForFunction(() => document.documentElement.lang === 'ja');
  assert.equal(await page.title(), 'マンカラ');
  assert.equal(await page.getByRole('button', {name: '穴 C、種 4 個', exact: true}).count(), 1);
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

test('a computer turn of several sowings appears whole in the move list', async () => {
  const session = await open();
  const {page} = session;
  // Level 4 (a fixed search: the same moves each time) opens Kalah with C, which ends in its
  // store, and moves again.
  await newGame(page, {kind: 'kalah', opponent: 4, first: 'computer'});
  const turns = await moveList(page);
  assert.equal(turns.length, 1);
  assert.equal(turns[0][0], 'South');
  assert.ok(turns[0][1].length >= 2, JSON.stringify(turns));
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
    await page.evaluate((s) => localStorage.setItem('mancala.game', JSON.stringify(
      {game: 'kalah:6:4', start: s, moves: [], opponent: '1', computerSide: 'North'})), start);
    await page.reload();
    await idle(page);
    await page.click('#hint');
    await page.waitForSelector('#hint-text:not([data-move=""])');
    const text = await page.locator('#hint-text').textContent();
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
  await page.click('#analysis-toggle');
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
