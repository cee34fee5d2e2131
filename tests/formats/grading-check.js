// grading-check.js QUIZ GIFT GIFT_ERR MOODLE_XML MOODLE_ERR — the grading table
// (tests/data/grading.json) scored for QUIZ as Moodle scores what it imports:
// the GIFT read by gift-pegjs, the Moodle XML as quizc writes it, each graded
// by Moodle's documented rules for the weights and tolerances read back.
//   numerical     right when answer - tolerance <= x <= answer + tolerance (a
//                 range lo..hi is its middle within half its width), the
//                 tolerance widened by 1e-14 x max(1, |answer|) as Moodle widens
//                 a nominal tolerance (PHP's precision 14), so that an edge
//                 written in decimals is inside
//   multichoice   single: the picked answer's fraction; several allowed: the sum
//                 of the picked answers' fractions, held to 0..1
//   truefalse     the picked answer's fraction
//   shortanswer   the response trimmed, matched without case (usecase 0)
// A row whose rule Moodle cannot carry (all or nothing) is held to its "moodle"
// share, and quizc must have warned about its question in GIFT_ERR and
// MOODLE_ERR (quizc's standard error for each format).  Prints one ok/FAIL line
// per row and engine; exit 1 on any failure.
'use strict';

const fs = require('node:fs');
const { parse } = require('gift-pegjs');
const table = require('./grading-table');

const [quiz, giftFile, giftErr, xmlFile, xmlErr] = process.argv.slice(2);
let pass = 0, fail = 0;
function check(cond, what) {
  if (cond) pass++; else fail++;
  if (!cond) console.log(`FAIL: ${what}`);
}

/* ---- What Moodle reads: each question as { type, single, usecase, answers: [{ fraction, text, tolerance }] } ---- */

const unxml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const xmlText = (s) => (s.startsWith('<![CDATA[') ? s.replace(/<!\[CDATA\[([^]*?)\]\]>/g, '$1') : unxml(s));

function fromMoodleXml(xml) {
  const out = {};
  for (const m of xml.matchAll(/<question type="(\w+)">([^]*?)<\/question>/g)) {
    const [, type, body] = m;
    if (type === 'category' || type === 'description') continue;
    const name = xmlText(body.match(/<name>\s*<text>([^]*?)<\/text>/)[1]);
    const q = { type, single: /<single>true</.test(body), usecase: /<usecase>1</.test(body), answers: [] };
    for (const a of body.matchAll(/<answer fraction="([^"]*)"[^>]*>\s*<text>([^]*?)<\/text>([^]*?)<\/answer>/g)) {
      const tol = a[3].match(/<tolerance>([^<]*)</);
      q.answers.push({ fraction: Number(a[1]) / 100, text: xmlText(a[2]), tolerance: tol ? Number(tol[1]) : 0 });
    }
    out[name] = q;
  }
  return out;
}

/* GIFT as Moodle's import reads what gift-pegjs parses: no `=` in a choice list means several answers allowed. */
function fromGift(text) {
  const out = {};
  for (const g of parse(text)) {
    let q;
    if (g.type === 'MC') {
      q = { type: 'multichoice', single: g.choices.some((c) => c.isCorrect), answers: g.choices.map((c) =>
        ({ fraction: c.weight !== null ? c.weight / 100 : c.isCorrect ? 1 : 0, text: c.text.text })) };
    } else if (g.type === 'TF') {
      q = { type: 'truefalse', answers: [{ text: 'true', fraction: g.isTrue ? 1 : 0 }, { text: 'false', fraction: g.isTrue ? 0 : 1 }] };
    } else if (g.type === 'Numerical') {
      const c = Array.isArray(g.choices) ? g.choices[0].text : g.choices;
      const [answer, tolerance] = c.type === 'high-low' ? [(c.numberLow + c.numberHigh) / 2, (c.numberHigh - c.numberLow) / 2]
        : c.type === 'range' ? [c.number, c.range] : [c.number, 0];
      q = { type: 'numerical', answers: [{ fraction: 1, text: String(answer), tolerance }] };
    } else if (g.type === 'Short') {
      q = { type: 'shortanswer', usecase: false, answers: g.choices.map((c) =>
        ({ fraction: c.weight !== null ? c.weight / 100 : c.isCorrect ? 1 : 0, text: c.text.text })) };
    } else {
      continue;
    }
    out[g.title] = q;
  }
  return out;
}

/* ---- Moodle's grading of one response ---- */

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function grade(q, r) {
  switch (q.type) {
    case 'multichoice': {
      const picked = (r || []).map(table.letter);
      if (q.single) return picked.length === 1 ? q.answers[picked[0]].fraction : 0;
      const sum = picked.reduce((s, i) => s + q.answers[i].fraction, 0);
      return Math.min(1, Math.max(0, sum));
    }
    case 'truefalse':
      if (r === null) return 0;
      return q.answers.find((a) => a.text === String(r)).fraction;
    case 'numerical': {
      const s = String(r).trim();
      if (!NUMBER.test(s)) return 0;
      const x = Number(s);
      let best = 0;
      for (const a of q.answers) {
        const v = Number(a.text), tol = Math.abs(a.tolerance) + 1e-14 * Math.max(1, Math.abs(v));
        if (v - tol <= x && x <= v + tol) best = Math.max(best, a.fraction);
      }
      return best;
    }
    case 'shortanswer': {
      const s = String(r).trim();
      if (s === '') return 0;
      const a = q.answers.find((x) => (q.usecase ? x.text === s : x.text.toLowerCase() === s.toLowerCase()));
      return a ? a.fraction : 0;
    }
  }
  throw new Error(`no rule for ${q.type}`);
}

const entry = table.load().find((e) => e.quiz === quiz);
if (!entry) {
  console.log(`FAIL: ${quiz} is not in ${table.TABLE}`);
  process.exit(1);
}
const engines = [
  ['GIFT (gift-pegjs, Moodle\'s rules)', fromGift(fs.readFileSync(giftFile, 'utf8')), fs.readFileSync(giftErr, 'utf8')],
  ['Moodle XML (Moodle\'s rules)', fromMoodleXml(fs.readFileSync(xmlFile, 'utf8')), fs.readFileSync(xmlErr, 'utf8')],
];
let rows = 0;
for (const [engine, qs, warnings] of engines) {
  for (const { id, rows: list } of entry.questions) {
    const q = qs[id];
    check(q !== undefined, `${quiz} ${id} ${engine}: the question is not there`);
    if (!q) continue;
    if (list.some((r) => r.own)) {
      const own = new RegExp(`cannot score question '${id}' all or nothing`), whole = /cannot score multiple questions all or nothing/;
      check(own.test(warnings) || whole.test(warnings), `${quiz} ${id} ${engine}: quizc did not warn that it carries partial credit instead of all or nothing`);
    }
    for (const r of list) {
      const got = grade(q, r.response);
      rows++;
      check(Math.abs(got - r.moodle) <= 1e-6,
        `${quiz} ${id} response ${table.show(r.response)} ${engine}: expected ${r.moodle}, got ${got}`);
    }
  }
}
console.log(`grading: ${rows} rows scored, ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
