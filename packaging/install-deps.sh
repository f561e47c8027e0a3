#!/usr/bin/env bash
# Installs the Debian 12 packages named in the given lists (default: packaging/debian-build-deps.txt), only
# those missing, as root or through sudo. nvcc (CUDA Toolkit) is not a Debian package here: it is expected
# at /usr/local/cuda and optional — without it, compile-only checks of CUDA sources say that nvcc is missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
lists=("$@")
((${#lists[@]})) || lists=("$here/debian-build-deps.txt")
packages=()
for list in "${lists[@]}"; do
  while read -r p; do packages+=("$p"); done < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$list")
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo: install ${missing[*]} as root" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
