#!/usr/bin/env bash
# run.sh — every benchmark of `make bench`, one after the other, on this
# machine; the figures go to $OUT/*.json, then report.mjs turns them into
# $OUT/results.json and the table.
#
#   bench/run.sh OUT QUIZC LABRUN BENCH_BIN_DIR
#
# Nothing here is a test: figures are measured and reported, never asserted.
# PAIRS (default 5) is how many interleaved pairs each compiler ratio takes;
# QUESTIONS (default 100000) sizes the banks.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$1 quizc=$2 labrun=$3 bin=$4
pairs=${PAIRS:-5} questions=${QUESTIONS:-100000}
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

# quizc --check (whole process: start-up, read, parse, checks) against
# gift-pegjs's parse() of the same questions (node times parse() alone).
# quizc --check takes well under a second, gift-pegjs's parse most of a
# minute: a passing burst of other work lands on one short run far more
# than on the long one.  So each pair's quizc figure is the middle of three
# runs back to back (report.mjs), the long run's its one run.
for i in $(seq "$pairs"); do
    say "pair $i of $pairs: quizc --check (three runs), gift-pegjs parse"
    for k in 1 2 3; do
        "$runstat" -q -o "$out/quizc_check_${i}_$k.json" -- "$quizc" --check "$out/bank.qz"
    done
    "$runstat" -o "$out/gift_process_$i.json" -- node bench/gift_parse.mjs "$out/bank.gift" \
        > "$out/gift_parse_$i.json"
done
# The full compile to course.xml against libxml2 reading that same document.
for i in $(seq "$pairs"); do
    say "pair $i of $pairs: quizc -o course.xml, xmllint --stream --noout course.xml"
    "$runstat" -q -o "$out/quizc_compile_$i.json" -- "$quizc" "$out/bank.qz" -o "$out/course.xml"
    "$runstat" -q -o "$out/xmllint_stream_$i.json" -- xmllint --stream --noout "$out/course.xml"
done
# Peak memory on a bank of another shape (peak RSS varies little: three runs).
for i in 1 2 3; do
    say "quizc --check and -o course.xml on the English-only bank, run $i of 3"
    "$runstat" -q -o "$out/quizc_mono_check_$i.json" -- "$quizc" --check "$out/mono.qz"
    "$runstat" -q -o "$out/quizc_mono_compile_$i.json" -- "$quizc" "$out/mono.qz" -o "$out/mono.xml"
done
rm -f "$out/mono.xml"
# A small quiz as a whole process: the seed quiz to a SCORM zip.  The
# documents above (some 400 MB) are still on their way to the disk, and a
# 20 ms run that renames its file meanwhile waits on that: sync first, so
# this figure is the compiler's and not the previous step's writeback.
say "the seed quiz to a SCORM zip, 15 runs"
sync
for i in $(seq 15); do
    "$runstat" -q -o "$out/quizc_seed_$i.json" -- "$quizc" quizzes/paralelisme.qz -o "$out/seed.zip"
done

# ---- The labs' runtime on the cpu backend -----------------------------------
say "memcpy, threads all-reduce, split GEMM, zero-work pipeline"
ranks=$(nproc)
"$bin/bench_labs" -o "$out/labs.json" --ranks "$ranks" --stages 2 --microbatches 8
# The zero-work pipeline again with four stages (more ranks than cores here).
"$bin/bench_labs" -o "$out/labs_p4.json" --ranks "$ranks" --stages 4 --microbatches 8 --size 16 \
    2>&1 | grep pipeline >&2 || true

say "Open MPI MPI_Allreduce, $ranks ranks"
mpirun --allow-run-as-root --oversubscribe -np "$ranks" "$bin/bench_mpi_allreduce" -o "$out/mpi.json"

node bench/report.mjs "$out"
