#!/usr/bin/env bash
# Fuzzing with libFuzzer: builds the targets of tests/fuzz with clang, AddressSanitizer and
# UndefinedBehaviorSanitizer in build-fuzz/, then runs each for SECONDS (default 300), as many at
# once as the machine has cores, from its seed corpus (tests/fuzz/corpus/TARGET/). New inputs the
# fuzzer finds go to build-fuzz/corpus/TARGET/ (copy the interesting ones into the seed corpus); a
# crash, a leak, a sanitizer report or a timeout is saved under build-fuzz/crashes/ and fails the
# script.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   scripts/fuzz.sh               every target, five minutes each
#   scripts/fuzz.sh 10            every target, 10 seconds each (what scripts/test.sh runs)
#   scripts/fuzz.sh 3600 fuzz_table_file_checksummed
# Replay one input: build-fuzz/tests/fuzz/TARGET FILE
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-300}"
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(fuzz_position fuzz_record fuzz_table_file fuzz_table_file_checksummed fuzz_command_line
           fuzz_engine_lines fuzz_serve_request fuzz_puzzle_library)
fi
# MANCALA_FUZZ_BUILD: another build directory configured with -DMANCALA_FUZZ=ON (scripts/test.sh
# passes its sanitized test build); by default build-fuzz/, configured here.
build="${MANCALA_FUZZ_BUILD:-$root/build-fuzz}"

if [ -z "${MANCALA_FUZZ_BUILD:-}" ]; then
  CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMANCALA_FUZZ=ON -DMANCALA_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target "${targets[@]}"

mkdir -p "$build/crashes"
# One target: its line of figures (or FAILED and the end of its log) into $build/$target.result.
fuzz_target() {
  local target="$1"
  local corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  local options=(-max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=0
                 -artifact_prefix="$build/crashes/$target-")
  case "$target" in
    fuzz_table_file*) options+=(-max_len=16384) ;;
    fuzz_command_line) options+=(-max_len=512 -close_fd_mask=3) ;;  # help text floods otherwise
    *) options+=(-max_len=4096) ;;
  esac
  local log="$build/$target.log"
  if ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
     UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
     "$build/tests/fuzz/$target" "${options[@]}" "$corpus" "$root/tests/fuzz/corpus/$target" \
     >"$log" 2>&1; then
    echo "$target: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)," \
         "corpus $(find "$corpus" -type f | wc -l) inputs" >"$build/$target.result"
  else
    { echo "$target: FAILED (log: $log)"; tail -n 40 "$log"; } >"$build/$target.result"
  fi
}
# As many targets at once as the machine has cores (each fuzzes on one), reported in order.
for target in "${targets[@]}"; do
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  fuzz_target "$target" &
done
wait
failed=0
for target in "${targets[@]}"; do
  cat "$build/$target.result"
  grep -q "^$target: FAILED" "$build/$target.result" && failed=1
done
exit "$failed"
