#!/usr/bin/env bash
# What the language accepts, every output can carry:
#   - every id the checks accept gives a course.xml valid against
#     compiler/course.xsd and package file names that are valid and distinct
#     on every common file system (case folded, at most 255 bytes, no device
#     names); the ids they refuse are errors at the id;
#   - points and numbers are bounded: no output holds inf or NaN;
#   - `quizc --check` and a compile to each format agree: the same exit
#     status and the same diagnostics, over a corpus of inputs;
#   - `snippet LAB:REGION` reads only the lab's own files.
#
#   tests/hostile/carry.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=carry
. tests/hostile/lib/common.sh
quizc=$build/quizc
[ -x "$quizc" ] || { echo "carry: $quizc is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-carry-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
hostile_scale 6
limit=$((30 * scale))

name= ok= dir= err=

begin() { name=$1 ok=1 dir=$tmp/$1 err=$tmp/$1/stderr; mkdir -p "$dir"; }
has() { grep -qaE -- "$1" "$err" || bad "diagnostics do not match /$1/:" "$(head -c 600 "$err")"; }

# run ARGS...: quizc, its stderr in $err; sets rc.
run() {
    timeout -k 2 "$limit" "$quizc" "$@" >"$dir/stdout" 2>"$err"
    rc=$?
    grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$err" && bad "sanitizer report:" "$(head -20 "$err")"
    [ "$rc" -lt 124 ] || bad "quizc $* ended with status $rc"
}

# ---- Ids -------------------------------------------------------------------

# Names that every common file system takes, and takes as distinct: none
# longer than 255 bytes, no character Windows refuses, no device name, no
# two equal once case is folded.
portable_names() {
    local root=$1
    (cd "$root" && find . -mindepth 1 | sed 's|^\./||') >"$dir/names"
    awk -F/ '{ for (i = 1; i <= NF; i++) if (length($i) > 255) { print "too long: " $0; exit 1 } }' "$dir/names" ||
        bad "a file name longer than 255 bytes"
    grep -E '[<>:"\\|?*]|[. ]$|[[:cntrl:]]' "$dir/names" && bad "a name Windows refuses"
    grep -iE '(^|/)(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.[^/]*)?$' "$dir/names" && bad "a Windows device name"
    local dup
    dup=$(tr '[:upper:]' '[:lower:]' <"$dir/names" | sort | uniq -d)
    [ -z "$dup" ] || bad "names equal once case is folded: $dup"
}

begin ids-at-the-limits-are-carried-by-every-output
long=$(printf 'q%.0s' $(seq 1 64))
{ printf 'quiz Edge-case_quiz {\n  title "T"\n'
  printf '  truefalse %s { prompt "p" answer true }\n' "$long" _x x-y Con1 lpt COM10 nul_ Q_1 q-1 aux-x
  printf '}\n'; } >"$dir/in.qz"
run "$dir/in.qz" -o "$dir/course.xml"
[ "$rc" -eq 0 ] || bad "exit status $rc:" "$(head -c 600 "$err")"
xmllint --noout --schema compiler/course.xsd "$dir/course.xml" 2>"$dir/xsd" || bad "course.xml does not validate:" "$(head -3 "$dir/xsd")"
for fmt in scorm qti21; do
    run "$dir/in.qz" --format "$fmt" --dir "$dir/$fmt"
    [ "$rc" -eq 0 ] || bad "--format $fmt --dir: exit status $rc:" "$(head -c 600 "$err")"
    portable_names "$dir/$fmt"
done
[ "$(find "$dir/qti21" -path '*items/*' -name '*.xml' | wc -l)" -eq 10 ] || bad "not one QTI item file per question"
end

# id_error ID REGEX: a question id the language refuses, with the error at the id.
id_error() {
    begin "id-refused-$1"
    printf 'quiz t {\n  title "T"\n  truefalse first { prompt "p" answer true }\n  truefalse %s { prompt "p" answer true }\n}\n' "$2" >"$dir/in.qz"
    run "$dir/in.qz" --check
    [ "$rc" -eq 1 ] || bad "exit status $rc, expected 1"
    has "in\.qz:4:13: error: $3"
    end
}
id_error case-only FIRST "question id 'FIRST' differs from 'first' only in case"
id_error 65-characters "$(printf 'a%.0s' $(seq 1 65))" "question id 'a{20}\.\.\.' is 65 characters long; at most 64"
id_error 300-characters "$(printf 'b%.0s' $(seq 1 300))" "question id 'b{20}\.\.\.' is 300 characters long; at most 64"
id_error digit-first 7up "question id '7up' starts with a digit"
id_error device-name CON "question id 'CON' is a device name on Windows"
id_error device-name-digit lpt3 "question id 'lpt3' is a device name on Windows"

begin id-case-clash-names-the-earlier-one
printf 'quiz t {\n  title "T"\n  truefalse Bubble { prompt "p" answer true }\n  include "more.qz"\n}\n' >"$dir/in.qz"
printf 'truefalse bubble { prompt "p" answer true }\n' >"$dir/more.qz"
run "$dir/in.qz" --check
[ "$rc" -eq 1 ] || bad "exit status $rc, expected 1"
has "more\.qz:1:11: error: question id 'bubble' differs from 'Bubble' only in case"
has "in\.qz:3:13: note: 'Bubble' is first defined here"
end

begin lab-parameter-and-metric-names-start-with-a-letter
# The language takes `1f1b` as a name; course.xml's names (course.xsd) start with a letter or '_'.
mkdir -p "$dir/labs/1lab"
printf 'lab 1lab {\n    title "T"\n    param 2x = 1 in 1..2 "help"\n    metric 3m "m"\n}\n' >"$dir/labs/1lab/lab.qz"
printf 'quiz t {\n  title "T"\n  truefalse q { prompt "p" answer true\n    lab 1lab (2x = 1)\n    expect 3m < 1\n  }\n}\n' >"$dir/in.qz"
run "$dir/in.qz" -L "$dir/labs" -o "$dir/course.xml"
[ "$rc" -eq 1 ] || bad "exit status $rc, expected 1"
has "in\.qz:4:9: error: lab name '1lab' starts with a digit"
has "in\.qz:4:15: error: parameter name '2x' starts with a digit"
has "in\.qz:5:12: error: metric name '3m' starts with a digit"
[ -e "$dir/course.xml" ] && bad "course.xml was written"
end

# ---- Numbers ---------------------------------------------------------------

begin numbers-at-the-bounds-are-finite-in-every-output
cat >"$dir/in.qz" <<'EOF'
quiz t {
  title "T"
  passing 100%
  truefalse a { prompt "p" answer true points 1000 }
  truefalse b { prompt "p" answer true points 0.001 }
  numeric c { prompt "p" answer 1e15 within 1e15 }
  numeric d { prompt "p" answer -1e15..1e15 }
  numeric e { prompt "p" answer -1e15 within 100% }
  numeric f { prompt "p" answer 1e-300 within 1e-300 }
}
EOF
run "$dir/in.qz" -o "$dir/course.xml"
[ "$rc" -eq 0 ] || bad "exit status $rc:" "$(head -c 600 "$err")"
xmllint --noout --schema compiler/course.xsd "$dir/course.xml" 2>/dev/null || bad "course.xml does not validate"
for fmt in gift moodle; do
    run "$dir/in.qz" --format "$fmt" -o "$dir/out.$fmt"
    [ "$rc" -eq 0 ] || bad "--format $fmt: exit status $rc"
done
for fmt in scorm qti21; do
    run "$dir/in.qz" --format "$fmt" --dir "$dir/$fmt"
    [ "$rc" -eq 0 ] || bad "--format $fmt: exit status $rc"
done
# No number anywhere is infinite or not a number (the player's own scripts aside: they name them).
found=$(grep -rilwE 'inf|-inf|infinity|nan' "$dir/course.xml" "$dir"/out.* "$dir/qti21" "$dir/scorm/course.xml" \
        "$dir/scorm/imsmanifest.xml" "$dir/scorm/quiz-data.js" 2>/dev/null)
[ -z "$found" ] || bad "inf or NaN in: $found"
end

# num_error TEXT REGEX: a statement in question q that holds a number past its bound.
num_error() {
    begin "number-refused-$1"
    printf 'quiz t {\n  title "T"\n  %s\n}\n' "$2" >"$dir/in.qz"
    run "$dir/in.qz" --check
    [ "$rc" -eq 1 ] || bad "exit status $rc, expected 1"
    has "in\.qz:3:[0-9]+: error: $3"
    grep -qiwE 'inf|nan' "$err" && bad "the message shows inf or NaN:" "$(grep -iwE 'inf|nan' "$err" | head -2)"
    end
}
num_error points-1e300 'truefalse q { prompt "p" answer true points 1e300 }' "points must be greater than 0 and at most 1000"
num_error points-1001 'truefalse q { prompt "p" answer true points 1001 }' "points must be greater than 0 and at most 1000"
num_error points-1e400 'truefalse q { prompt "p" answer true points 1e400 }' "number 1e400 is out of range"
num_error answer-1e16 'numeric q { prompt "p" answer 1e16 }' "the answer 1e16 is too large"
num_error tolerance-1e300 'numeric q { prompt "p" answer 1 within 1e300 }' "the tolerance 1e300 is too large"
num_error range-end 'numeric q { prompt "p" answer -1e308..0 }' "the range's low end -1e308 is too large"
num_error passing-1e9 'passing 1e9%' "passing 1000000000% is outside 0%\.\.100%"

# ---- --check and a compile agree --------------------------------------------

# Inputs each output refuses, or takes: a corpus of the committed hostile
# cases, the shipped quizzes and inputs made here for each rule.
corpus=$tmp/corpus
mkdir -p "$corpus"
cp tests/hostile/cases/*.qz "$corpus/"
for f in quizzes/*.qz; do cp "$f" "$corpus/quiz-$(basename "$f")"; done
cp -r quizzes/figures "$corpus/figures"
mk() { printf 'quiz t {\n  title "T"\n  %s\n}\n' "$2" >"$corpus/$1.qz"; }
mk xml-char-title-escape 'intro "a\u{1}b"'
mk xml-char-raw "$(printf 'truefalse q { prompt "x\001y" answer true }')"
mk xml-char-fffe 'truefalse q { prompt "x\u{FFFE}" answer true }'
mk xml-char-accept "$(printf 'text q { prompt "p" accept "a\002" }')"
mk choices-37 "single q { prompt \"p\" correct \"a\" $(for i in $(seq 1 36); do printf 'wrong "w%d" ' "$i"; done)}"
mk choices-36 "single q { prompt \"p\" correct \"a\" $(for i in $(seq 1 35); do printf 'wrong "w%d" ' "$i"; done)}"
mk id-case 'truefalse a { prompt "p" answer true } truefalse A { prompt "p" answer true }'
mk id-digit 'truefalse 1a { prompt "p" answer true }'
mk id-long "truefalse $(printf 'z%.0s' $(seq 1 100)) { prompt \"p\" answer true }"
mk id-device 'truefalse prn { prompt "p" answer true }'
mk points-big 'truefalse q { prompt "p" answer true points 5000 }'
mk number-big 'numeric q { prompt "p" answer 1 within 1e20 }'
mk passing-big 'passing 1e9%'
mk fine 'truefalse q { prompt "p" answer true }'

# The errors, in order.  Warnings are left out: what a format does not carry
# (GIFT has no passing score) is its own warning, not a verdict.
norm() { grep -aE ': error: ' "$1"; }

for in in "$corpus"/*.qz; do
    begin "agree-$(basename "$in" .qz)"
    run "$in" --check
    crc=$rc
    cp "$err" "$dir/check.err"
    for fmt in course scorm gift moodle qti21; do
        out=$dir/out.$fmt
        run "$in" --format "$fmt" -o "$out"
        if [ "$crc" -ne 0 ]; then
            [ "$rc" -eq "$crc" ] || bad "--format $fmt: exit status $rc, --check gave $crc"
            [ -e "$out" ] && bad "--format $fmt wrote an output for an input --check refuses"
        else
            [ "$rc" -eq 0 ] || bad "--format $fmt: exit status $rc where --check passed:" "$(head -c 400 "$err")"
        fi
        cmp -s <(norm "$dir/check.err") <(norm "$err") ||
            bad "--format $fmt: diagnostics differ from --check's:" "$(diff <(norm "$dir/check.err") <(norm "$err") | head -6)"
    done
    for fmt in scorm qti21; do
        run "$in" --format "$fmt" --dir "$dir/dir-$fmt"
        [ "$rc" -eq "$crc" ] || bad "--format $fmt --dir: exit status $rc, --check gave $crc"
        cmp -s <(norm "$dir/check.err") <(norm "$err") || bad "--format $fmt --dir: diagnostics differ from --check's"
    done
    end
done

# The corpus holds both verdicts, so the comparison above means something.
begin corpus-holds-both-verdicts
nbad=0 ngood=0
for in in "$corpus"/*.qz; do
    if "$quizc" "$in" --check >/dev/null 2>&1; then ngood=$((ngood + 1)); else nbad=$((nbad + 1)); fi
done
[ "$nbad" -ge 12 ] && [ "$ngood" -ge 3 ] || bad "$nbad refused and $ngood accepted inputs in the corpus"
end

# ---- Snippets read only the lab's own files -----------------------------------

begin snippet-symlink-outside-the-lab
mkdir -p "$dir/labs/mylab" "$dir/elsewhere"
printf 'lab mylab {\n    title "T"\n}\n' >"$dir/labs/mylab/lab.qz"
printf '// snippet: secret\nint secret = 42;\n// end snippet\n' >"$dir/elsewhere/secret.c"
ln -s ../../elsewhere/secret.c "$dir/labs/mylab/linked.c"
printf 'quiz t {\n  title "T"\n  truefalse q { prompt "p" answer true\n    snippet mylab:secret\n  }\n}\n' >"$dir/in.qz"
run "$dir/in.qz" -L "$dir/labs" -o "$dir/course.xml"
[ "$rc" -eq 1 ] || bad "exit status $rc, expected 1"
has "in\.qz:4:5: error: lab 'mylab': 'linked\.c' is a symbolic link that leads outside the lab's folder"
[ -e "$dir/course.xml" ] && grep -q 'secret = 42' "$dir/course.xml" && bad "the outside file reached the output"
run "$dir/in.qz" -L "$dir/labs" --check
[ "$rc" -eq 1 ] || bad "--check: exit status $rc, expected 1"
end

begin snippet-symlink-outside-through-a-folder
mkdir -p "$dir/labs/mylab" "$dir/elsewhere"
printf 'lab mylab {\n    title "T"\n}\n' >"$dir/labs/mylab/lab.qz"
printf '// snippet: secret\nint secret = 42;\n// end snippet\n' >"$dir/elsewhere/secret.c"
ln -s ../../elsewhere "$dir/labs/mylab/src"
printf 'quiz t {\n  title "T"\n  truefalse q { prompt "p" answer true\n    snippet mylab:secret\n  }\n}\n' >"$dir/in.qz"
run "$dir/in.qz" -L "$dir/labs" --check
[ "$rc" -eq 1 ] || bad "exit status $rc, expected 1"
has "in\.qz:4:5: error: lab 'mylab': 'src' is a symbolic link that leads outside the lab's folder"
end

begin snippet-symlink-inside-the-lab-is-read
mkdir -p "$dir/labs/mylab/src"
printf 'lab mylab {\n    title "T"\n}\n' >"$dir/labs/mylab/lab.qz"
printf '// snippet: mine\nint mine = 7;\n// end snippet\n' >"$dir/labs/mylab/src/real.c"
ln -s src/real.c "$dir/labs/mylab/alias.c"
printf 'quiz t {\n  title "T"\n  truefalse q { prompt "p" answer true\n    snippet mylab:mine\n  }\n}\n' >"$dir/in.qz"
run "$dir/in.qz" -L "$dir/labs" -o "$dir/course.xml"
[ "$rc" -eq 0 ] || bad "exit status $rc:" "$(head -c 400 "$err")"
grep -q 'int mine = 7;' "$dir/course.xml" 2>/dev/null || bad "the snippet is not in course.xml"
end

summary
