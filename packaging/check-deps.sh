#!/usr/bin/env bash
# Checks, after a configure, that the install list is complete: every CMake package the configure step
# found (the *_DIR entries of the cache) and every file our own find_* calls found (KS_FOUND_FILES) belongs
# to a Debian package that the list pulls in as a hard dependency (`apt-cache depends --recurse
# --no-recommends`). A package that is merely installed on this machine does not count: that is how CI
# passed while a fresh machine failed (Qt6Charts needs libqt6opengl6-dev, which qt6-charts-dev does not
# depend on).
#   bash packaging/check-deps.sh [BUILD_DIR] [--list FILE]...   (default: build, packaging/debian-build-deps.txt;
#   several lists count as one, e.g. the build and test lists for the fuzz tree)
# Exit 0 when every one is covered, 1 naming each that is not, 2 when it cannot check.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build=build
lists=()
while (($#)); do
  case "$1" in
    --list) lists+=("$2"); shift 2 ;;
    *) build="$1"; shift ;;
  esac
done
cache="$build/CMakeCache.txt"
[ -f "$cache" ] || { echo "check-deps: $cache not found: configure first (bash packaging/build.sh)" >&2; exit 2; }
((${#lists[@]})) || lists=("$here/debian-build-deps.txt")
for l in "${lists[@]}"; do [ -f "$l" ] || { echo "check-deps: $l not found" >&2; exit 2; }; done
list=${lists[*]}
mapfile -t named < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "${lists[@]}")

# The hard-dependency closure of the list. apt-cache needs package lists; a machine that never ran
# apt-get update has none, so get them (as install-deps.sh would) rather than check against nothing.
closure() {
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
    --no-enhances "${named[@]}" 2>/dev/null | sed -n 's/^\([^ <][^ ]*\)$/\1/p' | sed 's/:.*//' | sort -u
}
mapfile -t pulled < <(closure)
if ((${#pulled[@]} < ${#named[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "check-deps: apt has no package lists; running apt-get update"
  $sudo apt-get update -q >/dev/null
  mapfile -t pulled < <(closure)
fi
declare -A inClosure=()
for p in "${pulled[@]}"; do inClosure[$p]=1; done
for p in "${named[@]}"; do
  [ -n "${inClosure[$p]:-}" ] || { echo "check-deps: $list names $p, which apt does not know: fix the name" >&2; exit 2; }
done

# What the configure step found: (what, path) pairs.
found=()
while IFS='=' read -r key value; do
  name="${key%%:*}"
  [[ "$name" == CMAKE_* || -z "$value" || "$value" == *NOTFOUND ]] && continue
  [ -d "$value" ] || continue
  config=$(find "$value" -maxdepth 1 \( -name '*Config.cmake' -o -name '*-config.cmake' \) | sort | head -1)
  [ -n "$config" ] && found+=("$name=$config")
done < <(grep -E '^[A-Za-z0-9_]+_DIR:PATH=' "$cache")
ksFiles=$(sed -n 's/^KS_FOUND_FILES:INTERNAL=//p' "$cache")
IFS=';' read -ra files <<<"$ksFiles"
for f in "${files[@]}"; do [ -n "$f" ] && found+=("KS_FOUND_FILES=$f"); done

owner() {  # the Debian package that installed a file (usrmerge: also try the /lib spelling)
  local path="$1" out
  for p in "$path" "$(readlink -f "$path")" "${path#/usr}"; do
    out=$(dpkg -S "$p" 2>/dev/null | head -1) && [ -n "$out" ] && { echo "${out%%:*}" | sed 's/:.*//'; return; }
  done
  return 1
}

bad=0
checked=0
for entry in "${found[@]}"; do
  what="${entry%%=*}"; path="${entry#*=}"
  if ! pkg=$(owner "$path"); then
    case "$path" in
      "$PWD"/*|/usr/local/*|/opt/*) echo "check-deps: note: $what=$path is not from a Debian package (local install)"; continue ;;
    esac
    echo "check-deps: $what=$path belongs to no installed Debian package" >&2
    bad=1; continue
  fi
  pkg="${pkg%%,*}"
  checked=$((checked + 1))
  if [ -z "${inClosure[$pkg]:-}" ]; then
    echo "check-deps: $what found $path, from $pkg, which $list does not pull in as a hard dependency: add $pkg to it" >&2
    bad=1
  fi
done
if ((bad)); then
  echo "check-deps: FAILED: a fresh machine that installs only $list cannot configure this tree" >&2
  exit 1
fi
echo "check-deps: all $checked files the configure step found come from the ${#pulled[@]} packages that $(for l in "${lists[@]}"; do basename "$l"; done | paste -sd+) pulls in"
