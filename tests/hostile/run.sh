#!/usr/bin/env bash
# The hostile-input corpus: inputs a teacher's copy and paste, a broken file
# system or a careless command line can produce, each with the diagnostic it
# must get.  On every error quizc must print a clear message, exit 1, write
# nothing and leave an existing output file as it was; accepted inputs must
# compile, and the large ones quickly.
#
#   tests/hostile/run.sh BUILD_DIR
#
# Small inputs are committed in tests/hostile/cases/ (NAME.qz with NAME.expect:
# the exit status on the first line, then regular expressions the diagnostics
# must match; FILE stands for the input's path).  Large, binary or
# file-system inputs are made here, at test time.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=hostile
. tests/hostile/lib/common.sh
quizc=$build/quizc
[ -x "$quizc" ] || { echo "hostile: $quizc is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-hostile-XXXXXX")
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
hostile_scale 4

name= ok= dir= work= err= rc= ms=

begin() {
    name=$1 ok=1
    dir=$tmp/$name
    work=$dir/out
    mkdir -p "$work"
    printf 'SENTINEL %s\n' "$name" >"$work/course.xml"
    err=$dir/stderr
}


# q WANT_RC SECONDS ARGS...: run quizc (output to $work/course.xml unless ARGS say otherwise).
q() {
    local want=$1 limit=$(($2 * scale)); shift 2
    local t0 t1
    t0=$(date +%s%N)
    timeout -k 2 "$limit" "${runner[@]}" "$quizc" "$@" >"$dir/stdout" 2>"$err"
    rc=$?
    t1=$(date +%s%N)
    ms=$(((t1 - t0) / 1000000)) note="$ms ms"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        bad "did not finish within ${limit}s"
        return
    fi
    [ "$rc" -eq "$want" ] || bad "exit status $rc, expected $want; diagnostics:" "$(head -c 600 "$err")"
    if [ "$rc" -ge 128 ]; then bad "killed by signal $((rc - 128))"; fi
    grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$err" && bad "sanitizer report:" "$(head -20 "$err")"
    if [ "$want" -ne 0 ]; then
        grep -qE '(^|: )error: ' "$err" || bad "no 'error:' line in the diagnostics"
        untouched
    fi
}

# The sentinel output is as it was and nothing else appeared beside it.
untouched() {
    [ "$(cat "$work/course.xml" 2>/dev/null)" = "SENTINEL $name" ] || bad "the existing output file was changed"
    local extra
    extra=$(ls -A "$work" | grep -vx 'course.xml')
    [ -z "$extra" ] || bad "files left beside the output: $extra"
}

# The output was written, is well-formed XML and nothing else was left.
written() {
    local f=${1:-$work/course.xml}
    grep -q SENTINEL "$f" 2>/dev/null && bad "the output was not written"
    xmllint --noout --huge "$f" 2>/dev/null || bad "the output is not well-formed XML"
    local extra
    extra=$(ls -A "$(dirname "$f")" | grep -vx "$(basename "$f")")
    [ -z "$extra" ] || bad "files left beside the output: $extra"
}

# has REGEX: the diagnostics match (extended regular expression).
has() {
    grep -qaE -- "$1" "$err" || bad "diagnostics do not match /$1/:" "$(head -c 600 "$err")"
}

# caret_under WORD: on the source line shown under the first diagnostic, the caret
# stands under WORD's first character (columns in characters, tabs expanded as shown).
caret_under() {
    local w=$1 line src= caret= found=0
    while IFS= read -r line; do
        if [ $found = 1 ]; then caret=$line; break; fi
        if [[ $line == "    "* && $line == *"$w"* ]]; then src=$line; found=1; fi
    done <"$err"
    local LC_ALL=C.UTF-8
    local before=${src%%"$w"*} cbefore=${caret%%^*}
    if [ $found = 0 ] || [[ $caret != *^* ]] || [ ${#before} -ne ${#cbefore} ]; then
        bad "the caret is not under '$w':" "$(head -4 "$err" | cat -A)"
    fi
}



runner=()
minimal='quiz t {
    title "T"
    single q1 { prompt "p" correct "a" wrong "b" }
}
'

# ---- Committed cases ---------------------------------------------------------

for exp in tests/hostile/cases/*.expect; do
    [ -e "$exp" ] || continue
    base=${exp%.expect}
    begin "$(basename "$base")"
    in=$dir/$(basename "$base").qz
    cp "$base.qz" "$in"
    want=$(head -1 "$exp")
    q "$want" 10 "$in" -o "$work/course.xml"
    [ "$want" -eq 0 ] && written
    tail -n +2 "$exp" | while IFS= read -r re; do
        [ -n "$re" ] && printf '%s\n' "${re//FILE/$in}"
    done >"$dir/patterns"
    while IFS= read -r re; do has "$re"; done <"$dir/patterns"
    end
done

# ---- Bytes that cannot be committed as text ----------------------------------

begin nul-byte
printf 'quiz t {\n  title "a\0b"\n  single q1 { prompt "p" correct "a" wrong "b" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:2:11: error: .*(NUL|null)"
end

begin invalid-utf8
printf 'quiz t {\n  title "a\377b"\n  single q1 { prompt "p" correct "a" wrong "b" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:2:11: error: .*UTF-8"
end

begin overlong-utf8
printf 'quiz t {\n  title "\xc0\xaf"\n  single q1 { prompt "p" correct "a" wrong "b" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:2:10: error: .*UTF-8"
end

begin utf8-surrogate
printf 'quiz t {\n  title "ok \xed\xa0\x80"\n  single q1 { prompt "p" correct "a" wrong "b" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:2:13: error: .*UTF-8"
end

begin bom-accepted
printf '\xef\xbb\xbf%s' "$minimal" >"$dir/in.qz"
q 0 10 "$dir/in.qz" -o "$work/course.xml"
written
end

begin bom-error-columns
# The BOM is not a character of line 1: `bogus` is at column 10.
printf '\xef\xbb\xbfquiz t { bogus\n  title "T"\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:1:10: error: "
end

begin crlf-accepted
printf '%s' "$minimal" | sed 's/$/\r/' >"$dir/in.qz"
q 0 10 "$dir/in.qz" -o "$work/course.xml"
written
end

begin crlf-error-columns
# Line 3 holds curly quotes and Indonesian: columns count characters, the \r is no column.
printf 'quiz t {\r\n  title "T"\r\n  single q1 { prompt "Apa “gelembung” itu?" corect "a" wrong "b" }\r\n}\r\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:45: error: "
grep -qa $'\r' "$err" && bad "a carriage return was echoed in the diagnostics"
caret_under corect
end

begin tabs-caret-aligned
printf 'quiz t {\n\ttitle "T"\n\tsingle q1 {\n\t\tpromt "p" correct "a" wrong "b"\n\t}\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:4:3: error: "
caret_under promt
end

# ---- Large inputs, made here --------------------------------------------------

# Write N copies of a line to stdout, fast.
repeat() { yes "$2" | head -n "$1"; }

begin string-5mb-accepted
{ printf 'quiz t {\n  title "T"\n  single q1 {\n    prompt "'
  head -c 5000000 /dev/zero | tr '\0' a
  printf '"\n    correct "a" wrong "b"\n  }\n}\n'; } >"$dir/in.qz"
q 0 10 "$dir/in.qz" -o "$work/course.xml"
written
[ "$(stat -c %s "$work/course.xml")" -gt 5000000 ] || bad "the 5 MB prompt did not reach the output"
end

begin line-5mb-error-at-its-end
# An error at the end of a 5 MB line: the diagnostic's source line must not cost quadratic time.
{ printf 'quiz t {\n  title "'
  head -c 5000000 /dev/zero | tr '\0' a
  printf '" bogus\n}\n'; } >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:2:5000012: error: "
end

begin unterminated-5mb-string
{ printf 'quiz t {\n  title "T"\n  intro "'
  head -c 5000000 /dev/zero | tr '\0' a; } >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:9: error: .*(unterminated|not closed|never closed)"
end

begin nested-braces-10000
{ printf 'quiz t {\n  title "T"\n  intro '
  head -c 10000 /dev/zero | tr '\0' '{'
  printf '\n'; } >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
[ "$(wc -l <"$err")" -lt 200 ] || bad "$(wc -l <"$err") lines of diagnostics for one mistake"
end

begin nested-braces-10000-balanced
{ printf 'quiz t {\n  title "T"\n'
  head -c 10000 /dev/zero | tr '\0' '{'
  head -c 10000 /dev/zero | tr '\0' '}'
  printf '\n}\n'; } >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
[ "$(wc -l <"$err")" -lt 200 ] || bad "$(wc -l <"$err") lines of diagnostics for one mistake"
end

begin choices-100000-accepted
# 100 000 choices in 25 000 questions: accepted, in a couple of seconds.
{ printf 'quiz t {\n  title "T"\n'
  awk 'BEGIN { for (i = 1; i <= 25000; i++)
      printf "  single q%d { prompt \"p%d\" correct \"a\" wrong \"b\" wrong \"c\" because \"no\" wrong \"d\" }\n", i, i }'
  printf '}\n'; } >"$dir/in.qz"
q 0 10 "$dir/in.qz" -o "$work/course.xml"
written
end

begin choices-100000-in-one-question
# One question cannot hold them (choices are named 0-9a-z in SCORM 1.2): one clear error, fast.
{ printf 'quiz t {\n  title "T"\n  single q1 {\n    prompt "p"\n    correct "a"\n'
  repeat 99999 '    wrong "b"'
  printf '  }\n}\n'; } >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
# Reported once, at the question or at the first choice past the limit, which is named.
has "in\.qz:(3:10|41:5): error: .*100000 choices"
has "in\.qz:41:5: (error|note): "
[ "$(grep -c 'error:' "$err")" -le 3 ] || bad "$(grep -c 'error:' "$err") errors for one mistake"
end

begin markdown-unclosed-emphasis
# 60 000 lone '*' and '**' openers on one line: Markdown spans are found in linear time.
{ printf 'quiz t {\n  title "T"\n  intro "'
  yes ' *a **b' | head -n 60000 | tr -d '\n'
  printf '"\n  truefalse a { prompt "p" answer true }\n}\n'; } >"$dir/in.qz"
q 0 5 "$dir/in.qz" -o "$work/course.xml"
written
end

begin markdown-unclosed-fences
# 40 000 opening fences that never close are plain text, found in linear time.
{ printf 'quiz t {\n  title "T"\n  intro """\n'
  repeat 40000 '    ```x'
  printf '    """\n  truefalse a { prompt "p" answer true }\n}\n'; } >"$dir/in.qz"
q 0 5 "$dir/in.qz" -o "$work/course.xml"
written
end

begin questions-50000-duplicate-ids
# Duplicate ids among many questions are found without quadratic time.
{ printf 'quiz t {\n  title "T"\n'
  awk 'BEGIN { for (i = 1; i <= 50000; i++)
      printf "  truefalse q%d { prompt \"p\" answer true }\n", (i == 50000 ? 1 : i) }'
  printf '}\n'; } >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:50002:[0-9]+: error: .*q1"
end

# ---- Includes and the file system ----------------------------------------------

# as_user CMD...: run without root's power to read and write anything (root has it in CI).
runner=()
can_drop=0
probe=$tmp/probe
echo x >"$probe" && chmod 000 "$probe"
if [ "$(id -u)" -ne 0 ]; then
    cat "$probe" >/dev/null 2>&1 || can_drop=1
elif command -v setpriv >/dev/null &&
    ! setpriv --bounding-set=-dac_override,-dac_read_search --inh-caps=-dac_override,-dac_read_search \
        -- cat "$probe" >/dev/null 2>&1; then
    can_drop=2
fi
drop() {
    if [ "$can_drop" = 2 ]; then
        runner=(setpriv --bounding-set=-dac_override,-dac_read_search --inh-caps=-dac_override,-dac_read_search --)
    else
        runner=()
    fi
}
no_drop_reason="running as root and setpriv cannot drop the capability to read any file"

begin include-cycle
printf 'quiz t {\n  title "T"\n  include "a.qz"\n}\n' >"$dir/in.qz"
printf 'truefalse a1 { prompt "p" answer true }\ninclude "b.qz"\n' >"$dir/a.qz"
printf 'truefalse b1 { prompt "p" answer true }\n  include "a.qz"\n' >"$dir/b.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "b\.qz:2:3: error: .*(cycle|circular)"
has "a\.qz.*b\.qz.*a\.qz"
end

begin include-self
printf 'quiz t {\n  title "T"\n  include "in.qz"\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:3: error: .*(cycle|circular|itself)"
end

begin include-folder
mkdir -p "$dir/sub.qz"
printf 'quiz t {\n  title "T"\n  include "sub.qz"\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:[0-9]+: error: .*sub\.qz.*(folder|directory)"
end

begin include-missing
printf 'quiz t {\n  title "T"\n  include "nope.qz"\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:[0-9]+: error: .*nope\.qz.*(No such file|not found|does not exist)"
end

begin include-unreadable
printf 'quiz t {\n  title "T"\n  include "secret.qz"\n}\n' >"$dir/in.qz"
printf 'truefalse s1 { prompt "p" answer true }\n' >"$dir/secret.qz"
chmod 000 "$dir/secret.qz"
if [ "$can_drop" = 0 ]; then
    skip "$no_drop_reason"
else
    drop
    q 1 10 "$dir/in.qz" -o "$work/course.xml"
    runner=()
    has "in\.qz:3:[0-9]+: error: .*secret\.qz.*Permission denied"
    end
fi

begin include-symlink-loop
ln -s loop.qz "$dir/loop.qz"
printf 'quiz t {\n  title "T"\n  include "loop.qz"\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:[0-9]+: error: .*loop\.qz.*(symbolic link|loop)"
end

begin include-bomb
# 30 files, each including the next twice: 2^30 loads unless a repeat is refused.
printf 'quiz t {\n  title "T"\n  include "l1.qz"\n  include "l1.qz"\n}\n' >"$dir/in.qz"
for i in $(seq 1 29); do printf 'include "l%d.qz"\ninclude "l%d.qz"\n' $((i + 1)) $((i + 1)) >"$dir/l$i.qz"; done
printf 'truefalse q { prompt "p" answer true }\n' >"$dir/l30.qz"
q 1 5 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:4:3: error: '[^']*/l1\.qz' is already included"
has "in\.qz:3:3: note: '[^']*/l1\.qz' is first included here"
end

begin include-chain-too-deep
# A chain of 5000 includes stops at a depth limit with one error, in bounded time and memory.
printf 'quiz t {\n  title "T"\n  include "f1.qz"\n}\n' >"$dir/in.qz"
for i in $(seq 1 4999); do printf 'include "f%d.qz"\n' $((i + 1)) >"$dir/f$i.qz"; done
printf 'truefalse q { prompt "p" answer true }\n' >"$dir/f5000.qz"
q 1 5 "$dir/in.qz" -o "$work/course.xml"
has "f100\.qz:1:1: error: includes are nested more than 100 deep"
[ "$(grep -c 'error:' "$err")" -eq 1 ] || bad "$(grep -c 'error:' "$err") errors for one chain"
end

begin include-fifo-not-waited-on
mkfifo "$dir/pipe.qz"
printf 'quiz t {\n  title "T"\n  include "pipe.qz"\n}\n' >"$dir/in.qz"
q 1 5 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:[0-9]+: error: .*pipe\.qz"
end

begin input-missing
q 1 10 "$dir/none.qz" -o "$work/course.xml"
has "none\.qz.*(No such file|not found|does not exist)"
end

begin input-is-a-folder
mkdir "$dir/d.qz"
q 1 10 "$dir/d.qz" -o "$work/course.xml"
has "d\.qz.*(folder|directory)"
end

# ---- Outputs that cannot be written --------------------------------------------

printf '%s' "$minimal" >"$tmp/ok.qz"

begin output-is-a-folder
mkdir "$dir/x.xml"
q 1 10 "$tmp/ok.qz" -o "$dir/x.xml"
has "x\.xml.*folder"
[ -z "$(ls -A "$dir/x.xml")" ] || bad "something was written into the folder"
[ "$(ls -A "$dir" | grep -v -e '^out$' -e '^std' -e '^x.xml$')" = "" ] || bad "files left beside the folder: $(ls -A "$dir")"
end

begin output-zip-is-a-folder
mkdir "$dir/x.zip"
q 1 10 "$tmp/ok.qz" -o "$dir/x.zip"
has "x\.zip.*folder"
[ -z "$(ls -A "$dir/x.zip")" ] || bad "something was written into the folder"
[ "$(ls -A "$dir" | grep -v -e '^out$' -e '^std' -e '^x.zip$')" = "" ] || bad "files left beside the folder: $(ls -A "$dir")"
end

begin output-zip-error-keeps-existing-package
printf 'SENTINEL %s\n' "$name" >"$dir/pkg.zip"
printf 'quiz t {\n  title "T"\n  single q1 { prompt "p" correct "a" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$dir/pkg.zip"
[ "$(cat "$dir/pkg.zip")" = "SENTINEL $name" ] || bad "the existing package was changed"
end

begin output-dir-error-keeps-existing-folder
mkdir -p "$dir/pkg"
printf 'old\n' >"$dir/pkg/keep.txt"
printf 'quiz t {\n  title "T"\n  single q1 { prompt "p" correct "a" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" --dir "$dir/pkg"
[ "$(ls -A "$dir/pkg")" = keep.txt ] && [ "$(cat "$dir/pkg/keep.txt")" = old ] || bad "the existing folder was changed"
end

begin output-folder-missing
q 1 10 "$tmp/ok.qz" -o "$work/nope/c.xml"
has "nope/c\.xml"
end

begin output-folder-unwritable
if [ "$can_drop" = 0 ]; then
    skip "$no_drop_reason"
else
    chmod 555 "$work"
    drop
    q 1 10 "$tmp/ok.qz" -o "$work/c.xml"
    runner=()
    chmod 755 "$work"
    has "c\.xml.*Permission denied"
    end
fi

begin output-file-read-only
if [ "$can_drop" = 0 ]; then
    skip "$no_drop_reason"
else
    chmod 444 "$work/course.xml"
    drop
    q 1 10 "$tmp/ok.qz" -o "$work/course.xml"
    runner=()
    chmod 644 "$work/course.xml"
    has "course\.xml.*Permission denied"
    end
fi

begin error-keeps-existing-output
printf 'quiz t {\n  title "T"\n  single q1 { prompt "p" correct "a" correct "b" }\n}\n' >"$dir/in.qz"
q 1 10 "$dir/in.qz" -o "$work/course.xml"
has "in\.qz:3:[0-9]+: error: "
end

begin error-writes-no-default-output
mkdir -p "$dir/src"
printf 'quiz t {\n  title "T"\n  promt "x"\n}\n' >"$dir/src/in.qz"
q 1 10 "$dir/src/in.qz"
[ "$(ls -A "$dir/src")" = in.qz ] || bad "files were written beside the quiz: $(ls -A "$dir/src")"
end

rm -f "$probe"
summary
