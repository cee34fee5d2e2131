#!/usr/bin/env bash
# run.sh — every benchmark of `make bench`, one after the other, on this
# machine; the figures go to $OUT/*.json, then report.mjs turns them into
# $OUT/results.json and the table.
#
#   bench/run.sh OUT QUIZC LABRUN BENCH_BIN_DIR
#
# Nothing here is a test: figures are measured and reported, never asserted.
# REPS (default 3) is how often the quick measurements repeat (the best run
# counts); the slow GIFT parse runs twice.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$1 quizc=$2 labrun=$3 bin=$4
reps=${REPS:-3}
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

# ---- The compiler against gift-pegjs ----------------------------------------
say "generating the 100000-question bank (.qz and GIFT)"
"$bin/gen_bank" -n 100000 "$out/bank.qz" "$out/bank.gift"

# quizc --check and the full compile, whole processes (start-up, reading,
# parsing, checks, and for the compile the XML written to disk).
for i in $(seq "$reps"); do
    say "quizc --check, run $i of $reps"
    "$runstat" -q -o "$out/quizc_check_$i.json" -- "$quizc" --check "$out/bank.qz"
done
for i in $(seq "$reps"); do
    say "quizc -o course.xml, run $i of $reps"
    "$runstat" -q -o "$out/quizc_compile_$i.json" -- "$quizc" "$out/bank.qz" -o "$out/course.xml"
done

# gift-pegjs: node times parse() alone inside the process; runstat times the
# whole process (node's start-up and the file read included).
for i in 1 2; do
    say "gift-pegjs parse of the GIFT bank, run $i of 2 (slow)"
    "$runstat" -o "$out/gift_process_$i.json" -- node bench/gift_parse.mjs "$out/bank.gift" \
        > "$out/gift_parse_$i.json"
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

say "bubble lab: p in 2 4, m in 4 8 16, gpipe and 1f1b"
for sched in gpipe 1f1b; do
    for p in 2 4; do
        for m in 4 8 16; do
            "$labrun" labs/bubble --stages "$p" --microbatches "$m" --schedule "$sched" \
                --steps 5 --json "$out/bubble_${sched}_p${p}_m${m}.json" > /dev/null
        done
    done
done

node bench/report.mjs "$out"
