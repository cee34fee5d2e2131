#!/usr/bin/env bash
# Every lab under NCCL's message rules (a `make check` step): nccl_sim.sh LABRUN
#
# Each case of lab_cases.sh (or every NCCL_SIM_STRIDE-th of each lab) runs
# the lab on --backend nccl-sim (ranks as threads, messages matched in
# posting order without tags, a send complete only at its peer's receive,
# each communicator's operations in order) and on --backend cpu.
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

# shellcheck source=tests/runtime/lab_cases.sh
. "$here/lab_cases.sh"

compare_with_cpu "$labrun" nccl-sim "${NCCL_SIM_STRIDE:-1}"

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
