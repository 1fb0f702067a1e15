// The sowing drawn seed by seed: each pick-up, then each seed, from the counts before the move.
// Quick, skipped by a tap (a click) or a key, and not drawn at all under prefers-reduced-motion.
// The note that says so takes the hint's place in the status bar while a sowing is drawn.
import {drawSowing, endSowing} from './board-view.js';
import {t} from './i18n.js';
import {state, update} from './store.js';

const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
// A touch screen is tapped; a mouse or a touchpad clicks.
const touch = window.matchMedia('(pointer: coarse)');
const $ = (id) => document.getElementById(id);

let animation = null;  // {skipped, skip, wake} while a sowing is drawn

function wait(ms, drawing) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    drawing.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

export function isAnimating() {
  return animation !== null;
}

export function skipAnimation() {
  if (animation) animation.skip();
}

// Draws `move` (a MOVE object) from the counts `before` it.
export async function animate(move, before) {
  // Every move drawn is listed (data-sown on the board), so a test sees a whole computer turn.
  update({sown: [...state().sown, move.move]});
  if (reducedMotion.matches) return;
  const counts = before.slice();
  const seeds = move.sowing.reduce((n, s) => n + s.seeds, 0);
  // 150 ms a seed, faster for long sowings: about 2 s at most for any move.
  const delay = Math.max(5, Math.min(150, 2000 / Math.max(1, seeds)));
  const drawing = {skipped: false, wake: null};
  drawing.skip = () => {
    drawing.skipped = true;
    if (drawing.wake) drawing.wake();
  };
  animation = drawing;
  $('skip-note').textContent = t(touch.matches ? 'board.skip' : 'board.skipClick');
  $('skip-note').hidden = false;
  // The move being drawn, for the browser tests (each sowing of a computer's turn is drawn).
  $('board-frame').dataset.sowing = move.move;
  const from = move.sowing[0].from;
  const frame = (active) => drawSowing(counts, from, active);
  try {
    for (const sowing of move.sowing) {
      counts[sowing.from] -= sowing.seeds;
      frame(sowing.from);
      await wait(delay, drawing);
      for (const slot of sowing.slots) {
        if (drawing.skipped) return;
        counts[slot] += 1;
        frame(slot);
        await wait(delay, drawing);
      }
      if (drawing.skipped) return;
    }
  } finally {
    animation = null;
    endSowing();
    $('skip-note').hidden = true;
    delete $('board-frame').dataset.sowing;
  }
}
