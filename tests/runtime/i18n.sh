#!/usr/bin/env bash
# labrun's messages in Indonesian (runtime/i18n.h, po/id.po): every message
# xgettext finds in the sources has its translation, none fuzzy, and
# labrun --lang id prints them.
# Usage: i18n.sh PATH/TO/labrun "XGETTEXT KEYWORDS" SOURCES... (from the repository root).
set -u
labrun=${1:?usage: i18n.sh LABRUN KEYWORDS SOURCES...}
keywords=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# Every message of the sources is in po/id.po, translated and not fuzzy (msgcmp counts neither as there).
# shellcheck disable=SC2086
xgettext --language=C --from-code=UTF-8 $keywords --no-location -o "$tmp/labrun.pot" "$@" || bad "xgettext failed"
if msgcmp po/id.po "$tmp/labrun.pot" 2>"$tmp/cmp"; then ok; else bad "po/id.po lacks translations:"; sed 's/^/    /' "$tmp/cmp" | head -20; fi
stats=$(LC_ALL=C msgfmt --check-format --statistics -o /dev/null po/id.po 2>&1)
if echo "$stats" | grep -qE 'fuzzy|untranslated'; then bad "po/id.po: $stats"; else ok; fi
# A table's columns are cells split at '|': a translation keeps as many.
if awk '/^msgid /{id=$0; next} /^msgstr /{if (gsub(/\|/,"|",id) != gsub(/\|/,"|",$0)) {print id; n++}} END{exit n>0}' po/id.po >"$tmp/bars"; then ok
else bad "translations with another number of '|' cells:"; cat "$tmp/bars"; fi

# labrun --lang id's words, exactly; --lang en's unchanged.
small=(--stages 2 --microbatches 2 --hidden 8 --batch 2 --steps 1)
"$labrun" bubble "${small[@]}" --lang id >"$tmp/id" 2>&1 || bad "labrun bubble --lang id failed"
"$labrun" bubble "${small[@]}" --lang en >"$tmp/en" 2>&1 || bad "labrun bubble --lang en failed"
expect_line() {     # FILE EXACT-LINE
    if grep -qxF -- "$2" "$1"; then ok; else bad "no line '$2' in $1:"; sed 's/^/    /' "$1" | head -40; fi
}
expect_re() {       # FILE PATTERN
    if grep -qE -- "$2" "$1"; then ok; else bad "nothing matches '$2' in $1"; fi
}
expect_line "$tmp/id" "backend cpu: 2 rank pada $(nproc) inti"
expect_line "$tmp/id" "pemeriksaan"
expect_line "$tmp/id" "metrik"
expect_line "$tmp/id" "langkah"
expect_line "$tmp/id" "per tahap (waktu CPU per operasi diukur, sibuk/menganggur diputar ulang, dinding diukur)"
expect_re "$tmp/id" '^  LULUS  jadwal selesai +setiap ketergantungan operasi terpenuhi; tidak ada tahap yang menunggu selamanya$'
expect_re "$tmp/id" '^  LULUS  pesan per langkah +4 pesan, 512 byte; 2m\(pv-1\) = 4 pesan masing-masing b\*h\*8 = 128 byte$'
expect_re "$tmp/id" '^  porsi gelembung +0,3333 +diputar ulang dari waktu CPU terukur per operasi$'
expect_re "$tmp/id" '^  bubble_formula +0,3333  dimodelkan +bentuk tertutup'
# Numbers in the lab's own words (tables, check details, notes) take the decimal comma too.
expect_re "$tmp/id" '^  LULUS  langkah dinding >= jalur kritisnya +langkah dinding [0-9]+,[0-9]{3} ms >= [0-9]+,[0-9]{3} ms, jalur kritis'
if grep -nE '[0-9]\.[0-9]' "$tmp/id"; then bad "a decimal point in labrun --lang id's report (above)"; else ok; fi
expect_re "$tmp/en" '^  PASS  wall step >= its critical path +wall step [0-9]+\.[0-9]{3} ms'
expect_line "$tmp/en" "checks"
expect_re "$tmp/en" '^  PASS  schedule completes +every operation'"'"'s dependencies were met; no stage waited forever$'
expect_re "$tmp/en" '^  bubble_formula +0\.3333  modelled  the schedule'
if grep -qE '^(checks|metrics|notes|PASS)|  PASS  ' "$tmp/id"; then bad "English headings in labrun --lang id"; else ok; fi

# The timeline picture: its title, subtitle, rows, axis and legend in the run's language.
"$labrun" bubble "${small[@]}" --lang id --svg "$tmp/id.svg" >/dev/null 2>&1 || bad "labrun --lang id --svg failed"
"$labrun" bubble "${small[@]}" --svg "$tmp/en.svg" >/dev/null 2>&1 || bad "labrun --svg failed"
sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$tmp/id.svg" >"$tmp/id.labels"
sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$tmp/en.svg" >"$tmp/en.labels"
expect_re "$tmp/id.labels" '^jadwal gpipe, p = 2, m = 2: gelembung 0,333 diputar ulang, rumus 0,333$'
expect_line "$tmp/id.labels" "backend cpu, 2 rank pada $(nproc) inti; waktu dalam ms"
expect_line "$tmp/id.labels" "tahap 1"
for w in maju mundur menganggur; do expect_line "$tmp/id.labels" "$w"; done
if grep -qE '^(forward|backward|idle|stage [0-9])$|[0-9]\.[0-9]' "$tmp/id.labels"; then bad "English words or decimal points in the Indonesian timeline:"; cat "$tmp/id.labels"; else ok; fi
expect_re "$tmp/en.labels" '^gpipe schedule, p = 2, m = 2: bubble 0\.333 replayed, formula 0\.333$'
for w in forward backward idle "stage 1"; do expect_line "$tmp/en.labels" "$w"; done

# Every lab at small sizes: no English word of a held-out list and no decimal
# point in labrun --lang id's report and picture, apart from the parameters
# line (the options' own names).  A lab without a line here fails: each new
# lab is checked too.
declare -A lab_small=(
    [activations]="--stages 2 --microbatches 2 --layers 4 --hidden 8 --tokens 4"
    [allreduce]="--ranks 3 --minbytes 4 --maxbytes 4096 --iters 2 --warmup-iters 1"
    [bubble]="${small[*]}"
    [memory]="--tp 2 --pp 2 --layers 4 --hidden 64 --heads 4 --seq 32 --vocab 500 --microbatches 4 --dp 2 --zero 3"
    [tensor-split]="--ranks 2 --mode mlp --tokens 5 --hidden 12 --ffn 24"
)
# Loan words the course's Indonesian keeps (thread, forward, backward, GEMM) are not in it.
english='\b(the|and|of|with|from|on|per stage|stages?|layers?|weights?|gradients?|measured|modelled|replayed|bytes|sent|every|equals?|unsplit|split|wrong|elements?|cores?|checks|notes|metrics|PASS|FAIL|yes|NO|largest|predicted|states|this run|wall clock|link|latency|tensors|activations?|precision|tolerance|formula|recorded|reference)\b'
for dir in labs/*/; do
    lab=$(basename "$dir")
    [ -f "$dir/lab.qz" ] || continue
    if [ -z "${lab_small[$lab]+set}" ]; then bad "lab $lab has no small sizes in i18n.sh"; continue; fi
    # shellcheck disable=SC2086
    "$labrun" "$lab" ${lab_small[$lab]} --lang id --svg "$tmp/$lab.svg" >"$tmp/$lab.id" 2>"$tmp/$lab.err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q 'no timeline' "$tmp/$lab.err"; then     # a lab that draws none
        # shellcheck disable=SC2086
        "$labrun" "$lab" ${lab_small[$lab]} --lang id >"$tmp/$lab.id" 2>"$tmp/$lab.err"
        rc=$?
    fi
    if [ $rc -eq 0 ]; then ok; else bad "labrun $lab --lang id failed ($rc):"; sed 's/^/    /' "$tmp/$lab.err" | head -5; fi
    # Not words but names: the lab's, the metrics' (the first column of that table), the options'.
    awk -v lab="$lab" '/^parameter:/ {next} /^metrik$/ {m=1; next} /^$/ {m=0}
        m {sub(/^ *[A-Za-z0-9_]+/, "")} {gsub(lab, "")} {print}' "$tmp/$lab.id" >"$tmp/$lab.words"
    [ -f "$tmp/$lab.svg" ] && sed -n 's/.*<text[^>]*>\([^<]*\)<\/text>.*/\1/p' "$tmp/$lab.svg" | sed "s/$lab//g" >>"$tmp/$lab.words"
    if grep -nwE "$english" "$tmp/$lab.words" >"$tmp/$lab.en"; then
        bad "English words in labrun $lab --lang id:"; sed 's/^/    /' "$tmp/$lab.en" | head -10
    else ok; fi
    if grep -nE '[0-9]\.[0-9]' "$tmp/$lab.words" >"$tmp/$lab.dots"; then
        bad "decimal points in labrun $lab --lang id:"; sed 's/^/    /' "$tmp/$lab.dots" | head -10
    else ok; fi
done

# A recorded run keeps its words in each of the quiz's languages labrun
# speaks: --record of a bilingual quiz writes every lab's checks, notes and
# timeline in English and again in Indonesian, from the same run.
if "$labrun" --verify tests/data/i18n/record.qz --record "$tmp/runs.json" >"$tmp/verify" 2>&1
then ok; else bad "labrun --verify --record failed:"; sed 's/^/    /' "$tmp/verify" | head -10; fi
# shellcheck disable=SC2016
node - "$tmp/runs.json" "$english" >"$tmp/words" 2>&1 <<'JS'
const fs = require('fs');
const en = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const english = new RegExp(process.argv[3]);
const labels = (svg) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
const bad = [];
const say = (m) => bad.push(m);
for (const [file, other] of [[en, 'id']]) {
  const own = 'en';
  if (file.runs.length !== 5) say(`${own}: ${file.runs.length} runs, not 5`);
  for (const r of file.runs) {
    const w = r.words && r.words[other];
    if (r.lang !== own) { say(`${r.lab}: lang ${r.lang}, not ${own}`); continue; }
    if (!w) { say(`${r.lab}: no words in ${other}`); continue; }
    if (w.checks.length !== r.checks.length) say(`${r.lab}: ${w.checks.length} checks in ${other}, ${r.checks.length} in ${own}`);
    if (w.notes.length !== r.notes.length) say(`${r.lab}: ${w.notes.length} notes in ${other}, ${r.notes.length} in ${own}`);
    if (!!w.svg !== !!r.svg) say(`${r.lab}: a timeline in one language only`);
    const ind = own === 'id' ? r : w, eng = own === 'id' ? w : r;
    const idWords = [...ind.checks.map((c) => c.name + ' ' + c.detail), ...ind.notes, ...(ind.svg ? labels(ind.svg) : [])];
    for (const s of idWords) {
      const t = s.replace(new RegExp(r.lab, 'g'), '');
      if (english.test(t)) say(`${r.lab} (recorded in ${own}): English in its Indonesian words: ${s.slice(0, 160)}`);
    }
    eng.checks.forEach((c, i) => { if (c.name === ind.checks[i].name) say(`${r.lab}: check '${c.name}' the same in both`); });
    if (eng.svg && !labels(eng.svg).some((l) => /^stage 1$|^rank 1$/.test(l))) say(`${r.lab}: English timeline without its rows`);
    if (ind.svg && !labels(ind.svg).some((l) => /^tahap 1$|^rank 1$/.test(l))) say(`${r.lab}: Indonesian timeline without its rows`);
  }
}
console.log(bad.length ? bad.join('\n') : 'ok');
process.exit(bad.length ? 1 : 0);
JS
if [ $? -eq 0 ]; then ok; else bad "a recorded run's words:"; sed 's/^/    /' "$tmp/words" | head -20; fi

echo "i18n: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
