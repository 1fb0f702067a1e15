// How long the web board takes to show its first board, first visit (empty cache) and repeat
// visit (same browser profile), under an emulated mobile network and a slowed CPU. Not a test:
// run by scripts/bench-web.sh, which starts the server and installs playwright-core.
//
//   MANCALA_WEB_DIR=build/tools/web node bench-load.mjs URL [RUNS]
//
// First the page weight: the bytes the server sends of every file of the staged app
// (MANCALA_WEB_DIR) as it is, gzip-compressed and brotli-compressed.
//
// Network: Chrome DevTools' "Fast 4G" preset, as DevTools sends it over CDP
// (Network.emulateNetworkConditions): 165 ms of latency per request (60 ms x 2.75), 9 Mbit/s down
// and 1.5 Mbit/s up (x 0.9). CPU: Emulation.setCPUThrottlingRate 4. Each run opens a fresh
// browser profile (empty cache), loads the page (first visit), then opens it again in a new tab of
// the same profile (repeat visit). Prints, for each visit, the medians over RUNS (default 5) of:
// first contentful paint, first board (the board's houses in the page, and the frame that shows
// them painted: the board written into the page when it shows it), the board playable (the page's
// own, drawn by its script), requests made, requests answered with a whole body (not 304, not from
// the cache) and the bytes that came over the network. A third visit finds a game going.
import {get} from 'node:http';
import {existsSync, readdirSync} from 'node:fs';

import {chromium} from 'playwright-core';

const url = process.argv[2];
const runs = Number(process.argv[3] || 5);
if (!url) {
  console.error('usage: node bench-load.mjs URL [RUNS]');
  process.exit(2);
}

// The bytes of the body the server sends for `path` to a client taking `coding` (node:http
// expands nothing).
function sentBytes(path, coding) {
  return new Promise((resolve, reject) => {
    get(new URL(path, url), {headers: {'Accept-Encoding': coding}}, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => bytes += chunk.length);
      response.on('end', () => resolve(bytes));
    }).on('error', reject);
  });
}

// No staged app (a `mancala` measured without its build folder): no page weight, the times still.
if (process.env.MANCALA_WEB_DIR && !existsSync(process.env.MANCALA_WEB_DIR)) {
  console.log(`page weight: ${process.env.MANCALA_WEB_DIR} not found, not counted`);
} else if (process.env.MANCALA_WEB_DIR) {
  const files = readdirSync(process.env.MANCALA_WEB_DIR, {recursive: true, withFileTypes: true})
      .filter((entry) => entry.isFile())
      .map((entry) => `${entry.parentPath ?? entry.path}/${entry.name}`
          .slice(process.env.MANCALA_WEB_DIR.length + 1));
  const weight = {};
  for (const coding of ['identity', 'gzip', 'br']) {
    weight[coding] = 0;
    for (const file of files) weight[coding] += await sentBytes(file, coding);
  }
  console.log(`page weight (${files.length} files): raw ${weight.identity} bytes, gzip ` +
              `${weight.gzip} bytes, brotli ${weight.br} bytes`);
}

// BENCH_LATENCY=ms: another latency (DevTools' preset before the x 2.75 is 60).
const NETWORK = {offline: false, latency: Number(process.env.BENCH_LATENCY || 60 * 2.75), downloadThroughput: 9e6 / 8 * 0.9,
                 uploadThroughput: 1.5e6 / 8 * 0.9};
// BENCH_CPU=n: another slowdown (1: none).
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU || 4);

// When a board is first in the page, from the navigation's start (performance.now()), and when
// the frame that shows it is painted: a requestAnimationFrame callback runs just before that
// frame's paint, a task it posts runs after. The first board is the one written into index.html
// when its script shows it (a new game of the default setup: the class first-board), else the
// page's own (#board); "playable", the page's own, which takes a move. The page says so on its
// console rather than being polled: polling would run the driver's own script in the page while it
// loads (80 ms of the slowed main thread measured), which a player's browser does not.
function watchFirstBoard() {
  // (Names of their own: window.board is the page's element of that id.)
  const whenPainted = (name) => requestAnimationFrame(() => setTimeout(() => {
    window[`bench_${name}Painted`] = performance.now();
    console.debug(`bench-load: ${name} painted`);
  }));
  new MutationObserver((changes, observer) => {
    const playable = document.querySelector('#board .house');
    const classes = document.documentElement.classList;
    const drawn = (classes.contains('first-board') || classes.contains('kept-board')) &&
                  document.querySelector('.first-board-drawn .house');
    if (window.bench_board === undefined && (playable || drawn)) {
      window.bench_board = performance.now();
      whenPainted('board');
    }
    if (playable) {
      window.bench_playable = performance.now();
      observer.disconnect();
      whenPainted('playable');
    }
  }).observe(document, {childList: true, subtree: true});
}

// thenPlay: a house the player plays once the visit is measured, before leaving the page.
async function visit(context, thenPlay = null) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', {rate: CPU_SLOWDOWN});
  const requests = new Map();  // requestId -> {url, status, cached, bytes}
  cdp.on('Network.requestWillBeSent', ({requestId, request, timestamp}) => {
    requests.set(requestId, {url: request.url, status: 0, cached: false, bytes: 0, encoding: '',
                             sent: timestamp, done: timestamp});
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
    entry.cached ||= response.fromDiskCache || response.fromPrefetchCache || false;
    const headers = Object.fromEntries(Object.entries(response.headers)
                                           .map(([k, v]) => [k.toLowerCase(), v]));
    entry.encoding = headers['content-encoding'] || '';
  });
  cdp.on('Network.loadingFinished', ({requestId, encodedDataLength, timestamp}) => {
    if (!requests.has(requestId)) return;
    requests.get(requestId).bytes = encodedDataLength;
    requests.get(requestId).done = timestamp;
  });
  await page.addInitScript(watchFirstBoard);
  const painted = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no board in 60 s at ${url}`)), 60000);
    page.on('console', (message) => {
      if (message.text() !== 'bench-load: playable painted') return;
      clearTimeout(timer);
      resolve();
    });
  });
  await page.goto(url);
  await painted;
  const times = await page.evaluate(() => ({
    firstBoard: window.bench_board,
    boardPainted: window.bench_boardPainted,
    playable: window.bench_playable,
    playablePainted: window.bench_playablePainted,
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
  }));
  // The main thread's busy time until then (slowed by the CPU emulation): scripts, style and
  // layout, all tasks.
  const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics
                                         .map(({name, value}) => [name, value]));
  times.script = metrics.ScriptDuration * 1000;
  times.layout = (metrics.LayoutDuration + metrics.RecalcStyleDuration) * 1000;
  times.tasks = metrics.TaskDuration * 1000;
  // What the page asked before its board was drawn and just after (the catalogue refresh waits
  // 20 s): let the last answers land.
  await page.waitForTimeout(500);
  for (const [id, status] of wireStatus) if (requests.has(id)) requests.get(id).wireStatus = status;
  const all = [...requests.values()];
  if (thenPlay) {
    // The player plays and leaves: the page keeps the game, and the board it drew once idle.
    await cdp.send('Emulation.setCPUThrottlingRate', {rate: 1});
    await page.click(`#board .house[data-letter="${thenPlay}"]`);
    await page.waitForFunction((moves) =>
      JSON.parse(localStorage.getItem('mancala.game'))?.moves?.join('') === moves, thenPlay);
    await page.waitForTimeout(1000);
  }
  await page.close();
  const downloads = all.filter((r) => !r.cached && (r.wireStatus ?? r.status) === 200);
  return {...times, requests: all.length, downloads: downloads.length,
          bytes: all.reduce((sum, r) => sum + r.bytes, 0),
          encodings: [...new Set(all.map((r) => r.encoding).filter(Boolean))].join(','),
          list: all};
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// A third visit finds a game going, as a player coming back to it does: the repeat visit played C
// (the default setup: against level 2, South's extra turn after it) and left; the page shows the
// board it kept of it before its own (index.html's second script).
const results = {first: [], repeat: [], going: []};
for (let run = 0; run < runs; ++run) {
  const context = await browser.newContext({viewport: {width: 390, height: 844}, locale: 'en-US'});
  results.first.push(await visit(context));
  results.repeat.push(await visit(context, 'C'));
  results.going.push(await visit(context));
  await context.close();
}
await browser.close();

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
console.log(`network: latency ${NETWORK.latency} ms, down ${(NETWORK.downloadThroughput * 8 / 1e6)
    .toFixed(2)} Mbit/s, up ${(NETWORK.uploadThroughput * 8 / 1e6).toFixed(2)} Mbit/s; ` +
            `CPU ${CPU_SLOWDOWN}x slower; medians of ${runs} runs`);
for (const [name, visits] of Object.entries(results)) {
  const m = (key) => median(visits.map((v) => v[key]));
  console.log(`${name.padEnd(6)} visit: first paint ${Math.round(m('firstPaint'))} ms, ` +
              `first board ${Math.round(m('firstBoard'))} ms (painted ` +
              `${Math.round(m('boardPainted'))} ms), playable ${Math.round(m('playable'))} ms ` +
              `(painted ${Math.round(m('playablePainted'))} ms), ${m('requests')} requests, ` +
              `${m('downloads')} whole downloads, ${Math.round(m('bytes') / 1024)} KiB over the ` +
              `network (content-encoding: ${visits[0].encodings || 'none'})`);
  console.log(`  main thread busy: ${Math.round(m('tasks'))} ms, of which scripts ` +
              `${Math.round(m('script'))} ms, style and layout ${Math.round(m('layout'))} ms`);
  console.log(`  first board per run: ${visits.map((v) => Math.round(v.firstBoard)).join(', ')} ms; ` +
              `painted: ${visits.map((v) => Math.round(v.boardPainted)).join(', ')} ms`);
}
if (process.env.BENCH_VERBOSE) {
  for (const [name, visits] of Object.entries(results)) {
    console.log(`${name} visit, run 1:`);
    const start = visits[0].list[0]?.sent ?? 0;
    const ms = (t) => String(Math.round((t - start) * 1000)).padStart(5);
    for (const r of visits[0].list) {
      console.log(`  ${ms(r.sent)} ${ms(r.done)} ms ${r.wireStatus ?? r.status} ${r.cached ? 'cache' : '     '} ${String(r.bytes).padStart(7)} ` +
                  `${r.encoding.padEnd(4)} ${r.url}`);
    }
  }
}
