#!/usr/bin/env bash
# The GPU check's script on a machine without a usable GPU (or with
# --dry-run): it must exit 0, pass its cpu steps, skip every GPU step with a
# reason, and write results.md and a results.json that parses (node) and
# agrees with what it printed.
#
#     tests/gpu/dry.sh BUILD
set -u
build=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
passed=0 failed=0
ok() { if eval "$2"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1"; fi; }

# Dry run wherever this runs: a machine with a GPU skips too, with the dry-run reason.
GPU_CHECK_BUILD=$build tests/gpu/run.sh --dry-run "$out/r" >"$out/log" 2>&1
rc=$?
cat "$out/log"
ok "the script exits 0 with every GPU step skipped (got $rc)" '[ $rc -eq 0 ]'
ok "the unit tests are skipped with a reason" 'grep -qE "^unit tests: dev_cuda +SKIP .*[a-z]" "$out/log"'
ok "the fault step is skipped with a reason" 'grep -qE "^fault on rank 1 .* SKIP .*[a-z]" "$out/log"'
ok "the cpu steps pass" '[ "$(grep -cE "\(cpu\) +PASS" "$out/log")" -ge 5 ]'
ok "no step failed" '! grep -qE " (FAIL|TIMEOUT) " "$out/log"'
ok "results.md holds the table" 'grep -q "^| unit tests: comm_cuda | SKIP |" "$out/r/results.md"'
ok "results.json parses and agrees with the printed steps" 'node -e "
    const j = JSON.parse(require(\"fs\").readFileSync(process.argv[1], \"utf8\"));
    const skipped = j.steps.filter(s => s.status === \"SKIP\");
    const gpu = j.steps.filter(s => /GPU|nccl|unit tests|fault|throughput|sweep/.test(s.name) && !/^find /.test(s.name));
    if (skipped.length !== j.skipped || j.failed !== 0) process.exit(1);
    if (!gpu.length || gpu.some(s => s.status !== \"SKIP\" || !s.detail)) process.exit(1);
    if (j.estimate_8_gpus_seconds !== null || !j.gpu_skipped) process.exit(1);
    if (!j.reports[\"tensor-split.cpu\"] || j.reports[\"tensor-split.cpu\"].lab !== \"tensor-split\") process.exit(1);
" "$out/r/results.json"'
echo "gpu check dry run: $passed passed, $failed failed"
[ $failed -eq 0 ]
