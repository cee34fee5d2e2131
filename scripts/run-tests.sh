#!/usr/bin/env bash
# Run every test program given, count passes and failures, print one closing line.
# A Criterion binary is counted by its "Synthesis" line; any other step counts by
# its own "N passed, N failed" line when it prints one, else as one test by exit status.
# A sanitizer report anywhere in a step's output fails the step, whatever its exit
# status: Criterion's children report leaks after the verdict, and a program that
# aborts on a report may exit with the very status a test expected of it.
set -u
passed=0 failed=0 skipped=0 bad=()
for t in "$@"; do
    echo "== $t"
    start=$(date +%s)
    out=$(mktemp)
    "$t" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    syn=$(grep -a 'Synthesis: Tested:' "$out" | tail -1)
    own=$(grep -aE '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$out" | tail -1)
    if grep -aqE 'ERROR: (Address|Leak)Sanitizer|: runtime error: ' "$out"; then
        echo "run-tests: $t: a sanitizer report in its output"
        [ "$rc" -eq 0 ] && rc=1
    fi
    if [ -n "$syn" ]; then
        p=$(sed -E 's/.*Passing: *([0-9]+).*/\1/' <<<"$syn")
        f=$(sed -E 's/.*Failing: *([0-9]+).*/\1/' <<<"$syn")
        c=$(sed -E 's/.*Crashing: *([0-9]+).*/\1/' <<<"$syn")
        s=$(grep -aoE 'Skipped: *[0-9]+' <<<"$syn" | grep -oE '[0-9]+' || echo 0)
        passed=$((passed + p)); failed=$((failed + f + c)); skipped=$((skipped + ${s:-0}))
        [ $((f + c)) -eq 0 ] && [ "$rc" -eq 0 ] || bad+=("$t")
        [ "$rc" -ne 0 ] && [ $((f + c)) -eq 0 ] && failed=$((failed + 1))
    elif [ -n "$own" ]; then
        p=$(sed -E 's/^([A-Za-z]+: )?([0-9]+) passed.*/\2/' <<<"$own")
        f=$(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$own")
        s=$(grep -oE '[0-9]+ skipped' <<<"$own" | grep -oE '[0-9]+' || echo 0)
        passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
        [ "$f" -eq 0 ] && [ "$rc" -eq 0 ] || bad+=("$t")
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && failed=$((failed + 1))
    elif [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); bad+=("$t")
    fi
    rm -f "$out"
    echo "-- $t: $(($(date +%s) - start)) s"
done
[ ${#bad[@]} -gt 0 ] && printf 'failed: %s\n' "${bad[@]}"
if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
