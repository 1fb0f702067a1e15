// What a player does on the board, for the browser tests (board.test.mjs, static.test.mjs) and the
// static board's benchmark (bench-static.mjs): each a playwright page.
import assert from 'node:assert/strict';

// A screenshot named NAME in MANCALA_SCREENSHOTS, for a person to open; none when that is not set
// (CI's runs: a full-page one costs 0.3-0.4 s of the browser's CPU, and nobody looks at them there).
// Never part of what a test checks.
export async function snap(page, name, options = {}) {
  const folder = process.env.MANCALA_SCREENSHOTS;
  if (folder) await page.screenshot({...options, path: `${folder}/${name}`});
}

// Waits until the board takes a move (nothing asked of the engine, nothing drawn).
export async function idle(page) {
  await page.waitForSelector('#board-frame[data-busy="false"]', {timeout: 60000});
}

// A new game from the setup panel, yes to the question a game going asks first.
export async function newGame(page, {kind, houses, seeds, variant, opponent, first = 'me'}) {
  await page.selectOption('#setup-kind', kind);
  if (houses) await page.selectOption('#setup-houses', String(houses));
  if (seeds) await page.selectOption('#setup-seeds', String(seeds));
  if (variant) await page.selectOption('#setup-variant', variant);
  await page.selectOption('#setup-opponent', String(opponent));
  if (opponent !== 'human') await page.selectOption('#setup-first', first);
  await page.click('#setup-start');
  // A game going is not thrown away without asking.
  if (await page.locator('#confirm-yes').count()) await page.click('#confirm-yes');
  await idle(page);
}

// Plays the first legal house until the game ends; returns the number of clicks.
export async function playToTheEnd(page) {
  let clicks = 0;
  for (;;) {
    await idle(page);
    if (await page.locator('#board-frame').getAttribute('data-over') === 'true') return clicks;
    assert.ok(++clicks < 400, 'the game does not end');
    await page.locator('.house.legal .pit').first().click();
  }
}

// The names of the endgame tables' layers the static board keeps in the browser
// ("BUILD/TABLE/SEEDS"); none before its builder made its store.
export function keptKeys(page) {
  return page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'mancala-tables')) return [];
    const opened = await new Promise((resolve) => {
      const r = indexedDB.open('mancala-tables');
      r.onsuccess = () => resolve(r.result);
    });
    if (!opened.objectStoreNames.contains('layers')) {
      opened.close();
      return [];
    }
    const keys = await new Promise((resolve) => {
      const k = opened.transaction('layers').objectStore('layers').getAllKeys();
      k.onsuccess = () => resolve(k.result);
    });
    opened.close();
    return keys;
  });
}

// Plays the player's moves of a trainer puzzle's line (South's: upper case) by key from move
// `from` on, each once the line's answers before it are on the board, until it is solved.
export async function solveLine(page, puzzle, from = 0) {
  for (let k = from; k < puzzle.line.length; ++k) {
    const letter = puzzle.line[k];
    if (letter !== letter.toUpperCase()) continue;
    await page.waitForSelector(`#trainer[data-step="${k}"]`);
    await idle(page);
    await page.keyboard.press(letter.toLowerCase());
  }
  await page.waitForSelector('#trainer[data-status="solved"]');
  await idle(page);
}
