#include <cstdio>
#include <chrono>
#include "solver/perft.h"
#include "solver/moves.h"
using namespace mancala;
int main(int, char** argv) {
  auto r = parse_rules(argv[1]);
  if (!r) { std::puts(r.error().c_str()); return 1; }
  int d = atoi(argv[2]);
  for (int i = 1; i <= d; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto c = perft(*r, start_position(*r), i);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%d %llu %.3f %.1f M/s\n", i, (unsigned long long)c.leaves, s, c.moves_applied / s / 1e6);
  }
}
