#!/usr/bin/env bash
# Every lab with its ranks as coroutines on one thread (a `make check` step): coop.sh LABRUN
#
# A sample of the lab runs of lab_cases.sh (every STRIDE-th of each lab, the
# first always; COOP_STRIDE=1 runs them all) runs on --backend coop (one
# thread, NCCL's matching rules, times replayed in virtual time) and on
# --backend cpu.  Both must pass every check, and every exact and modelled
# metric must be equal (compare_backends.js); measured and replayed figures
# are held to the lab's own checks.  Then the runs that must stop: a rank
# that computes forever (--timeout names who waits for whom) and a rank that
# fails.  Prints each lab's seconds on coop and "coop: N passed, N failed";
# exit status 1 when one failed.
set -u
labrun=${1:?usage: coop.sh LABRUN}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
limit=120
stride=${COOP_STRIDE:-4}

# shellcheck source=tests/runtime/lab_cases.sh
. "$here/lab_cases.sh"

compare_with_cpu "$labrun" coop "$stride" '"time": "replayed"'
for lab in "${!secs[@]}"; do
    printf '  %-22s %6.2f s on coop\n' "$lab" "${secs[$lab]}"
done | sort

# The bubble lab's per-stage table names its wall columns' basis: replayed on coop, measured on cpu.
"$labrun" labs/bubble --backend coop --stages 2 --microbatches 2 --hidden 16 --batch 2 --steps 1 >"$tmp/title.out" 2>&1
"$labrun" labs/bubble --stages 2 --microbatches 2 --hidden 16 --batch 2 --steps 1 >"$tmp/title-cpu.out" 2>&1
if grep -q '^per stage (.*wall replayed)$' "$tmp/title.out" && grep -q '^per stage (.*wall measured)$' "$tmp/title-cpu.out"; then
    passed=$((passed + 1))
else
    echo "FAIL: the per-stage table's title does not say how its wall columns were timed:"
    grep -h '^per stage' "$tmp/title.out" "$tmp/title-cpu.out" | sed 's/^/   /'
    failed=$((failed + 1))
fi

# A rank that computes forever holds the one thread: the --timeout watchdog still ends the run, saying who waits.
"$labrun" labs/bubble --backend coop --stages 3 --microbatches 2 --hidden 16 --batch 2 --steps 1 \
    --inject-fault hang@1 --timeout 3 --quiet >"$tmp/hang.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'did not finish within 3 s' "$tmp/hang.out" &&
        grep -qE 'rank 0: waits in [a-z]+ at labs/bubble/bubble\.c:[0-9]+: .*rank 1' "$tmp/hang.out" &&
        grep -q 'rank 1: not in a communication call' "$tmp/hang.out"; then
    passed=$((passed + 1))
else
    echo "FAIL: a rank computing forever under --timeout (exit $rc):"; sed 's/^/   /' "$tmp/hang.out" | head -20
    failed=$((failed + 1))
fi

# A rank that fails: the others stop at once and labrun exits 1 with its message.
"$labrun" labs/bubble --backend coop --stages 4 --microbatches 4 --hidden 16 --batch 2 --steps 1 \
    --inject-fault error@2 --timeout 30 --quiet >"$tmp/err.out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q 'rank 2' "$tmp/err.out" && ! grep -q 'did not finish' "$tmp/err.out"; then
    passed=$((passed + 1))
else
    echo "FAIL: a failing rank (exit $rc):"; sed 's/^/   /' "$tmp/err.out" | head -20
    failed=$((failed + 1))
fi

echo "coop: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
