// The value graph of a reviewed game (inline SVG, drawn here): South's value of each position
// along the game, above the middle line when South is ahead, below when North is (the light area
// under the line is South's, the dark one above it North's); a point per
// position, filled where exact, hollow where a search's estimate, coloured by the mark of the move
// that led to it; a line at the position the board shows. One control for the keyboard (a
// slider: arrows and Home/End step, each step moves the board) and the mouse or a finger (a point,
// or anywhere above or below it). Drawn left to right in every language, the time of the game
// running as it reads in the move list's numbers (as the board keeps its own geometry in Hebrew).
const NS = 'http://www.w3.org/2000/svg';
const WIDTH = 600;
const HEIGHT = 120;
const PAD = 10;

function element(name, attributes = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attributes)) e.setAttribute(key, String(value));
  if (parent) parent.appendChild(e);
  return e;
}

// Builds the graph's control once: `onSelect(ply)` moves the board, `onHover(ply)` says the
// value of a point (null: the pointer has left).
export function createValueGraph(svg, {onSelect, onHover}) {
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.setAttribute('tabindex', '0');
  svg.setAttribute('role', 'slider');
  svg.setAttribute('aria-orientation', 'horizontal');
  const plyAt = (event) => {
    const box = svg.getBoundingClientRect();
    const count = Number(svg.getAttribute('aria-valuemax'));
    const x = ((event.clientX - box.left) / box.width) * WIDTH;
    return Math.max(0, Math.min(count, Math.round(((x - PAD) / (WIDTH - 2 * PAD)) * count)));
  };
  svg.addEventListener('click', (event) => onSelect(plyAt(event)));
  svg.addEventListener('pointermove', (event) => onHover(plyAt(event)));
  svg.addEventListener('pointerleave', () => onHover(null));
  svg.addEventListener('keydown', (event) => {
    const now = Number(svg.getAttribute('aria-valuenow'));
    const last = Number(svg.getAttribute('aria-valuemax'));
    const steps = {ArrowRight: now + 1, ArrowUp: now + 1, ArrowLeft: now - 1, ArrowDown: now - 1,
                   Home: 0, End: last, PageUp: now + 10, PageDown: now - 10};
    if (!(event.key in steps)) return;
    // The graph's keys are its own: the page's arrow keys (the replay) would step a second time.
    event.preventDefault();
    event.stopPropagation();
    onSelect(Math.max(0, Math.min(last, steps[event.key])));
  });
}

// Draws the graph: `points` [{ply, value, exact}] (null where not valued), `marks` by ply (the
// mark of the move that led to the position), `shown` the ply the board shows, `describe(ply)`
// the value of a position in words (hover titles, the slider's text).
export function drawValueGraph(svg, {points, marks, shown, describe}) {
  const count = points.length - 1;
  const valued = points.filter((p) => p);
  const reach = Math.max(4, ...valued.map((p) => Math.abs(p.value)));
  const x = (ply) => PAD + (count ? (ply / count) * (WIDTH - 2 * PAD) : 0);
  const y = (value) => HEIGHT / 2 - (value / reach) * (HEIGHT / 2 - PAD);
  svg.replaceChildren();
  element('rect', {x: 0, y: 0, width: WIDTH, height: HEIGHT, class: 'graph-back'}, svg);
  const line = valued.map((p) => `${x(p.ply).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
  if (valued.length) {
    const first = valued[0], last = valued[valued.length - 1];
    // South's share light, North's dark, as a chess site draws White's and Black's.
    element('polygon', {points: `${x(first.ply)},${HEIGHT} ${line} ${x(last.ply)},${HEIGHT}`,
                        class: 'graph-area'}, svg);
    element('polyline', {points: line, class: 'graph-line'}, svg);
  }
  element('line', {x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: 'graph-zero'}, svg);
  element('line', {x1: x(shown), x2: x(shown), y1: 0, y2: HEIGHT, class: 'graph-shown'}, svg);
  for (const p of valued) {
    const mark = marks[p.ply];
    const dot = element('circle', {cx: x(p.ply), cy: y(p.value), r: mark ? 5 : 3.2,
                                   class: `graph-point ${p.exact ? 'exact' : 'estimate'}` +
                                          (mark ? ` ${mark}` : '') +
                                          (p.ply === shown ? ' shown' : '')}, svg);
    dot.dataset.ply = String(p.ply);
    dot.dataset.value = String(p.value);
    dot.dataset.exact = String(p.exact);
    element('title', {}, dot).textContent = describe(p.ply);
  }
  svg.setAttribute('aria-valuemin', '0');
  svg.setAttribute('aria-valuemax', String(count));
  svg.setAttribute('aria-valuenow', String(shown));
  svg.setAttribute('aria-valuetext', describe(shown));
}
