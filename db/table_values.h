// The endgame tables as the search's source of exact values.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "db/table_set.h"
#include "solver/search.h"

namespace mancala::db {

class TableValues : public ExactValues {
 public:
  explicit TableValues(std::shared_ptr<const TableSet> tables) : tables_(std::move(tables)) {}

  // The table value where the tables cover the position; nullopt otherwise. A probe that fails
  // (a corrupt or missing layer) also gives nullopt, so the search goes on without it; the
  // failure is counted and its message kept.
  std::optional<int> value(const Position& position) const override {
    const int seeds = position.seeds_in_houses(Side::South) + position.seeds_in_houses(Side::North);
    if (seeds > tables_->max_seeds()) return std::nullopt;
    ProbeResult r = tables_->probe_key(seeds, table_key(position));
    if (r.ok()) return r.value;
    if (failures_.fetch_add(1) == 0) first_failure_ = r.message;
    return std::nullopt;
  }

  const TableSet& tables() const { return *tables_; }
  uint64_t failures() const { return failures_.load(); }
  const std::string& first_failure() const { return first_failure_; }

 private:
  std::shared_ptr<const TableSet> tables_;
  mutable std::atomic<uint64_t> failures_{0};
  mutable std::string first_failure_;
};

}  // namespace mancala::db
