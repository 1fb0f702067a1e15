#include "db/mapping_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace mancala::db {

namespace {

// One registered mapping. `begin` is written last when a slot is filled and first when it is
// emptied, so the handler never sees a slot half filled: begin != 0 means [begin, end) is live.
struct Slot {
  std::atomic<uintptr_t> begin{0};
  std::atomic<uintptr_t> end{0};
  std::atomic<uint8_t> damaged{0};
  std::atomic<uint8_t> taken{0};
  std::atomic<uint8_t> writable{0};  // the zero page put in place of a page must take writes
};
static_assert(std::atomic<uintptr_t>::is_always_lock_free, "the handler needs lock-free atomics");
static_assert(std::atomic<uint8_t>::is_always_lock_free, "the handler needs lock-free atomics");

Slot slots[GuardedMapping::kMaxMappings];
std::atomic<uint64_t> faults{0};
uintptr_t page_size = 4096;
struct sigaction previous_action {};
std::once_flag install_once;

void pass_on(int signal, siginfo_t* info, void* context) {
  if (previous_action.sa_flags & SA_SIGINFO) {
    if (previous_action.sa_sigaction) {
      previous_action.sa_sigaction(signal, info, context);
      return;
    }
  } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
    previous_action.sa_handler(signal);
    return;
  }
  // The default action: a fault returns to the faulting instruction, which faults again and now
  // kills the process as it would have without this handler; a SIGBUS sent by kill is raised
  // again.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(SIGBUS, &default_action, nullptr);
  if (info->si_code <= 0) raise(SIGBUS);
}

void on_sigbus(int signal, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  if (info->si_code > 0) {  // raised by the kernel for a fault, not sent by a process
    for (Slot& slot : slots) {
      const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
      if (begin == 0 || address < begin || address >= slot.end.load(std::memory_order_acquire))
        continue;
      // The flag first: a thread that reads the zero page after it must also see the flag.
      slot.damaged.store(1, std::memory_order_seq_cst);
      faults.fetch_add(1, std::memory_order_relaxed);
      void* page = reinterpret_cast<void*>(address & ~(page_size - 1));
      const int protection =
          slot.writable.load(std::memory_order_acquire) ? PROT_READ | PROT_WRITE : PROT_READ;
      if (::mmap(page, page_size, protection, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) !=
          MAP_FAILED) {
        errno = saved_errno;
        return;
      }
      break;
    }
  }
  errno = saved_errno;
  pass_on(signal, info, context);
}

void install_handler() {
  page_size = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &previous_action);
}

}  // namespace

Expected<GuardedMapping> GuardedMapping::map(int fd, size_t size, const std::string& path,
                                             bool writable) {
  std::call_once(install_once, install_handler);
  int slot = -1;
  for (size_t i = 0; i < kMaxMappings && slot < 0; ++i) {
    uint8_t free = 0;
    if (slots[i].taken.compare_exchange_strong(free, 1)) slot = static_cast<int>(i);
  }
  if (slot < 0)
    return Error{path + ": cannot map: more than " + std::to_string(kMaxMappings) +
                 " table files open at once"};
  void* map =
      ::mmap(nullptr, size, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    const int error = errno;
    slots[slot].taken.store(0);
    return Error{path + ": cannot map: " + std::strerror(error)};
  }
  Slot& s = slots[slot];
  s.damaged.store(0);
  s.writable.store(writable ? 1 : 0, std::memory_order_release);
  s.end.store(reinterpret_cast<uintptr_t>(map) + size, std::memory_order_release);
  s.begin.store(reinterpret_cast<uintptr_t>(map), std::memory_order_release);
  GuardedMapping mapping;
  mapping.data_ = static_cast<const uint8_t*>(map);
  mapping.size_ = size;
  mapping.slot_ = slot;
  mapping.writable_ = writable;
  return mapping;
}

GuardedMapping::GuardedMapping(GuardedMapping&& other) noexcept
    : data_(other.data_), size_(other.size_), writable_(other.writable_), slot_(other.slot_) {
  other.data_ = nullptr;
  other.size_ = 0;
  other.slot_ = -1;
}

GuardedMapping& GuardedMapping::operator=(GuardedMapping&& other) noexcept {
  if (this != &other) {
    release();
    data_ = other.data_;
    size_ = other.size_;
    writable_ = other.writable_;
    slot_ = other.slot_;
    other.data_ = nullptr;
    other.size_ = 0;
    other.slot_ = -1;
  }
  return *this;
}

GuardedMapping::~GuardedMapping() {
  release();
}

void GuardedMapping::release() {
  if (slot_ >= 0) {
    Slot& s = slots[slot_];
    s.begin.store(0, std::memory_order_release);
    s.end.store(0, std::memory_order_release);
    s.taken.store(0, std::memory_order_release);
  }
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
  slot_ = -1;
}

bool GuardedMapping::damaged() const {
  return slot_ >= 0 && slots[slot_].damaged.load(std::memory_order_acquire) != 0;
}

uint64_t guarded_faults() {
  return faults.load();
}

}  // namespace mancala::db
