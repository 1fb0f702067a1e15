// The web board: the game being played, the controls and the panels. The server applies every
// rule: the page keeps the GAME string, the start position and the moves, and asks.
import {api} from './api.js';
import {BoardView} from './board.js';
import {LANGUAGES, currentLanguage, list, preferredLanguage, setLanguage, t,
        translatePage} from './i18n.js';

const SETUP_KEY = 'mancala.setup';
// The game being played, kept on the device after every move: a reload, or a phone that drops the
// tab, finds it again (GAME string, start, moves, opponent and side: the server replays the rest).
const GAME_KEY = 'mancala.game';
const ANALYSIS_SECONDS = 2;
const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
// A phone held upright gets the board turned a quarter (board.js).
const narrow = window.matchMedia('(max-width: 640px)');
const $ = (id) => document.getElementById(id);

const state = {
  games: null,      // GET /api/v1/games
  setup: {kind: 'kalah', houses: 6, seeds: 4, variant: 'standard', opponent: '2', first: 'me'},
  game: '',         // GAME string being played
  start: '',        // its start position ('' for the game's own start)
  moves: [],        // letters played
  view: null,       // GET /api/v1/position for the current position
  lastMove: null,   // the last move, as the API describes it (MOVE)
  opponent: 'human',  // or a level, 1-6
  computerSide: null, // 'South' or 'North' against the computer
  token: 0,         // changes when the game is replaced, so that late answers are dropped
  busy: false,      // a move is being asked for or animated
  thinkingNow: false,
  hint: null,       // {letter, text}
  thinking: null,   // the computer's last thinking
  analysisOpen: false,
  analysisToken: 0,
  analysis: null,   // {status: 'working'|'done'|'over'|'error', data, error}
  message: null,    // {text, notice}
  animation: null,  // {skip} while a sowing is drawn
  replay: null,     // {ply, view}: an earlier position shown from the move list; null: the game
};

let board;

// ---------------------------------------------------------------- games and players

function gameString(setup) {
  if (setup.kind === 'oware') return `oware:${setup.seeds}:${setup.variant}`;
  const option = setup.variant === 'standard' ? '' : `:${setup.variant}`;
  return `${setup.kind}:${setup.houses}:${setup.seeds}${option}`;
}

// The setup fields of a canonical GAME string (kalah:6:4[:empty-capture], oware:4:abapa,
// congkak:7:7[:no-capture-first-lap]).
function setupOfGame(name) {
  const parts = name.split(':');
  if (parts[0] === 'oware') {
    return {kind: 'oware', houses: 6, seeds: Number(parts[1]), variant: parts[2] || 'abapa'};
  }
  return {kind: parts[0], houses: Number(parts[1]), seeds: Number(parts[2]),
          variant: parts[3] || 'standard'};
}

function sideOfLetter(letter) {
  return letter === letter.toUpperCase() ? 'South' : 'North';
}

function againstComputer() {
  return state.opponent !== 'human';
}

function humanSide() {
  return state.computerSide === 'South' ? 'North' : 'South';
}

function isComputerTurn() {
  return againstComputer() && state.view && !state.view.game_over &&
         state.view.side_to_move === state.computerSide;
}

function isHumanTurn() {
  return state.view && !state.view.game_over && !isComputerTurn();
}

function playerName(side) {
  if (!againstComputer()) return t(`side.${side}`);
  if (side !== state.computerSide) return t('player.you');
  return Number(state.opponent) === 6 ? t('player.pro') : t('player.computer', {level: state.opponent});
}

// How a record names the players: as `mancala play` does.
function recordName(side) {
  if (!againstComputer() || side !== state.computerSide) return 'Human';
  const level = state.games.levels.find((l) => l.level === Number(state.opponent));
  return `mancala level ${state.opponent} (${level ? level.name : ''})`;
}

// The number of moves that Undo keeps: against the computer, those before your last move (the
// computer's answers go with it); between two players on this device, all but the last. null:
// nothing to take back.
function undoTarget() {
  const moves = state.moves;
  if (!againstComputer()) return moves.length ? moves.length - 1 : null;
  let i = moves.length - 1;
  while (i >= 0 && sideOfLetter(moves[i]) !== humanSide()) --i;
  return i >= 0 ? i : null;
}

// The moves grouped by turn: a turn is one side's moves in a row (an extra-turn chain is one turn).
function turnsOf(moves) {
  const turns = [];
  moves.forEach((letter, ply) => {
    const side = sideOfLetter(letter);
    const last = turns[turns.length - 1];
    if (last && last.side === side) last.moves.push({letter, ply});
    else turns.push({side, moves: [{letter, ply}]});
  });
  return turns;
}

function keepGame() {
  try {
    localStorage.setItem(GAME_KEY, JSON.stringify({
      game: state.game, start: state.start, moves: state.moves, opponent: state.opponent,
      computerSide: state.computerSide,
    }));
  } catch {
    // Not kept: private browsing, or storage full.
  }
}

function keptGame() {
  try {
    const kept = JSON.parse(localStorage.getItem(GAME_KEY) || 'null');
    if (kept && typeof kept.game === 'string' && Array.isArray(kept.moves) &&
        kept.moves.every((m) => typeof m === 'string' && /^[A-Za-z]$/.test(m))) {
      return kept;
    }
  } catch {
    // Nothing kept.
  }
  return null;
}

function countsOf(view) {
  const b = view.board;
  return [...b.south, ...b.north, b.south_store, b.north_store];
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

// A result in words, for "you" (`you`: the verb agrees) or a named player.
function outcomeText(score, you) {
  const set = you ? 'outcomeYou' : 'outcome';
  if (score > 0) return t(`${set}.win`, {count: score});
  if (score < 0) return t(`${set}.loss`, {count: -score});
  return t(`${set}.draw`);
}

function today() {
  const d = new Date();
  const two = (n) => String(n).padStart(2, '0');
  return {dots: `${d.getFullYear()}.${two(d.getMonth() + 1)}.${two(d.getDate())}`,
          dashes: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`};
}

function showError(error) {
  if (error && error.status === 503) {
    state.message = {text: t('app.busy')};
  } else if (error && error.status === 0) {
    state.message = {text: t('app.offline', {error: error.message})};
  } else {
    state.message = {text: t('app.error', {error: error ? error.message : '?'})};
  }
}

// ---------------------------------------------------------------- drawing

function boardModel(overrides = {}) {
  const view = state.view;
  const last = state.lastMove;
  return {
    counts: countsOf(view),
    sideToMove: view.side_to_move,
    over: view.game_over,
    legal: new Set(view.moves.map((m) => m.move)),
    playable: !state.busy && isHumanTurn(),
    lastMove: last ? {from: last.sowing[0].from, lastSlot: last.last_slot,
                      captured: last.captured_slots} : null,
    hint: state.hint ? state.hint.letter : null,
    active: null,
    houseLabel: (letter, count) => t('board.house', {letter, count}, {isolate: false}),
    storeLabel: (slot, count) =>
      t('board.store', {side: t(slot === 2 * view.houses ? 'side.South' : 'side.North'), count},
        {isolate: false}),
    ...overrides,
  };
}

function statusText() {
  const view = state.view;
  if (!view) return t('app.loading');
  if (view.game_over) {
    const r = view.result;
    const you = againstComputer() && r.winner === humanSide();
    const text = r.winner === 'draw' ? t('status.draw', {south: r.south, north: r.north})
                 : you ? t('status.youWin', {south: r.south, north: r.north})
                       : t('status.wins', {player: playerName(r.winner), south: r.south,
                                           north: r.north});
    return r.repetition ? `${text} ${t('status.repetition')}` : text;
  }
  const player = playerName(view.side_to_move);
  if (state.thinkingNow) return t('status.thinking', {player});
  if (state.replay) return t('moves.viewing', {ply: state.replay.ply, count: state.moves.length});
  const again = state.lastMove && state.lastMove.extra_turn;
  if (againstComputer() && view.side_to_move === humanSide()) {
    return t(again ? 'status.youAgain' : 'status.yourMove');
  }
  return t(again ? 'status.again' : 'status.toMove', {player});
}

function renderThinking() {
  const show = $('show-thinking').checked && againstComputer();
  $('thinking').hidden = !show;
  if (!show) return;
  const k = state.thinking;
  let text = '';
  if (k) {
    if (k.level === 1) text = t('thinking.random');
    else if (k.level === 2) text = t('thinking.greedy');
    else if (k.from_tables) text = t('thinking.tables', {score: signed(k.score)});
    else {
      text = t('thinking.search', {
        depth: k.depth, score: signed(k.score),
        exactness: t(k.exact ? 'thinking.exact' : 'thinking.estimate'),
        line: k.pv.join(' '),
        nodes: new Intl.NumberFormat(currentLanguage()).format(k.nodes),
        seconds: new Intl.NumberFormat(currentLanguage(), {minimumFractionDigits: 2,
                                                            maximumFractionDigits: 2})
                     .format(k.seconds),
      });
    }
  }
  $('thinking-text').textContent = text;
}

function analysisGroup(title, kind, moves, exactTag) {
  const group = document.createElement('div');
  group.className = `analysis-group group-${kind}`;
  if (title) {
    const heading = document.createElement('h3');
    heading.textContent = title;
    group.appendChild(heading);
  }
  const items = document.createElement('ul');
  items.className = 'analysis-moves';
  for (const m of moves) {
    const item = document.createElement('li');
    item.dataset.move = m.move;
    item.dataset.score = m.score;
    item.dataset.exact = m.exact;
    item.title = t('analysis.line', {line: m.line.join(' ')});
    const move = document.createElement('span');
    move.className = 'move';
    move.textContent = m.move;
    const score = document.createElement('span');
    score.className = 'value';
    score.textContent = ` ${signed(m.score)}`;
    item.append(move, score);
    if (exactTag) {
      const tag = document.createElement('span');
      tag.className = m.exact ? 'exact' : 'estimate';
      tag.textContent = t(m.exact ? 'analysis.exact' : 'analysis.estimate');
      item.appendChild(tag);
    }
    items.appendChild(item);
  }
  group.appendChild(items);
  return group;
}

function renderAnalysis() {
  const toggle = $('analysis-toggle');
  toggle.setAttribute('aria-expanded', String(state.analysisOpen));
  $('analysis').hidden = !state.analysisOpen;
  if (!state.analysisOpen) return;
  const body = $('analysis-body');
  body.replaceChildren();
  const a = state.analysis;
  const paragraph = (text) => {
    const p = document.createElement('p');
    p.textContent = text;
    body.appendChild(p);
    return p;
  };
  if (!a || a.status === 'working') return void paragraph(t('analysis.working'));
  if (a.status === 'over') return void paragraph(t('analysis.over'));
  if (a.status === 'error') return void paragraph(t('app.error', {error: a.error}));
  const data = a.data;
  body.dataset.source = data.source;
  paragraph(t('analysis.for', {player: playerName(data.side_to_move)}));
  if (data.source === 'tables') {
    paragraph(t('analysis.tables'));
    for (const [kind, title] of [['win', 'analysis.winning'], ['draw', 'analysis.drawing'],
                                 ['loss', 'analysis.losing']]) {
      const moves = data.moves.filter((m) => m.category === kind);
      if (moves.length) body.appendChild(analysisGroup(t(title), kind, moves, false));
    }
  } else {
    paragraph(t('analysis.search', {seconds: data.seconds}));
    body.appendChild(analysisGroup('', 'search', data.moves, true));
  }
}

function renderRules() {
  const kind = state.game ? setupOfGame(state.game).kind : state.setup.kind;
  $('rules-title').textContent = t('rules.title', {game: t(`game.${kind}`)});
  const fill = (element, items) => {
    element.replaceChildren(...items.map((text) => {
      const item = document.createElement('li');
      item.textContent = text;
      return item;
    }));
  };
  fill($('rules-board'), list('rules.board'));
  fill($('rules-list'), list(`rules.${kind}`));
}

function renderMoveList() {
  const list = $('move-list');
  const shown = state.replay ? state.replay.ply : state.moves.length;
  list.replaceChildren(...turnsOf(state.moves).map((turn) => {
    const item = document.createElement('li');
    item.dataset.side = turn.side;
    const who = document.createElement('span');
    who.className = 'turn-side';
    who.textContent = playerName(turn.side);
    item.appendChild(who);
    for (const m of turn.moves) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'move';
      button.textContent = m.letter;
      button.dataset.ply = String(m.ply + 1);
      if (m.ply + 1 === shown) button.setAttribute('aria-current', 'step');
      button.addEventListener('click', () => showPly(m.ply + 1));
      item.appendChild(button);
    }
    return item;
  }));
  const current = list.querySelector('[aria-current]');
  if (current && !state.replay) list.scrollTop = list.scrollHeight;
  else if (current) current.scrollIntoView({block: 'nearest'});
  const idle = !state.busy;
  $('replay-first').disabled = !idle || shown === 0;
  $('replay-back').disabled = !idle || shown === 0;
  $('replay-forward').disabled = !idle || !state.replay;
  $('replay-last').disabled = !idle || !state.replay;
  $('replay-note').textContent =
      state.replay ? t('moves.viewing', {ply: state.replay.ply, count: state.moves.length}) : '';
}

function render() {
  const view = state.view;
  $('status').textContent = statusText();
  if (!view) return;
  if (!state.busy) keepGame();
  if (!state.animation) {
    if (state.replay) {
      const past = state.replay.view;
      const last = past.played.length ? past.played[0] : null;
      board.render(boardModel({
        counts: countsOf(past), sideToMove: past.side_to_move, over: past.game_over,
        playable: false, hint: null,
        lastMove: last ? {from: last.sowing[0].from, lastSlot: last.last_slot,
                          captured: last.captured_slots} : null,
      }));
    } else {
      board.render(boardModel());
    }
  }
  // The state in attributes, for the browser tests.
  const frame = $('board-frame');
  frame.dataset.game = state.game;
  frame.dataset.position = view.position;
  frame.dataset.shown = state.replay ? state.replay.view.position : view.position;
  frame.dataset.turned = String(board.turned);
  frame.dataset.over = String(view.game_over);
  frame.dataset.busy = String(state.busy);
  for (const side of ['North', 'South']) {
    $(`${side.toLowerCase()}-caption`).textContent =
      againstComputer() ? t('caption', {side: t(`side.${side}`), player: playerName(side)})
                        : t(`side.${side}`);
  }
  $('score').textContent = t('status.score', {south: view.board.south_store,
                                              north: view.board.north_store});
  const message = $('message');
  message.textContent = state.message ? state.message.text : '';
  message.classList.toggle('notice', !!(state.message && state.message.notice));
  const hintText = $('hint-text');
  hintText.textContent = state.hint ? state.hint.text : '';
  // The hint's move and value in attributes, for the browser tests.
  hintText.dataset.move = state.hint && state.hint.letter ? state.hint.letter : '';
  hintText.dataset.score = state.hint && state.hint.letter ? state.hint.score : '';
  hintText.dataset.provenance = state.hint && state.hint.letter ? state.hint.provenance : '';
  const idle = !state.busy;
  $('undo').disabled = !idle || undoTarget() === null;
  $('hint').disabled = !idle || view.game_over || !isHumanTurn() || !!state.replay;
  $('save').disabled = !idle;
  $('load').disabled = !idle;
  renderMoveList();
  renderThinking();
  renderAnalysis();
  renderRules();
}

// ---------------------------------------------------------------- the sowing, seed by seed

function wait(ms, animation) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    animation.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

// Draws `move` (a MOVE object) from the counts before it: each pick-up, then each seed. Quick,
// skipped by a tap or a key, and not drawn at all under prefers-reduced-motion.
async function animate(move, before) {
  if (reducedMotion.matches) return;
  const counts = before.slice();
  const seeds = move.sowing.reduce((n, s) => n + s.seeds, 0);
  // 150 ms a seed, faster for long sowings: about 2 s at most for any move.
  const delay = Math.max(5, Math.min(150, 2000 / Math.max(1, seeds)));
  const animation = {skipped: false, wake: null};
  animation.skip = () => {
    animation.skipped = true;
    if (animation.wake) animation.wake();
  };
  state.animation = animation;
  $('skip-note').hidden = false;
  const from = move.sowing[0].from;
  const frame = (active) => board.render(boardModel({
    counts, playable: false, hint: null, active,
    lastMove: {from, lastSlot: active, captured: []},
  }));
  try {
    for (const sowing of move.sowing) {
      counts[sowing.from] -= sowing.seeds;
      frame(sowing.from);
      await wait(delay, animation);
      for (const slot of sowing.slots) {
        if (animation.skipped) return;
        counts[slot] += 1;
        frame(slot);
        await wait(delay, animation);
      }
      if (animation.skipped) return;
    }
  } finally {
    state.animation = null;
    $('skip-note').hidden = true;
  }
}

function skipAnimation() {
  if (state.animation) state.animation.skip();
}

// ---------------------------------------------------------------- playing

async function loadView(played) {
  return api.position(state.game, state.start, state.moves, played);
}

async function playHuman(letter) {
  if (state.busy || !isHumanTurn() || state.replay) return;
  const move = state.view.moves.find((m) => m.move === letter);
  if (!move) return;
  const token = state.token;
  state.busy = true;
  state.hint = null;
  state.message = null;
  render();
  const moves = [...state.moves, letter];
  const next = api.position(state.game, state.start, moves, 'none');
  try {
    await animate(move, countsOf(state.view));
    const view = await next;
    if (token !== state.token) return;
    state.moves = moves;
    state.view = view;
    state.lastMove = move;
  } catch (error) {
    if (token !== state.token) return;
    showError(error);
  } finally {
    if (token === state.token) state.busy = false;
  }
  render();
  refreshAnalysis();
  await computerTurns();
}

async function computerTurns() {
  let retries = 0;
  while (isComputerTurn()) {
    const token = state.token;
    state.busy = true;
    state.thinkingNow = true;
    render();
    let reply;
    try {
      reply = await api.move(state.game, state.start, state.moves, Number(state.opponent));
    } catch (error) {
      if (token !== state.token) return;
      if (error.status === 503 && retries++ < 10) {
        state.message = {text: t('app.busy')};
        render();
        await new Promise((resolve) => setTimeout(resolve, 1500));
        continue;
      }
      state.busy = false;
      state.thinkingNow = false;
      showError(error);
      render();
      return;
    }
    if (token !== state.token) return;
    state.thinkingNow = false;
    state.message = null;
    const moves = [...state.moves, reply.move];
    try {
      const next = api.position(state.game, state.start, moves, 'none');
      await animate(reply.played, countsOf(state.view));
      const view = await next;
      if (token !== state.token) return;
      state.moves = moves;
      state.view = view;
      state.lastMove = reply.played;
      state.thinking = reply.thinking;
    } catch (error) {
      if (token !== state.token) return;
      showError(error);
      state.busy = false;
      render();
      return;
    }
    state.busy = false;
    render();
    refreshAnalysis();
  }
}

// The board for this game and screen, turned when you play North against the computer.
function buildBoard(houses) {
  const turned = againstComputer() && humanSide() === 'North';
  if (board.houses !== houses || board.tall !== narrow.matches || board.turned !== turned) {
    board.build(houses, narrow.matches, turned);
  }
}

// Shows the position after the first `ply` moves (the move list's replay); the last ply is the
// game itself, playable again.
async function showPly(ply) {
  if (state.busy || !state.view) return;
  ply = Math.max(0, Math.min(ply, state.moves.length));
  if (ply === state.moves.length) {
    state.replay = null;
    return render();
  }
  const token = state.token;
  state.busy = true;
  render();
  try {
    const view = await api.position(state.game, state.start, state.moves.slice(0, ply), 'last');
    if (token !== state.token) return;
    state.replay = {ply, view};
  } catch (error) {
    if (token !== state.token) return;
    showError(error);
  } finally {
    if (token === state.token) state.busy = false;
  }
  render();
}

function stepReplay(step) {
  const shown = state.replay ? state.replay.ply : state.moves.length;
  return showPly(shown + step);
}

// Replaces the game: a new one, one loaded from a record, or the same after an undo.
async function showGame(game, start, moves, message) {
  const token = ++state.token;
  state.game = game;
  state.start = start;
  state.moves = moves;
  state.busy = true;
  state.thinkingNow = false;
  state.hint = null;
  state.thinking = null;
  state.message = message || null;
  state.replay = null;
  skipAnimation();
  // Busy at once, before the new game's first render: until then the board on the page is the
  // old game's, and nothing (a tap, a script waiting for the board) may take it for the new one.
  $('board-frame').dataset.busy = 'true';
  try {
    const view = await loadView('last');
    if (token !== state.token) return;
    buildBoard(view.houses);
    state.view = view;
    state.lastMove = view.played.length ? view.played[0] : null;
  } catch (error) {
    if (token !== state.token) return;
    showError(error);
  } finally {
    if (token === state.token) state.busy = false;
  }
  render();
  refreshAnalysis();
  await computerTurns();
}

function newGame() {
  const setup = readSetup();
  state.setup = setup;
  try {
    localStorage.setItem(SETUP_KEY, JSON.stringify(setup));
  } catch {
    // Not remembered.
  }
  state.opponent = setup.opponent;
  state.computerSide = setup.opponent === 'human' ? null
                                                 : setup.first === 'computer' ? 'South' : 'North';
  return showGame(gameString(setup), '', []);
}

async function undo() {
  if (state.busy) return;
  const keep = undoTarget();
  if (keep === null) return;
  await showGame(state.game, state.start, state.moves.slice(0, keep));
}

// One analysis per position, asked once and shared by the hint and the analysis panel, so the two
// always show the same answer (the server computes it in one place: /api/v1/analyse). The latest
// few positions are kept; a failed request is forgotten so that it can be asked again, and one
// still running for a position the game has left is dropped (playing quickly with the panel open
// would otherwise queue answers nobody waits for).
const analyses = new Map();  // "game|start|moves" -> {answer (a promise), abort, settled}
const ANALYSES_KEPT = 8;

function analysisKey(game, start, moves) {
  return `${game}|${start || ''}|${moves.join('')}`;
}

function analysisOf(game, start, moves) {
  const key = analysisKey(game, start, moves);
  let found = analyses.get(key);
  if (!found) {
    const controller = new AbortController();
    found = {abort: () => controller.abort(), settled: false};
    found.answer = api.analyse(game, start, moves, ANALYSIS_SECONDS, controller.signal);
    found.answer.then(() => { found.settled = true; },
                      () => { if (analyses.get(key) === found) analyses.delete(key); });
    analyses.set(key, found);
    if (analyses.size > ANALYSES_KEPT) analyses.delete(analyses.keys().next().value);
  }
  return found.answer;
}

// Drops the analyses still running for any position but the game's current one.
function dropStaleAnalyses() {
  const current = analysisKey(state.game, state.start, state.moves);
  for (const [key, entry] of analyses) {
    if (key !== current && !entry.settled) {
      entry.abort();
      analyses.delete(key);
    }
  }
}

// The hint is the analysis's best move, with its value: exact (tables or proven) or an estimate.
async function hint() {
  if (state.busy || !isHumanTurn()) return;
  const token = state.token;
  const player = playerName(state.view.side_to_move);
  const you = againstComputer();  // the hint is for your move: you are playing the computer
  state.hint = {letter: null, text: t('hint.looking')};
  state.busy = true;
  render();
  try {
    const data = await analysisOf(state.game, state.start, state.moves);
    if (token !== state.token) return;
    const best = data.moves[0];
    state.hint = {letter: best.move, score: best.score, provenance: best.provenance,
                  text: best.exact
                            ? t(you ? 'hint.exactYou' : 'hint.exact',
                                {move: best.move, player, outcome: outcomeText(best.score, you)})
                            : t(you ? 'hint.estimateYou' : 'hint.estimate',
                                {move: best.move, player, score: signed(best.score)})};
  } catch (error) {
    if (token !== state.token) return;
    state.hint = null;
    showError(error);
  } finally {
    if (token === state.token) state.busy = false;
  }
  render();
}

async function refreshAnalysis() {
  dropStaleAnalyses();
  if (!state.analysisOpen || !state.view) return;
  const token = ++state.analysisToken;
  if (state.view.game_over) {
    state.analysis = {status: 'over'};
    return renderAnalysis();
  }
  state.analysis = {status: 'working'};
  renderAnalysis();
  try {
    const data = await analysisOf(state.game, state.start, state.moves);
    if (token !== state.analysisToken) return;
    state.analysis = {status: 'done', data};
  } catch (error) {
    if (token !== state.analysisToken) return;
    state.analysis = {status: 'error', error: error.message};
  }
  renderAnalysis();
}

async function save() {
  try {
    const date = today();
    const {record} = await api.writeRecord(state.game, state.start, state.moves, {
      South: recordName('South'), North: recordName('North'), Date: date.dots,
    });
    const file = `mancala-${state.game.replaceAll(':', '-')}-${date.dashes}.txt`;
    const url = URL.createObjectURL(new Blob([record], {type: 'text/plain'}));
    const link = document.createElement('a');
    link.href = url;
    link.download = file;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    state.message = {text: t('record.saved', {file}), notice: true};
  } catch (error) {
    showError(error);
  }
  render();
}

async function load(file) {
  if (file.size > 60000) {
    state.message = {text: t('record.tooLarge')};
    return render();
  }
  let record;
  try {
    record = await api.readRecord(await file.text());
  } catch (error) {
    state.message = {text: t('record.bad', {error: error.message})};
    return render();
  }
  const setup = {...setupOfGame(record.game), opponent: 'human', first: 'me'};
  state.setup = setup;
  state.opponent = 'human';
  state.computerSide = null;
  fillSetup();
  const moves = record.moves.split('');
  await showGame(record.game, record.start, moves,
                 {text: t('record.loaded', {game: t(`game.${setup.kind}`), count: moves.length}),
                  notice: true});
}

// ---------------------------------------------------------------- the setup form

function option(value, text, selected) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  o.selected = String(value) === String(selected);
  return o;
}

function kindInfo(kind) {
  return state.games.games.find((g) => g.kind === kind);
}

function readSetup() {
  return {
    kind: $('setup-kind').value,
    houses: Number($('setup-houses').value),
    seeds: Number($('setup-seeds').value),
    variant: $('setup-variant').value,
    opponent: $('setup-opponent').value,
    first: $('setup-first').value,
  };
}

// Fills the form from state.setup, with the ranges the server plays.
function fillSetup() {
  const s = state.setup;
  const info = kindInfo(s.kind) || kindInfo('kalah');
  const range = (min, max) => Array.from({length: max - min + 1}, (_, i) => min + i);
  $('setup-kind').replaceChildren(...state.games.games.map((g) =>
    option(g.kind, t(`game.${g.kind}`), s.kind)));
  const houses = Math.min(Math.max(s.houses, info.houses.min), info.houses.max);
  $('setup-houses').replaceChildren(...range(info.houses.min, info.houses.max).map((n) =>
    option(n, String(n), houses)));
  $('setup-houses').disabled = info.houses.min === info.houses.max;
  const seeds = Math.min(Math.max(s.seeds, info.seeds.min), info.seeds.max);
  $('setup-seeds').replaceChildren(...range(info.seeds.min, info.seeds.max).map((n) =>
    option(n, String(n), seeds)));
  const variant = info.variants.some((v) => v.name === s.variant) ? s.variant
                                                                   : info.variants[0].name;
  $('setup-variant').replaceChildren(...info.variants.map((v) =>
    option(v.name, t(`variant.${info.kind}.${v.name}`), variant)));
  $('setup-opponent').replaceChildren(
    option('human', t('opponent.human'), s.opponent),
    ...state.games.levels.map((l) => option(String(l.level), t(`opponent.level${l.level}`),
                                            s.opponent)));
  $('setup-first').replaceChildren(option('me', t('first.me'), s.first),
                                   option('computer', t('first.computer'), s.first));
  $('setup-first').disabled = s.opponent === 'human';
}

function onSetupChange() {
  const s = readSetup();
  if (s.kind !== state.setup.kind) {
    const info = kindInfo(s.kind);
    s.houses = info.houses.default;
    s.seeds = info.seeds.default;
    s.variant = info.variants[0].name;
  }
  state.setup = s;
  fillSetup();
}

function storedSetup() {
  try {
    const stored = JSON.parse(localStorage.getItem(SETUP_KEY) || 'null');
    if (stored && typeof stored === 'object') return {...state.setup, ...stored};
  } catch {
    // Nothing kept.
  }
  return state.setup;
}

// ---------------------------------------------------------------- start

function fillLanguages() {
  $('language').replaceChildren(...LANGUAGES.map((l) => {
    const o = option(l.code, l.name, currentLanguage());
    o.lang = l.code;
    return o;
  }));
}

async function switchLanguage(code) {
  await setLanguage(code, true);
  translatePage();
  fillLanguages();
  if (state.games) fillSetup();
  render();
}

function onKey(event) {
  if (state.animation) {
    event.preventDefault();
    return skipAnimation();
  }
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLSelectElement ||
      target instanceof HTMLTextAreaElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const replayKeys = {ArrowLeft: () => stepReplay(-1), ArrowRight: () => stepReplay(1),
                      Home: () => showPly(0), End: () => showPly(state.moves.length)};
  if (replayKeys[event.key] && state.view) {
    event.preventDefault();
    return void replayKeys[event.key]();
  }
  if (event.key.length !== 1 || !/[a-z]/i.test(event.key) || !isHumanTurn()) return;
  const letter = state.view.side_to_move === 'South' ? event.key.toUpperCase()
                                                      : event.key.toLowerCase();
  if (!state.view.moves.some((m) => m.move === letter)) return;
  event.preventDefault();
  playHuman(letter);
}

async function main() {
  await setLanguage(preferredLanguage(), false);
  translatePage();
  fillLanguages();
  board = new BoardView($('board'), (letter) => playHuman(letter));
  $('language').addEventListener('change', (e) => switchLanguage(e.target.value));
  document.addEventListener('keydown', onKey);
  $('board-frame').addEventListener('pointerdown', skipAnimation);
  $('setup').addEventListener('change', onSetupChange);
  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    newGame();
  });
  $('new-game').addEventListener('click', () => newGame());
  $('undo').addEventListener('click', () => undo());
  $('hint').addEventListener('click', () => hint());
  $('save').addEventListener('click', () => save());
  $('load').addEventListener('click', () => $('load-file').click());
  $('load-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) load(file);
  });
  $('show-thinking').addEventListener('change', () => renderThinking());
  $('replay-first').addEventListener('click', () => showPly(0));
  $('replay-back').addEventListener('click', () => stepReplay(-1));
  $('replay-forward').addEventListener('click', () => stepReplay(1));
  $('replay-last').addEventListener('click', () => showPly(state.moves.length));
  narrow.addEventListener('change', () => {
    if (!state.view) return;
    buildBoard(state.view.houses);
    render();
  });
  $('analysis-toggle').addEventListener('click', () => {
    state.analysisOpen = !state.analysisOpen;
    renderAnalysis();
    refreshAnalysis();
  });
  try {
    state.games = await api.games();
  } catch (error) {
    showError(error);
    $('status').textContent = state.message.text;
    return;
  }
  state.setup = storedSetup();
  fillSetup();
  state.setup = readSetup();
  if (!(await resumeGame())) await newGame();
}

// The game kept on this device, if the server still plays it (a kept game the server refuses, an
// edited one say, is dropped for a new game).
async function resumeGame() {
  const kept = keptGame();
  if (!kept) return false;
  try {
    await api.position(kept.game, kept.start, kept.moves, 'none');
  } catch {
    return false;
  }
  const level = Number(kept.opponent);
  state.opponent = Number.isInteger(level) && level >= 1 && level <= 6 ? String(level) : 'human';
  state.computerSide = state.opponent === 'human' ? null
                                                  : kept.computerSide === 'South' ? 'South' : 'North';
  await showGame(kept.game, kept.start || '', kept.moves);
  return true;
}

main();
