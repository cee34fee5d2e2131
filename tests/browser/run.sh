#!/bin/sh
# tests/browser/run.sh BUILD — build SCORM packages with BUILD/quizc and take
# them in headless chromium (tests/browser/player.test.js; names.test.js with
# ids and languages named like what JavaScript objects inherit; runs.test.js with
# recorded runs from BUILD/labrun; labrun-web.test.js with every lab line run in
# the page against BUILD/labrun; grading.test.js with the grading table,
# tests/data/grading.json; idview.test.js with the shipped quizzes in
# Indonesian; media.test.js with figures and formulas; formats.test.js and claims.test.js check
# scorm.js's formats and claims.js without a browser), with node's test runner.
# Prints "browser: N passed, N failed" for scripts/run-tests.sh.
set -u
B=${1:-build}
QUIZC=$B/quizc
LABRUN=$B/labrun
OUT=$B/browser
PKGS=$OUT/packages
export QUIZC LABRUN QUIZC_PACKAGES=$PKGS QUIZC_ARTIFACTS=$B/artifacts QUIZC_RUNS=$OUT/runs
export PUPPETEER_SKIP_DOWNLOAD=1

fail() { echo "browser: $*" >&2; echo "browser: 0 passed, 1 failed"; exit 1; }
[ -x "$QUIZC" ] || fail "no $QUIZC (build it first)"
[ -x "$LABRUN" ] || fail "no $LABRUN (build it first)"
[ -d node_modules/puppeteer-core ] && [ -d node_modules/scorm-again ] && [ -d node_modules/axe-core ] || fail "npm modules missing: run npm ci"
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
# Both with the runs of their labs recorded here (idview.test.js: their Indonesian words).
for q in seed:$seed lanjut:quizzes/paralelisme-lanjut.qz; do
    "$LABRUN" --verify "${q#*:}" --record "$PKGS/${q%%:*}-runs.json" > "$PKGS/${q%%:*}-runs.txt" 2>&1 ||
        fail "labrun could not record ${q#*:}'s runs"
    pack "${q%%:*}runs12" "${q#*:}" --runs "$PKGS/${q%%:*}-runs.json"
done
pack lanjut2004 quizzes/paralelisme-lanjut.qz --scorm 2004
pack pipa12 $D/bilingual.qz
pack pipa2004 $D/bilingual.qz --scorm 2004
pack acak12 $D/shuffled.qz
pack acak2004 $D/shuffled.qz --scorm 2004
pack hostile $D/hostile.qz
pack silent $D/silent.qz
pack names12 $D/names.qz
pack names2004 $D/names.qz --scorm 2004
pack partial12 $D/partial.qz
pack partial2004 $D/partial.qz --scorm 2004
pack figures12 tests/data/media/figures.qz
pack nomath12 tests/data/media/nomath.qz
# The grading table's quizzes (tests/data/grading.json, grading.test.js), each as grading-N-12 and -2004.
n=0
for q in $(node -e 'for (const e of require("./tests/formats/grading-table").load()) console.log(e.quiz)'); do
    pack grading-$n-12 "$q"
    pack grading-$n-2004 "$q" --scorm 2004
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "tests/data/grading.json names no quiz"

# Recorded runs (runs.test.js): the runs of runs.qz's claims on this machine, packed
# with the quiz under each feedback timing, and the learner's own reports to check.
R=$OUT/runs
rm -rf "$R" && mkdir -p "$R" || exit 1
"$LABRUN" --verify $D/runs.qz --record "$R/runs.json" > "$R/verify.txt" || fail "labrun could not record runs.qz's runs"
"$LABRUN" labs/bubble --stages 4 --microbatches 8 --schedule gpipe --steps 1 --json "$R/own.json" > /dev/null || fail "labrun bubble"
"$LABRUN" labs/bubble --stages 2 --microbatches 8 --schedule gpipe --steps 1 --json "$R/own-stages2.json" > /dev/null || fail "labrun bubble"
"$LABRUN" labs/tensor-split --mode column --ranks 2 --json "$R/own-tensor.json" > /dev/null || fail "labrun tensor-split"
for fb in immediate on-submit never; do
    sed "s/^    feedback immediate/    feedback $fb/" $D/runs.qz > "$R/runs-$fb.qz"
    pack runs-$fb-12 "$R/runs-$fb.qz" --runs "$R/runs.json"
    pack runs-$fb-2004 "$R/runs-$fb.qz" --runs "$R/runs.json" --scorm 2004
done

log=$OUT/node-test.log
{ node --test --test-reporter=tap tests/browser/formats.test.js tests/browser/claims.test.js tests/browser/player.test.js tests/browser/labtext.test.js tests/browser/idview.test.js tests/browser/field.test.js tests/browser/command.test.js tests/browser/rerender.test.js tests/browser/names.test.js tests/browser/runs.test.js tests/browser/grading.test.js tests/browser/labrun-web.test.js tests/browser/media.test.js; echo $? > "$OUT/node-test.rc"; } 2>&1 | tee "$log"
rc=$(cat "$OUT/node-test.rc")
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -1)
failn=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -1)
[ -n "$pass" ] || pass=0
[ -n "$failn" ] || failn=1
echo "screenshots: $(ls "$QUIZC_ARTIFACTS"/*.png 2>/dev/null | tr '\n' ' ')"
echo "browser: $pass passed, $failn failed"
[ "$rc" -eq 0 ] && [ "$failn" -eq 0 ]
