// One analysis per position (GET /api/v1/analyse), asked once and shared by the hint, the
// analysis panel and the game-over summary, so that they always show the same answer (the server
// computes it in one place). The latest few positions are kept; a failed request is forgotten so
// that it can be asked again, and one still running for a position the game has left is dropped
// (playing quickly with the panel open would otherwise queue answers nobody waits for).
import {api} from './api.js';

export const ANALYSIS_SECONDS = 2;
const ANALYSES_KEPT = 8;

const analyses = new Map();  // "game|start|moves" -> {answer (a promise), abort, settled, data}

export function analysisKey(game, start, moves) {
  return `${game}|${start || ''}|${moves.join('')}`;
}

export function analysisOf(game, start, moves) {
  const key = analysisKey(game, start, moves);
  let found = analyses.get(key);
  if (!found) {
    const controller = new AbortController();
    found = {abort: () => controller.abort(), settled: false};
    found.answer = api.analyse(game, start, moves, ANALYSIS_SECONDS, controller.signal);
    found.answer.then((data) => {
      found.settled = true;
      found.data = data;
    },
                      () => { if (analyses.get(key) === found) analyses.delete(key); });
    analyses.set(key, found);
    if (analyses.size > ANALYSES_KEPT) analyses.delete(analyses.keys().next().value);
  }
  return found.answer;
}

// The answer already at hand for the position `key`, or undefined.
export function answeredAnalysis(key) {
  const found = analyses.get(key);
  return found ? found.data : undefined;
}

// Drops the analyses still running for any position but `current` (a key).
export function dropStaleAnalyses(current) {
  for (const [key, entry] of analyses) {
    if (key !== current && !entry.settled) {
      entry.abort();
      analyses.delete(key);
    }
  }
}
