#!/usr/bin/env bash
# ThreadSanitizer over the threads backend: the collective and point-to-point
# driver (tsan_threads), then a TSan-built labrun on every lab with small
# parameters, and on a run where one rank fails while the others wait (the
# abort path).  Any data race fails the run (halt_on_error=1, exit status 66).
#
#   tests/runtime/tsan.sh TSAN_BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
build=${1:?TSAN_BUILD_DIR}
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export OPENBLAS_NUM_THREADS=1
# shellcheck source=tests/memcheck/small-params.sh
. tests/memcheck/small-params.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-tsan-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

passed=0 failed=0
check() {
    local what=$1 want=$2; shift 2
    timeout -k 5 300 "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if grep -q 'ThreadSanitizer' "$tmp/err"; then
        failed=$((failed + 1)); echo "FAIL $what: ThreadSanitizer report:"; sed 's/^/    /' "$tmp/err" | head -60
    elif [ $rc -ne "$want" ]; then
        failed=$((failed + 1)); echo "FAIL $what: exit $rc, expected $want"; tail -5 "$tmp/err" "$tmp/out" | sed 's/^/    /'
    else
        passed=$((passed + 1)); echo "ok   $what"
    fi
}

check "tsan_threads: collectives and send/recv, 1-8 ranks" 0 "$build/tests/tsan_threads"
grep -E '^tsan:' "$tmp/out" | sed 's/^/    /'
for d in labs/*/; do
    lab=$(basename "$d")
    [ -f "$d/lab.qz" ] || continue
    # shellcheck disable=SC2046
    check "labrun labs/$lab $(small_params "$lab")" 0 "$build/labrun" "labs/$lab" $(small_params "$lab") -q
done
check "labrun: one rank fails, the others stop (bubble)" 1 \
    "$build/labrun" labs/bubble --stages 4 --microbatches 4 --hidden 16 --batch 4 --steps 1 --inject-fault error@2 -q
check "labrun: one rank fails, the others stop (tensor-split)" 1 \
    "$build/labrun" labs/tensor-split --ranks 4 --tokens 8 --hidden 16 --ffn 32 --inject-fault error@0 -q
echo "tsan: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
