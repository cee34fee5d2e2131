#!/bin/sh
# tests/browser/run.sh BUILD — build SCORM packages with BUILD/quizc and take
# them in headless chromium (tests/browser/player.test.js; formats.test.js checks
# scorm.js's formats without a browser), with node's test runner.
# Prints "browser: N passed, N failed" for scripts/run-tests.sh.
set -u
B=${1:-build}
QUIZC=$B/quizc
OUT=$B/browser
PKGS=$OUT/packages
export QUIZC_PACKAGES=$PKGS QUIZC_ARTIFACTS=$B/artifacts
export PUPPETEER_SKIP_DOWNLOAD=1

fail() { echo "browser: $*" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
[ -x "$QUIZC" ] || fail "no $QUIZC (build it first)"
[ -d node_modules/puppeteer-core ] && [ -d node_modules/scorm-again ] || fail "npm modules missing: run npm ci"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || fail "no chromium at ${CHROMIUM:-/usr/bin/chromium}"

rm -rf "$PKGS" && mkdir -p "$PKGS" || exit 1
seed=quizzes/paralelisme.qz
D=tests/scorm/data
pack() { # NAME QUIZ [--scorm 2004]
    name=$1 quiz=$2; shift 2
    "$QUIZC" -L tests/data/labs "$quiz" --dir "$PKGS/$name" "$@" || fail "quizc could not package $quiz"
}
pack seed12 $seed
pack seed2004 $seed --scorm 2004
pack lanjut12 quizzes/paralelisme-lanjut.qz
pack lanjut2004 quizzes/paralelisme-lanjut.qz --scorm 2004
pack pipa12 $D/bilingual.qz
pack pipa2004 $D/bilingual.qz --scorm 2004
pack acak12 $D/shuffled.qz
pack acak2004 $D/shuffled.qz --scorm 2004
pack hostile $D/hostile.qz
pack silent $D/silent.qz

log=$OUT/node-test.log
{ node --test --test-reporter=tap tests/browser/formats.test.js tests/browser/player.test.js; echo $? > "$OUT/node-test.rc"; } 2>&1 | tee "$log"
rc=$(cat "$OUT/node-test.rc")
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -1)
failn=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -1)
[ -n "$pass" ] || pass=0
[ -n "$failn" ] || failn=1
echo "screenshots: $(ls "$QUIZC_ARTIFACTS"/*.png 2>/dev/null | tr '\n' ' ')"
echo "browser: $pass passed, $failn failed"
[ "$rc" -eq 0 ] && [ "$failn" -eq 0 ]
