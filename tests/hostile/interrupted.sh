#!/usr/bin/env bash
# Interrupted runs leave nothing behind: SIGINT or SIGTERM at several moments
# of `quizc -o`, `quizc --dir`, `labrun --json/--svg/--trace` and
# `labrun --verify --record` ends the run by that signal with no temporary
# file or folder in the output's folder or in $TMPDIR and the previous output
# as it was; SIGXFSZ is ignored (a write past the size limit fails instead),
# so the run ends normally with a whole output.  The signal timings vary and
# the invariants are checked after each, whether the signal came before the
# writing, during it or after the run had ended.
#
#   tests/hostile/interrupted.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
root=$PWD
build=${1:-build}
suite=interrupted
. tests/hostile/lib/common.sh
case $build in /*) ;; *) build=$root/$build ;; esac
quizc=$build/quizc labrun=$build/labrun
[ -x "$quizc" ] && [ -x "$labrun" ] || { echo "interrupted: $quizc or $labrun is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-interrupted-XXXXXX")
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill -9 -- "-$p" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
export OPENBLAS_NUM_THREADS=1
hostile_scale 4
command -v setsid >/dev/null || { echo "interrupted: setsid is missing"; exit 1; }

name= ok= d= err= rc=
begin() { name=$1 ok=1 d=$tmp/$1 err=$tmp/$1.err; mkdir -p "$d/out" "$d/tmpdir"; }
snap() { (cd "$1" && find . -printf '%p %y %s\n' | sort && find . -type f -exec md5sum {} + | sort); }

# A quiz long enough that the writing takes a while (10 000 questions).
python3 - "$tmp/big.qz" <<'EOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write('quiz big {\n    title "Big"\n')
    for i in range(10000):
        f.write(f'    single q{i} {{\n        prompt "Question {i}: which holds?"\n'
                f'        correct "This one, number {i}"\n        wrong "Not this"\n    }}\n')
    f.write("}\n")
EOF
# A claim whose lab runs for a long time, for --verify --record.
cat >"$tmp/slow.qz" <<'EOF'
quiz slow {
    title "Slow"
    single s {
        prompt "Slow?"
        correct "Yes"
        wrong "No"
        lab bubble (stages = 4, microbatches = 8, hidden = 1024, batch = 256, steps = 1000)
            expect bubble_fraction >= 0
    }
}
EOF

# interrupt SIG DELAY PROGRAM ARGS...: start PROGRAM in its own process group
# with TMPDIR=$d/tmpdir, wait until it catches SIGINT and SIGTERM, wait DELAY
# seconds more, send SIG to the group (as a terminal's Ctrl-C does), and set
# rc to how it ended.  Whatever is still running is then killed.
interrupt() {
    local sig=$1 delay=$2; shift 2
    TMPDIR=$d/tmpdir setsid "$@" >"$d/stdout" 2>"$err" &
    local pid=$! i=0 mask=$(( (1 << (2 - 1)) | (1 << (15 - 1)) )) caught
    pids+=("$pid")
    while [ $i -lt $((300 * scale)) ] && kill -0 "$pid" 2>/dev/null; do
        caught=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
        [ -n "$caught" ] && [ $(( 0x$caught & mask )) -eq $mask ] && break
        sleep 0.02; i=$((i + 1))
    done
    sleep "$delay"
    # SIGXFSZ goes to the process (the kernel sends it to the writer, never to a
    # group; the group would also hit a sanitizer's leak-check tracer).
    if [ "$sig" = XFSZ ]; then kill -XFSZ "$pid" 2>/dev/null; else kill -"$sig" -- "-$pid" 2>/dev/null; fi
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt $((600 * scale)) ]; do sleep 0.05; i=$((i + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
        bad "still running $((30 * scale)) s after SIG$sig"
        kill -9 -- "-$pid" 2>/dev/null
    fi
    wait "$pid"
    rc=$?
    kill -9 -- "-$pid" 2>/dev/null    # a lab's child still running
    grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$err" && bad "sanitizer report:" "$(head -20 "$err")"
}

# ended SIG: the run ended by SIG (its exit status says so) or had already finished (0).
ended() {
    local want=$((128 + $(kill -l "$1")))
    [ "$rc" -eq "$want" ] || [ "$rc" -eq 0 ] || bad "SIG$1: exit status $rc, expected $want or 0:" "$(tail -3 "$err")"
}

# No temporary beside the output or in $TMPDIR.
clean() {
    local left
    left=$(find "$d/out" -maxdepth 1 -name '.*.??????'; find "$d/tmpdir" -mindepth 1)
    [ -z "$left" ] || bad "SIG$1 after $2 s: left behind: $left"
}

# ---- quizc ------------------------------------------------------------------

# quizc_case CHECK ARGS... (after begin): the previous output is made by a
# first run (a package) or is a sentinel file; after each signal it is as it
# was, or CHECK accepts the new output (the run finished, or the signal came
# after the output was in place), never anything in between.
quizc_case() {
    local check=$1; shift
    for sig in INT TERM XFSZ; do
        for delay in 0.05 0.3 1.0; do
            [ "$sig" = XFSZ ] && [ "$delay" != 0.3 ] && continue
            rm -rf "$d/out" && mkdir "$d/out"
            "$prepare"
            local before
            before=$(snap "$d/out")
            interrupt "$sig" "$delay" "$quizc" "$tmp/big.qz" "$@"
            if [ "$sig" = XFSZ ]; then
                [ "$rc" -eq 0 ] || bad "SIGXFSZ: exit status $rc, expected 0 (ignored):" "$(tail -3 "$err")"
            else
                ended "$sig"
            fi
            if [ "$rc" -eq 0 ]; then
                "$check" || bad "SIG$sig after $delay s: finished, but the output is not whole"
            elif [ "$(snap "$d/out")" != "$before" ]; then
                # Stopped after the output was put in place (while quizc ends): then it is whole.
                "$check" || bad "SIG$sig after $delay s: the previous output changed and the new one is not whole"
            fi
            clean "$sig" "$delay"
        done
    done
    end
}

sentinel() { echo SENTINEL >"$d/out/big.xml"; echo SENTINEL >"$d/out/big.zip"; }
old_package() { "$quizc" "$root/tests/data/verify/pass.qz" -L "$root/labs" --dir "$d/out/pkg" 2>/dev/null || bad "no first package"; }
xml_whole() { xmllint --noout --huge "$d/out/big.xml" 2>/dev/null; }
zip_whole() { unzip -tq "$d/out/big.zip" >/dev/null 2>&1; }
pkg_whole() { grep -q 'q9999' "$d/out/pkg/course.xml" 2>/dev/null && [ -f "$d/out/pkg/.quizc-package" ]; }

prepare=sentinel
begin quizc-o-course-xml
quizc_case xml_whole -o "$d/out/big.xml"
begin quizc-o-scorm-zip
quizc_case zip_whole -o "$d/out/big.zip"
prepare=old_package
begin quizc-dir-package
quizc_case pkg_whole --dir "$d/out/pkg"

# ---- labrun -----------------------------------------------------------------

# A lab that hangs in one rank: the signal comes during the run, before the reports.
begin labrun-json-svg-trace
small=(--stages 4 --microbatches 4 --hidden 16 --batch 4 --steps 1 -q)
for sig in INT TERM; do
    for delay in 0.05 0.5; do
        rm -rf "$d/out" && mkdir "$d/out"
        for f in r.json r.svg t.json; do echo SENTINEL >"$d/out/$f"; done
        before=$(snap "$d/out")
        interrupt "$sig" "$delay" "$labrun" "$root/labs/bubble" "${small[@]}" --inject-fault hang@1 \
            --json "$d/out/r.json" --svg "$d/out/r.svg" --trace "$d/out/t.json"
        [ "$rc" -eq $((128 + $(kill -l $sig))) ] || bad "SIG$sig: exit status $rc"
        [ "$(snap "$d/out")" = "$before" ] || bad "SIG$sig after $delay s: a previous report changed"
        clean "$sig" "$delay"
    done
done
# SIGXFSZ is ignored: the run ends normally with whole reports.
rm -rf "$d/out" && mkdir "$d/out"
interrupt XFSZ 0.05 "$labrun" "$root/labs/bubble" "${small[@]}" --json "$d/out/r.json" --svg "$d/out/r.svg"
[ "$rc" -eq 0 ] || bad "SIGXFSZ: exit status $rc, expected 0 (ignored)"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$d/out/r.json" 2>/dev/null || bad "SIGXFSZ: the JSON report is not whole"
clean XFSZ 0.05
end

# --verify --record: the pieces gathered in $TMPDIR go with the run.
begin labrun-verify-record
for sig in INT TERM; do
    for delay in 0.05 0.5 1.5; do
        rm -rf "$d/out" && mkdir "$d/out"
        echo SENTINEL >"$d/out/runs.json"
        before=$(snap "$d/out")
        interrupt "$sig" "$delay" "$labrun" --verify "$tmp/slow.qz" -L "$root/labs" --record "$d/out/runs.json"
        [ "$rc" -eq $((128 + $(kill -l $sig))) ] || bad "SIG$sig after $delay s: exit status $rc"
        sleep 0.2   # a lab's child, killed with the group, is gone
        [ "$(snap "$d/out")" = "$before" ] || bad "SIG$sig after $delay s: the previous runs file changed"
        clean "$sig" "$delay"
    done
done
end

summary
