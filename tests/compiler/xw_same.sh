#!/usr/bin/env bash
# Every XML document quizc writes, as xw.c writes it, against the same
# document written by libxml2's xmlTextWriter (quizc-libxml, xw.h's calls
# over xmlTextWriter): byte for byte, on every quiz of the tree that
# compiles and on a generated bank of every kind.  The course document each
# time, valid against compiler/course.xsd; the SCORM 1.2 and 2004 packages
# (imsmanifest.xml), Moodle XML and the QTI 2.1 package (items, test,
# manifest), whole, as files or zips.  Their own schemas check quizc's
# output of each in scorm-schemas.sh and formats.sh: the same bytes.
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
    for form in "scorm12.zip:--scorm 1.2" "scorm2004.zip:--scorm 2004" "moodle.xml:--format moodle" "qti.zip:--format qti21"; do
        out=${form%%:*} args=${form#*:}
        # shellcheck disable=SC2086
        "$old" "$q" $args -o "$tmp/old-$out" >/dev/null 2>&1 || continue
        # shellcheck disable=SC2086
        if ! "$new" "$q" $args -o "$tmp/new-$out" >/dev/null 2>"$tmp/err"; then
            bad "$q $args" "xmlTextWriter wrote it, xw.c failed: $(head -1 "$tmp/err")"
        elif ! cmp -s "$tmp/old-$out" "$tmp/new-$out"; then
            bad "$q $args" "bytes differ: $(cmp "$tmp/old-$out" "$tmp/new-$out" | head -1)"
        else
            ok "$q $args ($(wc -c < "$tmp/new-$out") bytes, same)"
        fi
    done
done
[ "$n" -ge 10 ] || bad "quizzes" "only $n quizzes compiled: the comparison covers too little"
echo "xw-same: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
