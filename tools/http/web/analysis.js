// The analysis of the position on the board, for the analysis panel (analysis-panel.js draws
// it): asked after every move while the panel is open. The panel opens by itself, once a game,
// when the game enters the endgame tables: from then on every move's exact value is known. While
// the daily puzzle asks, nothing is analysed (the panel says why).
import {analysisKey, analysisOf, dropStaleAnalyses} from './analyses.js';
import {bringIntoView} from './focus.js';
import {puzzleAsked, tableCovering} from './game.js';
import {learnAsked} from './learn.js';
import {state, update} from './store.js';

let autoOpened = false;  // the panel opened by itself this game (or must not: a puzzle)
let asked = 0;           // analyses asked: only the latest one's answer is shown

// Whether the panel may open by itself in this game again.
export function allowAutoOpen(allowed) {
  autoOpened = !allowed;
}

// The analysis follows the position on the board: the game's, or an earlier one replayed from the
// move list (as an analysis board does), so that a finished game's positions can be looked at.
// Not while learning from a mistake asks for the better move there (learn.js): the panel would
// give it away; the game's position is analysed then, as before replays were.
export async function refreshAnalysis() {
  const {game, start, moves: played, analysisOpen} = state();
  const replay = learnAsked() ? null : state().replay;
  const view = replay ? replay.view : state().view;
  const moves = replay ? played.slice(0, replay.ply) : played;
  dropStaleAnalyses(analysisKey(game, start, moves));
  if (!view) return;
  // The daily puzzle's question stands: the analysis would be its answer. Not even asked.
  if (puzzleAsked()) return void update({analysis: null});
  let open = analysisOpen;
  if (!open && !autoOpened && !replay && !view.game_over &&
      tableCovering(game, view.seeds_on_board)) {
    autoOpened = true;
    open = true;
  }
  if (!open) return;
  const token = ++asked;
  if (view.game_over) return void update({analysisOpen: true, analysis: {status: 'over'}});
  const key = analysisKey(game, start, moves);
  update({analysisOpen: true, analysis: {status: 'working'}});
  try {
    const data = await analysisOf(game, start, moves);
    if (token !== asked) return;
    update({analysis: {status: 'done', data, key}});
  } catch (error) {
    if (token !== asked) return;
    update({analysis: {status: 'error', error}});
  }
}

// Opened by the player: brought into view when it lies out of sight (focus.js).
export function toggleAnalysis() {
  update({analysisOpen: !state().analysisOpen});
  refreshAnalysis();
  if (state().analysisOpen) bringIntoView(document.getElementById('analysis'));
}
