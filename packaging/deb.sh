#!/usr/bin/env bash
# Builds the Debian package dist/kernelscope_<version>_<arch>.deb with CPack: kernelscope, kscope and
# kscope-runner in /usr/bin, the desktop entry, icon and MIME type, man pages, the sample runs, and the
# Debian dependencies dpkg-shlibdeps finds. Installs what it needs first, as the README's commands do, and
# builds in the same folder as they do (./build or $KSCOPE_BUILD_DIR), so after them it only links and packs;
# the installed binaries are stripped.
#   bash packaging/deb.sh            then: sudo apt-get install ./dist/kernelscope_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
build=${KSCOPE_BUILD_DIR:-build}
bash packaging/install-deps.sh packaging/debian-build-deps.txt packaging/debian-package-deps.txt
bash packaging/build.sh -DKSCOPE_MAN_PAGES=ON
rm -rf dist && mkdir -p dist
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$PWD/dist"
rm -rf dist/_CPack_Packages
ls -l dist/*.deb
dpkg-deb --field dist/kernelscope_*.deb Package Version Depends Recommends
