// The sequential probability ratio test of engine testing (fishtest, fastchess): is A stronger
// than B by elo1 rather than by elo0? Results are counted by pairs of games, one opening played
// with both colours (pentanomial: A's points in the pair are 0, 1/2, 1, 3/2 or 2), because the two
// games of a pair are not independent: an opening that favours one colour moves both.
//
// The test is the generalized SPRT (GSPRT) on the pentanomial counts with logistic Elo bounds, as
// fishtest's LLR_logistic computes it: for each hypothesis score s_j = 1 / (1 + 10^(-elo_j / 400))
// the distribution over the five pair results nearest (maximum likelihood) to the observed one
// among those whose mean is s_j, and the log-likelihood ratio of the observed counts under the
// two. A count of zero is taken as 0.001 (fishtest's regularisation), so that the MLE exists.
#pragma once

#include <array>
#include <string>

namespace mancala {

// A's points in each pair of games: [0] both lost ... [4] both won (a draw is half a point).
struct PairCounts {
  std::array<int, 5> counts{};

  int pairs() const;
  // A's half points in a pair: 0 to 4.
  void add(int half_points) { ++counts[static_cast<size_t>(half_points)]; }
  // A's share of the points, 0 to 1.
  double points() const;
};

struct SprtParameters {
  double elo0 = 0;  // H0: A is elo0 stronger (logistic Elo)
  double elo1 = 5;  // H1: A is elo1 stronger
  double alpha = 0.05;
  double beta = 0.05;

  // The bounds of the log-likelihood ratio: below lower_bound H0 is accepted, above upper_bound
  // H1 (log(beta / (1 - alpha)) and log((1 - beta) / alpha)).
  double lower_bound() const;
  double upper_bound() const;
};

enum class SprtVerdict { Continue, AcceptH0, AcceptH1 };

struct SprtState {
  double llr = 0;
  double lower = 0, upper = 0;
  SprtVerdict verdict = SprtVerdict::Continue;
};

// The GSPRT's log-likelihood ratio of H1 against H0 for the pairs so far (0 with no pair).
double sprt_llr(const PairCounts& pairs, const SprtParameters& parameters);
SprtState sprt_state(const PairCounts& pairs, const SprtParameters& parameters);

struct PairEloEstimate {
  double difference = 0;     // logistic Elo of A minus B
  double low = 0, high = 0;  // the 95% interval
};

// Elo from the pairs: the mean score and its standard error over pairs (fishtest's pentanomial
// estimate), clamped half a pair away from 0 and 1 so that a sweep stays finite.
PairEloEstimate pair_elo(const PairCounts& pairs);

}  // namespace mancala
