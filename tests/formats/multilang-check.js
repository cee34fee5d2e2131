// multilang-check.js — what a learner sees of quizc's Moodle XML and GIFT
// texts after Moodle's multi-language filter, in each language.
//
//   node tests/formats/multilang-check.js BANK.xml|BANK.gift [QUESTION=TEXT ...]
//
// The filter's rule, as Moodle documents and applies it: spans
// <span lang="xx" class="multilang">…</span> that follow one another with
// only white space between form one group; of each group one span survives,
// the learner's language (the last span of it in the group), else the
// first.  So a text loses words whenever one group holds two spans of one
// language.  This checks every question text and feedback of the file: no
// group holds a language twice, and, for each QUESTION=TEXT given, the
// question's filtered text in each language still contains TEXT's part for
// that language (TEXT as "en:Idle share?|id:Porsi menganggur?").
'use strict';
const fs = require('node:fs');

const [file, ...wants] = process.argv.slice(2);
const raw = fs.readFileSync(file, 'utf8');
let failed = 0, checked = 0;
const fail = (m) => { failed++; console.log(`FAIL: ${m}`); };

const unxml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(+n)).replace(/&amp;/g, '&');

// The texts of the file, each with the question it belongs to.
const texts = [];
if (file.endsWith('.gift')) {
  for (const block of raw.split(/\n\s*\n/)) {
    const m = block.match(/^::((?:\\.|[^:])*)::/);
    if (!m) continue;
    texts.push({ q: m[1], html: block.replace(/\\([~=#{}:\\])/g, '$1') });
  }
} else {
  for (const qm of raw.matchAll(/<question type="[^"]*">([^]*?)<\/question>/g)) {
    const name = (qm[1].match(/<name>\s*<text>([^<]*)<\/text>/) || [])[1] || '';
    for (const t of qm[1].matchAll(/<text>(?:<!\[CDATA\[([^]*?)\]\]>|([^<]*))<\/text>/g))
      texts.push({ q: name, html: t[1] !== undefined ? t[1] : unxml(t[2]) });
  }
}

const SPAN = /<span((?:\s+lang="[a-zA-Z0-9_-]+"|\s+class="multilang"){2})\s*>([^]*?)<\/span>/y;
const langOf = (attrs) => (attrs.match(/lang="([^"]*)"/) || [])[1];

// The groups of adjacent multilang spans in html: [{start, end, spans: [{lang, body}]}].
function groups(html) {
  const out = [];
  let i = 0;
  while (i < html.length) {
    const at = html.indexOf('<span', i);
    if (at < 0) break;
    SPAN.lastIndex = at;
    let m = SPAN.exec(html);
    if (!m) { i = at + 5; continue; }
    const g = { start: at, spans: [] };
    let end = at;
    while (m) {
      g.spans.push({ lang: langOf(m[1]), body: m[2] });
      end = SPAN.lastIndex;
      const ws = /\s*/y;
      ws.lastIndex = end;
      ws.exec(html);
      SPAN.lastIndex = ws.lastIndex;
      m = SPAN.exec(html);
    }
    g.end = end;
    out.push(g);
    i = end;
  }
  return out;
}

// html as the filter leaves it for a learner reading lang.
function filtered(html, lang) {
  let s = '', i = 0;
  for (const g of groups(html)) {
    const mine = g.spans.filter((x) => x.lang === lang);
    s += html.slice(i, g.start) + (mine.length ? mine[mine.length - 1] : g.spans[0]).body;
    i = g.end;
  }
  return s + html.slice(i);
}

for (const t of texts) {
  for (const g of groups(t.html)) {
    checked++;
    const seen = new Set();
    for (const x of g.spans) {
      if (seen.has(x.lang)) fail(`${t.q}: one group of multilang spans holds '${x.lang}' twice; the filter drops one: ${g.spans.map((y) => y.body.slice(0, 40)).join(' | ')}`);
      seen.add(x.lang);
    }
  }
}

for (const w of wants) {
  const [q, spec] = [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)];
  const mine = texts.filter((t) => t.q === q);
  if (!mine.length) { fail(`no question '${q}' in ${file}`); continue; }
  for (const part of spec.split('|')) {
    const [lang, want] = [part.slice(0, part.indexOf(':')), part.slice(part.indexOf(':') + 1)];
    checked++;
    if (!mine.some((t) => filtered(t.html, lang).includes(want)))
      fail(`${q}: a learner reading '${lang}' does not see "${want}" after the multi-language filter`);
  }
}
console.log(`multilang: ${checked} checked, ${failed} failed`);
process.exit(failed ? 1 : 0);
