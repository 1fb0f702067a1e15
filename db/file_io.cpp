#include "db/file_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "solver/util/escape.h"

namespace mancala::db {

std::string shown_path(std::string_view path) {
  return path.empty() ? "''" : escape_control_bytes(path);
}

namespace {

Error path_error(const std::string& path, const std::string& what, int error) {
  return Error{shown_path(path) + ": " + what + (error ? ": " + system_error_text(error) : "")};
}

std::string directory_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The permissions a new file gets: 0666 less the umask. (The umask can only be read by setting
// it; it is set back at once, and only the first call does it.)
mode_t new_file_mode() {
  static const mode_t mode = [] {
    const mode_t mask = ::umask(022);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

bool write_all(int fd, const void* data, size_t size, int& error) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (size) {
    const ssize_t n = ::write(fd, p, std::min<size_t>(size, size_t{1} << 30));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = n < 0 ? errno : ENOSPC;
      return false;
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

std::string system_error_text(int error) {
  return std::strerror(error);
}

FileDescriptor::~FileDescriptor() {
  if (fd_ >= 0) ::close(fd_);
}

FileDescriptor& FileDescriptor::operator=(FileDescriptor&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

Expected<PathKind> path_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return PathKind::Missing;
    // A symbolic link loop is something there that is not a file: opening it says what it is.
    if (errno == ELOOP) return PathKind::Other;
    return path_error(path, "cannot access", errno);
  }
  if (S_ISREG(st.st_mode)) return PathKind::Regular;
  if (S_ISDIR(st.st_mode)) return PathKind::Directory;
  return PathKind::Other;
}

Expected<std::vector<std::string>> list_directory(const std::string& path) {
  DIR* dir = ::opendir(path.c_str());
  if (!dir) return path_error(path, "cannot list the directory", errno);
  std::vector<std::string> names;
  while (true) {
    errno = 0;
    const dirent* entry = ::readdir(dir);
    if (!entry) break;
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  const int error = errno;
  ::closedir(dir);
  if (error) return path_error(path, "cannot list the directory", error);
  std::sort(names.begin(), names.end());
  return names;
}

Expected<bool> make_directories(const std::string& path) {
  if (path.empty()) return Error{"'': an empty directory name"};
  for (size_t at = path.find('/', 1);; at = path.find('/', at + 1)) {
    const std::string prefix = at == std::string::npos ? path : path.substr(0, at);
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      return path_error(prefix, "cannot create the directory", errno);
    if (at == std::string::npos) break;
  }
  Expected<PathKind> kind = path_kind(path);
  if (!kind) return Error{kind.error()};
  if (*kind != PathKind::Directory) return path_error(path, "exists and is not a directory", 0);
  return true;
}

Expected<bool> remove_file(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return path_error(path, "cannot remove", errno);
  return true;
}

Expected<OpenedFile> open_regular_file(const std::string& path) {
  if (path.empty()) return Error{"'': an empty file name"};
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) {
    const int error = errno;
    if (error == ENOENT) return path_error(path, "no such file", 0);
    return path_error(path, "cannot open", error);
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return path_error(path, "cannot access", errno);
  if (S_ISDIR(st.st_mode)) return path_error(path, "is a directory, not a file", 0);
  if (!S_ISREG(st.st_mode))
    return path_error(path, "is not a regular file (a FIFO, a socket or a device)", 0);
  // Regular files never block; reads are plain blocking reads from here on.
  ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
  return OpenedFile{std::move(fd), static_cast<uint64_t>(st.st_size)};
}

Expected<bool> read_exactly(int fd, const std::string& path, void* out, size_t size,
                            uint64_t offset) {
  auto* p = static_cast<uint8_t*>(out);
  while (size) {
    const ssize_t n =
        ::pread(fd, p, std::min<size_t>(size, size_t{1} << 30), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return path_error(path, "cannot read", errno);
    if (n == 0) return path_error(path, "truncated (shorter than it says)", 0);
    p += n;
    offset += static_cast<uint64_t>(n);
    size -= static_cast<size_t>(n);
  }
  return true;
}

Expected<std::string> read_whole_file(const std::string& path, size_t max_bytes) {
  Expected<OpenedFile> file = open_regular_file(path);
  if (!file) return Error{file.error()};
  if (file->size > max_bytes)
    return path_error(path,
                      "too large (" + std::to_string(file->size) + " bytes; at most " +
                          std::to_string(max_bytes) + " are read)",
                      0);
  // Read until the end, one byte past the cap at most: the file may have grown since fstat.
  std::string text;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(file->fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return path_error(path, "cannot read", errno);
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > max_bytes)
      return path_error(path, "too large (more than " + std::to_string(max_bytes) + " bytes)", 0);
    text.append(buffer, static_cast<size_t>(n));
  }
  return text;
}

Expected<AtomicFile> AtomicFile::create(const std::string& path) {
  if (path.empty()) return Error{"'': an empty file name"};
  AtomicFile file;
  file.path_ = path;
  // A symbolic link is followed: the file it names is replaced, not the link.
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved)) file.path_ = resolved;
  }
  struct stat st {};
  const bool exists = ::stat(file.path_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return path_error(path, "is a directory, not a file", 0);
  if (exists && !S_ISREG(st.st_mode)) {
    // A device, a terminal or a FIFO: written to as it is (nothing to rename), every write and
    // the close still checked. O_NONBLOCK: a FIFO without a reader fails instead of waiting.
    FileDescriptor fd(::open(file.path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (fd.get() < 0) return path_error(path, "cannot open for writing", errno);
    ::fcntl(fd.get(), F_SETFL, ::fcntl(fd.get(), F_GETFL) & ~O_NONBLOCK);
    file.fd_ = std::move(fd);
    return file;
  }
  std::string name = file.path_ + ".tmp-XXXXXX";
  FileDescriptor fd(::mkostemp(name.data(), O_CLOEXEC));
  if (fd.get() < 0)
    return path_error(path, "cannot create a file in " + directory_of(file.path_), errno);
  file.temporary_ = name;
  file.fd_ = std::move(fd);
  // mkostemp makes the file private (0600); it gets the target's permissions, or a new file's.
  ::fchmod(file.fd_.get(), exists ? (st.st_mode & 07777) : new_file_mode());
  return file;
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : path_(std::move(other.path_)),
      temporary_(std::move(other.temporary_)),
      fd_(std::move(other.fd_)),
      error_(std::move(other.error_)) {
  other.temporary_.clear();
}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    discard();
    path_ = std::move(other.path_);
    temporary_ = std::move(other.temporary_);
    fd_ = std::move(other.fd_);
    error_ = std::move(other.error_);
    other.temporary_.clear();
  }
  return *this;
}

AtomicFile::~AtomicFile() {
  discard();
}

void AtomicFile::discard() {
  fd_ = FileDescriptor();
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
  temporary_.clear();
}

Expected<bool> AtomicFile::write(const void* data, size_t size) {
  if (!error_.empty()) return Error{error_};
  if (fd_.get() < 0) return Error{path_ + ": already closed"};
  int error = 0;
  if (!write_all(fd_.get(), data, size, error)) {
    error_ = path_error(path_, "cannot write", error).message +
             (temporary_.empty() ? "" : " (nothing was changed)");
    return Error{error_};
  }
  return true;
}

Expected<bool> AtomicFile::sync() {
  if (!error_.empty()) return Error{error_};
  if (fd_.get() < 0) return Error{path_ + ": already closed"};
  if (!temporary_.empty() && ::fsync(fd_.get()) != 0) {
    error_ = path_error(path_, "cannot write", errno).message + " (nothing was changed)";
    return Error{error_};
  }
  return true;
}

Expected<bool> AtomicFile::commit() {
  if (!error_.empty()) {
    discard();
    return Error{error_};
  }
  if (fd_.get() < 0) return Error{path_ + ": already closed"};
  const bool regular = !temporary_.empty();
  // Data first, then the name: after a crash the target is the old file or the whole new one.
  if (regular && ::fsync(fd_.get()) != 0) {
    const int error = errno;
    discard();
    return Error{path_error(path_, "cannot write", error).message + " (nothing was changed)"};
  }
  const int fd = fd_.release();
  if (::close(fd) != 0) {
    const int error = errno;
    discard();
    return Error{path_error(path_, "cannot write", error).message +
                 (regular ? " (nothing was changed)" : "")};
  }
  if (!regular) return true;
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    discard();
    return Error{path_error(path_, "cannot put the new file in place", error).message};
  }
  temporary_.clear();
  // The rename is durable once the directory is synced. (Some file systems cannot sync a
  // directory; the file itself is already complete, so that is not an error.)
  FileDescriptor directory(::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() >= 0) ::fsync(directory.get());
  return true;
}

Expected<bool> write_file_atomically(const std::string& path, std::string_view bytes) {
  Expected<AtomicFile> file = AtomicFile::create(path);
  if (!file) return Error{file.error()};
  AtomicFile out = std::move(file.value());
  Expected<bool> written = out.write(bytes);
  if (!written) return written;
  return out.commit();
}

void remove_stale_temporaries(const std::string& directory, const std::string& prefix) {
  Expected<std::vector<std::string>> names = list_directory(directory);
  if (!names) return;
  for (const std::string& name : *names) {
    if (name.rfind(prefix, 0) != 0) continue;
    const bool temporary = name.find(".tmp-") != std::string::npos ||
                           (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0);
    if (temporary) ::unlink((directory + "/" + name).c_str());
  }
}

void drop_cached_pages(const std::string& path) {
  const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
  if (fd.get() >= 0) ::posix_fadvise(fd.get(), 0, 0, POSIX_FADV_DONTNEED);
}

Expected<WriterLock> WriterLock::acquire(const std::string& directory, std::string_view what) {
  const std::string path = directory + "/" + kLockFileName;
  FileDescriptor fd(
      ::open(path.c_str(), O_RDWR | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, new_file_mode()));
  if (fd.get() < 0) return path_error(path, "cannot create the lock file", errno);
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return path_error(path, "cannot lock", errno);
    char pid[32] = {};
    const ssize_t n = ::pread(fd.get(), pid, sizeof pid - 1, 0);
    const std::string holder =
        n > 0 ? " (process " + std::string(pid, static_cast<size_t>(n)) + ")" : "";
    return Error{directory + ": another mancala process" + holder + " " + std::string(what) +
                 "; try again when it has finished"};
  }
  const std::string pid = std::to_string(::getpid());
  // Who holds it, for the message a second writer gets (best effort: the lock is what counts).
  if (::ftruncate(fd.get(), 0) == 0 && ::pwrite(fd.get(), pid.data(), pid.size(), 0) < 0) {
  }
  WriterLock lock;
  lock.fd_ = std::move(fd);
  return lock;
}

namespace {

// A new file in `directory` with no name (gone with its last descriptor and mapping).
Expected<FileDescriptor> unnamed_scratch_file(const std::string& directory) {
  FileDescriptor fd(::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (fd.get() < 0) {
    // Some file systems have no O_TMPFILE (EOPNOTSUPP, or EISDIR from kernels that predate it):
    // a named file, unnamed at once.
    std::string name = directory + "/.mancala-scratch-XXXXXX";
    fd = FileDescriptor(::mkostemp(name.data(), O_CLOEXEC));
    if (fd.get() < 0) return path_error(directory, "cannot create a scratch file", errno);
    ::unlink(name.c_str());
  }
  return fd;
}

}  // namespace

Expected<std::shared_ptr<const GuardedMapping>> map_unnamed_file(const std::string& directory,
                                                                 uint64_t size) {
  if (size == 0) return Error{shown_path(directory) + ": nothing to map"};
  Expected<FileDescriptor> fd = unnamed_scratch_file(directory);
  if (!fd) return Error{fd.error()};
  // The disk is taken now, all of it: a page first written through the mapping on a full disk
  // would otherwise fault (SIGBUS) in the middle of the build.
  if (const int error = ::posix_fallocate(fd->get(), 0, static_cast<off_t>(size)); error != 0)
    return path_error(directory, "cannot make a scratch file of " + std::to_string(size) + " bytes",
                      error);
  Expected<GuardedMapping> mapping = GuardedMapping::map(fd->get(), size, directory, true);
  if (!mapping) return Error{mapping.error()};
  return std::make_shared<const GuardedMapping>(std::move(mapping).value());
}

Expected<std::shared_ptr<const GuardedMapping>> map_unnamed_copy(const std::string& directory,
                                                                 std::span<const uint8_t> bytes) {
  return map_unnamed_copy(directory, bytes.size(), [bytes](const EmitBytes& emit) { emit(bytes); });
}

Expected<std::shared_ptr<const GuardedMapping>> map_unnamed_copy(
    const std::string& directory, uint64_t size,
    const std::function<void(const EmitBytes& emit)>& pieces) {
  if (size == 0) return Error{shown_path(directory) + ": nothing to map"};
  Expected<FileDescriptor> created = unnamed_scratch_file(directory);
  if (!created) return Error{created.error()};
  FileDescriptor fd = std::move(created).value();
  // Pieces are gathered into a buffer and written a buffer at a time; a piece as large as the
  // buffer goes straight to the file.
  constexpr size_t kBuffer = size_t{4} << 20;
  std::vector<uint8_t> buffer;
  buffer.reserve(kBuffer);
  int error = 0;
  uint64_t written = 0;
  const auto flush = [&] {
    if (!buffer.empty() && error == 0 && write_all(fd.get(), buffer.data(), buffer.size(), error))
      written += buffer.size();
    buffer.clear();
  };
  pieces([&](std::span<const uint8_t> piece) {
    if (error != 0) return;
    if (buffer.size() + piece.size() > kBuffer) flush();
    if (piece.size() >= kBuffer) {
      if (error == 0 && write_all(fd.get(), piece.data(), piece.size(), error))
        written += piece.size();
    } else {
      buffer.insert(buffer.end(), piece.begin(), piece.end());
    }
  });
  flush();
  if (error != 0) return path_error(directory, "cannot write a scratch file", error);
  if (written != size)
    return Error{shown_path(directory) + ": a scratch file of " + std::to_string(size) +
                 " bytes was given " + std::to_string(written)};
  Expected<GuardedMapping> mapping = GuardedMapping::map(fd.get(), size, directory);
  if (!mapping) return Error{mapping.error()};
  return std::make_shared<const GuardedMapping>(std::move(mapping).value());
}

}  // namespace mancala::db
