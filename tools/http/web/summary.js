// The game-over summary: the result and score, and the moves after which the exact value of the
// game changed (a move that gave away seeds against perfect play), where the tables or the solver
// knew the value before and after it. summary-panel.js draws it.
import {analysisKey, answeredAnalysis} from './analyses.js';
import {api} from './api.js';
import {seedsOnBoard, sideOfLetter, tableCovering} from './game.js';
import {state, update} from './store.js';
import {errorMessage} from './words.js';

// The exact value of the game, for South (the final store difference with perfect play), before
// each move: from the tables for every position they cover, and from the analyses this page
// already has where they were exact. The moves that changed it are the game's mistakes.
export async function summarise() {
  const {token, game, start, moves} = state();
  update({summary: {status: 'working'}});
  let changes = [], known = 0, firstKnown = 0;
  try {
    const whole = await api.position(game, start, moves, 'all');
    const first = await api.position(game, start, [], 'none');
    const houses = whole.houses;
    const positions = [first.position, ...whole.played.map((m) => m.position)];
    const southValue = new Array(positions.length).fill(null);
    const forSouth = (positionString, score) => positionString.endsWith('S') ? score : -score;
    await Promise.all(positions.map(async (p, ply) => {
      if (ply === positions.length - 1) {
        const r = whole.result;
        southValue[ply] = r.south - r.north;
        return;
      }
      const cached = answeredAnalysis(analysisKey(game, start, moves.slice(0, ply)));
      if (cached && cached.exact) {
        southValue[ply] = forSouth(p, cached.score);
      } else if (tableCovering(game, seedsOnBoard(p, houses))) {
        const answer = await api.tables(game, start, moves.slice(0, ply));
        southValue[ply] = forSouth(p, answer.score);
      }
    }));
    // The last position is the end itself: known, but not "knowledge".
    known = southValue.slice(0, -1).filter((v) => v !== null).length;
    firstKnown = southValue.findIndex((v) => v !== null) + 1;
    for (let ply = 0; ply + 1 < positions.length; ++ply) {
      const before = southValue[ply], after = southValue[ply + 1];
      if (before === null || after === null || before === after) continue;
      const side = sideOfLetter(moves[ply]);
      const sign = side === 'South' ? 1 : -1;
      changes.push({ply: ply + 1, move: moves[ply], side, before: sign * before,
                    after: sign * after});
    }
  } catch (error) {
    if (token !== state().token) return;
    return void update({summary: {status: 'error'}, message: errorMessage(error)});
  }
  if (token !== state().token) return;
  update({summary: {status: 'done', changes, known, firstKnown}});
}
