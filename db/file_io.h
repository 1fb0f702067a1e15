// Every filesystem operation of db/ and tools/ goes through this file, so that none of them can
// throw, hang or read without bound (a test checks that nothing else in db/ or tools/ uses
// <filesystem>, fstream or stdio files):
//   - every failure is an Error naming the path and the system's reason ("Permission denied",
//     "Too many levels of symbolic links"), never an exception;
//   - files are opened for reading without blocking (O_NONBLOCK) and must be regular files, so a
//     FIFO, a device or a directory in place of a file is an error, not a wait;
//   - inputs read whole are read through one reader with a size cap;
//   - outputs are written through one atomic writer: a temporary file in the same directory,
//     written, synced and closed with every step checked, then renamed over the target and the
//     directory synced; a full disk or a crash leaves the old file (or none), never a truncated
//     one. Writing to an existing non-regular file (/dev/null, a terminal) writes to it directly,
//     still checked.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "db/mapping_guard.h"
#include "solver/util/expected.h"

namespace mancala::db {

// A path as messages show it: control bytes (a line feed, ESC) escaped as \xNN, so that a path
// given by a user (MANCALA_DB, --db) cannot add a line to an error or drive a terminal; '' when
// empty. Every message that names a file or a directory of the store shows it so.
std::string shown_path(std::string_view path);

// What is at a path, following symbolic links.
enum class PathKind : uint8_t {
  Missing,  // nothing there (or a component of the path is not a directory)
  Regular,
  Directory,
  Other,  // a FIFO, a socket, a device, a symbolic link loop
};

// What is at `path`. Failures other than "nothing there" (no permission to look, a symbolic link
// loop, an I/O error) are errors.
Expected<PathKind> path_kind(const std::string& path);

// The names in a directory (without . and ..), sorted.
Expected<std::vector<std::string>> list_directory(const std::string& path);

// Creates `path` and its missing parents; an existing directory is fine.
Expected<bool> make_directories(const std::string& path);

// Removes a file; a missing one is fine.
Expected<bool> remove_file(const std::string& path);

// A file descriptor that closes itself.
class FileDescriptor {
 public:
  FileDescriptor() = default;
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor();
  FileDescriptor(FileDescriptor&& other) noexcept : fd_(other.release()) {}
  FileDescriptor& operator=(FileDescriptor&& other) noexcept;
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;

  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

 private:
  int fd_ = -1;
};

// A regular file opened read-only. The open never blocks (a FIFO in the file's place has no
// writer to wait for) and anything but a regular file is refused. `size` is its size then.
struct OpenedFile {
  FileDescriptor fd;
  uint64_t size = 0;
};
Expected<OpenedFile> open_regular_file(const std::string& path);

// Reads the whole of a regular file of at most `max_bytes` bytes. The cap is what keeps an input
// such as /dev/zero or a huge file from using up memory (/dev/zero is refused anyway: not a
// regular file).
Expected<std::string> read_whole_file(const std::string& path, size_t max_bytes);

// Reads exactly `size` bytes at `offset`.
Expected<bool> read_exactly(int fd, const std::string& path, void* out, size_t size,
                            uint64_t offset);

// A file written atomically: created under a temporary name next to `path` (so that a path whose
// directory cannot be written fails at create, before any work), filled by write(), and put in
// place by commit(). Dropped without commit, it removes its temporary file. Not thread-safe.
class AtomicFile {
 public:
  static Expected<AtomicFile> create(const std::string& path);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();

  const std::string& path() const { return path_; }
  // The temporary file's name (for a writer that reads its file back before committing it).
  const std::string& temporary_path() const { return temporary_; }
  Expected<bool> write(const void* data, size_t size);
  Expected<bool> write(std::string_view text) { return write(text.data(), text.size()); }
  // Syncs what was written to the disk (a writer that reads its file back before committing it
  // syncs first).
  Expected<bool> sync();
  // Syncs and closes the temporary file, renames it over the target and syncs the directory.
  // Any failure (a full disk, an I/O error) is an error, and the target is left as it was.
  Expected<bool> commit();

 private:
  AtomicFile() = default;
  void discard();

  std::string path_;       // the target
  std::string temporary_;  // empty when writing straight to a non-regular target
  FileDescriptor fd_;
  std::string error_;  // the first write error, reported again by commit
};

// Writes `bytes` to `path` with an AtomicFile.
Expected<bool> write_file_atomically(const std::string& path, std::string_view bytes);

// Removes the temporary files AtomicFile left behind in `directory` for targets named
// `prefix`* (after a crash or a kill -9). Only safe while holding the directory's WriterLock.
void remove_stale_temporaries(const std::string& directory, const std::string& prefix);

// An exclusive lock on a directory for the processes that write into it (`db build`, `db unpack`):
// a second writer fails at once with a clear message instead of racing the first. Readers take
// no lock: writers only ever rename complete, checked files into place. Held until destroyed
// (and released by the kernel if the process dies).
class WriterLock {
 public:
  // `what` names the work a second writer is told is going on.
  static Expected<WriterLock> acquire(
      const std::string& directory,
      std::string_view what = "is writing these tables (db build or db unpack)");

 private:
  FileDescriptor fd_;
};

// A read-only mapping of a copy of `bytes`, held in a file without a name in `directory`
// (O_TMPFILE where the file system has it, else a file removed as soon as it is created). Its
// pages are the kernel's to drop and read back from disk under memory pressure, which memory of
// the process's own is not (there is no swap to speak of on the machines that build tables), and
// nothing is left on disk once the mapping goes, even when the process is killed.
Expected<std::shared_ptr<const GuardedMapping>> map_unnamed_copy(const std::string& directory,
                                                                 std::span<const uint8_t> bytes);
// The same, of `size` bytes given in pieces: `pieces(emit)` calls emit(piece) for each in order
// (they are written through a buffer: many small pieces cost no system call each).
using EmitBytes = std::function<void(std::span<const uint8_t>)>;
Expected<std::shared_ptr<const GuardedMapping>> map_unnamed_copy(
    const std::string& directory, uint64_t size,
    const std::function<void(const EmitBytes& emit)>& pieces);

// A scratch file of `size` bytes (zeros) in `directory`, unnamed as map_unnamed_copy's, mapped
// for writing (GuardedMapping::writable_data) and reading: a layer built in place there (its
// disk allocated up front, so that a full disk is this error, not a fault in mid-build).
Expected<std::shared_ptr<const GuardedMapping>> map_unnamed_file(const std::string& directory,
                                                                 uint64_t size);

// The name of a lock file in a directory (ignored by every reader).
inline constexpr const char* kLockFileName = ".mancala-writer.lock";

// Asks the kernel to drop `path`'s pages from its page cache, best effort (nothing is reported):
// for a large file written or read once (a solve's checkpoint), whose pages would otherwise push
// out those read again and again (the endgame tables' mapped files). Pages not yet written back
// stay.
void drop_cached_pages(const std::string& path);

// The system's description of errno `error`.
std::string system_error_text(int error);

}  // namespace mancala::db
