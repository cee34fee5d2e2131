#!/usr/bin/env bash
# Labs held to what their code admits, and labrun's small promises:
#   - parameter pairs a lab cannot run together are usage errors (exit 2) that
#     name both, not runs that pass having measured nothing;
#   - a lab.qz found on disk may narrow the ranges the lab's code is built
#     for, never widen them: a wider one is refused at its line, naming the
#     parameter and both ranges (labrun and --verify);
#   - a run too large for memory ends in a clean error saying what it needs;
#   - a manifest's control characters (ESC sequences, CR, backspace, BEL, a
#     C1 CSI) print inert in --list, --help and the report;
#   - labrun --verify stops a lab run past --timeout and names its lab line.
#
#   tests/hostile/labs.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=labs
. tests/hostile/lib/common.sh
labrun=$build/labrun
[ -x "$labrun" ] || { echo "labs: $labrun is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-labs-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
hostile_scale 3

name= ok= err= out= rc=
begin() { name=$1 ok=1 err=$tmp/$1.err out=$tmp/$1.out; }

# run WANT_RC SECONDS ARGS...: labrun with a hard bound on its time.
run() {
    local want=$1 limit=$(($2 * scale)); shift 2
    timeout -k 2 "$limit" "$labrun" "$@" >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        bad "still running after ${limit}s: a hang"
    elif [ $rc -ne "$want" ]; then
        bad "exit status $rc, expected $want:" "$(tail -5 "$err")"
    fi
}
has() { grep -qaF -- "$1" "$err" || bad "stderr does not hold '$1':" "$(tail -5 "$err")"; }
out_has() { grep -qaF -- "$1" "$out" || bad "stdout does not hold '$1':" "$(head -5 "$out")"; }
# No raw control character but newline and tab, and no C1 control, in FILE.
inert() {
    if LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"; then
        bad "$(basename "$1") holds a raw control character:" "$(LC_ALL=C grep -naP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" | head -2 | cat -A)"
    fi
}

# ---- pairs of values a lab cannot run together --------------------------------

begin allreduce-minbytes-over-maxbytes-is-a-usage-error
run 2 20 labs/allreduce --minbytes 4096 --maxbytes 1024
has "--minbytes 4096 is more than --maxbytes 1024"
[ -s "$out" ] && bad "a report was printed: $(head -2 "$out")"
end

begin allreduce-aliases-take-the-same-check
run 2 20 labs/allreduce -b 4096 -e 1024
has "--minbytes 4096 is more than --maxbytes 1024"
end

begin allreduce-maxbytes-under-one-element-is-a-usage-error
run 2 20 labs/allreduce --minbytes 0 --maxbytes 4 --dtype fp64
has "--maxbytes 4 is less than one fp64 element (8 bytes)"
end

begin allreduce-equal-sizes-still-run
run 0 60 labs/allreduce --ranks 2 --minbytes 1024 --maxbytes 1024 --iters 1 -q
end

begin activations-fewer-layers-than-stages-is-a-usage-error
run 2 20 labs/activations --stages 8 --layers 4
has "--layers 4 is fewer than --stages 8"
end

begin bubble-microbatches-against-stages-is-a-usage-error
run 2 20 labs/bubble --schedule interleaved --stages 4 --microbatches 6
has "--microbatches: '6' is not allowed with --stages 4"
end

begin bubble-chunks-without-interleaving-is-a-usage-error
run 2 20 labs/bubble --schedule 1f1b --chunks 4
has "--chunks 4 applies only to --schedule interleaved (this run: 1f1b"
run 0 60 labs/bubble --schedule 1f1b --chunks 1 --stages 2 --microbatches 2 --hidden 8 --batch 2 --steps 1 -q
end

begin memory-pp-over-layers-is-a-usage-error
run 2 20 labs/memory --pp 8 --layers 4
has "pp must not exceed layers"
end

begin tensor-split-more-ranks-than-columns-runs-and-checks
# Ranks beyond the ffn columns hold empty slices; the unsplit reference once
# wrote past its small weights here (hidden x ffn < tokens).
run 0 60 labs/tensor-split --mode mlp --ranks 6 --ffn 4 --hidden 4 --tokens 64 -q
end

# ---- a manifest on disk may narrow, never widen --------------------------------

mkdir -p "$tmp/wide/labs" "$tmp/narrow/labs"
cp -r labs/bubble "$tmp/wide/labs/" && cp -r labs/bubble "$tmp/narrow/labs/"
sed -i 's/in 1\.\.64 {/in 1..128 {/; s/in naive|gpipe|1f1b|interleaved|zb-h1 {/in naive|gpipe|1f1b|interleaved|zb-h1|zb-v {/' \
    "$tmp/wide/labs/bubble/lab.qz"
sed -i 's/in 1\.\.64 {/in 2..8 {/' "$tmp/narrow/labs/bubble/lab.qz"

begin a-wider-range-is-refused-naming-both-ranges
run 1 20 "$tmp/wide/labs/bubble" --stages 2 -q
has "lab.qz:16:11: error: lab bubble: parameter 'stages' allows 1..128 (default 4), more than the lab's code is written for: 1..64"
has "parameter 'schedule' allows naive|gpipe|1f1b|interleaved|zb-h1|zb-v"
end

begin a-wider-range-is-refused-when-found-along-the-path
run 1 20 bubble -L "$tmp/wide/labs" --stages 2 -q
has "parameter 'stages' allows 1..128"
end

begin a-narrower-range-is-kept-and-enforced
run 0 60 "$tmp/narrow/labs/bubble" --stages 2 --microbatches 2 --hidden 8 --batch 2 --steps 1 -q
run 2 20 "$tmp/narrow/labs/bubble" --stages 9
has "--stages: '9' is out of range; allowed: 2..8"
end

begin verify-refuses-a-wider-manifest-beside-the-quiz
cat >"$tmp/wide/quiz.qz" <<'EOF'
quiz wide {
    title "A lab folder beside the quiz"

    numeric n {
        prompt "p"
        answer 1 within 1
        lab bubble (stages = 2, microbatches = 2, hidden = 8, batch = 2, steps = 1)
            expect bubble_fraction > 0
    }
}
EOF
run 1 60 --verify "$tmp/wide/quiz.qz" -j 1
out_has "parameter 'stages' allows 1..128"
end

# ---- a run too large for memory ------------------------------------------------

begin a-run-too-large-for-memory-says-what-it-needs
run 1 20 labs/activations --hidden 4096 --tokens 4096 --layers 256 --microbatches 64 -q
has "activations: this run needs about"
has "TiB of memory, more than the"
end

# ---- control characters in a manifest print inert --------------------------------

mkdir -p "$tmp/ctl/labs"
cp -r tests/data/labs/hello "$tmp/ctl/labs/"
# ESC sequences (title, colour, clear screen), CR, backspace, BEL and a C1 CSI, as \u{} escapes.
sed -i 's/en: "Hello, all-reduce/en: "\\u{1b}]0;owned\\u{7}\\u{1b}[31mRED\\u{1b}[0m\\u{d}Hello\\u{8}!\\u{9b}2J, all-reduce/;
        s/en: "ranks taking part"/en: "ranks \\u{1b}[2Jtaking\\u{d} part\\u{7}"/;
        s/unit "B"/unit "B\\u{1b}[5m"/' "$tmp/ctl/labs/hello/lab.qz"

begin list-shows-control-characters-inert
run 0 20 --list -L "$tmp/ctl/labs"
inert "$out"
out_has 'hello          \x1b]0;owned\x07\x1b[31mRED\x1b[0m\x0dHello\x08!\u009b2J, all-reduce'
end

begin help-shows-control-characters-inert
run 0 20 "$tmp/ctl/labs/hello" --help
inert "$out"
out_has '\x1b]0;owned\x07'
out_has 'ranks \x1b[2Jtaking\x0d part\x07 (default 4)'
end

begin the-report-shows-control-characters-inert
run 0 60 "$tmp/ctl/labs/hello" --ranks 2 --count 4
inert "$out"
out_has 'lab hello: \x1b]0;owned\x07'
end

# ---- labrun --verify --timeout -------------------------------------------------

cat >"$tmp/slow.qz" <<'EOF'
quiz slow {
    title "One run far too long for its time limit"

    numeric n {
        prompt "p"
        answer 1 within 1
        lab allreduce (ranks = 2, minbytes = 64, maxbytes = 64, iters = 1)
            expect wrong == 0
        lab bubble (steps = 1000, hidden = 1024, batch = 256)
            expect bubble_fraction > 0
    }
}
EOF

begin verify-stops-a-run-past-its-timeout-and-names-it
# The bubble run needs minutes; the allreduce run beside it well under a second
# on an idle machine, so the limit leaves it room on a busy one.
limit=$((5 * scale))
run 1 120 --verify "$tmp/slow.qz" --timeout "$limit" -j 2
has "slow.qz:9:9: lab bubble (steps=1000, hidden=1024, batch=256): ran longer than --timeout $limit s; stopped"
out_has "the lab run took longer than --timeout $limit s and was stopped"
grep -qE '^n +\| allreduce .*\| PASS' "$out" || bad "the quick run's claim did not pass beside it"
end

begin verify-timeout-takes-only-seconds
run 2 10 --verify "$tmp/slow.qz" --timeout 0
has "--timeout: '0' is not a number of seconds > 0"
run 2 10 --verify "$tmp/slow.qz" --timeout=soon
has "--timeout: 'soon' is not a number of seconds > 0"
end

begin verify-help-names-the-timeout
run 0 10 --verify --help
out_has "--timeout S"
end

summary
