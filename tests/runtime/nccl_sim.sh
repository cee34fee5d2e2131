#!/usr/bin/env bash
# Every lab under NCCL's message rules (a `make check` step): nccl_sim.sh LABRUN
#
# Each case runs the lab on --backend nccl-sim (ranks as threads, messages
# matched in posting order without tags, a send complete only at its peer's
# receive, each communicator's operations in order) and on --backend cpu.
# Both must pass every check, and every exact and modelled metric must be
# equal (compare_backends.js): a lab whose message order NCCL would mismatch
# or deadlock on fails here, with the call sites, instead of on a GPU.
# Then a stuck run: --timeout must say which rank waits for which peer.
# Prints "nccl-sim: N passed, N failed"; exit status 1 when one failed.
set -u
labrun=${1:?usage: nccl_sim.sh LABRUN}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
limit=120

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

for args in "${cases[@]}"; do
    # shellcheck disable=SC2086
    if ! timeout $limit "$labrun" $args --quiet --json "$tmp/cpu.json" >"$tmp/cpu.out" 2>&1; then
        echo "FAIL: $args on cpu:"; sed 's/^/   /' "$tmp/cpu.out" | tail -10
        failed=$((failed + 1)); continue
    fi
    # shellcheck disable=SC2086
    if ! timeout $limit "$labrun" $args --backend nccl-sim --timeout 60 --quiet --json "$tmp/sim.json" \
            >"$tmp/sim.out" 2>&1; then
        echo "FAIL: $args on nccl-sim:"; sed 's/^/   /' "$tmp/sim.out" | tail -20
        failed=$((failed + 1)); continue
    fi
    if out=$(node "$here/compare_backends.js" "$tmp/cpu.json" "$tmp/sim.json"); then
        passed=$((passed + 1))
    else
        echo "FAIL: $args: cpu and nccl-sim disagree:"; echo "$out"
        failed=$((failed + 1))
    fi
done
echo "  ${#cases[@]} lab runs on nccl-sim, each equal to the cpu run"

# A rank that never gets to its send: --timeout names who waits in what, for whom.
"$labrun" labs/bubble --backend nccl-sim --stages 3 --microbatches 2 --hidden 16 --batch 2 --steps 1 \
    --inject-fault hang@1 --timeout 3 --quiet >"$tmp/hang.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'did not finish within 3 s' "$tmp/hang.out" &&
        grep -qE 'rank 0: waits in [a-z]+ at labs/bubble/bubble\.c:[0-9]+: .*rank 1' "$tmp/hang.out" &&
        grep -q 'rank 1: not in a communication call' "$tmp/hang.out"; then
    passed=$((passed + 1))
else
    echo "FAIL: a hung rank under --timeout (exit $rc):"; sed 's/^/   /' "$tmp/hang.out" | head -20
    failed=$((failed + 1))
fi

# A rank that fails: the others stop at once and labrun exits 1 with its message.
"$labrun" labs/bubble --backend nccl-sim --stages 4 --microbatches 4 --hidden 16 --batch 2 --steps 1 \
    --inject-fault error@2 --timeout 30 --quiet >"$tmp/err.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'rank 2' "$tmp/err.out" && ! grep -q 'did not finish' "$tmp/err.out"; then
    passed=$((passed + 1))
else
    echo "FAIL: a failing rank (exit $rc):"; sed 's/^/   /' "$tmp/err.out" | head -20
    failed=$((failed + 1))
fi

echo "nccl-sim: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
