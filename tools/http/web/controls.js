// The buttons of the action bar and the record, on or off: Undo (something to take back), Hint
// (your move, and no daily puzzle's question standing: it would be the answer; no position being
// set up), Save and Load.
import {isHumanTurn, puzzleAsked, trainerAsked, undoTarget} from './game.js';
import {giveFocusBack, holdFocus} from './focus.js';
import {state} from './store.js';

const $ = (id) => document.getElementById(id);

export function renderControls() {
  const {view, busy, replay, editor} = state();
  if (!view) return;
  for (const id of ['undo', 'hint', 'save', 'load']) holdFocus($(id), () => $(id));
  // Undo is off while the trainer's puzzle asks: its line goes on from the moves played.
  $('undo').disabled = busy || undoTarget() === null || trainerAsked();
  $('hint').disabled = busy || view.game_over || !isHumanTurn() || !!replay ||
                       puzzleAsked() || !!editor;
  $('save').disabled = busy;
  $('load').disabled = busy;
  giveFocusBack();
}
