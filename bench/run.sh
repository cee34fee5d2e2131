#!/usr/bin/env bash
# run.sh — every benchmark of `make bench`, one after the other, on this
# machine; the figures go to $OUT/*.json, then report.mjs turns them into
# $OUT/results.json and the table.
#
#   bench/run.sh OUT QUIZC LABRUN BENCH_BIN_DIR [WEB_MODULE]
#
# Nothing here is a test: figures are measured and reported, never asserted.
# Each compiler ratio takes PAIRS interleaved pairs (default 5), and more, up
# to PAIRS_MAX (default 11), while they are not steady (pairs.mjs): a burst of
# other work on a shared host can slow one side of several pairs in a row.
# The all-reduce ratio is taken the same way.
# QUESTIONS (default 100000) sizes the banks.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$1 quizc=$2 labrun=$3 bin=$4 web_module=${5:-}
pairs=${PAIRS:-5} pairs_max=${PAIRS_MAX:-11} questions=${QUESTIONS:-100000}
check_runs=${CHECK_RUNS:-10} compile_runs=${COMPILE_RUNS:-3}
mkdir -p "$out"
runstat=$bin/runstat

say() { printf '%s\n' "bench: $*" >&2; }

# ---- The machine -----------------------------------------------------------
{
    printf '{"nproc": %s, ' "$(nproc)"
    printf '"cpu": "%s", ' "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1 | tr -d '"\\')"
    printf '"mem_kib": %s, ' "$(sed -n 's/^MemTotal: *\([0-9]*\) kB/\1/p' /proc/meminfo)"
    printf '"kernel": "%s", ' "$(uname -r)"
    printf '"node": "%s", ' "$(node --version)"
    printf '"mpirun": "%s", ' "$(mpirun --version 2>/dev/null | head -1 | tr -d '"\\')"
    printf '"loadavg": "%s", ' "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf '"date": "%s"}\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} > "$out/machine.json"

# ---- The compiler ------------------------------------------------------------
# Every ratio comes from interleaved pairs (A B A B ...), so both sides of a
# pair see the same machine; report.mjs takes the median of the pair ratios
# and their spread.  Seconds are kept beside them, never used as targets.
say "generating the $questions-question banks: bilingual (.qz and GIFT) and English-only"
"$bin/gen_bank" -n "$questions" "$out/bank.qz" "$out/bank.gift"
"$bin/gen_bank" -n "$questions" -m "$out/mono.qz" "$out/mono.gift"
# Some 400 MB just written: on the disk before anything is timed.
sync

# Whether a ratio's pairs so far are enough: at least $pairs, and steady or $pairs_max.
enough() {
    [ "$2" -ge "$pairs" ] && { [ "$2" -ge "$pairs_max" ] || node bench/pairs.mjs "$out" "$1"; }
}
# Files of an earlier run with more pairs would be read as pairs of this one.
rm -f "$out"/quizc_check_* "$out"/gift_p* "$out"/quizc_compile_* "$out"/xmllint_stream_*

# quizc --check (whole process: start-up, read, parse, checks) against
# gift-pegjs's parse() of the same questions (node times parse() alone).
#
# The parse takes a quarter of a minute and quizc's check a third of a
# second: one run of each would sample the shared host's speed over windows
# fifty times apart.  So a pair's quizc figure is the mean of CHECK_RUNS
# (default 10) runs just before the parse and as many just after it
# (pairs.mjs), some eight seconds of the host around the parse's fifteen.
# A middle of three runs before the parse moved the pair's ratio with
# every burst of the host's other work (doc/performance.md).
#
# Memory that has stayed free for a second or two may be handed back to the
# host (a VM's free page reporting); the next process to touch it waits for
# the host to fault it in again.  After gift-pegjs's run the first quizc
# takes 0.43-0.55 s, the next ones 0.32 s (medians on the 2-core VM of
# doc/performance.md).  So each side of the parse starts with one quizc run
# of its own, kept apart as a "first run" (reported, never in a ratio).
#
# node runs with V8's --single-threaded: its garbage collector then works on
# the parse's own thread, as quizc works on one.  On the quiet machine the
# parse takes as long as with V8's helper threads (12.4-12.6 s against
# 12.3-13.0 s, interleaved), and a busy host disturbs it far less
# (doc/performance.md).
check_side() {   # pair, the first of its runs on this side, the first run's name
    "$runstat" -q -o "$out/$3.json" -- "$quizc" --check "$out/bank.qz"
    for ((k = $2; k < $2 + check_runs; k++)); do
        "$runstat" -q -o "$out/quizc_check_${1}_$k.json" -- "$quizc" --check "$out/bank.qz"
    done
}
for ((i = 1; ; i++)); do
    say "pair $i: quizc --check (a first run, then $check_runs), gift-pegjs parse, quizc --check (the same)"
    check_side "$i" 1 "quizc_check_first_$i"
    "$runstat" -o "$out/gift_process_$i.json" -- node --single-threaded bench/gift_parse.mjs "$out/bank.gift" \
        > "$out/gift_parse_$i.json"
    check_side "$i" $((check_runs + 1)) "quizc_check_after_gift_first_$i"
    enough check "$i" && break
done
# The full compile to course.xml against libxml2 reading that same document;
# each pair's compiles after a first one of its own, as above.  A pair
# starts with nothing on its way to the disk (sync), so that it does not
# share the disk with the writeback of the pairs before it.
#
# The host runs either side at one of two speeds, some 1.6 times apart, and
# changes between them from second to second: one compile beside one
# xmllint gave pair ratios from 0.72 to 2.29 in one run
# (doc/performance.md).  So a pair alternates COMPILE_RUNS (default 3) of
# each, compile then xmllint, and its ratio is their means' (pairs.mjs).
for ((i = 1; ; i++)); do
    say "pair $i: quizc -o course.xml (a first run), then $compile_runs times quizc -o course.xml and xmllint --stream --noout course.xml"
    sync
    "$runstat" -q -o "$out/quizc_compile_first_$i.json" -- "$quizc" "$out/bank.qz" -o "$out/course.xml"
    for ((k = 1; k <= compile_runs; k++)); do
        "$runstat" -q -o "$out/quizc_compile_${i}_$k.json" -- "$quizc" "$out/bank.qz" -o "$out/course.xml"
        "$runstat" -q -o "$out/xmllint_stream_${i}_$k.json" -- xmllint --stream --noout "$out/course.xml"
    done
    enough compile "$i" && break
done
# Peak memory on the English-only bank and on banks of other shapes
# (gen_bank's options; a third of the questions, some 30 MB each): peak RSS
# varies little, so three runs each, of --check and of the compile.
shapes=(
    "english-only|-m"
    "short-prompts-many-choices-feedback-each|-p short -c many -f every"
    "english-only-long-prompts-few-choices-no-feedback-labs|-m -p long -c few -f none -l"
    "long-prompts-few-choices-labs|-p long -c few -l"
)
rm -f "$out"/quizc_shape_*
printf '[' > "$out/shapes.json"
for k in "${!shapes[@]}"; do
    name=${shapes[$k]%%|*} opts=${shapes[$k]#*|}
    if [ "$name" = english-only ]; then
        qz=$out/mono.qz
    else
        qz=$out/shape_$k.qz
        # shellcheck disable=SC2086 # the options are words
        "$bin/gen_bank" -n $((questions / 3)) $opts "$qz" "$out/shape_$k.gift"
    fi
    printf '%s{"name": "%s", "options": "%s", "qz": "%s", "bytes": %s}' "$([ "$k" = 0 ] || echo ,)" \
        "$name" "$opts" "$(basename "$qz")" "$(stat -c %s "$qz")" >> "$out/shapes.json"
    for i in 1 2 3; do
        say "quizc --check and -o course.xml on the $name bank, run $i of 3"
        "$runstat" -q -o "$out/quizc_shape_${k}_check_$i.json" -- "$quizc" --check "$qz"
        "$runstat" -q -o "$out/quizc_shape_${k}_compile_$i.json" -- "$quizc" "$qz" -o "$out/shape.xml"
    done
done
printf ']\n' >> "$out/shapes.json"
rm -f "$out/shape.xml" "$out"/shape_*.qz "$out"/shape_*.gift
# A small quiz as a whole process: the seed quiz to a SCORM zip.  The
# documents above (some 400 MB) are still on their way to the disk, and a
# 20 ms run that renames its file meanwhile waits on that: sync first, so
# this figure is the compiler's and not the previous step's writeback.
# Its formulas' MathML comes from quizc's cache after the first run, as when
# a teacher compiles again (compiler/mathcache.h): that first run, with an
# empty cache of its own, starts Node.js and is kept apart.
say "the seed quiz to a SCORM zip, a first run and 15 more"
sync
rm -rf "$out/cache"
export QUIZC_CACHE=$out/cache
"$runstat" -q -o "$out/quizc_seed_first.json" -- "$quizc" quizzes/paralelisme.qz -o "$out/seed.zip"
for i in $(seq 15); do
    "$runstat" -q -o "$out/quizc_seed_$i.json" -- "$quizc" quizzes/paralelisme.qz -o "$out/seed.zip"
done
export QUIZC_CACHE=off

# ---- The labs' runtime on the cpu backend -----------------------------------
say "memcpy, split GEMM, zero-work pipeline"
ranks=$(nproc)
"$bin/bench_labs" -o "$out/labs.json" --only memcpy,split,pipeline --ranks "$ranks" --stages 2 --microbatches 8
# The zero-work pipeline again with four stages (more ranks than cores here).
"$bin/bench_labs" -o "$out/labs_p4.json" --only pipeline --ranks "$ranks" --stages 4 --microbatches 8 --size 16 \
    2>&1 | grep pipeline >&2 || true

# The threads all-reduce against Open MPI's MPI_Allreduce, 4 KiB-64 MiB, in
# interleaved pairs as the compiler's ratios (a pair's figure is its worst
# size, pairs.mjs).  Rank r runs on core r on both sides: mpirun binds each
# process to a core, bench_labs pins each rank's thread the same way.  The
# threads side's 64 MiB trials each follow one thread's memcpy of 64 MiB,
# the reference of its 64 MiB busbw (report.mjs).
rm -f "$out"/allreduce_threads_* "$out"/allreduce_mpi_*
for ((i = 1; ; i++)); do
    say "pair $i: threads all-reduce, Open MPI MPI_Allreduce, $ranks ranks"
    "$bin/bench_labs" -o "$out/allreduce_threads_$i.json" --only allreduce --ranks "$ranks"
    mpirun --allow-run-as-root --oversubscribe --bind-to core -np "$ranks" "$bin/bench_mpi_allreduce" \
        -o "$out/allreduce_mpi_$i.json"
    enough allreduce "$i" && break
done

# ---- The labs in the browser (build/web, when emscripten built it) ----------
if [ -f "$web_module" ]; then
    say "the labs in headless chromium: every lab line, and the web GEMM against one OpenBLAS thread"
    node bench/web.mjs "$out" "$quizc" "$web_module" "$bin/bench_gemm"
else
    say "no $web_module (emscripten is not installed): no browser figures"
    rm -f "$out/web.json"
fi

node bench/report.mjs "$out"
