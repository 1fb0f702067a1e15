// The analysis panel, like a tablebase page: the verdict on top (the only part read out when it
// changes), the best line, then every move with its value, grouped as winning, drawing and losing
// inside the tables; each move plays when pressed.
import {analysisKey} from './analyses.js';
import {browserTablesReach, inBrowser} from './engine.js';
import {againstComputer, humanSide, isHumanTurn, playerName, puzzleAsked,
        trainerAsked} from './game.js';
import {t} from './i18n.js';
import {giveFocusBack, holdFocus} from './focus.js';
import {playHuman} from './play.js';
import {state} from './store.js';
import {answererKey, errorMessage, formatNumber, outcomeText, signed, sourceText,
        valueWords} from './words.js';

const $ = (id) => document.getElementById(id);

// One group of moves (winning, drawing, losing, or a search's all): each a button that plays it,
// with its value and, outside the tables, whether the value is exact.
function analysisGroup(title, kind, moves, exactTag, playable, margin) {
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
    if (m.category) item.dataset.category = m.category;
    const button = document.createElement('button');
    button.type = 'button';
    button.disabled = !playable;
    button.title = t('analysis.line', {line: m.line.join(' ')});
    button.setAttribute('aria-label', t('analysis.play', {move: m.move, score: signed(m.score)},
                                        {isolate: false}));
    const move = document.createElement('span');
    move.className = 'move';
    move.textContent = m.move;
    const score = document.createElement('span');
    score.className = 'value';
    score.textContent = ` ${signed(m.score)}`;
    button.append(move, score);
    // Where the values are the Oware tables' count, a move that ends the game says its real end.
    if (margin === 'tables' && m.ends_game && m.final_score !== m.score) {
      const end = document.createElement('span');
      end.className = 'ends';
      end.dataset.final = m.final_score;
      end.textContent = t('analysis.ends', {score: signed(m.final_score)});
      button.appendChild(end);
    }
    if (exactTag) {
      const tag = document.createElement('span');
      tag.className = m.exact ? 'exact' : 'estimate';
      tag.textContent = t(m.exact ? 'analysis.exact' : 'analysis.estimate');
      button.appendChild(tag);
    }
    button.addEventListener('click', () => playHuman(m.move));
    item.appendChild(button);
    items.appendChild(item);
  }
  group.appendChild(items);
  return group;
}

// The verdict of an analysis for the side to move, as a sentence: win, draw or loss by N with
// perfect play where exact, else the estimate; and where the value comes from.
function verdictText(data) {
  const you = againstComputer() && data.side_to_move === humanSide();
  const player = playerName(data.side_to_move);
  const best = data.moves[0];
  const source = sourceText(data.provenance, best && best.depth);
  if (data.exact) {
    // As the hint says it: a best move that ends the game by its end, an Oware count by name.
    const said = best ? valueWords(best, data.margin) : {score: data.score, source};
    return t(you ? 'verdict.exactYou' : 'verdict.exact',
             {player, outcome: outcomeText(said.score, you), source: said.source});
  }
  return t(you ? 'verdict.estimateYou' : 'verdict.estimate',
           {player, score: signed(data.score), source});
}

export function renderAnalysis() {
  drawAnalysis();
  giveFocusBack();
}

function drawAnalysis() {
  const {analysisOpen, analysis: a} = state();
  const toggle = $('analysis-toggle');
  toggle.setAttribute('aria-expanded', String(analysisOpen));
  $('analysis').hidden = !analysisOpen;
  if (!analysisOpen) return;
  const body = $('analysis-body');
  const summary = $('analysis-summary');
  // A move of the panel in focus (one just played) is drawn again or gone: the focus goes to the
  // same move in the new list, or its first move, or the panel's switch.
  const focused = document.activeElement;
  if (focused && body.contains(focused)) {
    const move = focused.closest('li').dataset.move;
    holdFocus(focused, () => body.querySelector(`li[data-move="${move}"] button`) ||
                             body.querySelector('button') || toggle);
  }
  body.replaceChildren();
  delete body.dataset.source;
  const paragraph = (text, className) => {
    const p = document.createElement('p');
    p.textContent = text;
    if (className) p.className = className;
    body.appendChild(p);
    return p;
  };
  const say = (text) => {
    if (summary.textContent !== text) summary.textContent = text;
  };
  if (puzzleAsked()) return void say(t(trainerAsked() ? 'analysis.trainer' : 'analysis.puzzle'));
  if (!a || a.status === 'working') return void say(t('analysis.working'));
  if (a.status === 'over') return void say(t('analysis.over'));
  if (a.status === 'error') return void say(errorMessage(a.error).text);
  const data = a.data;
  say(verdictText(data));
  body.dataset.source = data.source;
  if (data.line && data.line.length) {
    const line = paragraph(`${t('analysis.bestLine')} `, 'best-line-row');
    const moves = document.createElement('span');
    moves.className = 'best-line';
    moves.textContent = data.line.join(' ');
    line.appendChild(moves);
  }
  paragraph(t('analysis.for', {player: playerName(data.side_to_move)}));
  // How far the server's tables reach: they grow while `scripts/run.sh` builds deeper layers.
  // A board with no server builds its own (engine.js), and says so while it does.
  const reach = data.tables ? data.tables.max_seeds : -1;
  paragraph(reach >= 0 ? t('analysis.reach', {seeds: reach}) : t(answererKey('analysis.noTables')),
            'tables-reach');
  const building = inBrowser && browserTablesReach(state().game);
  if (building && building.building) {
    paragraph(t('analysis.building', {seeds: Math.max(0, building.max_seeds),
                                      target: building.target}), 'tables-building');
  }
  if (data.margin === 'tables' && data.source === 'tables') {
    paragraph(t('analysis.count'), 'tables-count');
  }
  const {busy, replay, game, start, moves} = state();
  const playable = !busy && isHumanTurn() && !replay && analysisKey(game, start, moves) === a.key;
  if (data.source === 'tables') {
    for (const [kind, title] of [['win', 'analysis.winning'], ['draw', 'analysis.drawing'],
                                 ['loss', 'analysis.losing']]) {
      const found = data.moves.filter((m) => m.category === kind);
      if (found.length) {
        body.appendChild(analysisGroup(t(title), kind, found, false, playable, data.margin));
      }
    }
  } else {
    paragraph(t('analysis.search', {seconds: formatNumber(data.seconds, 1)}));
    body.appendChild(analysisGroup('', 'search', data.moves, true, playable, data.margin));
  }
}
