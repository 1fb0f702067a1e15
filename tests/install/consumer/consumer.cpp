// A program built against an installed mancala, as a user of the library would write it: it opens
// a directory of endgame tables, probes a position, and solves Kalah(4,3) with the tables' help.
// tests/install/install_test.sh builds it twice (CMake's find_package, then pkg-config) and checks
// what it prints against the installed command. It has its own db/ and solver/ folders on its
// include path, whose headers stop the build if mancala's are ever reached without their
// <mancala/...>.
//
// Usage: consumer DATABASE_DIR POSITION   prints "version V", "probe VALUE", "solve VALUE MOVES"
#include <cstdio>
#include <string>

#include <mancala/db/table_answer.h>
#include <mancala/mancala_version.h>
#include <mancala/solver/rules/position.h>
#include <mancala/solver/rules/rules.h>
#include <mancala/solver/search/solve.h>
#include <mancala/tools/service/game_tables.h>

int main(int argc, char** argv) {
  using namespace mancala;
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer DATABASE_DIR POSITION\n");
    return 2;
  }
  const Rules rules = Rules::kalah(4, 3);
  const service::GameTables tables = service::open_game_tables(rules, argv[1]);
  if (!tables) {
    std::fprintf(stderr, "consumer: %s\n", tables.reason.c_str());
    return 1;
  }
  const Expected<Position> position = parse_position(rules, argv[2]);
  if (!position) {
    std::fprintf(stderr, "consumer: %s\n", position.error().c_str());
    return 1;
  }
  const db::TableAnswer answer = db::value_every_move(rules, *tables.values, *position);
  if (!answer.ok()) {
    std::fprintf(stderr, "consumer: %s\n", answer.message.c_str());
    return 1;
  }
  std::printf("version %s\n", std::string(kVersion).c_str());
  std::printf("probe %d\n", answer.value);

  Solver solver(rules, 16, tables.values.get());
  const SolveResult solved = solver.solve(start_position(rules));
  if (!solved.solved) {
    std::fprintf(stderr, "consumer: the solve stopped before its end\n");
    return 1;
  }
  std::string best;
  for (const Move move : solved.best) best += move_letter(start_position(rules).side_to_move, move);
  std::printf("solve %+d %s\n", solved.value, best.c_str());
  return 0;
}
