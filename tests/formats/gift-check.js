// gift-check.js GIFT MOODLE_XML [special] — gift-pegjs, the parser of Moodle's
// GIFT format, reads GIFT back; every question must come out as the Moodle XML
// of the same quiz says: its type, its text, each choice's text, correct flag,
// weight and feedback, the general feedback, numeric answers and tolerances,
// accepted answers.  With "special", the texts of tests/data/formats/special.qz
// must also come back exactly as written.  Prints one "ok:"/"FAIL:" line per
// check.
'use strict';

const fs = require('node:fs');
const { parse } = require('gift-pegjs');

const [giftFile, xmlFile, mode] = process.argv.slice(2);
let pass = 0, fail = 0;
function check(cond, what) {
  if (cond) pass++; else fail++;
  console.log(`${cond ? 'ok' : 'FAIL'}: ${what}`);
}

// The Moodle XML quizc writes, read with patterns: it is our own output, one
// element per line at known places; entities are the five XML ones, HTML is CDATA.
const unxml = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
  .replace(/&apos;/g, "'").replace(/&#10;/g, '\n').replace(/&#13;/g, '\r').replace(/&amp;/g, '&');
// A figure: Moodle XML embeds it (<img src="@@PLUGINFILE@@/NAME" alt="ALT"/>), GIFT
// cannot and writes [ALT] in its place; that is the one way the two texts differ.
const asInGift = (s) => s.replace(/<img src="@@PLUGINFILE@@\/[^"]*" alt="([^"]*)"\/>/g, '[$1]');
// A <text>'s content: its CDATA sections joined (how quizc writes HTML), else its escaped text.
const xmlText = (s) => (s.startsWith('<![CDATA[') ? asInGift(s.replace(/<!\[CDATA\[([^]*?)\]\]>/g, '$1')) : unxml(s));
const textOf = (s, el) => { const m = s.match(new RegExp(`<${el}[^>]*>\\s*<text>([^]*?)</text>`)); return m ? xmlText(m[1]) : null; };
function moodleQuestions(xml) {
  const out = [];
  for (const m of xml.matchAll(/<question type="(\w+)">([^]*?)<\/question>/g)) {
    const [, type, body] = m;
    const q = { type, name: textOf(body, 'name'), text: textOf(body, 'questiontext'),
      general: textOf(body, 'generalfeedback'), single: /<single>true</.test(body), answers: [] };
    for (const a of body.matchAll(/<answer fraction="([^"]*)"[^>]*>\s*<text>([^]*?)<\/text>([^]*?)<\/answer>/g)) {
      const tol = a[3].match(/<tolerance>([^<]*)</);
      q.answers.push({ fraction: Number(a[1]), text: xmlText(a[2]), tolerance: tol ? Number(tol[1]) : null,
        feedback: textOf(a[3], 'feedback') });
    }
    out.push(q);
  }
  return out;
}

const gift = parse(fs.readFileSync(giftFile, 'utf8'));
const moodle = moodleQuestions(fs.readFileSync(xmlFile, 'utf8'));
const want = moodle.filter((q) => q.type !== 'category' && q.type !== 'description');
const got = gift.filter((q) => q.type !== 'Category' && q.type !== 'Description');
check(gift[0] && gift[0].type === 'Category', 'the category comes first');
check(got.length === want.length, `${got.length} questions read back, ${want.length} written`);
const fb = (f) => (f ? f.text : '');
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

for (let i = 0; i < Math.min(got.length, want.length); i++) {
  const g = got[i], w = want[i], id = w.name;
  const type = { multichoice: 'MC', truefalse: 'TF', numerical: 'Numerical', shortanswer: 'Short' }[w.type];
  check(g.type === type, `${id}: type ${g.type}, want ${type}`);
  check(g.title === id, `${id}: title ${g.title}`);
  check(g.stem.format === 'html' && g.stem.text === w.text, `${id}: question text ${JSON.stringify(g.stem.text)}`);
  check(fb(g.globalFeedback) === (w.general || ''), `${id}: general feedback ${JSON.stringify(fb(g.globalFeedback))}`);
  if (w.type === 'multichoice') {
    check(g.choices.length === w.answers.length, `${id}: ${g.choices.length} choices`);
    g.choices.forEach((c, k) => {
      const a = w.answers[k] || {};
      const weight = c.weight === null ? (c.isCorrect ? 100 : 0) : c.weight;
      check(c.text.text === a.text, `${id} choice ${k}: text ${JSON.stringify(c.text.text)}`);
      check(near(weight, a.fraction), `${id} choice ${k}: weight ${weight}, fraction ${a.fraction}`);
      check(w.single ? c.isCorrect === (a.fraction === 100) : weight > 0 === a.fraction > 0, `${id} choice ${k}: correct flag`);
      check(fb(c.feedback) === (a.feedback || ''), `${id} choice ${k}: feedback ${JSON.stringify(fb(c.feedback))}`);
    });
  } else if (w.type === 'truefalse') {
    check(g.isTrue === (w.answers.find((a) => a.fraction === 100).text === 'true'), `${id}: answer ${g.isTrue}`);
  } else if (w.type === 'numerical') {
    const a = w.answers[0], c = Array.isArray(g.choices) ? g.choices[0].text : g.choices;
    const [lo, hi] = c.type === 'high-low' ? [c.numberLow, c.numberHigh]
      : c.type === 'range' ? [c.number - c.range, c.number + c.range] : [c.number, c.number];
    const [wlo, whi] = [Number(a.text) - a.tolerance, Number(a.text) + a.tolerance];
    check(near(lo, wlo) && near(hi, whi), `${id}: accepted ${lo}..${hi}, want ${wlo}..${whi}`);
  } else if (w.type === 'shortanswer') {
    const texts = g.choices.map((c) => c.text.text);
    check(JSON.stringify(texts) === JSON.stringify(w.answers.map((a) => a.text)), `${id}: accepted ${JSON.stringify(texts)}`);
    check(g.choices.every((c) => c.isCorrect), `${id}: every accepted answer is correct`);
  }
}

if (mode === 'special') {
  const byId = Object.fromEntries(got.map((q) => [q.title, q]));
  const intro = gift.find((q) => q.type === 'Description');
  check(intro && intro.stem.text === '~ = # { } : \\ ~= {#} ::', `the intro: ${intro && JSON.stringify(intro.stem.text)}`);
  check(byId.s1.stem.text === '{~=#:}\\', 's1 prompt exact');
  check(byId.s1.choices[0].text.text === '=~' && byId.s1.choices[0].feedback.text === '#{}#', 's1 right choice and its feedback exact');
  check(byId.s1.choices[1].text.text === '~:=::' && byId.s1.choices[1].feedback.text === '\\\\ {} \\n', 's1 wrong choice and its feedback exact');
  check(byId.s1.globalFeedback.text === '<p>#### {=} ~~ ::x::</p>', 's1 explanation exact');
  check(byId.m1.stem.text === 'a:b=c~d#e{f}g\\h', 'm1 prompt exact');
  check(byId.m1.choices.map((c) => c.text.text).join('|') === '%50%|~%-100%~|=%', 'm1 choices exact, weights apart');
  check(byId.t1.choices.map((c) => c.text.text).join('|') === 'a=b|{x}|c:d|\\*#~', 't1 accepted answers exact (* as Moodle\'s literal \\*)');
  check(byId.n1.stem.text === '::#::' && byId.n1.choices.number === 0.001 && byId.n1.choices.range === 0.0001, 'n1 prompt and 1e-3 within 1e-4');
  check(byId.f1.stem.text === '\\{T}' && byId.f1.isTrue === true, 'f1 prompt and answer');
}
console.log(`gift: ${pass} passed, ${fail} failed`);
process.exit(fail ? 1 : 0);
