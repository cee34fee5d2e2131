#!/usr/bin/env bash
# valgrind over quizc on every quiz in quizzes/ and tests/data/ (course XML and,
# for the shipped quizzes, the SCORM package too), and over labrun on each lab
# with small parameters.  A run passes when valgrind finds no memory error and
# no definite leak; quizc's exit status on quizzes with errors (1) is left to
# the other tests, labrun must pass its checks.
#
#   tests/memcheck/run.sh BUILD_DIR [LABRUN_BUILD_DIR]
#
# LABRUN_BUILD_DIR holds a labrun built without the cuda and mpi backends
# (make memcheck builds one): valgrind cannot look inside a GPU, and loading
# cuBLAS under it costs a minute a run.
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
labbuild=${2:-$build}
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed (scripts/deps.sh installs it)"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-memcheck-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1

passed=0 failed=0 n=0
# vg NAME WANT SECONDS CMD...: one program under valgrind; WANT its exit status, or - for any.
vg() {
    local what=$1 want=$2 limit=$3; shift 3
    n=$((n + 1))
    local log=$tmp/vg.$n.log
    local t0=$SECONDS
    timeout -k 5 "$limit" valgrind -q --suppressions=tests/memcheck/valgrind.supp --leak-check=full --errors-for-leak-kinds=definite \
        --show-leak-kinds=definite --error-exitcode=1 --fair-sched=yes --log-file="$log" \
        "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        failed=$((failed + 1))
        echo "FAIL $what: did not finish within ${limit}s under valgrind"
    elif [ -s "$log" ]; then
        # -q leaves only errors and leak reports in the log.
        failed=$((failed + 1))
        echo "FAIL $what (exit $rc):"
        sed 's/^/    /' "$log" | head -40
    elif [ "$want" != - ] && [ "$rc" -ne "$want" ]; then
        failed=$((failed + 1))
        echo "FAIL $what: exit $rc, expected $want:"
        sed 's/^/    /' "$tmp/err" | head -10
    else
        passed=$((passed + 1))
        echo "ok   $what (exit $rc, $((SECONDS - t0)) s)"
    fi
}

if [ -x "$build/quizc" ]; then
    for q in quizzes/*.qz; do
        vg "quizc $q -o course.xml" 0 120 "$build/quizc" "$q" -o "$tmp/course.xml"
        vg "quizc $q -o course.zip" 0 120 "$build/quizc" "$q" -o "$tmp/course.zip"
    done
    while IFS= read -r q; do
        vg "quizc $q" - 60 "$build/quizc" "$q" -o "$tmp/course.xml"
    done < <(find tests/data -name '*.qz' ! -name lab.qz | sort)
else
    echo "memcheck: $build/quizc is not built"; failed=$((failed + 1))
fi

# shellcheck source=tests/memcheck/small-params.sh
. tests/memcheck/small-params.sh

if [ -x "$labbuild/labrun" ]; then
    for d in labs/*/; do
        lab=$(basename "$d")
        [ -f "$d/lab.qz" ] || continue
        # shellcheck disable=SC2046
        vg "labrun labs/$lab $(small_params "$lab")" 0 300 "$labbuild/labrun" "labs/$lab" $(small_params "$lab")
    done
else
    echo "memcheck: $labbuild/labrun is not built"; failed=$((failed + 1))
fi

echo "memcheck: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
