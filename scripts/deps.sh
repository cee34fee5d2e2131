#!/usr/bin/env bash
# Make sure the Debian packages and npm modules the build and tests need are
# here.  As root, install what is missing; otherwise print the exact command.
set -eu
cd "$(dirname "$0")/.."
pkgs=(
    build-essential pkg-config flex bison
    libxml2-dev libxml2-utils libzip-dev zlib1g-dev zipcmp unzip libjansson-dev nettle-dev
    libopenblas-dev libcriterion-dev
    openmpi-bin libopenmpi-dev
    valgrind clang libclang-rt-14-dev gettext
    chromium
    emscripten
)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# node and npm may come from another Debian repository's nodejs (which bundles npm).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "deps: installing ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}"
    else
        echo "deps: missing Debian packages; run:" >&2
        echo "    sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi
# npm modules for the browser and schema tests, from the committed lock file.
if [ -f package-lock.json ]; then
    if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
        echo "deps: npm ci"
        npm ci --no-audit --no-fund --loglevel=error
    fi
fi
