// The keyboard's focus kept through a busy moment. A control the page disables while it waits
// (Hint, Undo, « ‹ › ») or draws again (a move of the move list, of the analysis panel or of the
// summary) would leave the focus on <body>, and a keyboard player would have to Tab back from
// the top of the page. The view that disables or redraws a control in focus holds it here, and
// gives it back once the control is on again; when it stays off (Undo with nothing left to take
// back, » at the game itself), the focus goes to the nearest control of its group that is on.
import {state} from './store.js';

// A panel just opened is brought into view when it lies out of sight (on a phone the board fills
// the screen, and a panel opened below it seemed to do nothing), smoothly unless the player asks
// for reduced motion.
export function bringIntoView(panel) {
  const top = panel.getBoundingClientRect().top;
  if (top < 0 || top > window.innerHeight - 96) {
    const reduced = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    panel.scrollIntoView({block: 'start', behavior: reduced ? 'auto' : 'smooth'});
  }
}

let held = null;  // finds the control that had the focus (a new element when it was drawn again)
let settling = false;  // a decision is due after the drawing under way

// Notes `element` (when it has the focus) as the control to give the focus back to; `find`
// finds it again after a drawing.
export function holdFocus(element, find) {
  if (element && element === document.activeElement && element !== document.body) held = find;
}

// The focus back to the held control, or its nearest neighbour that is on, once the page is
// ready. Decided after the drawing under way (a microtask), when every view has drawn: a view
// drawn before another can see that one's control still off.
export function giveFocusBack() {
  if (!held || settling) return;
  settling = true;
  queueMicrotask(() => {
    settling = false;
    settle();
  });
}

function settle() {
  if (!held) return;
  const control = held();
  const active = document.activeElement;
  // The focus moved on meanwhile (a click elsewhere, Tab): it stays where the player put it.
  if (active && active !== document.body && active !== control) {
    held = null;
    return;
  }
  if (control && !control.disabled) {
    held = null;
    if (active !== control) control.focus();
    return;
  }
  if (state().busy) return;  // still waiting: a view gives it back when the page is ready
  held = null;
  if (!control) return;
  const group = [...control.parentElement.querySelectorAll('button')];
  const at = group.indexOf(control);
  const on = group.filter((b) => !b.disabled)
    .sort((a, b) => Math.abs(group.indexOf(a) - at) - Math.abs(group.indexOf(b) - at));
  if (on.length) on[0].focus();
}
