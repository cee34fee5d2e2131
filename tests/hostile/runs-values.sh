#!/usr/bin/env bash
# quizc --runs with runs files of odd values: a recorded value matches a lab
# line only as an equal value of the parameter's type (" 4garbage" is not 4);
# wrong types, duplicate keys and names such as __proto__ get an error or a
# warning with the reason, never a crash, and a refused file writes nothing.
#
#   tests/hostile/runs-values.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=runs-values
. tests/hostile/lib/common.sh
quizc=$build/quizc
[ -x "$quizc" ] || { echo "runs-values: $quizc is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-runs-values-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
hostile_scale 3

name= ok= err= rc=
begin() { name=$1 ok=1 err=$tmp/$1.err; mkdir -p "$tmp/$1"; }
has() { grep -qaE -- "$1" "$err" || bad "stderr does not match /$1/:" "$(tail -5 "$err")"; }
hasnt() { ! grep -qaE -- "$1" "$err" || bad "stderr matches /$1/:" "$(tail -5 "$err")"; }

# The quiz: lab pipe with stages = 4 (and the defaults microbatches 1, schedule gpipe, rate 0.5).
cat > "$tmp/p.qz" <<'QZ'
quiz p {
    title "t"
    single s1 {
        prompt "p"
        correct "a"
        wrong "b"
        lab pipe (stages = 4)
            expect step_ms > 0
    }
}
QZ

# runs FILE PARAMS [METRICS]: a runs file of one run of pipe.
runs() {
    printf '{"format": "labrun-runs", "version": 1, "runs": [{"lab": "pipe", "params": {%s}, "backend": "cpu",
 "machine": {"cores": 2}, "date": "2026-12-04T12:00:00Z", "labrun": "0.1.0",
 "metrics": [%s], "checks": []}]}\n' "$2" "${3:-}" > "$1"
}
rest='"microbatches": 1, "schedule": "gpipe", "rate": 0.5'

# pack WANT_RC OUT: quizc with the case's runs file, bounded in time; a signal is a crash.
pack() {
    local want=$1 out=$2
    timeout -k 2 $((30 * scale)) "$quizc" -L tests/data/labs "$tmp/p.qz" --runs "$tmp/$name/runs.json" \
        -o "$out" >"$tmp/$name/stdout" 2>"$err"
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then bad "still running: a hang"
    elif [ $rc -ge 128 ]; then bad "killed by signal $((rc - 128)): a crash" "$(tail -5 "$err")"
    elif [ $rc -ne "$want" ]; then bad "exit status $rc, expected $want:" "$(tail -5 "$err")"
    fi
    if [ "$want" -ne 0 ] && [ -e "$out" ]; then bad "a refused runs file still wrote $out"; fi
}
attached() { grep -q '<run ' "$tmp/$name/course.xml" || bad "no run in course.xml"; }
not_attached() { ! grep -q '<run ' "$tmp/$name/course.xml" || bad "a run in course.xml"; }

begin a-string-with-a-number-in-front-is-not-that-number
runs "$tmp/$name/runs.json" "\"stages\": \" 4garbage\", $rest"
pack 0 "$tmp/$name/course.xml"
not_attached
has "p\.qz:7:[0-9]+: warning: a run of lab 'pipe' in .*runs\.json is not used: its parameter 'stages' is a string \(\" 4garbage\"\), where the lab takes a number"
end

begin the-same-number-written-otherwise-is-that-number
runs "$tmp/$name/runs.json" '"stages": 4.0, "microbatches": 1e0, "schedule": "gpipe", "rate": 0.50'
pack 0 "$tmp/$name/course.xml"
attached
hasnt "is not used"
end

begin a-number-for-a-choice-is-not-used
runs "$tmp/$name/runs.json" '"stages": 4, "microbatches": 1, "schedule": 1, "rate": 0.5'
pack 0 "$tmp/$name/course.xml"
not_attached
has "its parameter 'schedule' is a number \(\"1\"\), where the lab takes a string"
end

begin prototype-names-are-names
runs "$tmp/$name/runs.json" "\"__proto__\": 1, \"constructor\": \"x\", \"stages\": 4, $rest" \
    '{"name": "__proto__", "value": 1, "basis": "measured"}, {"name": "constructor", "value": 2, "basis": "exact"}'
pack 0 "$tmp/$name/p.zip"
unzip -p "$tmp/$name/p.zip" quiz-data.js > "$tmp/$name/data.js" 2>"$tmp/$name/unzip.err" || bad "no quiz-data.js in the package"
grep -q '\["__proto__",1,"measured"\],\["constructor",2,"exact"\]' "$tmp/$name/data.js" || bad "the metrics are not in the player's data"
end

begin duplicate-keys-are-refused
runs "$tmp/$name/runs.json" "\"stages\": 4, \"stages\": 5, $rest"
pack 1 "$tmp/$name/course.xml"
has "runs\.json:[0-9]+:[0-9]+: error: not a runs file: duplicate object key"
end

begin a-metric-listed-twice-is-refused
runs "$tmp/$name/runs.json" "\"stages\": 4, $rest" \
    '{"name": "step_ms", "value": 1, "basis": "measured"}, {"name": "step_ms", "value": 9, "basis": "measured"}'
pack 1 "$tmp/$name/course.xml"
has 'runs\.json: error: runs\[0\]\.metrics\[1\]: metric "step_ms" is listed twice'
end

begin a-figure-as-text-is-refused
runs "$tmp/$name/runs.json" "\"stages\": 4, $rest" '{"name": "step_ms", "value": "NaN", "basis": "measured"}'
pack 1 "$tmp/$name/course.xml"
has 'runs\[0\]\.metrics\[0\]: a metric is \{"name", "value": a number or null, "basis"\}'
end

begin a-list-or-a-table-as-a-value-is-refused
runs "$tmp/$name/runs.json" "\"stages\": {\"valueOf\": 4}, $rest"
pack 1 "$tmp/$name/course.xml"
has 'parameter "stages" must be a number, true, false or a string of text'
end

begin numbers-past-a-double-are-refused
runs "$tmp/$name/runs.json" "\"stages\": 4e400, $rest"
pack 1 "$tmp/$name/course.xml"
has "not a runs file: real number overflow"
end

begin deep-nesting-is-refused
{ printf '{"format": "labrun-runs", "version": 1, "runs": '; printf '%200000s' '' | tr ' ' '['; } > "$tmp/$name/runs.json"
pack 1 "$tmp/$name/course.xml"
has "not a runs file: "
end

begin empty-and-top-level-list-files-are-refused
: > "$tmp/$name/runs.json"
pack 1 "$tmp/$name/course.xml"
has "not a runs file: "
echo '[{"format": "labrun-runs"}]' > "$tmp/$name/runs.json"
pack 1 "$tmp/$name/course.xml"
has 'not a runs file: it has no "format": "labrun-runs"'
end

summary
