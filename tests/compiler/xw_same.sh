#!/usr/bin/env bash
# The course document as xw.c writes it against the same document written by
# libxml2's xmlTextWriter (quizc-libxml): byte for byte, on every quiz of the
# tree that compiles and on a generated bank of every kind, each valid
# against compiler/course.xsd.
set -u
build=${1:-build}
new=$build/quizc old=$build/tests/quizc-libxml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

quizzes=$(git ls-files '*.qz' 2>/dev/null || find . -name '*.qz' -not -path './build/*' -not -path './node_modules/*')
# A bank of every kind, bilingual and not, with Markdown, code and characters to escape.
gen=$build/bench/bin/gen_bank
if [ -x "$gen" ]; then
    "$gen" -n 300 "$tmp/bank.qz" "$tmp/bank.gift" >/dev/null && quizzes="$quizzes $tmp/bank.qz"
else
    bad "bank" "$gen is not built"
fi
n=0
for q in $quizzes; do
    "$old" "$q" -o "$tmp/old.xml" >/dev/null 2>&1 || continue     # a quiz made to fail
    n=$((n + 1))
    if ! "$new" "$q" -o "$tmp/new.xml" >/dev/null 2>"$tmp/err"; then
        bad "$q" "xmlTextWriter wrote it, xw.c failed: $(head -1 "$tmp/err")"
        continue
    fi
    if ! cmp -s "$tmp/old.xml" "$tmp/new.xml"; then
        bad "$q" "bytes differ: $(cmp "$tmp/old.xml" "$tmp/new.xml" | head -1)"
        diff "$tmp/old.xml" "$tmp/new.xml" | head -8
        continue
    fi
    if ! xmllint --noout --schema compiler/course.xsd "$tmp/new.xml" 2>"$tmp/err"; then
        bad "$q" "not valid: $(head -1 "$tmp/err")"
        continue
    fi
    ok "$q ($(wc -c < "$tmp/new.xml") bytes, same)"
done
[ "$n" -ge 10 ] || bad "quizzes" "only $n quizzes compiled: the comparison covers too little"
echo "xw-same: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
