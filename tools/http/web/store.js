// The page's one state, and the views drawn from it. Modules read it with state() and change it
// only with update(patch): the state is a frozen object replaced whole on each change (its values
// are replaced, never changed in place), so no module can change a field behind the others' backs.
//
// A view is a function that draws part of the page from the state. While it draws, the store
// notes which fields it reads; update() draws again, in the order they were added, the views that
// read a field it changed, at once (so what the page shows always follows the state). Anything
// else a view reads (the language, the screen's width, the server's catalogue) is picked up at
// its next drawing, or by redraw().

let current = Object.freeze({
  setup: {kind: 'kalah', houses: 6, seeds: 4, variant: 'standard', opponent: '2', first: 'me'},
  game: '',           // GAME string being played
  start: '',          // its start position ('' for the game's own start)
  moves: [],          // letters played
  view: null,         // GET /api/v1/position for the current position
  lastMove: null,     // the last move, as the API describes it (MOVE)
  opponent: 'human',  // or a level, 1-6
  computerSide: null, // 'South' or 'North' against the computer
  token: 0,           // changes when the game is replaced, so that late answers are dropped
  busy: false,        // a move is being asked for or animated
  thinkingNow: false, // the computer is asked for its move
  hint: null,         // {letter, score, provenance, text}
  thinkings: [],      // the computer's thinking by ply, so that Undo leaves the last one shown
  analysisOpen: false,
  analysis: null,     // {status: 'working'|'done'|'over'|'error', data, key, error}
  message: null,      // {text, detail, notice}
  confirmNew: false,  // a question asked while a game is going, waiting for the player's yes:
                      // false, or what it asks ('newGame', 'link': open a link, 'editor':
                      // play or analyse the position set up)
  replay: null,       // {ply, view}: an earlier position shown from the move list; null: the game
  sowing: null,       // the letter of the player's own move while it is drawn
  sown: [],           // the moves drawn since the player last moved (a computer's whole turn)
  summary: null,      // the game-over summary: {status, changes, known, firstKnown}
  puzzle: null,       // the daily puzzle being asked: {status, date, game, position, best, ...}
  trainer: null,      // the trainer's puzzle on the board (puzzle-trainer.js): {status, game, id,
                      // position, line, goal, themes, rating, missed, change}, or null
  trainerChoice: {game: 'kalah:6:4', theme: ''},  // the trainer panel's game and theme
  trainerLoad: null,  // the trainer's library being read: {status: 'loading'|'error'|'none', error}
  editor: null,       // the position being set up (editor.js): {fields, side, check}, or null
  linkShown: false,   // Copy link was pressed: the link to the game is shown (link.js)
  review: null,       // the game review (review.js): {key, status, done, total, points, judged}
  learn: null,        // learning from the review's mistakes (learn.js), or null
});

const views = [];     // {draw, reads (a Set of field names)}
let reading = null;   // the fields read by the view being drawn
let tracked = null;   // the state as that view sees it: every field read is noted

export function state() {
  return reading ? tracked : current;
}

// Sets the fields of `patch` (only fields the state has) and draws the views that read any field
// whose value changed. Arrays are frozen with the state: a new array replaces an old one.
export function update(patch) {
  if (reading) throw new Error('the state cannot change while a view is drawn');
  const changed = [];
  for (const [name, value] of Object.entries(patch)) {
    if (!(name in current)) throw new Error(`the state has no field ${name}`);
    if (Array.isArray(value)) Object.freeze(value);
    if (!Object.is(value, current[name])) changed.push(name);
  }
  if (!changed.length) return;
  current = Object.freeze({...current, ...patch});
  for (const v of views) {
    if (changed.some((name) => v.reads.has(name))) draw(v);
  }
}

// Adds a view, drawn at once and then whenever a field it read changes. Returns what draws it
// again, for a view that also reads something the state does not hold (a switch on the page).
export function addView(drawing) {
  const v = {draw: drawing, reads: new Set()};
  views.push(v);
  draw(v);
  return () => draw(v);
}

// Draws every view again: for what the state does not hold (a new language, a turned screen).
export function redraw() {
  for (const v of views) draw(v);
}

function draw(v) {
  reading = new Set();
  tracked = new Proxy(current, {
    get(target, name) {
      reading.add(name);
      return target[name];
    },
  });
  try {
    v.draw();
  } finally {
    v.reads = reading;
    reading = null;
    tracked = null;
  }
}
