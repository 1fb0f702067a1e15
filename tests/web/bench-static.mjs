// The static board's times (scripts/bench-static-board.sh): for Kalah and Oware in a fresh
// browser profile, with Chromium's CPU throttled 4x on the page's main thread (CDP, which refuses
// to throttle workers: they run at the machine's speed; THROTTLE_PAGE=0 leaves the page alone, for
// a browser slowed whole from outside), the first board, the browser's tables built to their
// targets (and Kalah to 12, Oware to 10), each level's first move as the computer opens (asked
// and drawn), and the page's frame rate while Pro thinks. Prints one JSON object. Environment:
// BOARD_URL (the static board), CHROMIUM, THROTTLE_PAGE.
import {chromium} from 'playwright-core';

import {keptKeys} from './board-actions.mjs';

const URL = process.env.BOARD_URL;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});

const results = {};
for (const [kind, table, target, early] of [['kalah', 'kalah:6', 14, 12],
                                             ['oware', 'oware:abapa', 12, 10]]) {
  const context = await browser.newContext({viewport: {width: 390, height: 844}});
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  if (process.env.THROTTLE_PAGE !== '0') await cdp.send('Emulation.setCPUThrottlingRate', {rate: 4});
  const idle = () => page.waitForSelector('#board-frame[data-busy="false"]', {timeout: 120000});
  const setUp = async (opponent, first) => {
    await page.selectOption('#setup-kind', kind);
    await page.selectOption('#setup-opponent', opponent);
    if (first) await page.selectOption('#setup-first', first);
    await page.click('#setup-start');
    if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  };
  const start = Date.now();
  await page.goto(URL);
  await idle();
  results[`${kind}: first board, ms`] = Date.now() - start;
  // Oware's tables are asked for when an Oware game starts; Kalah's with the first board.
  const asked = kind === 'kalah' ? start : Date.now();
  if (kind !== 'kalah') await setUp('human');
  const reached = (keys, seeds) => keys.some((k) => k.endsWith(`/${table}/${seeds}`));
  for (;;) {
    const keys = await keptKeys(page);
    const name = `${kind}: tables 0..${early} built and kept, ms`;
    if (reached(keys, early) && !(name in results)) results[name] = Date.now() - asked;
    if (reached(keys, target)) break;
    await page.waitForTimeout(50);
  }
  results[`${kind}: tables 0..${target} built and kept, ms`] = Date.now() - asked;
  for (const level of [1, 2, 3, 4, 5, 6]) {
    await setUp(String(level), 'computer');
    const asking = Date.now();
    await page.waitForSelector('.house.legal', {timeout: 60000});
    results[`${kind}: level ${level} opening move asked and drawn, ms`] = Date.now() - asking;
  }
  await page.locator('.house.legal .pit').first().click();
  results[`${kind}: frames a second on the page while Pro thinks`] = Math.round(
      await page.evaluate(() => new Promise((resolve) => {
        let frames = 0;
        const from = performance.now();
        const step = () => {
          ++frames;
          if (performance.now() - from < 1500) requestAnimationFrame(step);
          else resolve(frames / 1.5);
        };
        requestAnimationFrame(step);
      })));
  await context.close();
}
console.log(JSON.stringify(results, null, 1));
await browser.close();
