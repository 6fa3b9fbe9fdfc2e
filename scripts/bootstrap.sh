#!/usr/bin/env bash
# Install the Debian 12 packages that fanout's build, demo and tests need.
# Idempotent: installs only what is missing; does nothing (and needs no root) when all is there.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  zlib1g-dev libjansson-dev libxxhash-dev librandom123-dev
  libhwloc-dev libmetis-dev
  libopenmpi-dev openmpi-bin
  libcmocka-dev
  iproute2 iptables iputils-ping libnetfilter-queue-dev
  clang libclang-rt-14-dev
  python3 python3-numpy python3-dev python3-pytest python3-torch
  python3-mpi4py python3-venv python3-pip python3-setuptools python3-wheel
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "bootstrap: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "bootstrap: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
