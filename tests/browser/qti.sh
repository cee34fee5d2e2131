#!/bin/sh
# tests/browser/qti.sh BUILD — build QTI 2.1 packages with BUILD/quizc and take
# them in a QTI player in headless chromium (tests/browser/qti.test.js).
# Prints "browser-qti: N passed, N failed" for scripts/run-tests.sh.
set -u
B=${1:-build}
QUIZC=$B/quizc
OUT=$B/browser-qti
export QUIZC_QTI=$OUT/packages PUPPETEER_SKIP_DOWNLOAD=1

fail() { echo "browser-qti: $*" >&2; echo "browser-qti: 0 passed, 1 failed"; exit 1; }
[ -x "$QUIZC" ] || fail "no $QUIZC (build it first)"
[ -d node_modules/@citolab/qti-convert ] && [ -d node_modules/@citolab/qti-components ] || fail "npm modules missing: run npm ci"
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || fail "no chromium at ${CHROMIUM:-/usr/bin/chromium}"
rm -rf "$OUT" && mkdir -p "$QUIZC_QTI" || exit 1
"$QUIZC" -L tests/data/labs tests/data/compiler/kinds.qz --format qti21 --dir "$QUIZC_QTI/kinds" 2>/dev/null || fail "quizc could not package kinds.qz"
"$QUIZC" tests/scorm/data/partial.qz --format qti21 --dir "$QUIZC_QTI/partial" 2>/dev/null || fail "quizc could not package partial.qz"
"$QUIZC" quizzes/paralelisme.qz --format qti21 --lang en --dir "$QUIZC_QTI/seed" 2>/dev/null || fail "quizc could not package the seed quiz"
"$QUIZC" quizzes/paralelisme-lanjut.qz --format qti21 --lang en --dir "$QUIZC_QTI/lanjut" 2>/dev/null || fail "quizc could not package the second shipped quiz"
"$QUIZC" tests/data/media/figures.qz --format qti21 --lang en --dir "$QUIZC_QTI/figures" 2>/dev/null || fail "quizc could not package figures.qz"
# The grading table's quizzes (tests/data/grading.json), each as grading-N in the table's order.
n=0
for q in $(node -e 'for (const e of require("./tests/formats/grading-table").load()) console.log(e.quiz)') ; do
    "$QUIZC" "$q" --format qti21 --lang en --dir "$QUIZC_QTI/grading-$n" 2>/dev/null || fail "quizc could not package $q for the grading table"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "tests/data/grading.json names no quiz"

log=$OUT/node-test.log
{ node --test --test-reporter=tap tests/browser/qti.test.js; echo $? > "$OUT/rc"; } 2>&1 | tee "$log"
rc=$(cat "$OUT/rc")
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -1)
failn=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -1)
echo "browser-qti: ${pass:-0} passed, ${failn:-1} failed"
[ "$rc" -eq 0 ] && [ "${failn:-1}" -eq 0 ]
