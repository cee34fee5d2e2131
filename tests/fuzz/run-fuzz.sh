#!/usr/bin/env bash
# Seed the corpora and run each libFuzzer harness for a while.
#
#   tests/fuzz/run-fuzz.sh FUZZ_DIR SECONDS [HARNESS...]
#
# FUZZ_DIR holds build/ (the harness binaries), corpus/NAME (kept between runs,
# so coverage accumulates), artifacts/ (crashing inputs) and NAME.log.  Each
# harness gets SECONDS of fuzzing.  Exit status 1 when a harness found a crash,
# a leak, a timeout or an out-of-memory; the input is named for reproducing.
set -u
cd "$(dirname "$0")/../.."
dir=${1:?FUZZ_DIR}
secs=${2:?SECONDS}
shift 2
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && for h in quizc manifest runs labs; do
    [ -x "$dir/build/fuzz_$h" ] && harnesses+=("$h")
done

# Copy files into a corpus folder under names made from their paths (no collisions).
seed() {
    local corpus=$1; shift
    mkdir -p "$corpus"
    local f
    for f in "$@"; do
        [ -f "$f" ] || continue
        cp -f "$f" "$corpus/seed-$(tr '/' '_' <<<"$f")"
    done
}

status=0
for h in "${harnesses[@]}"; do
    bin=$dir/build/fuzz_$h
    corpus=$dir/corpus/$h
    case $h in
    quizc)
        # shellcheck disable=SC2046
        seed "$corpus" $(find tests/data quizzes tests/hostile/cases tests/fuzz/regress/quizc \
                              -name '*.qz' -o -path '*/regress/*' -type f 2>/dev/null | sort) ;;
    manifest)
        # shellcheck disable=SC2046
        seed "$corpus" $(find labs tests/data tests/fuzz/regress/manifest \
                              -name 'lab.qz' -o -path '*/regress/*' -type f 2>/dev/null | sort)
        seed "$corpus" tests/fuzz/manifest-seeds/* ;;
    runs)
        # shellcheck disable=SC2046
        seed "$corpus" tests/fuzz/runs-seeds/* $(find tests/fuzz/regress/runs -type f 2>/dev/null | sort) ;;
    labs)
        # shellcheck disable=SC2046
        seed "$corpus" tests/fuzz/labs-seeds/* $(find tests/fuzz/regress/labs -type f 2>/dev/null | sort) ;;
    esac
    opts=(-dict=tests/fuzz/qz.dict -max_len=65536)
    [ "$h" = runs ] && opts=(-dict=tests/fuzz/runs.dict -max_len=65536)
    # A lab input is a few bytes of choices: no words to suggest, and short.
    [ "$h" = labs ] && opts=(-max_len=64)
    mkdir -p "$dir/artifacts"
    log=$dir/$h.log
    echo "fuzz: $h for ${secs}s, corpus $corpus ($(find "$corpus" -type f | wc -l) inputs), log $log"
    # One worker: the machines this runs on are small and shared.
    "$bin" "$corpus" "${opts[@]}" -max_total_time="$secs" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$dir/artifacts/$h-" >"$log" 2>&1
    rc=$?
    grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb|new_units_added)' "$log" \
        | sed 's/^/    /'
    grep -E '^#[0-9]+.*(cov|ft):' "$log" | tail -1 | sed 's/^/    last: /'
    if [ $rc -ne 0 ]; then
        status=1
        echo "fuzz: $h FAILED (exit $rc); the report:"
        grep -nE 'ERROR: |SUMMARY: |Test unit written to|fuzz_quizc: |fuzz_manifest: |fuzz_runs: |fuzz_labs: ' "$log" | head -20
        echo "    reproduce: $bin <the file named above>   (FUZZ_VERBOSE=1 shows the diagnostics)"
        echo "    then copy it into tests/fuzz/regress/$h/ so it stays a test"
        tail -n 60 "$log"
    fi
done
[ $status -eq 0 ] && echo "fuzz: ${#harnesses[@]} harness(es), no findings"
exit $status
