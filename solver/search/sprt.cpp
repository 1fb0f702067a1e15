#include "solver/search/sprt.h"

#include <algorithm>
#include <cmath>

namespace mancala {

namespace {

constexpr double kScores[5] = {0, 0.25, 0.5, 0.75, 1};
// A pair count of zero is taken as this many (fishtest's results_to_pdf).
constexpr double kEmptyCount = 1e-3;

double score_of_elo(double elo) {
  return 1 / (1 + std::pow(10.0, -elo / 400));
}

double elo_of_score(double s) {
  return 400 * std::log10(s / (1 - s));
}

// The distribution nearest to `p` (maximum likelihood) whose mean is `s`: p_i / (1 + x (a_i - s)),
// x the root of sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 between -1 / (a_max - s) and
// 1 / (s - a_min), where the sum falls from +inf to -inf (Van den Bergh, "the MLE of a multinomial
// with a given mean"). Bisection: the sum is monotone in x.
std::array<double, 5> mle_with_mean(const std::array<double, 5>& p, double s) {
  double low = -1 / (kScores[4] - s), high = 1 / (s - kScores[0]);
  auto sum = [&](double x) {
    double total = 0;
    for (size_t i = 0; i < 5; ++i) total += p[i] * (kScores[i] - s) / (1 + x * (kScores[i] - s));
    return total;
  };
  for (int step = 0; step < 200; ++step) {
    const double middle = (low + high) / 2;
    if (middle == low || middle == high) break;
    (sum(middle) > 0 ? low : high) = middle;
  }
  const double x = (low + high) / 2;
  std::array<double, 5> q{};
  for (size_t i = 0; i < 5; ++i) q[i] = p[i] / (1 + x * (kScores[i] - s));
  return q;
}

}  // namespace

int PairCounts::pairs() const {
  int total = 0;
  for (int c : counts) total += c;
  return total;
}

double PairCounts::points() const {
  const int n = pairs();
  if (n == 0) return 0.5;
  double total = 0;
  for (size_t i = 0; i < 5; ++i) total += counts[i] * kScores[i];
  return total / n;
}

double SprtParameters::lower_bound() const {
  return std::log(beta / (1 - alpha));
}

double SprtParameters::upper_bound() const {
  return std::log((1 - beta) / alpha);
}

double sprt_llr(const PairCounts& pairs, const SprtParameters& parameters) {
  const int n = pairs.pairs();
  if (n == 0) return 0;
  std::array<double, 5> p{};
  double total = 0;
  for (size_t i = 0; i < 5; ++i) total += p[i] = std::max(double(pairs.counts[i]), kEmptyCount);
  for (double& v : p) v /= total;
  const double s0 = score_of_elo(parameters.elo0), s1 = score_of_elo(parameters.elo1);
  const std::array<double, 5> p0 = mle_with_mean(p, s0), p1 = mle_with_mean(p, s1);
  double llr = 0;
  for (size_t i = 0; i < 5; ++i) llr += p[i] * std::log(p1[i] / p0[i]);
  return n * llr;
}

SprtState sprt_state(const PairCounts& pairs, const SprtParameters& parameters) {
  SprtState state;
  state.llr = sprt_llr(pairs, parameters);
  state.lower = parameters.lower_bound();
  state.upper = parameters.upper_bound();
  if (state.llr >= state.upper)
    state.verdict = SprtVerdict::AcceptH1;
  else if (state.llr <= state.lower)
    state.verdict = SprtVerdict::AcceptH0;
  return state;
}

PairEloEstimate pair_elo(const PairCounts& pairs) {
  const int n = pairs.pairs();
  if (n == 0) return {};
  const double lo = 0.25 / n, hi = 1 - 0.25 / n;
  const double s = std::clamp(pairs.points(), lo, hi);
  double variance = 0;
  for (size_t i = 0; i < 5; ++i) variance += pairs.counts[i] * (kScores[i] - s) * (kScores[i] - s);
  variance /= n;
  const double se = std::sqrt(variance / n);
  return {elo_of_score(s), elo_of_score(std::clamp(s - 1.96 * se, lo, hi)),
          elo_of_score(std::clamp(s + 1.96 * se, lo, hi))};
}

}  // namespace mancala
