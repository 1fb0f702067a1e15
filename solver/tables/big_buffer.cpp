#include "solver/tables/big_buffer.h"

#include <new>
#include <utility>

#include <sys/mman.h>

namespace mancala {

namespace {
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kSmallPage = 4096;
}  // namespace

BigBuffer::BigBuffer(size_t bytes, bool touch) : bytes_(bytes) {
  if (bytes == 0) return;
  // One huge page more than asked, so that the buffer can start on a 2 MB boundary.
  mapping_bytes_ = bytes + kHugePage;
  void* memory = ::mmap(nullptr, mapping_bytes_, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  mapping_ = memory;
  const uintptr_t start = (reinterpret_cast<uintptr_t>(memory) + kHugePage - 1) & ~(kHugePage - 1);
  data_ = reinterpret_cast<void*>(start);
  // Advice only: where transparent huge pages are off, the buffer has 4 KB pages.
  ::madvise(data_, bytes_, MADV_HUGEPAGE);
  if (touch) {
    // A write per 4 KB page faults every page in (one fault per huge page where there are some).
    volatile char* bytes_at = static_cast<volatile char*>(data_);
    for (size_t offset = 0; offset < bytes_; offset += kSmallPage) bytes_at[offset] = 0;
  }
}

BigBuffer::~BigBuffer() {
  release();
}

void BigBuffer::release() {
  if (mapping_) ::munmap(mapping_, mapping_bytes_);
  mapping_ = data_ = nullptr;
  mapping_bytes_ = bytes_ = 0;
}

BigBuffer::BigBuffer(BigBuffer&& other) noexcept {
  *this = std::move(other);
}

BigBuffer& BigBuffer::operator=(BigBuffer&& other) noexcept {
  if (this != &other) {
    release();
    std::swap(mapping_, other.mapping_);
    std::swap(mapping_bytes_, other.mapping_bytes_);
    std::swap(data_, other.data_);
    std::swap(bytes_, other.bytes_);
  }
  return *this;
}

}  // namespace mancala
