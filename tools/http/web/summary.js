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
  let changes = [], known = 0, firstKnown = 0, counted = false;
  try {
    const whole = await api.position(game, start, moves, 'all');
    const first = await api.position(game, start, [], 'none');
    const houses = whole.houses;
    const positions = [first.position, ...whole.played.map((m) => m.position)];
    const southValue = new Array(positions.length).fill(null);
    const forSouth = (positionString, score) => positionString.endsWith('S') ? score : -score;
    const last = positions.length - 1;
    let endByCount = null;
    // The exact answer for the position after `ply` moves: the analysis at hand, or the tables'.
    const answerAt = async (ply) => {
      const cached = answeredAnalysis(analysisKey(game, start, moves.slice(0, ply)));
      if (cached && cached.exact) return cached;
      if (tableCovering(game, seedsOnBoard(positions[ply], houses))) {
        return api.tables(game, start, moves.slice(0, ply));
      }
      return null;
    };
    await Promise.all(positions.map(async (p, ply) => {
      if (ply === last) {
        const r = whole.result;
        southValue[ply] = r.south - r.north;
        return;
      }
      const answer = await answerAt(ply);
      if (!answer) return;
      southValue[ply] = forSouth(p, answer.score);
      if (answer.margin === 'tables') counted = true;
      // A game ended by an Oware majority is judged on the scale of the values before it (the
      // tables' count, which plays on), as the hint valued the move: the move's own value from
      // the position before it, not the seeds left uncounted (the final score stays the result).
      const ended = ply === last - 1 && !whole.result.repetition &&
                    seedsOnBoard(positions[last], houses) > 0;
      const played = ended && answer.moves.find((m) => m.move === moves[ply]);
      if (played && played.exact !== false) endByCount = forSouth(p, played.score);
    }));
    if (endByCount !== null) southValue[last] = endByCount;
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
  update({summary: {status: 'done', changes, known, firstKnown, counted}});
}
