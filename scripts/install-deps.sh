#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, only those that are missing.
#   (no argument)  everything: building, the Python module, the tests and their tools (scripts/test.sh)
#   --build-only   what building every part needs, without the test tools
#   --board        what the web board needs (scripts/run.sh): the `mancala` command alone, without
#                  MPI, Python or the manual pages, so that a fresh machine reaches a game quickly
set -euo pipefail
case "${1:-}" in
  "" | --build-only | --board) ;;
  *)
    echo "usage: $0 [--build-only | --board]" >&2
    exit 2
    ;;
esac
# The command: a compiler, CMake and Ninja (ccache keeps what they compiled for the next build),
# fmt, zstd, xxHash (the plain tables' block checksums), CLI11 (arguments); the web server:
# libmicrohttpd and nlohmann-json, and zlib and Brotli, which compress the web app's files at
# build time (gzip and br); esbuild joins its modules into one.
packages=(g++ cmake ninja-build ccache pkg-config libfmt-dev libzstd-dev libxxhash-dev libcli11-dev
  esbuild libmicrohttpd-dev nlohmann-json3-dev zlib1g-dev libbrotli-dev)
if [ "${1:-}" != --board ]; then
  # The distributed table build (db build --mpi) OpenMPI; the Python module (tools/python), its
  # tests and `pip install --no-build-isolation .` need Python's headers, pip, venv, setuptools,
  # NumPy, pytest and pybind11. The manual pages are written from the command's --help by
  # help2man.
  packages+=(libopenmpi-dev openmpi-bin python3-dev python3-pip python3-venv python3-setuptools
    python3-wheel python3-numpy python3-pytest pybind11-dev python3-pybind11 help2man)
  # The browser's engine (tools/wasm, scripts/build-wasm.sh): Debian's emscripten, with its
  # prebuilt C and C++ libraries, and Node.js, which runs its tools.
  packages+=(emscripten)
  command -v node >/dev/null || packages+=(nodejs)
fi
if [ -z "${1:-}" ]; then
  # The test suites: GoogleTest, and cpp-httplib as the HTTP client of the server's tests.
  packages+=(libgtest-dev libcpp-httplib-dev)
  # The web board's browser tests: Debian's Chromium, Node.js and npm (for playwright-core), and
  # fonts for the Thai and Japanese pages (Hebrew is in DejaVu). The server's load test: wrk.
  packages+=(chromium fonts-tlwg-loma fonts-ipafont-gothic wrk)
  # The fuzz targets (tests/fuzz): clang and its libFuzzer runtime.
  packages+=(clang libclang-rt-dev)
  # The installed tree's tests (tests/install): man to render the manual pages, zsh for its
  # completion, and for `cpack -G DEB` dpkg-shlibdeps (dpkg-dev) and file.
  packages+=(man-db zsh dpkg-dev file)
  # Node.js may come from elsewhere than Debian (with its own npm): only what is missing is added.
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  # The board's few packages without their recommendations: less to fetch on a fresh machine.
  recommends=()
  [ "${1:-}" != --board ] || recommends=(--no-install-recommends)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${recommends[@]}" "${missing[@]}"
fi
