// runs-check.js FORMAT FILE RUNS.json LANGS [hostile] — the recorded runs of
// tests/scorm/data/runs.qz (quizc --runs) in a GIFT, Moodle XML or QTI item
// file: for each language in LANGS (comma-separated), the machine and date
// line, then each claim of runs.qz in order with the figure of the run
// (to the four digits the box shows), how it was obtained in that language's
// words, and PASS/FAIL as the player's own judge (compiler/player/claims.js)
// decides from the run.  With "hostile", the run's script tags must arrive as
// text, and no markup of the runs file may get through.  The figures differ
// from machine to machine: they are read from RUNS.json, never written here.
// Prints one "ok:"/"FAIL:" line per check.
'use strict';

const fs = require('node:fs');
const { holds } = require('../../compiler/player/claims.js');

const [format, file, runsFile, langList, mode] = process.argv.slice(2);
let pass = 0, fail = 0;
function check(cond, what) {
  if (cond) pass++; else fail++;
  console.log(`${cond ? 'ok' : 'FAIL'}: ${what}`);
}

// The HTML the LMS gets: Moodle XML carries it as escaped text, GIFT with
// backslashes before its syntax characters, QTI as the item's own XHTML.
const unxml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&apos;/g, "'").replace(/&amp;/g, '&');
let html = fs.readFileSync(file, 'utf8');
// Moodle XML: HTML as CDATA sections, kept as they are; anything else escaped.
if (format === 'moodle') html = html.split(/<!\[CDATA\[([^]*?)\]\]>/).map((p, i) => (i % 2 ? p : unxml(p))).join('');
if (format === 'gift') html = html.replace(/\\([~=#{}:\\])/g, '$1');

// runs.qz's claims, in the order its lab boxes show them.
const CLAIMS = [
  { lab: 'bubble', metric: 'bubble_formula', op: 'within', tolerance: 0.001, of_answer: true, lo: 0.2717, hi: 0.2737 },
  { lab: 'bubble', metric: 'bubble_fraction', op: '<', value: 0.5 },
  { lab: 'tensor-split', metric: 'max_rel_error', op: '<', value: 1e-5 },
];
const WORDS = {
  en: { on: 'Measured on ', cores: ' cores of ', pass: 'PASS', fail: 'FAIL',
    basis: { measured: 'measured', replayed: 'replayed from measured costs', modelled: 'modelled', exact: 'exact' } },
  id: { on: 'Diukur pada ', cores: ' inti ', pass: 'LULUS', fail: 'GAGAL',
    basis: { measured: 'diukur', replayed: 'diputar ulang dari biaya terukur', modelled: 'dimodelkan', exact: 'eksak' } },
};
const runs = JSON.parse(fs.readFileSync(runsFile, 'utf8')).runs;
const runOf = (lab) => runs.find((r) => r.lab === lab);

// The text of a language: its multilang spans when there are several, else all of it.
function inLang(lang, several) {
  if (!several) return html;
  const parts = [...html.matchAll(new RegExp(`<span lang="${lang}" class="multilang">([^]*?)</span>`, 'g'))];
  return parts.map((m) => m[1]).join('\n');
}

const langs = langList.split(',');
for (const lang of langs) {
  const w = WORDS[lang], text = inLang(lang, langs.length > 1);
  const machine = (r) => (r.machine.gpu && r.machine.gpus ? `${r.machine.gpus} \u00d7 ${r.machine.gpu}`
    : r.machine.gpu ? r.machine.gpu : `${r.machine.cores}${w.cores}${r.machine.cpu}`);
  for (const lab of ['bubble', 'tensor-split']) {
    const r = runOf(lab), line = `${w.on}${machine(r)}, ${r.date.slice(0, 10)}`;
    check(text.includes(mode === 'hostile' ? line.replace(/</g, '&lt;').replace(/>/g, '&gt;') : line),
      `${lang}: "${line}" for labs/${lab}`);
  }
  // "PASS share of stage time spent idle (<code title="...">bubble_fraction</code>) = 0.25 (measured) — below 0.5",
  // as the player's box words a claim: the description's head, then the name as code.
  const items = [...text.matchAll(/<li><strong>([^<]+)<\/strong> (?:[^<]* \()?<code[^>]*>([^<]+)<\/code>\)?(.*?) = (\S+) \(([^)]*)\) \u2014 (.*?)<\/li>/g)];
  check(items.length === CLAIMS.length, `${lang}: ${items.length} claims with a figure, ${CLAIMS.length} in runs.qz`);
  CLAIMS.forEach((x, i) => {
    const it = items[i];
    if (!it) return;
    const r = runOf(x.lab), m = r.metrics.find((k) => k.name === x.metric);
    // Indonesian writes the decimal comma, every other language the point (ui.js decimalMark).
    const mark = lang === 'id' ? ',' : '.', other = lang === 'id' ? '.' : ',';
    check(!it[4].includes(other) && !it[6].includes(other), `${lang}: ${x.metric}'s numbers "${it[4]}", "${it[6]}" use the mark ${mark}`);
    const shown = Number(it[4].replace(mark, '.')), failed = r.checks.filter((c) => !c.pass).length;
    const verdict = m.value !== null && failed === 0 && holds(x, m.value) ? w.pass : w.fail;
    check(it[2] === x.metric, `${lang}: claim ${i + 1} is ${x.metric}`);
    check(Math.abs(shown - m.value) <= 5e-4 * Math.abs(m.value), `${lang}: ${x.metric} shows ${it[4]}, the run's ${m.value}`);
    check(it[5] === w.basis[m.basis], `${lang}: ${x.metric} says "${it[5]}" for ${m.basis}`);
    check(it[1] === verdict, `${lang}: ${x.metric} is ${it[1]}, as the player judges it`);
  });
}
check(!/<svg|data:image/i.test(html), 'no timeline: the run\'s SVG is left out');
if (mode === 'hostile') {
  check(!/<script|<img|<svg/i.test(html), 'no markup of the runs file gets through');
  check(html.includes('&lt;img src=x onerror=alert(2)&gt;'), 'the img tag of the note is there as text');
  check(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the script tag of the note is there as text');
}
console.log(`${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
