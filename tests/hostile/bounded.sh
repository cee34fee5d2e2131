#!/usr/bin/env bash
# Bounded work on any input: time and memory grow with the input, not with
# the input times its errors, and a file's errors stop at the per-file cap
# (DIAG_MAX_ERRORS in grammar/diag.h, 50) with one note that says so.
#
#   tests/hostile/bounded.sh BUILD_DIR
#
# The product target is well under a second on a normal build; the limits
# here leave room for a busy two-core machine and are scaled for sanitizer
# builds.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=bounded
. tests/hostile/lib/common.sh
quizc=$build/quizc
[ -x "$quizc" ] || { echo "bounded: $quizc is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-bounded-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
san=0
case $build in *san*) san=1 ;; esac
hostile_scale 6
cap=50

name= ok= dir= err= rc= ms=

begin() { name=$1 ok=1 dir=$tmp/$1 err=$tmp/$1/stderr; mkdir -p "$dir"; }

# q WANT_RC SECONDS ARGS...: run quizc under a time limit (scaled).
q() {
    local want=$1 limit=$(($2 * scale)); shift 2
    local t0 t1
    t0=$(date +%s%N)
    timeout -k 2 "$limit" "$quizc" "$@" >"$dir/stdout" 2>"$err"
    rc=$?
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000)) note="$ms ms"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then bad "did not finish within ${limit}s"; return; fi
    [ "$rc" -eq "$want" ] || bad "exit status $rc, expected $want:" "$(head -c 600 "$err")"
    grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$err" && bad "sanitizer report:" "$(head -20 "$err")"
}

# capped FILE: exactly $cap errors, then the note, at the place of the first one dropped.
capped() {
    local n
    n=$(grep -c ': error: ' "$err")
    [ "$n" -eq "$cap" ] || bad "$n errors reported, expected the cap ($cap)"
    grep -qE "^$1:[0-9]+:[0-9]+: note: too many errors in this file \($cap\); stopping here$" "$err" ||
        bad "no 'too many errors' note:" "$(tail -4 "$err" | cut -c1-200)"
    [ "$(grep -c 'too many errors' "$err")" -eq 1 ] || bad "the note is given more than once"
    grep -q "^$cap errors generated\.$" "$err" || bad "the summary does not count $cap errors: $(tail -1 "$err")"
}

begin nul-bytes-1mb
head -c 1000000 /dev/zero >"$dir/in.qz"
q 1 5 "$dir/in.qz" --check
capped "$dir/in.qz"
# Every error up to the cap, in source order: the NULs at columns 1 to 50, the note at 51.
cols=$(grep -oE '^[^ ]*in\.qz:1:[0-9]+: error' "$err" | sed -E 's/.*:1:([0-9]+): error/\1/' | tr '\n' ' ')
[ "$cols" = "$(seq -s ' ' 1 $cap) " ] || bad "errors not at columns 1..$cap in order: $cols"
grep -q "in\.qz:1:$((cap + 1)): note: too many" "$err" || bad "the note is not at column $((cap + 1))"
end

begin nul-bytes-10mb-one-line
# Ten times the bytes, still the capped errors: each error shows only a window of its line,
# without reading the 10 MB line to its end, so the cost stays a pass over the bytes.
head -c 10000000 /dev/zero >"$dir/in.qz"
q 1 5 "$dir/in.qz" --check
capped "$dir/in.qz"
end

begin bad-escapes-100000
{ printf 'quiz t {\n  title "'
  yes '\q' | head -n 100000 | tr -d '\n'
  printf '"\n  truefalse a { prompt "p" answer true }\n}\n'; } >"$dir/in.qz"
q 1 5 "$dir/in.qz" --check
capped "$dir/in.qz"
grep -q "in\.qz:2:10: error: unknown escape" "$err" || bad "the first bad escape is not reported at 2:10"
end

begin random-bytes-1mb
# The same bytes every run: a fixed seed.
LC_ALL=C awk 'BEGIN { srand(7); for (i = 0; i < 1000000; i++) printf "%c", int(rand() * 256) }' >"$dir/in.qz"
q 1 5 "$dir/in.qz" --check
n=$(grep -c ': error: ' "$err")
[ "$n" -ge 1 ] && [ "$n" -le "$cap" ] || bad "$n errors, expected 1 to $cap"
end

begin errors-in-order-up-to-the-cap
# 60 questions with a bad escape each, one a line: lines 3 to 52 are reported, in order, then the note.
{ printf 'quiz t {\n  title "T"\n'
  for i in $(seq 1 60); do printf '  truefalse q%d { prompt "\\q" answer true }\n' "$i"; done
  printf '}\n'; } >"$dir/in.qz"
q 1 5 "$dir/in.qz" -o "$dir/out.xml"
capped "$dir/in.qz"
lines=$(grep -oE 'in\.qz:[0-9]+:[0-9]+: error' "$err" | cut -d: -f2 | tr '\n' ' ')
[ "$lines" = "$(seq -s ' ' 3 $((cap + 2))) " ] || bad "errors not on lines 3..$((cap + 2)) in order: $lines"
# The note stands where reading stopped: at the last error's line or just after it.
grep -qE "in\.qz:($((cap + 2))|$((cap + 3))):[0-9]+: note: too many" "$err" || bad "the note is not on line $((cap + 2)) or $((cap + 3))"
[ -e "$dir/out.xml" ] && bad "an output was written"
end

begin cap-is-per-file
# An included file's flood stops at its own cap; the root file's later error is still reported.
printf 'quiz t {\n  title "T"\n  include "flood.qz"\n  truefalse r { prompt "\\x" answer true }\n}\n' >"$dir/in.qz"
for i in $(seq 1 80); do printf 'truefalse f%d { prompt "\\q" answer true }\n' "$i"; done >"$dir/flood.qz"
q 1 5 "$dir/in.qz" --check
grep -q "in\.qz:4:[0-9]*: error: unknown escape" "$err" || bad "the root file's own error is missing"
[ "$(grep -c 'flood\.qz:[0-9]*:[0-9]*: error' "$err")" -eq "$cap" ] || bad "the included file's errors are not capped at $cap"
grep -qE "flood\.qz:($cap|$((cap + 1))):[0-9]+: note: too many errors in this file" "$err" || bad "no note for the included file"
end

# n small files included from one root.
make_includes() {
    local n=$1 d=$2
    mkdir -p "$d"
    { printf 'quiz t {\n  title "T"\n'
      awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "  include \"i%d.qz\"\n", i }'
      printf '}\n'; } >"$d/root.qz"
    (cd "$d" && awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) {
        f = "i" i ".qz"; printf "truefalse q%d { prompt \"p\" answer true }\n", i > f; close(f) } }')
}

begin includes-20000-under-4gb-address-space
# Each include costs memory in proportion to its size: 20 000 small ones fit in 4 GB of address space.
if [ "$san" = 1 ]; then
    skip "ulimit -v cannot hold a sanitizer build (its shadow memory reserves terabytes of address space)"
else
    make_includes 20000 "$dir"
    t0=$(date +%s%N)
    (ulimit -v 4000000 && timeout -k 2 $((20 * scale)) "$quizc" "$dir/root.qz" --check) >"$dir/stdout" 2>"$err"
    rc=$? ms=$((($(date +%s%N) - t0) / 1000000)) note="$ms ms"
    [ "$rc" -eq 0 ] || bad "exit status $rc:" "$(head -c 600 "$err")"
    end
fi

# Time linear in the number of includes (a repeat is found by a hash, not a
# scan): every question out.  A sanitizer build checks memory, not speed,
# and a quarter as many keep it to seconds.
n=20000
[ "$san" = 1 ] && n=5000
begin includes-$n-compile
make_includes $n "$dir"
q 0 20 "$dir/root.qz" -o "$dir/out.xml"
[ "$(grep -c '<question ' "$dir/out.xml" 2>/dev/null || echo 0)" -eq $n ] || bad "not $n questions in course.xml"
end

summary
