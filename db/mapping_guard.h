// Read-only file mappings that survive their file being truncated or rewritten under them.
//
// A table file is read through a shared mapping. If the file is truncated, or rewritten in place
// (not renamed: `cp` over it truncates it first), a read from a page beyond its new end raises
// SIGBUS, which would kill the process. Each GuardedMapping is registered in a process-wide
// table; a SIGBUS handler (installed once, with sigaction and SA_SIGINFO) looks the faulting
// address up there and, when it lies in a registered mapping, marks that mapping damaged (an
// atomic flag), maps an anonymous zero page over the faulting page (mmap MAP_FIXED) and returns,
// so the read completes with zeros. Every reader checks damaged() after reading and turns the
// read into a failure. A SIGBUS anywhere else goes to the handler that was installed before
// (the sanitizers have one), or gets the default action (the process dies, as without this).
//
// Why not pread instead: a probe of a plain layer is one byte read in place from the page cache;
// a system call per probe would cost several times the probe (db/README.md, "Trust").
//
// The handler uses only lock-free atomics and mmap (a system call the kernel runs for a signal
// handler as for anything else). The registry has kMaxMappings slots; opening more table files
// at once than that is an error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "solver/util/expected.h"

namespace mancala::db {

class GuardedMapping {
 public:
  static constexpr size_t kMaxMappings = 4096;

  // Maps `size` bytes of `fd` read-only (MAP_SHARED) and registers the mapping; with `writable`,
  // for writing too (a scratch file being filled: a page that faults then takes the write into
  // the zero page put in its place, and damaged() says so).
  static Expected<GuardedMapping> map(int fd, size_t size, const std::string& path,
                                      bool writable = false);

  GuardedMapping() = default;
  GuardedMapping(GuardedMapping&& other) noexcept;
  GuardedMapping& operator=(GuardedMapping&& other) noexcept;
  GuardedMapping(const GuardedMapping&) = delete;
  GuardedMapping& operator=(const GuardedMapping&) = delete;
  ~GuardedMapping();

  const uint8_t* data() const { return data_; }
  // The bytes to write, of a mapping made writable (nullptr otherwise).
  uint8_t* writable_data() const { return writable_ ? const_cast<uint8_t*>(data_) : nullptr; }
  size_t size() const { return size_; }
  // True once a read of the mapping faulted: its file changed size under it. What was read from
  // it since may be zeros, not the file's bytes. Sticky.
  bool damaged() const;

 private:
  void release();

  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool writable_ = false;
  int slot_ = -1;
};

// SIGBUS faults turned into damaged mappings since the process started (for tests).
uint64_t guarded_faults();

}  // namespace mancala::db
