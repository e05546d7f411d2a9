#!/usr/bin/env bash
# Installs every Debian package impactset needs to build and test, when missing.
# Idempotent: a machine that already has everything makes no apt call at all.
# Usage: scripts/install-deps.sh [--clang]  (--clang, or --fuzz, adds clang-14 with its sanitizer
# runtimes and libFuzzer, for scripts/run-sanitized-tests.sh and scripts/fuzz.sh; --plot is
# accepted for older instructions: matplotlib is always installed now, for scripts/plot_*.py and
# examples/python/)
set -euo pipefail

packages=(
  # toolchain
  g++ cmake make git pkg-config ca-certificates
  # libraries (README "Dependencies" says why each is here)
  libeigen3-dev libsiconos-numerics-dev libtbb-dev libqhull-dev libhdf5-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev libboost-dev
  libnanoflann-dev libsundials-dev
  # MuJoCo models as impact states (robots/; --mujoco) and its sample models (docs/mujoco.md)
  libmujoco-dev libmujoco-samples
  # Open MPI for `mpirun -n R impactset batch|run` (docs/cluster.md; optional at build time)
  libopenmpi-dev openmpi-bin
  # reference checks of the HDF5 files
  python3 python3-numpy python3-h5py
  # the Python module (python/), its tests and examples/python/ (plots by default)
  python3-dev pybind11-dev python3-pybind11 python3-pytest python3-sklearn python3-matplotlib
  # the files as labelled arrays (docs/dataset-format.md: xarray over h5netcdf) and its test
  python3-xarray python3-h5netcdf
  # tables (Summary.to_dict, Samples.to_dataframe), a batch over a dask.distributed cluster, the
  # PyTorch variant of the learning example
  python3-pandas python3-distributed python3-torch
  # `pip install --no-build-isolation .` and `pip wheel` (pyproject.toml) into a venv
  python3-venv python3-pip
)
if [[ " $* " == *" --clang "* || " $* " == *" --fuzz "* ]]; then
  # the sanitized build's compiler; libFuzzer, ASan and UBSan runtimes (docs/robustness.md)
  packages+=(clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then exit 0; fi

SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
