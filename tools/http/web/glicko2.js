// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2012): a rating, its deviation (how
// sure the rating is) and its volatility (how much it moves), updated after a rating period of
// games. The puzzle trainer rates a player against puzzles: each puzzle is one game of a period,
// won when solved without a miss. Plain functions with no page in them, so that node tests them.

// The Glicko scale's link to Glicko-2's: r = 173.7178 μ + 1500, RD = 173.7178 φ.
const SCALE = 173.7178;
const CENTRE = 1500;
// Glickman's system constant τ, which limits how fast the volatility changes (0.3 to 1.2); and
// the tolerance of the volatility's iteration, as in the paper.
export const TAU = 0.5;
const EPSILON = 0.000001;

// A new player: 1500 ± 350, volatility 0.06 (the paper's step 1).
export const NEW_PLAYER = Object.freeze({rating: 1500, deviation: 350, volatility: 0.06});

function g(phi) {
  return 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
}

function expectedScore(mu, muOpponent, phiOpponent) {
  return 1 / (1 + Math.exp(-g(phiOpponent) * (mu - muOpponent)));
}

// The player {rating, deviation, volatility} after a rating period of `results`, each
// {rating, deviation, score} (the opponent's rating and deviation, the player's score: 1 a win,
// 0.5 a draw, 0 a loss). With no results the deviation grows as the paper's step 6 says.
export function glicko2Update(player, results, tau = TAU) {
  const mu = (player.rating - CENTRE) / SCALE;
  const phi = player.deviation / SCALE;
  const sigma = player.volatility;
  if (!results.length) {
    return {rating: player.rating, deviation: Math.sqrt(phi * phi + sigma * sigma) * SCALE,
            volatility: sigma};
  }
  // Steps 3 and 4: the estimated variance v and the estimated improvement Δ.
  let inverseV = 0;
  let sum = 0;
  for (const r of results) {
    const muJ = (r.rating - CENTRE) / SCALE;
    const phiJ = r.deviation / SCALE;
    const e = expectedScore(mu, muJ, phiJ);
    inverseV += g(phiJ) ** 2 * e * (1 - e);
    sum += g(phiJ) * (r.score - e);
  }
  const v = 1 / inverseV;
  const delta = v * sum;
  // Step 5: the new volatility, the root of f by the Illinois algorithm.
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * (phi * phi + v + ex) ** 2) -
           (x - a) / (tau * tau);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k += 1;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > EPSILON) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const newSigma = Math.exp(A / 2);
  // Steps 6 to 8: the deviation before the period, then the new deviation and rating.
  const phiStar = Math.sqrt(phi * phi + newSigma * newSigma);
  const newPhi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const newMu = mu + newPhi * newPhi * sum;
  return {rating: newMu * SCALE + CENTRE, deviation: newPhi * SCALE, volatility: newSigma};
}
