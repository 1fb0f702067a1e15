#include "tools/service/solve_checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <span>
#include <vector>

#include <fmt/core.h>
#include <xxhash.h>
#include <nlohmann/json.hpp>

#include "db/file_io.h"

namespace mancala::service {

namespace {

constexpr const char* kStateFile = "solve.json";
constexpr int kFormat = 1;
// The table is copied and checked in pieces of this many words (8 MB): a few milliseconds of
// copying each, and no second copy of a table of gigabytes in memory.
constexpr size_t kPieceWords = size_t{1} << 20;
// solve.json is a few hundred bytes; a file much larger is not one of ours.
constexpr size_t kMaxStateBytes = 1 << 20;

std::string table_file_name(uint64_t number) {
  return fmt::format("transposition-{}.bin", number);
}

// XXH3-64 of a table's bytes, fed in pieces.
class TableChecksum {
 public:
  TableChecksum() : state_(XXH3_createState()) {
    if (!state_) throw std::bad_alloc();
    XXH3_64bits_reset(state_);
  }
  ~TableChecksum() { XXH3_freeState(state_); }
  TableChecksum(const TableChecksum&) = delete;
  TableChecksum& operator=(const TableChecksum&) = delete;
  void add(std::span<const uint64_t> words) {
    XXH3_64bits_update(state_, words.data(), words.size_bytes());
  }
  std::string hex() const { return fmt::format("{:016x}", XXH3_64bits_digest(state_)); }

 private:
  XXH3_state_t* state_;
};

Error damaged(const std::string& path, const std::string& why) {
  return Error{db::shown_path(path) + ": not a checkpoint this solve can go on from (" + why + ")"};
}

nlohmann::ordered_json bounds_json(const MoveBounds& m) {
  return {{"move", m.move},   {"solved", m.solved}, {"lower", m.lower},
          {"upper", m.upper}, {"nodes", m.nodes},   {"seconds", m.seconds}};
}

MoveBounds bounds_of(const nlohmann::json& j) {
  MoveBounds m;
  m.move = j.at("move").get<Move>();
  m.solved = j.at("solved").get<bool>();
  m.lower = j.at("lower").get<int>();
  m.upper = j.at("upper").get<int>();
  m.nodes = j.at("nodes").get<uint64_t>();
  m.seconds = j.at("seconds").get<double>();
  return m;
}

// Puts the table file `path` (of `words` words, XXH3 `checksum`) into `solver`; a table found
// damaged on the way is cleared again, so that nothing of it is searched.
Expected<bool> restore_table(const std::string& path, size_t words, const std::string& checksum,
                             Solver& solver) {
  Expected<db::OpenedFile> file = db::open_regular_file(path);
  if (!file) return Error{file.error()};
  if (file->size != words * sizeof(uint64_t))
    return damaged(
        path, fmt::format("{} bytes, the table takes {}", file->size, words * sizeof(uint64_t)));
  TableChecksum sum;
  std::vector<uint64_t> piece(std::min(words, kPieceWords));
  const auto clear = [&] {
    std::fill(piece.begin(), piece.end(), 0);
    for (size_t first = 0; first < words; first += piece.size())
      solver.restore_transposition(
          first, std::span<const uint64_t>(piece).first(std::min(piece.size(), words - first)));
  };
  for (size_t first = 0; first < words; first += piece.size()) {
    const std::span<uint64_t> part = std::span(piece).first(std::min(piece.size(), words - first));
    const Expected<bool> read = db::read_exactly(file->fd.get(), path, part.data(),
                                                 part.size_bytes(), first * sizeof(uint64_t));
    if (!read) {
      clear();
      return Error{read.error()};
    }
    sum.add(part);
    solver.restore_transposition(first, part);
  }
  db::drop_cached_pages(path);
  if (sum.hex() != checksum) {
    clear();
    return damaged(path, "its checksum differs from the one solve.json holds");
  }
  return true;
}

}  // namespace

Expected<db::WriterLock> lock_checkpoint_directory(const std::string& directory) {
  if (Expected<bool> made = db::make_directories(directory); !made) return Error{made.error()};
  return db::WriterLock::acquire(directory, "is solving into this checkpoint directory");
}

Expected<std::optional<SolveCheckpoint>> load_solve_checkpoint(const std::string& directory,
                                                               const Rules& rules,
                                                               const Position& position,
                                                               bool each_move, Solver& solver) {
  const std::string state_path = directory + "/" + kStateFile;
  Expected<db::PathKind> kind = db::path_kind(state_path);
  if (!kind) return Error{kind.error()};
  if (*kind == db::PathKind::Missing) return std::optional<SolveCheckpoint>();
  Expected<std::string> text = db::read_whole_file(state_path, kMaxStateBytes);
  if (!text) return Error{text.error()};
  SolveCheckpoint c;
  std::string table_file, checksum;
  uint64_t words = 0;
  try {
    const nlohmann::json j = nlohmann::json::parse(*text);
    if (j.at("format").get<int>() != kFormat)
      return damaged(state_path, fmt::format("format {}, this version reads {}",
                                             j.at("format").get<int>(), kFormat));
    c.game = j.at("game").get<std::string>();
    c.position = j.at("position").get<std::string>();
    c.each_move = j.at("each_move").get<bool>();
    c.seconds = j.at("seconds").get<double>();
    c.nodes = j.at("nodes").get<uint64_t>();
    if (!c.each_move) {
      c.lower = j.at("lower").get<int>();
      c.upper = j.at("upper").get<int>();
    } else {
      const nlohmann::json& each = j.at("moves");
      for (const nlohmann::json& m : each.at("done")) c.each.done.push_back(bounds_of(m));
      c.each.seconds_before_next = each.at("seconds_before_next").get<double>();
      c.each.seconds_on_next = each.at("seconds_on_next").get<double>();
      c.each.nodes_on_next = each.at("nodes_on_next").get<uint64_t>();
    }
    words = j.at("transposition").at("words").get<uint64_t>();
    table_file = j.at("transposition").at("file").get<std::string>();
    checksum = j.at("transposition").at("xxh3").get<std::string>();
  } catch (const std::exception& e) {
    return damaged(state_path, e.what());
  }
  const std::string asked = each_move ? "every move's bounds" : "the value";
  const std::string held = c.each_move ? "every move's bounds" : "the value";
  if (c.game != rules.name() || c.position != to_string(position) || c.each_move != each_move)
    return Error{
        fmt::format("{}: the checkpoint of another solve ({} of {} from {}); this one "
                    "asks for {} of {} from {} (another directory keeps both)",
                    db::shown_path(directory), held, c.game, c.position, asked, rules.name(),
                    to_string(position))};
  if (words != solver.transposition_words())
    return Error{
        fmt::format("{}: the checkpoint's transposition table holds {} MB; this solve's "
                    "holds {} MB (the same size is needed to go on from it)",
                    db::shown_path(directory), words * sizeof(uint64_t) >> 20,
                    solver.transposition_words() * sizeof(uint64_t) >> 20)};
  const MoveList moves = generate_moves(rules, position);
  bool moves_fit = c.each.done.size() <= static_cast<size_t>(moves.size());
  for (size_t i = 0; moves_fit && i < c.each.done.size(); ++i)
    moves_fit = c.each.done[i].move == moves[static_cast<int>(i)];
  if (!moves_fit) return damaged(state_path, "its moves are not this position's");
  if (table_file.find('/') != std::string::npos || table_file.empty())
    return damaged(state_path, "the table file it names is not in the directory");
  if (Expected<bool> restored =
          restore_table(directory + "/" + table_file, static_cast<size_t>(words), checksum, solver);
      !restored)
    return Error{restored.error()};
  return std::optional<SolveCheckpoint>(std::move(c));
}

Expected<bool> save_solve_checkpoint(const std::string& directory,
                                     const SolveCheckpoint& checkpoint, const Solver& solver) {
  if (Expected<bool> made = db::make_directories(directory); !made) return made;
  // The table file after the newest one there: the one solve.json names stays whole until the
  // new solve.json is in place.
  Expected<std::vector<std::string>> names = db::list_directory(directory);
  if (!names) return Error{names.error()};
  uint64_t number = 0;
  std::vector<std::string> older;
  for (const std::string& name : *names) {
    unsigned long long n = 0;
    char tail = 0;
    if (std::sscanf(name.c_str(), "transposition-%llu.bi%c", &n, &tail) == 2 && tail == 'n' &&
        name == table_file_name(n)) {
      older.push_back(name);
      number = std::max<uint64_t>(number, n + 1);
    }
  }
  const std::string table_file = table_file_name(number);
  Expected<db::AtomicFile> created = db::AtomicFile::create(directory + "/" + table_file);
  if (!created) return Error{created.error()};
  db::AtomicFile table = std::move(created).value();
  const size_t words = solver.transposition_words();
  std::vector<uint64_t> piece(std::min(words, kPieceWords));
  TableChecksum sum;
  for (size_t first = 0; first < words; first += piece.size()) {
    const std::span<uint64_t> part = std::span(piece).first(std::min(piece.size(), words - first));
    solver.copy_transposition(first, part);
    sum.add(part);
    if (Expected<bool> written = table.write(part.data(), part.size_bytes()); !written)
      return written;
  }
  if (Expected<bool> committed = table.commit(); !committed) return committed;
  // Written once and read only by a later run: its gigabytes should not push the tables' pages
  // out of the cache (commit has synced them, so the kernel can drop them).
  db::drop_cached_pages(directory + "/" + table_file);

  nlohmann::ordered_json j;  // in the order written: what the solve is, then where it stands
  j["format"] = kFormat;
  j["game"] = checkpoint.game;
  j["position"] = checkpoint.position;
  j["each_move"] = checkpoint.each_move;
  j["seconds"] = checkpoint.seconds;
  j["nodes"] = checkpoint.nodes;
  if (checkpoint.each_move) {
    nlohmann::ordered_json done = nlohmann::ordered_json::array();
    for (const MoveBounds& m : checkpoint.each.done) done.push_back(bounds_json(m));
    j["moves"] = {{"done", std::move(done)},
                  {"seconds_before_next", checkpoint.each.seconds_before_next},
                  {"seconds_on_next", checkpoint.each.seconds_on_next},
                  {"nodes_on_next", checkpoint.each.nodes_on_next}};
  } else {
    j["lower"] = checkpoint.lower;
    j["upper"] = checkpoint.upper;
  }
  j["transposition"] = {{"file", table_file}, {"words", words}, {"xxh3", sum.hex()}};
  if (Expected<bool> written =
          db::write_file_atomically(directory + "/" + kStateFile, j.dump(2) + "\n");
      !written)
    return written;
  for (const std::string& name : older)
    if (Expected<bool> removed = db::remove_file(directory + "/" + name); !removed) return removed;
  return true;
}

}  // namespace mancala::service
