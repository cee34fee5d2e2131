#!/usr/bin/env bash
# The prepared GPU check, for a machine with an NVIDIA GPU:
#
#     tests/gpu/run.sh [OUTDIR]        (default: $OUT when set, else build/gpu-check)
#
#   1. build with CUDA (make BUILD=build/gpu), nvcc and NCCL found;
#   2. the GPU unit tests (tests/gpu/*.c: cuda device vs cpu device,
#      shared-GPU and NCCL communicators vs serial sums);
#   3. every lab on --backend cuda, each checking itself against its CPU
#      reference (abs + rel tolerance), and on --backend cpu beside it;
#   4. tensor-split throughput: the Megatron MLP split over 1, 2, 4, 8 ranks
#      against one cuBLAS GEMM pair of the same total size on one GPU
#      (the lab's unsplit row);
#   5. an all-reduce sweep (nccl-tests conventions) over the GPUs there are.
#
# Writes OUTDIR/results.md (a table of every step, then each report) and
# OUTDIR/results.json ({"machine", "steps": [...], "reports": {...}}).
# Each step has its own time limit; the whole stays under 8 minutes.
# Exit status 0 when every step passed.
set -u
cd "$(dirname "$0")/../.."
out=${1:-${OUT:-build/gpu-check}}
mkdir -p "$out/reports"
build=${GPU_CHECK_BUILD:-build/gpu}
labrun=$build/labrun
start=$(date +%s)
steps=()          # "name|status|seconds|detail"
json_steps=()

now() { date +%s.%N; }
esc() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' <<<"$1" | tr '\n\t' '  '; }

# step NAME LIMIT_S CMD...: run one step, record PASS/FAIL/SKIP and its time.
step() {
    local name=$1 limit=$2; shift 2
    local log="$out/reports/$(tr -c 'A-Za-z0-9_.-' '_' <<<"$name").log"
    local t0 t1 rc status detail
    t0=$(now)
    timeout "$limit" "$@" >"$log" 2>&1
    rc=$?
    t1=$(now)
    if [ $rc -eq 0 ]; then status=PASS; else status=FAIL; fi
    [ $rc -eq 124 ] && status="FAIL (over ${limit} s)"
    # Criterion: skipped tests are not passes; say so.
    if grep -q '^\[SKIP\]' "$log" && ! grep -q '^\[PASS\]' "$log"; then status=SKIP; fi
    detail=$(grep -aE 'Synthesis|passed, [0-9]+ failed|^labrun: error|error:' "$log" | tail -1)
    local secs
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    steps+=("$name|$status|$secs|$detail")
    json_steps+=("{\"name\": \"$(esc "$name")\", \"status\": \"$(esc "$status")\", \"seconds\": $secs, \"detail\": \"$(esc "$detail")\", \"log\": \"reports/$(basename "$log")\"}")
    printf '%-58s %-8s %6s s  %s\n' "$name" "$status" "$secs" "$detail"
}

# A metric of a labrun --json file (the first match), or "-".
metric() { grep -oE "\"$2\": *[-0-9.eE+]+" "$1" 2>/dev/null | head -1 | sed -E 's/.*: *//' || true; }

machine="$(uname -n) $(nproc) cores; $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null | sort | uniq -c | sed -E 's/^ +//' | paste -sd';' -)"
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
echo "machine: $machine"

# 1. Build (GPU tests included); the ✓/✗ lines go to the log.
step "build (make BUILD=$build)" 300 make -j"$(nproc)" BUILD=$build all $build/tests/gpu/dev_cuda $build/tests/gpu/comm_cuda
grep -hE '✓|✗' "$out"/reports/build*.log 2>/dev/null | sort -u

if [ -x "$labrun" ]; then
    # 2. GPU unit tests.
    for t in dev_cuda comm_cuda; do
        step "unit tests: $t" 120 "$build/tests/gpu/$t" --verbose
    done

    # 3. Every lab on cuda, and on cpu beside it (small sizes where a lab has them).
    for dir in labs/*/; do
        lab=$(basename "$dir")
        step "lab $lab --backend cuda" 60 "$labrun" "$dir" --backend cuda --quiet --json "$out/reports/$lab.cuda.json"
        step "lab $lab --backend cpu" 60 "$labrun" "$dir" --backend cpu --quiet --json "$out/reports/$lab.cpu.json"
    done
    for sched in naive gpipe 1f1b; do
        step "lab bubble --schedule $sched --stages 4 --microbatches 16 (cuda)" 60 \
            "$labrun" labs/bubble --backend cuda --schedule $sched --stages 4 --microbatches 16 \
            --hidden 2048 --batch 256 --quiet --json "$out/reports/bubble.$sched.cuda.json"
    done
    for mode in column row mlp; do
        step "lab tensor-split --mode $mode --ranks 3, odd sizes (cuda)" 60 \
            "$labrun" labs/tensor-split --backend cuda --mode $mode --ranks 3 --tokens 333 \
            --hidden 517 --ffn 1999 --quiet --json "$out/reports/ts.$mode.odd.cuda.json"
    done

    # 4. Tensor-split throughput against the unsplit layer (one GPU's cuBLAS GEMMs).
    T=2048 H=4096 F=16384
    flops=$(awk -v t=$T -v h=$H -v f=$F 'BEGIN { printf "%.0f", 2 * 2 * t * h * f }')
    for r in 1 2 4 8; do
        step "tensor-split mlp fp32 tokens=$T hidden=$H ffn=$F ranks=$r (cuda)" 120 \
            "$labrun" labs/tensor-split --backend cuda --mode mlp --ranks $r --tokens $T \
            --hidden $H --ffn $F --quiet --json "$out/reports/ts.tp$r.cuda.json"
    done

    # 5. All-reduce sweep over the GPUs (ranks beyond them share GPU 0 and say so).
    for r in 2 4 8; do
        step "allreduce sweep 1 KiB..256 MiB ranks=$r (cuda)" 120 \
            "$labrun" labs/allreduce --backend cuda --ranks $r --minbytes 1024 --maxbytes 268435456 \
            --stepfactor 4 --iters 10 --quiet --json "$out/reports/allreduce.r$r.cuda.json"
    done
fi

# The results table and JSON.
passed=0 failed=0
{
    echo "# GPU check"
    echo
    echo "machine: $machine ($ngpu GPU(s)); $(date -u '+%Y-%m-%d %H:%M UTC'); $(git rev-parse --short HEAD 2>/dev/null)"
    echo
    echo "| step | status | s | detail |"
    echo "|---|---|---|---|"
    for s in "${steps[@]}"; do
        IFS='|' read -r n st secs d <<<"$s"
        echo "| $n | $st | $secs | ${d//|/\\|} |"
        # On the machine this check is for, a skipped GPU test (no GPU seen) is a failure.
        case $st in PASS) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
    done
    echo
    echo "## Tensor-split throughput (mlp, fp32, tokens=${T:-} hidden=${H:-} ffn=${F:-})"
    echo
    echo "Split: the slowest rank's GEMM+GeLU time plus its all-reduce time; unsplit: the whole layer's"
    echo "two GEMMs on one GPU (one cuBLAS GEMM pair of the same total size).  Measured."
    echo
    echo "| ranks | compute ms | comm ms | split TFLOP/s | unsplit ms | unsplit TFLOP/s | max rel error |"
    echo "|---|---|---|---|---|---|---|"
    for r in 1 2 4 8; do
        f="$out/reports/ts.tp$r.cuda.json"
        [ -f "$f" ] || continue
        c=$(metric "$f" compute_ms) m=$(metric "$f" comm_ms) u=$(metric "$f" unsplit_ms) e=$(metric "$f" max_rel_error)
        awk -v r=$r -v c="$c" -v m="$m" -v u="$u" -v e="$e" -v fl="${flops:-0}" 'BEGIN {
            printf "| %d | %.3f | %.3f | %.1f | %.3f | %.1f | %s |\n", r, c, m,
                   (c + m) > 0 ? fl / ((c + m) * 1e-3) / 1e12 : 0, u, u > 0 ? fl / (u * 1e-3) / 1e12 : 0, e }'
    done
    echo
    echo "## All-reduce sweep"
    echo
    echo "| ranks | time at 256 MiB (us) | algbw GB/s | busbw GB/s | peak busbw GB/s | wrong elements |"
    echo "|---|---|---|---|---|---|"
    for r in 2 4 8; do
        f="$out/reports/allreduce.r$r.cuda.json"
        [ -f "$f" ] || continue
        echo "| $r | $(metric "$f" time_us) | $(metric "$f" algbw_gbs) | $(metric "$f" busbw_gbs) | $(metric "$f" peak_busbw_gbs) | $(metric "$f" wrong) |"
    done
    echo
    echo "## Reports"
    for f in "$out"/reports/*.cuda.json; do
        [ -f "$f" ] || continue
        echo
        echo "### $(basename "$f" .json)"
        echo
        echo '```'
        sed -n '/"notes"/,/\]/p' "$f"
        echo '```'
    done
} >"$out/results.md"

{
    echo "{"
    echo "  \"machine\": \"$(esc "$machine")\", \"gpus\": $ngpu, \"commit\": \"$(git rev-parse HEAD 2>/dev/null)\","
    echo "  \"seconds\": $(( $(date +%s) - start )), \"passed\": $passed, \"failed\": $failed,"
    echo "  \"steps\": ["
    n=${#json_steps[@]}
    for i in "${!json_steps[@]}"; do
        sep=,; [ "$i" -eq $((n - 1)) ] && sep=
        echo "    ${json_steps[$i]}$sep"
    done
    echo "  ],"
    echo "  \"reports\": {"
    files=("$out"/reports/*.json)
    n=${#files[@]}
    for i in "${!files[@]}"; do
        f=${files[$i]}
        [ -f "$f" ] || continue
        sep=,; [ "$i" -eq $((n - 1)) ] && sep=
        printf '    "%s": ' "$(basename "$f" .json)"
        cat "$f"
        echo "$sep"
    done
    echo "  }"
    echo "}"
} >"$out/results.json"

echo "gpu check: $passed passed, $failed failed in $(( $(date +%s) - start )) s; $out/results.md, $out/results.json"
[ "$failed" -eq 0 ]
