# The lab runs every backend check compares with the cpu backend (sourced by
# nccl_sim.sh and coop.sh): parameters that reach every schedule, rank count
# and message pattern.  Sets the array `cases`, one "LAB --PARAM VALUE ..."
# per run, and defines compare_with_cpu, the loop both checks run.
# shellcheck disable=SC2034
cases=()
# The pipeline: every schedule, odd and even stage counts, one to many micro-batches.
for s in naive gpipe 1f1b; do
    for p in 1 2 3 5 8; do
        for m in 1 3 8; do
            cases+=("labs/bubble --stages $p --microbatches $m --schedule $s --hidden 32 --batch 4 --steps 1")
        done
    done
done
# Interleaved 1F1B (m a multiple of p; the last stage sends back to the first) and ZB-H1 (m >= p).
for p in 1 2 3 5; do
    for v in 2 3; do
        for m in $p $((2 * p)); do
            cases+=("labs/bubble --stages $p --microbatches $m --schedule interleaved --chunks $v --hidden 32 --batch 4 --steps 1")
        done
    done
done
for p in 1 2 3 5 8; do
    for m in $p $((p + 1)) $((2 * p)); do
        cases+=("labs/bubble --stages $p --microbatches $m --schedule zb-h1 --hidden 32 --batch 4 --steps 1")
    done
done
cases+=("labs/memory --tp 2 --pp 2 --layers 4 --hidden 256 --heads 4 --seq 64 --vocab 1000 --microbatches 4 --sequence-parallel --dp 3 --zero 3")
for r in 1 2 3 4; do
    for mode in column row mlp; do
        cases+=("labs/tensor-split --ranks $r --mode $mode --tokens 17 --hidden 50 --ffn 101")
    done
done
cases+=("labs/tensor-split --ranks 4 --mode mlp --tokens 33 --hidden 65 --ffn 130 --dtype fp64")
for r in 1 2 3 4 8; do
    cases+=("labs/allreduce --ranks $r --minbytes 0 --maxbytes 65536 --iters 2 --warmup-iters 1")
done
cases+=("labs/allreduce --ranks 4 --minbytes 4 --maxbytes 4194304 --stepfactor 16 --iters 1 --dtype fp64")
for p in 1 2 4; do
    cases+=("labs/activations --stages $p --microbatches 3 --layers 8 --hidden 32 --tokens 8")
done
cases+=("labs/activations --stages 8 --microbatches 4 --layers 8 --hidden 16 --tokens 4 --dtype fp64")
cases+=("labs/memory --tp 2 --pp 2 --layers 4 --hidden 256 --heads 4 --seq 64 --vocab 1000 --microbatches 4")
cases+=("labs/memory --tp 1 --pp 3 --layers 6 --hidden 128 --heads 2 --seq 32 --vocab 500 --microbatches 5 --recompute full")
# The example lab of doc/labrun.md.
cases+=("tests/data/labs/hello --ranks 3 --count 101")


# compare_with_cpu LABRUN BACKEND STRIDE [MARK]: every STRIDE-th case of each lab
# (its first always) on --backend BACKEND and on --backend cpu.  Both must pass
# every check, and every exact and modelled metric must be equal
# (compare_backends.js); MARK, when given, is text BACKEND's --json must hold.
# Adds to the caller's passed and failed, sets ran and secs[LAB] (seconds on
# BACKEND); needs the caller's tmp folder and limit.
compare_with_cpu() {
    local labrun=$1 backend=$2 stride=$3 mark=${4:-} here args lab n t0 out
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
    declare -gA secs=()
    local -A seen=()
    ran=0
    for args in "${cases[@]}"; do
        lab=${args%% *}
        n=${seen[$lab]:-0}
        seen[$lab]=$((n + 1))
        [ $((n % stride)) -eq 0 ] || continue
        ran=$((ran + 1))
        # shellcheck disable=SC2086
        if ! timeout "$limit" "$labrun" $args --quiet --json "$tmp/cpu.json" >"$tmp/cpu.out" 2>&1; then
            echo "FAIL: $args on cpu:"; sed 's/^/   /' "$tmp/cpu.out" | tail -10
            failed=$((failed + 1)); continue
        fi
        t0=$(date +%s.%N)
        # shellcheck disable=SC2086
        if ! timeout "$limit" "$labrun" $args --backend "$backend" --timeout 60 --quiet --json "$tmp/other.json" \
                >"$tmp/other.out" 2>&1; then
            echo "FAIL: $args on $backend:"; sed 's/^/   /' "$tmp/other.out" | tail -20
            failed=$((failed + 1)); continue
        fi
        secs[$lab]=$(awk -v a="${secs[$lab]:-0}" -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { print a + t1 - t0 }')
        if [ -n "$mark" ] && ! grep -qF "$mark" "$tmp/other.json"; then
            echo "FAIL: $args: the $backend report lacks $mark"
            failed=$((failed + 1))
        elif out=$(node "$here/compare_backends.js" "$tmp/cpu.json" "$tmp/other.json"); then
            passed=$((passed + 1))
        else
            echo "FAIL: $args: cpu and $backend disagree:"; echo "$out"
            failed=$((failed + 1))
        fi
    done
    if [ "$stride" -eq 1 ]; then
        echo "  $ran lab runs on $backend, each equal to the cpu run"
    else
        echo "  $ran lab runs on $backend (every ${stride}th of ${#cases[@]}, per lab), each equal to the cpu run"
    fi
}
