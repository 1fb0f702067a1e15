// Atomic operations on a plain object (a byte of a table, a word of a transposition table):
// std::atomic_ref where the standard library has it. The WebAssembly build's libc++ (emscripten's,
// before LLVM 19) has none: there the same operations, those the project uses, go to the
// compiler's __atomic builtins (GCC and clang), which are what std::atomic_ref is made of in both
// libraries. memory_order's values are the builtins' __ATOMIC_ constants in both.
#pragma once

#include <atomic>

namespace mancala {

#if defined(__cpp_lib_atomic_ref)

template <class T>
using AtomicRef = std::atomic_ref<T>;

#else

template <class T>
class AtomicRef {
 public:
  explicit AtomicRef(T& object) : object_(&object) {}

  std::remove_const_t<T> load(std::memory_order order = std::memory_order_seq_cst) const {
    return __atomic_load_n(object_, static_cast<int>(order));
  }
  void store(std::remove_const_t<T> value,
             std::memory_order order = std::memory_order_seq_cst) const {
    __atomic_store_n(object_, value, static_cast<int>(order));
  }
  T fetch_sub(T value, std::memory_order order = std::memory_order_seq_cst) const {
    return __atomic_fetch_sub(object_, value, static_cast<int>(order));
  }
  bool compare_exchange_strong(T& expected, T desired,
                               std::memory_order order = std::memory_order_seq_cst) const {
    return __atomic_compare_exchange_n(object_, &expected, desired, false, static_cast<int>(order),
                                       static_cast<int>(order));
  }

 private:
  T* object_;
};

#endif

}  // namespace mancala
