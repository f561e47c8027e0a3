#!/usr/bin/env bash
# Builds the Debian package dist/kernelscope_<version>_<arch>.deb with CPack: kernelscope, kscope and
# kscope-runner in /usr/bin, the desktop entry, icon and MIME type, man pages, the sample runs, and the
# Debian dependencies dpkg-shlibdeps finds. Installs what it needs first (as the README's commands do).
#   bash packaging/deb.sh            then: sudo apt-get install ./dist/kernelscope_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh packaging/debian-build-deps.txt packaging/debian-package-deps.txt
build=${KSCOPE_DEB_BUILD_DIR:-build-deb}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=/usr/bin/python3 \
  -DKSCOPE_TESTS=OFF -DKSCOPE_MAN_PAGES=ON
cmake --build "$build" -j"$(nproc)"
mkdir -p dist
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$PWD/dist"
rm -rf dist/_CPack_Packages
ls -l dist/*.deb
dpkg-deb --field dist/kernelscope_*.deb Package Version Depends
