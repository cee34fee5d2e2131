#!/usr/bin/env bash
# labrun's command line: listing, per-lab help, parameter errors and exit
# status, output files.  Usage: cli.sh PATH/TO/labrun (run from the repository root).
set -u
labrun=${1:?usage: cli.sh LABRUN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect NAME STATUS PATTERN -- ARGS...: labrun ARGS exits STATUS and its output matches PATTERN.
expect() {
    local name=$1 want=$2 pattern=$3
    shift 4
    "$labrun" "$@" >"$tmp/out" 2>&1
    local rc=$?
    if [ "$rc" -eq "$want" ] && grep -qE -- "$pattern" "$tmp/out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $name: labrun $* exited $rc (wanted $want), output:"
        sed 's/^/    /' "$tmp/out" | head -20
    fi
}

small=(--stages 2 --microbatches 2 --hidden 8 --batch 2 --steps 1)

expect "list shows every lab with its title" 0 'bubble +Pipeline bubble' -- --list
expect "list shows tensor-split" 0 'tensor-split +Tensor parallelism' -- --list
# The example lab of doc/labrun.md is built in but off the lab path: listed and run with -L only.
if "$labrun" --list 2>&1 | grep -q '^hello '; then
    failed=$((failed + 1)); echo "FAIL: list without -L shows the example lab hello"
else
    passed=$((passed + 1))
fi
expect "the example lab is listed with -L" 0 '^hello +Hello, all-reduce' -- --list -L tests/data/labs
expect "the example lab runs with -L and its check passes" 0 'PASS +all-reduce equals the serial sum' -- -L tests/data/labs hello --ranks 3 --count 100
expect "help lists parameters with ranges" 0 '--stages 1\.\.64 +pipeline stages p' -- bubble --help
expect "help lists metrics" 0 'bubble_fraction' -- labs/bubble --help
expect "a parameter with a word too many gets the real one" 2 "memory has no parameter --zero-stage; did you mean '--zero'\?" -- memory --zero-stage 1
expect "help lists snippet regions with what each shows" 0 '^  gpipe-schedule +GPipe: all m forwards, then all m backwards; every stage holds m activations at the turn\.$' -- bubble --help
expect "help heads the regions with how a quiz names them" 0 '^snippet regions \(snippet tensor-split:REGION in a quiz\):$' -- tensor-split --help
expect "out of range names parameter and range" 2 "--stages: '100' is out of range; allowed: 1\.\.64" -- labs/bubble --stages 100
expect "a bad choice lists the choices" 2 "allowed: naive\|gpipe\|1f1b" -- bubble --schedule zigzag
expect "a schedule refuses micro-batches it cannot take, naming what it allows" 2 "--microbatches: '6' is not allowed with --stages 4: interleaved needs microbatches to be a multiple of stages" -- bubble --schedule interleaved --stages 4 --microbatches 6
expect "zb-h1 refuses fewer micro-batches than stages" 2 "zb-h1 needs at least as many microbatches as stages" -- bubble --schedule zb-h1 --stages 4 --microbatches 3
expect "sizes that make no model are a usage error" 2 "tp must divide seq under sequence parallelism" -- memory --sequence-parallel --seq 2047
expect "a misspelt parameter gets a suggestion" 2 "did you mean '--microbatches'" -- bubble --microbatch 4
expect "a parameter without a value" 2 '--stages needs a value' -- bubble --stages
expect "an unknown lab" 2 "no lab 'nosuch'" -- nosuch
expect "an unknown backend" 2 "'quantum' is not a backend; allowed: cpu\|nccl-sim\|coop\|cuda\|mpi" -- bubble --backend quantum
expect "no arguments is a usage error" 2 'usage: labrun' --
expect "a run whose checks pass exits 0" 0 'PASS +pipelined equals unpipelined' -- bubble "${small[@]}"
expect "the report names backend and cores" 0 'backend cpu: 2 ranks on [0-9]+ core' -- bubble "${small[@]}"
expect "coop says its times are replayed" 0 'backend coop: 2 ranks taking turns on one thread .*: every time is replayed' -- bubble "${small[@]}" --backend coop
expect "json to standard output" 0 '"lab": "bubble"' -- bubble "${small[@]}" --json - -q
expect "json holds every metric" 0 '"bubble_formula": 0\.3333' -- bubble "${small[@]}" --json - -q
expect "tensor-split reports its error" 0 'PASS +split equals unsplit' -- tensor-split --ranks 3 --tokens 5 --hidden 7 --ffn 11
expect "trace and svg are written" 0 'PASS' -- bubble "${small[@]}" --trace "$tmp/t.json" --svg "$tmp/s.svg"
if grep -q '"traceEvents"' "$tmp/t.json" 2>/dev/null && grep -q '<svg' "$tmp/s.svg" 2>/dev/null; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL: --trace / --svg files missing or wrong"
fi
# A lab that draws no timeline says so under --svg (tests/data/labrun-svg-none.txt), and writes no file at all.
"$labrun" memory -q --svg "$tmp/none.svg" --json "$tmp/none.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -e "$tmp/none.svg" ] && [ ! -e "$tmp/none.json" ] && [ ! -s "$tmp/out" ] &&
   cmp -s "$tmp/err" tests/data/labrun-svg-none.txt; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL: --svg on memory exited $rc (wanted 2), said:"; sed 's/^/    /' "$tmp/err"
fi
expect "an unwritable output is an error" 1 'cannot write' -- bubble "${small[@]}" -q --json "$tmp/no/such/dir.json"
if [ -z "$(ls "$tmp/no" 2>/dev/null)" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: partial output left"; fi

# Report files get the mode of an ordinary new file, as quizc's outputs do: 0666 less the umask.
modes=$( (umask 027; "$labrun" bubble "${small[@]}" -q --json "$tmp/m.json" --trace "$tmp/m.trace" \
          --svg "$tmp/m.svg" >/dev/null 2>&1) && stat -c %a "$tmp/m.json" "$tmp/m.trace" "$tmp/m.svg" | tr '\n' ' ')
if [ "$modes" = "640 640 640 " ]; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL: under umask 027 the report files are '$modes', not 640"
fi

# --lang id: the manifest's words in Indonesian, numbers with a decimal comma; names and options as they are.
expect "the report in Indonesian describes each metric and its basis in Indonesian" 0 \
    'bubble_fraction +[0-9]+,[0-9]+ +diputar ulang +bagian waktu tahap yang dihabiskan untuk menganggur' -- \
    --lang id bubble "${small[@]}"
expect "its title is Indonesian too" 0 '^lab bubble: Gelembung pipeline: waktu menganggur' -- bubble "${small[@]}" --lang=id
expect "numbers take the Indonesian decimal comma" 0 'bubble_formula +0,3333 ' -- bubble "${small[@]}" --lang id
expect "and the English decimal point" 0 'bubble_formula +0\.3333 ' -- bubble "${small[@]}" --lang en
if "$labrun" bubble "${small[@]}" --lang id 2>&1 | grep -qE 'share of stage time|Pipeline bubble:|wall time of one step'; then
    failed=$((failed + 1)); echo "FAIL: labrun --lang id still prints English descriptions"
else
    passed=$((passed + 1))
fi
expect "help in Indonesian" 0 '--stages 1\.\.64 +tahap pipeline p, satu rank per tahap \(default 4\)' -- bubble --help --lang id
expect "help's metrics in Indonesian" 0 'peak_activations +aktivasi micro-batch terbanyak' -- bubble --help --lang id
expect "the list in Indonesian" 0 '^memory +Memori per rank: mengapa satu GPU tidak cukup' -- --list --lang id
expect "the example lab in Indonesian" 0 'max_abs_error .*terbesar di antara elemen' -- -L tests/data/labs hello --ranks 2 --count 10 --lang id
expect "--lang en is the default's words" 0 'bubble_fraction +[0-9.]+ +replayed +share of stage time spent idle' -- bubble "${small[@]}" --lang en
# Every lab's help names the same options and metrics in both languages.
for lab in activations allreduce bubble memory tensor-split; do
    "$labrun" "$lab" --help | awk '/^  /{print $1}' >"$tmp/en"
    "$labrun" "$lab" --help --lang id | awk '/^  /{print $1}' >"$tmp/id"
    if [ -s "$tmp/id" ] && diff "$tmp/en" "$tmp/id" >"$tmp/diff"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); echo "FAIL: $lab --help names other options or metrics in Indonesian:"; cat "$tmp/diff"
    fi
done
expect "an unknown language is a usage error" 2 "--lang: 'fr' is not a language the labs are written in; allowed: en, id" -- bubble --lang fr
expect "--lang needs a value" 2 '--lang needs a value' -- bubble --lang

echo "cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
