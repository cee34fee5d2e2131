#!/usr/bin/env bash
# labgen: the header it writes from a manifest with every parameter type
# (tests/data/labs/pipe) compiles against lab.h, reads each parameter into a
# typed field, names each metric by an enum — and a misspelt parameter or
# metric does not compile.  Usage: labgen.sh LABGEN CC (from the repository root).
set -u
labgen=${1:?usage: labgen.sh LABGEN CC}
cc=${2:?usage: labgen.sh LABGEN CC}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $1"; }

"$labgen" tests/data/labs/pipe "$tmp/pipe_params.h" && ok || bad "labgen writes the header"
grep -q '^    long stages;' "$tmp/pipe_params.h" && ok || bad "an integer parameter is a long"
grep -q '^    const char \*schedule;' "$tmp/pipe_params.h" && ok || bad "a choice is a string"
grep -q '^    double rate;' "$tmp/pipe_params.h" && ok || bad "a real parameter is a double"
grep -q 'PIPE_M_BUBBLE_FRACTION,' "$tmp/pipe_params.h" && ok || bad "metrics are an enum"

compiles() {    # compiles BODY: a function using the header compiles with the project's warnings as errors
    printf '#include "pipe_params.h"\nvoid use(struct lab_ctx *c);\nvoid use(struct lab_ctx *c)\n{\n%s\n}\n' "$1" > "$tmp/use.c"
    "$cc" -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iruntime -Igrammar -I"$tmp" -c "$tmp/use.c" -o "$tmp/use.o" 2>"$tmp/err"
}
compiles '    struct pipe_params p = pipe_params_read(c->params);
    pipe_metric(c, PIPE_M_STEP_MS, (double)p.stages * p.rate, LAB_MEASURED);' && ok || { bad "a lab using it compiles"; cat "$tmp/err"; }
compiles '    struct pipe_params p = pipe_params_read(c->params);
    pipe_metric(c, PIPE_M_STEP_MS, (double)p.stage, LAB_MEASURED);' && bad "a misspelt parameter compiles" || ok
compiles '    pipe_metric(c, PIPE_M_STEPS_MS, 1.0, LAB_MEASURED);' && bad "a misspelt metric compiles" || ok
"$labgen" tests/data/labs/nosuch "$tmp/x.h" 2>/dev/null && bad "a missing manifest is accepted" || ok
[ ! -e "$tmp/x.h" ] && ok || bad "a failed run leaves no header"

echo "labgen: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
