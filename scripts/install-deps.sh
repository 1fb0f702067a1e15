#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those that are missing.
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config libfmt-dev libzstd-dev libcli11-dev libgtest-dev
  # The Python module (tools/python), its tests and `pip install --no-build-isolation .`
  python3-dev python3-pip python3-venv python3-setuptools python3-wheel python3-numpy
  python3-pytest pybind11-dev python3-pybind11)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
