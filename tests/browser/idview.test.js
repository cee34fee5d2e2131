// idview.test.js — the Indonesian view of both shipped quizzes (quizzes/*.qz,
// packed by run.sh as seed12 and lanjut12) in headless chromium, after the
// attempt is submitted so that every answer, claim and lab box is shown.
// What the learner reads holds no English string (the player's own words
// in ui.js, the quiz's English texts, the lab manifests' English texts) and
// no number with a decimal point: Indonesian writes 0,2727 (and groups
// thousands with points, 33.554.432).  Code (commands,
// metric names, snippets) is in no language and is left out, as is what an
// element marks as another language (the "English" button).
//
//   QUIZC_PACKAGES   folder of unpacked packages: seed12, lanjut12, and the two
//                    with the runs of their labs recorded: seedruns12, lanjutruns12
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');
const { manifestStrings, manifests } = require('./manifests');
const UI = require('../../compiler/player/ui.js');

const PKGS = process.env.QUIZC_PACKAGES;

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(PKGS), 'QUIZC_PACKAGES names the built packages (run tests/browser/run.sh)');
  srv = await serve(PKGS);
  browser = await launch();
});

after(async () => {
  await close(browser, srv);
});

const squash = (s) => s.replace(/\s+/g, ' ').trim();

/* Every text of the quiz data in lang: each { en: [...], id: [...] } object, plain. */
function quizTexts(data, lang) {
  const out = [];
  (function walk(v) {
    if (Array.isArray(v)) { v.forEach(walk); return; }
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v[lang]) && v[lang].every((b) => b && (b.p || b.code !== undefined))) {
      out.push(squash(v[lang].filter((b) => b.p).map((b) => b.p.map((s) => (s[0] === 'br' ? ' ' : s[1])).join('')).join(' ')));
    }
    Object.values(v).forEach(walk);
  })(data);
  return out.filter((s) => s);
}

/*
 * The player's English words: each entry of ui.js's English table cut at its
 * {placeholders}, the pieces with a word of three letters or more, less
 * those the Indonesian table says the same way.
 */
function playerWords() {
  const idAll = Object.values(UI.strings.id).join('\n');
  const out = [];
  for (const s of Object.values(UI.strings.en)) {
    for (const piece of s.split(/\{\w+\}/)) {
      const p = piece.trim();
      if (/[A-Za-z]{3}/.test(p) && !idAll.includes(p)) out.push(p);
    }
  }
  return out;
}

/* What the learner reads: no code, nothing marked as another language than the page's. */
const readable = () => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll('pre, code, [lang]').forEach((e) => {
    if (e.matches('pre, code') || e.lang !== document.documentElement.lang) e.remove();
  });
  return body.textContent.replace(/\s+/g, ' ');
};

/* The recorded runs packed into pkg, from the quiz data: [{lab, notes (its own), words}]. */
function recordedRuns(data) {
  return data.questions.flatMap((q) => q.labs.filter((l) => l.run).map((l) => l.run));
}

async function idView(pkg, withRuns) {
  const data = readQuizData(path.join(PKGS, pkg, 'quiz-data.js'));
  assert.deepEqual(data.languages, ['id', 'en']);
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${srv.base}/pkg/${pkg}/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  // A numeric answer with a decimal comma, then the attempt submitted: every answer and lab box shows.
  const numeric = data.questions.find((q) => q.kind === 'numeric');
  assert.ok(numeric, `${pkg} has a numeric question`);
  await page.type(`#q-${numeric.id}-input`, '0,5');
  await page.click('#finish');
  await page.waitForSelector('section.question .lab li');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'id');
  const text = await page.evaluate(readable);

  // A recorded run's notes: labrun wrote them in English and again in Indonesian; the view shows these.
  const runs = recordedRuns(data);
  assert.equal(runs.length > 0, withRuns, `${pkg}: ${runs.length} recorded runs`);
  for (const r of runs) {
    assert.equal(r.lang, 'en');
    assert.ok(r.words.id && r.words.id.notes.length === r.notes.length, `${pkg}: a run of ${r.notes.length} notes has them in Indonesian`);
    const heads = r.words.id.notes.map((n) => n.split(/\d/)[0].replace(/\s+/g, ' ')).filter((h) => h.length > 10);
    assert.ok(heads.length && heads.every((h) => text.includes(h)), `${pkg}: the view shows the run's Indonesian notes (${heads})`);
  }
  const english = [...playerWords(), ...quizTexts(data, 'en'),
    ...manifests.flatMap((f) => manifestStrings(f, 'en')),
    ...runs.flatMap((r) => r.notes.concat(r.checks.map((c) => c.detail)))];
  const indonesian = new Set([...quizTexts(data, 'id'), ...manifests.flatMap((f) => manifestStrings(f, 'id'))]);
  let checked = 0;
  for (const s of english) {
    if (indonesian.has(s)) continue;   // said the same way in both languages
    assert.ok(!text.includes(s), `${pkg}: the Indonesian view shows English: "${s}"`);
    checked++;
  }
  assert.ok(checked >= 150, `${pkg}: ${checked} English strings checked`);

  // Numbers: a decimal comma, never a point; a point only groups thousands (33.554.432), as Indonesian writes them.
  const pointed = (text.match(/\d[\d.,]*\d/g) || []).filter((n) => n.includes('.') && !/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(n));
  assert.deepEqual(pointed, [], `${pkg}: numbers with a decimal point in the Indonesian view`);
  // The accepted interval of every numeric question, as Indonesian writes it.
  for (const q of data.questions.filter((x) => x.kind === 'numeric')) {
    const want = q.min === q.max ? `Jawabannya: ${String(q.min).replace('.', ',')}`
      : `Diterima: ${String(q.min).replace('.', ',')} sampai ${String(q.max).replace('.', ',')}`;
    assert.ok(text.includes(want), `${pkg} ${q.id}: "${want}"`);
  }
  assert.ok(/Nilai: [\d,]+% \(batas lulus \d+%\)/.test(text), `${pkg}: the score in Indonesian`);
  assert.deepEqual(errors, []);
  await page.close();
}

test('the seed quiz\'s Indonesian view has no English and no decimal point', () => idView('seed12', false));
test('the advanced quiz\'s Indonesian view has no English and no decimal point', () => idView('lanjut12', false));
test('with their recorded runs, neither quiz\'s Indonesian view has English or a decimal point', async () => {
  await idView('seedruns12', true);
  await idView('lanjutruns12', true);
});

test('one number format per language: a comma in Indonesian, a point in English', () => {
  assert.equal(UI.number(0.2627, 'id'), '0,2627');
  assert.equal(UI.number(0.2627, 'en'), '0.2627');
  assert.equal(UI.number(87.5, 'id-ID'), '87,5');
  assert.equal(UI.number(12, 'id'), '12');
  assert.equal(UI.number(NaN, 'id'), '-');
  assert.equal(UI.figure(0.272727, 'id'), '0,2727');
  assert.equal(UI.figure(0.272727, 'en'), '0.2727');
  assert.equal(UI.figure(1.2e-7, 'id'), '1,2e-7');
  assert.equal(UI.figure(12345.6, 'id'), '12346');
  assert.equal(UI.figure(2.5, 'und'), '2.5');
});
