#!/usr/bin/env bash
# Proves the README on a fresh Debian 12, from a clean root, as a new user meets it:
#   1. mmdebstrap builds a minimal Debian 12 root (essential packages and apt, nothing else);
#   2. a clean clone of this repository's HEAD (with ../shared beside it, read-only, as CI has it) runs the
#      README's test command there (`bash packaging/test.sh`: install, build with warnings as errors, every
#      test), then the README's first command under the offscreen platform (the explorer must still be up
#      after 20 s), then `bash packaging/deb.sh`;
#   3. a second clean root installs that .deb with `apt-get install ./kernelscope_*.deb` and runs
#      `kscope summary` on a bundled sample and `kernelscope --version` offscreen.
# Needs root (chroot, mounts) and the Debian mirror; takes tens of minutes on 2 cores. Not part of CI
# (CI runs packaging/check-deps.sh instead). Logs: $KSCOPE_FRESH_DIR/*.log (default /var/tmp/kscope-fresh).
#   sudo bash packaging/fresh-check.sh [--keep]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work=${KSCOPE_FRESH_DIR:-/var/tmp/kscope-fresh}
keep=0
[ "${1:-}" = "--keep" ] && keep=1
[ "$(id -u)" -eq 0 ] || { echo "fresh-check: needs root (mmdebstrap, chroot, mounts): sudo bash $0" >&2; exit 2; }
command -v mmdebstrap >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mmdebstrap; }
if [ -n "$(git -C "$repo" status --porcelain --untracked-files=no)" ]; then
  echo "fresh-check: note: uncommitted changes in $repo are not checked (the clone takes HEAD)"
fi

# The host's own Debian sources (a deb822 file or a one-line list), so the root fetches where this machine does.
sources=""
for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
  [ -s "$f" ] && grep -q "debian" "$f" && { sources="$f"; break; }
done
[ -n "$sources" ] || { echo "fresh-check: no Debian apt sources found on this machine" >&2; exit 2; }

mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" 2>/dev/null || true; done
  if ((!keep)); then rm -rf "$work/root-source" "$work/root-deb"; fi
}
trap cleanup EXIT
step() { printf '\n==== fresh-check: %s (%s)\n' "$1" "$(date -u +%H:%M:%S)"; }
bindfs() {  # a root with /proc, /sys, /dev and the host's resolver, as a booted machine has
  local root=$1
  for m in proc sys dev; do
    mkdir -p "$root/$m"
    mount --rbind "/$m" "$root/$m" && mount --make-rslave "$root/$m" && mounted+=("$root/$m")
  done
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}
inroot() {  # a clean login-like environment: no CI variables, no build caches of this machine
  local root=$1; shift
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c "$*"
}

mkdir -p "$work"
rm -rf "$work/root-source" "$work/root-deb" "$work/dist"
step "minimal Debian 12 root (mmdebstrap --variant=apt)"
start=$SECONDS
mmdebstrap --variant=apt --include=ca-certificates bookworm "$work/base.tar" "$sources" >"$work/mmdebstrap.log" 2>&1 ||
  { tail -20 "$work/mmdebstrap.log"; exit 1; }
echo "base root: $(du -h "$work/base.tar" | cut -f1), $((SECONDS - start)) s"

step "source build: clean clone, README test command"
root="$work/root-source"
mkdir -p "$root" && tar -C "$root" -xf "$work/base.tar"
bindfs "$root"
mkdir -p "$root/src"
git clone -q --no-local "$repo" "$root/src/kernelscope"
if [ -d "$repo/../shared" ]; then
  mkdir -p "$root/src/shared"
  mount --bind "$(readlink -f "$repo/../shared")" "$root/src/shared" && mount -o remount,bind,ro "$root/src/shared" && mounted+=("$root/src/shared")
fi
start=$SECONDS
set +e
inroot "$root" "cd /src/kernelscope && bash packaging/test.sh" >"$work/test.log" 2>&1
rc=$?
set -e
grep -E "^install-deps|^-- KernelScope|tests passed|tests failed|Total Test time|^fuzz: [0-9]+ targets, [0-9]+ crash" "$work/test.log" | cut -c1-300
echo "README test command: exit $rc, $((SECONDS - start)) s (log $work/test.log)"
tail -4 "$work/test.log"
((rc == 0)) || exit 1

step "README first command: the explorer opens the bundled sample (offscreen, 20 s)"
set +e
inroot "$root" "cd /src/kernelscope && QT_QPA_PLATFORM=offscreen timeout 20 bash packaging/run.sh" >"$work/run.log" 2>&1
rc=$?
set -e
tail -3 "$work/run.log"
if ((rc != 124)); then echo "fresh-check: the explorer exited with $rc before 20 s (log $work/run.log)" >&2; exit 1; fi
echo "explorer still up after 20 s: ok"

step "the .deb (packaging/deb.sh)"
inroot "$root" "cd /src/kernelscope && bash packaging/deb.sh" >"$work/deb.log" 2>&1 || { tail -30 "$work/deb.log"; exit 1; }
tail -6 "$work/deb.log"
mkdir -p "$work/dist" && cp "$root"/src/kernelscope/dist/kernelscope_*.deb "$work/dist/"

step "a second clean root installs the .deb"
root="$work/root-deb"
mkdir -p "$root" && tar -C "$root" -xf "$work/base.tar"
bindfs "$root"
cp "$work"/dist/kernelscope_*.deb "$root/tmp/"
inroot "$root" "apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/kernelscope_*.deb" >"$work/install.log" 2>&1 ||
  { tail -30 "$work/install.log"; exit 1; }
grep -E "^Setting up kernelscope" "$work/install.log"
inroot "$root" 'set -e
  kscope --version; kscope-runner --version; QT_QPA_PLATFORM=offscreen kernelscope --version
  kscope summary /usr/share/kernelscope/sample_runs/diag-matmul.kscope.jsonl
  for f in /usr/share/applications/kernelscope.desktop /usr/share/icons/hicolor/256x256/apps/kernelscope.png \
           /usr/share/mime/packages/kernelscope.xml /usr/share/man/man1/kscope.1.gz /usr/share/man/man1/kernelscope.1.gz; do
    test -s "$f" || { echo "missing $f"; exit 1; }
  done
  grep -q "application/x-kernelscope-run" /usr/share/mime/globs2 && echo "MIME: *.kscope.jsonl is application/x-kernelscope-run"
  echo "installed files: ok"' >"$work/deb-check.log" 2>&1 || { cat "$work/deb-check.log"; exit 1; }
cat "$work/deb-check.log"
step "PASSED: the README test command, the README run command and the .deb work on a fresh Debian 12"
