// The board as SVG. Wide screens: North's row on top (its houses a.. from right to left),
// South's row below (A.. from left to right), North's store on the left and South's on the
// right. Narrow screens (phones held upright): the same board turned a quarter clockwise, so the
// houses stay large enough to tap: South's houses down the left, North's up the right, North's
// store on top, South's at the bottom. Either way sowing runs counter-clockwise, and the
// geometry never depends on the page's language or writing direction.
//
// Turned (a player who plays North against the computer): the whole board a half turn round, so
// that the player's own row is the one nearest them, its store on their right (wide) or below
// (tall). The letters and counts stay upright; sowing still runs counter-clockwise.
//
// Slots are numbered as the fields of a position string: South's houses 0..h-1, North's houses
// h..2h-1, South's store 2h, North's store 2h+1.

const SVG = 'http://www.w3.org/2000/svg';
const PIT_RADIUS = 40;
const SEED_RADIUS = 7.5;
const HOUSE_SEEDS_DRAWN = 20;  // beyond these the number alone tells the count
const STORE_SEEDS_DRAWN = 36;
const SEED_COLOURS = 5;        // CSS classes seed-0 .. seed-4

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export function letterOf(houses, slot) {
  return slot < houses ? String.fromCharCode(65 + slot) : String.fromCharCode(97 + slot - houses);
}

export function slotOfLetter(houses, letter) {
  const code = letter.charCodeAt(0);
  if (code >= 65 && code < 65 + houses) return code - 65;
  if (code >= 97 && code < 97 + houses) return houses + code - 97;
  return -1;
}

// Where everything goes, for h houses a side, wide. Stores are {x, y, width, height}.
function wideGeometry(h) {
  const column = 100, margin = 10, north = 84, south = 200;
  const columnX = (c) => margin + c * column + column / 2;
  return {
    width: 2 * margin + (h + 2) * column,
    height: 284,
    wood: {x: margin, y: 30, width: h * column + 2 * column, height: 224, rx: 28},
    house: (slot) => slot < h ? {x: columnX(slot + 1), y: south}
                              : {x: columnX(h - (slot - h)), y: north},
    houseCount: (slot, place) => ({x: place.x, y: slot < h ? 276 : 26}),
    // The centre of a house's letter tab: the cell's outer corner, clear of the count.
    letter: (slot, place) => ({x: place.x - 36, y: slot < h ? place.y + 36 : place.y - 36}),
    store: (south_) => ({x: margin + (south_ ? h + 1 : 0) * column + 8, y: 44,
                         width: column - 16, height: 196}),
    storeCount: (south_, rect) => ({x: rect.x + rect.width / 2, y: south_ ? 276 : 26}),
    band: (south_) => ({x: margin + column + 4, y: (south_ ? south : north) - 48,
                        width: h * column - 8, height: 96}),
  };
}

// The same board turned a quarter clockwise.
function tallGeometry(h) {
  const row = 86, margin = 10, south = 100, north = 200;
  const rowY = (r) => margin + r * row + row / 2;
  return {
    width: 300,
    height: 2 * margin + (h + 2) * row,
    wood: {x: 52, y: margin, width: 196, height: (h + 2) * row, rx: 28},
    house: (slot) => slot < h ? {x: south, y: rowY(slot + 1)} : {x: north, y: rowY(h - (slot - h))},
    houseCount: (slot, place) => ({x: slot < h ? 26 : 274, y: place.y + 9}),
    letter: (slot, place) => ({x: slot < h ? place.x - 38 : place.x + 38, y: place.y - 28}),
    store: (south_) => ({x: 60, y: margin + (south_ ? h + 1 : 0) * row + 6, width: 180,
                         height: row - 12}),
    storeCount: (south_, rect) => ({x: south_ ? 26 : 274, y: rect.y + rect.height / 2 + 9}),
    band: (south_) => ({x: (south_ ? south : north) - 46, y: margin + row + 4, width: 92,
                        height: h * row - 8}),
  };
}

export class BoardView {
  // onPlay(letter) is called when a playable house is clicked, tapped or pressed with Enter.
  constructor(svg, onPlay) {
    this.svg = svg;
    this.onPlay = onPlay;
    this.houses = 0;
    this.tall = false;
    this.turned = false;
    this.slots = [];
  }

  // Where slot `slot` is drawn: its own place, or on a turned board the opposite one (the slots
  // of the geometry are those of the side nearest the player: South's unless turned).
  placeOf(slot) {
    const h = this.houses;
    if (!this.turned) return slot;
    if (slot < 2 * h) return (slot + h) % (2 * h);
    return slot === 2 * h ? 2 * h + 1 : 2 * h;
  }

  // Builds the board for h houses a side, wide or tall, turned or not (once per game size, screen
  // shape or side played).
  build(houses, tall, turned = false) {
    this.houses = houses;
    this.tall = tall;
    this.turned = turned;
    const g = tall ? tallGeometry(houses) : wideGeometry(houses);
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
    svg.classList.toggle('tall', tall);
    element('rect', {class: 'wood', ...g.wood}, svg);
    this.turnBands = {};
    for (const side of ['North', 'South']) {
      const band = g.band((side === 'South') !== turned);
      this.turnBands[side] = element('rect', {class: 'turn-band', ...band,
                                              rx: Math.min(band.width, band.height) / 2}, svg);
    }
    this.slots = [];
    for (let slot = 0; slot < 2 * houses; ++slot) this.slots.push(this.buildHouse(g, slot));
    this.slots.push(this.buildStore(g, 2 * houses, true));
    this.slots.push(this.buildStore(g, 2 * houses + 1, false));
  }

  buildHouse(g, slot) {
    const at = this.placeOf(slot);
    const place = g.house(at);
    const letter = letterOf(this.houses, slot);
    const group = element('g', {class: 'house', role: 'button', 'data-letter': letter,
                                'data-slot': slot}, this.svg);
    // The whole cell answers a tap, not only the painted pit.
    element('rect', {class: 'hit', x: place.x - 50, y: place.y - 43, width: 100, height: 86,
                     fill: 'transparent', 'pointer-events': 'all'}, group);
    element('circle', {class: 'pit', cx: place.x, cy: place.y, r: PIT_RADIUS}, group);
    const seeds = element('g', {class: 'seeds'}, group);
    // The ring that marks where the last seed fell, under the letter's tab (drawn over it), so
    // that it never runs through the letter.
    element('circle', {class: 'last-seed-ring', cx: place.x, cy: place.y, r: PIT_RADIUS + 5},
            group);
    const letterAt = g.letter(at, place);
    element('rect', {class: 'letter-tab', x: letterAt.x - 14, y: letterAt.y - 15, width: 28,
                     height: 30, rx: 8}, group);
    element('text', {class: 'letter', x: letterAt.x, y: letterAt.y + 8.5, 'text-anchor': 'middle',
                     direction: 'ltr'}, group).textContent = letter;
    const countAt = g.houseCount(at, place);
    const count = element('text', {class: 'count', x: countAt.x, y: countAt.y,
                                   'text-anchor': 'middle', direction: 'ltr'}, group);
    group.addEventListener('click', () => this.activate(group));
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        event.stopPropagation();
        this.activate(group);
      }
    });
    return {slot, group, seeds, count, x: place.x, y: place.y, letter, store: false};
  }

  buildStore(g, slot, south) {
    const near = south !== this.turned;  // the store drawn where South's is when not turned
    const rect = g.store(near);
    const group = element('g', {class: 'store', role: 'img', 'data-slot': slot}, this.svg);
    const radius = Math.min(rect.width, rect.height) / 2 - 4;
    element('rect', {class: 'pit', ...rect, rx: radius}, group);
    const seeds = element('g', {class: 'seeds'}, group);
    const countAt = g.storeCount(near, rect);
    const count = element('text', {class: 'count store-count', x: countAt.x, y: countAt.y,
                                   'text-anchor': 'middle', direction: 'ltr'}, group);
    element('rect', {class: 'last-seed-ring', x: rect.x - 5, y: rect.y - 5,
                     width: rect.width + 10, height: rect.height + 10, rx: radius + 5}, group);
    return {slot, group, seeds, count, rect, store: true};
  }

  activate(group) {
    if (group.getAttribute('aria-disabled') === 'true') return;
    this.onPlay(group.dataset.letter);
  }

  drawHouseSeeds(place, count) {
    const drawn = Math.min(count, HOUSE_SEEDS_DRAWN);
    place.seeds.replaceChildren();
    // A sunflower spiral: even spacing for any number of seeds.
    for (let k = 0; k < drawn; ++k) {
      const radius = drawn === 1 ? 0 : 6.4 * Math.sqrt(k + 0.5);
      const angle = k * 2.39996 + place.slot;
      element('circle', {class: `seed seed-${(place.slot * 3 + k) % SEED_COLOURS}`,
                         cx: (place.x + radius * Math.cos(angle)).toFixed(1),
                         cy: (place.y + radius * Math.sin(angle)).toFixed(1), r: SEED_RADIUS},
              place.seeds);
    }
  }

  drawStoreSeeds(place, count) {
    const r = place.rect;
    const step = 2 * SEED_RADIUS + 1;
    const across = Math.floor((Math.min(r.width, r.height) - 14) / step);
    const along = Math.floor((Math.max(r.width, r.height) - 24) / step);
    const drawn = Math.min(count, STORE_SEEDS_DRAWN, across * along);
    const upright = r.height > r.width;
    place.seeds.replaceChildren();
    // Rows across the store, filled from its far end (the bottom of an upright store).
    for (let k = 0; k < drawn; ++k) {
      const i = k % across, j = Math.floor(k / across);
      const offset = (i - (across - 1) / 2) * step + (j % 2 ? 2 : -2);
      const depth = (j + 0.5) * step + 12;
      const x = upright ? r.x + r.width / 2 + offset : r.x + depth;
      const y = upright ? r.y + r.height - depth : r.y + r.height / 2 + offset;
      element('circle', {class: `seed seed-${(place.slot + k) % SEED_COLOURS}`,
                         cx: x.toFixed(1), cy: y.toFixed(1), r: SEED_RADIUS}, place.seeds);
    }
  }

  // model: {counts, sideToMove, over, legal (Set of letters), playable, lastMove ({from,
  // lastSlot, captured}) or null, hint (a letter) or null, active (a slot being sown into) or
  // null, houseLabel(letter, count), storeLabel(slot, count)}
  render(model) {
    for (const side of ['North', 'South']) {
      this.turnBands[side].classList.toggle('on', model.sideToMove === side && !model.over);
    }
    const captured = new Set(model.lastMove ? model.lastMove.captured : []);
    for (const place of this.slots) {
      const count = model.counts[place.slot];
      if (place.store) {
        this.drawStoreSeeds(place, count);
        place.group.setAttribute('aria-label', model.storeLabel(place.slot, count));
      } else {
        this.drawHouseSeeds(place, count);
        const legal = model.playable && model.legal.has(place.letter);
        place.group.setAttribute('aria-label', model.houseLabel(place.letter, count));
        place.group.setAttribute('aria-disabled', legal ? 'false' : 'true');
        place.group.setAttribute('tabindex', legal ? '0' : '-1');
        place.group.classList.toggle('legal', legal);
        place.group.classList.toggle('hint', model.hint === place.letter);
        place.group.classList.toggle('last-move',
                                     !!model.lastMove && model.lastMove.from === place.slot);
      }
      place.count.textContent = String(count);
      place.group.classList.toggle('captured', captured.has(place.slot));
      place.group.classList.toggle('last-seed',
                                   !!model.lastMove && model.lastMove.lastSlot === place.slot);
      place.group.classList.toggle('active', model.active === place.slot);
    }
  }
}
