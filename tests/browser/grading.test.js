// grading.test.js — the grading table (tests/data/grading.json) scored by the
// SCORM player in headless chromium under scorm-again, in SCORM 1.2 and 2004:
// what the LMS receives, each interaction's result and the quiz's score.
//
// A quiz is taken once for each k up to its longest row list: every question
// is answered with the k-th response of its rows (a question with fewer rows
// is left unanswered), the quiz is finished, and then
//   - each answered question's interaction result is the row's share:
//     correct = 1, wrong (1.2) / incorrect (2004) = 0, else the decimal share;
//   - a question left with no answer (nothing picked, nothing typed) sends no
//     interaction, and its row must say 0;
//   - the score is the sum of the shares times the points over the points.
//
//   QUIZC_PACKAGES   folder of unpacked packages: grading-N-12 and grading-N-2004,
//                    the N-th quiz of the table (run.sh builds them)
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');
const { scorm12, scorm2004 } = require('./formats');
const grading = require('../formats/grading-table');

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

/* Give response r to question q in the frame; false when r is no answer at all. */
async function respond(frame, q, r) {
  if (grading.empty(r)) return false;
  switch (q.kind) {
    case 'single': case 'multiple':
      for (const c of r) {
        const choice = q.choices[grading.letter(c)];
        assert.ok(choice, `${q.id} has no choice ${c}`);
        await frame.click(`#q-${q.id}-${choice.id}`);
      }
      return true;
    case 'truefalse':
      await frame.click(`#q-${q.id}-${r}`);
      return true;
    case 'numeric': case 'text':
      await frame.type(`#q-${q.id}-input`, r);
      return true;
  }
  throw new Error(`unknown kind ${q.kind}`);
}

/* The last value the package set for each element, and the last of each interaction's fields by its id. */
function received(log) {
  const values = {}, byIndex = [];
  for (const e of log) {
    if (!/SetValue$/.test(e.call)) continue;
    values[e.key] = e.value;
    const m = e.key.match(/^cmi\.interactions\.(\d+)\.(.+)$/);
    if (m) (byIndex[+m[1]] = byIndex[+m[1]] || {})[m[2]] = e.value;
  }
  const inter = {};
  for (const it of byIndex) if (it) inter[it.id] = it;
  return { values, inter };
}

/* An interaction result as a share: correct 1, wrong / incorrect 0, else its decimal. */
function resultShare(result, v2004) {
  if (result === 'correct') return 1;
  if (result === (v2004 ? 'incorrect' : 'wrong')) return 0;
  return /^\d*\.?\d+$/.test(result) ? Number(result) : NaN;
}

async function scoreTable(entry, n, version) {
  const v2004 = version === '2004';
  const F = v2004 ? scorm2004 : scorm12;
  const pkg = `grading-${n}-${version}`;
  const data = readQuizData(path.join(PKGS, pkg, 'quiz-data.js'));
  const byId = Object.fromEntries(data.questions.map((q) => [q.id, q]));
  const engine = `SCORM ${version === '12' ? '1.2' : '2004'} player under scorm-again`;
  const attempts = Math.max(...entry.questions.map((x) => x.rows.length));
  const wrong = [];
  let rows = 0;
  for (let k = 0; k < attempts; k++) {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${srv.base}/lms/${version}/${pkg}`, { waitUntil: 'load' });
    const frame = await (await page.$('#sco')).contentFrame();
    await frame.waitForSelector('section.question');
    const asked = [];
    for (const { id, rows: list } of entry.questions) {
      const q = byId[id];
      assert.ok(q, `${entry.quiz}: the package has no question ${id}`);
      if (k >= list.length) continue;
      const given = await respond(frame, q, list[k].response);
      if (given && data.feedback === 'immediate') await frame.click(`#q-${id}-check`);
      asked.push({ q, row: list[k], given });
    }
    await frame.click('#finish');
    await frame.waitForSelector('#result .score');
    const { values, inter } = received(await page.evaluate(() => window.lmsLog));
    assert.deepEqual(errors, [], `${pkg} attempt ${k}`);
    await page.close();

    const what = (q, row) => `${entry.quiz} ${q.id} response ${grading.show(row.response)} ${engine}`;
    for (const { q, row, given } of asked) {
      rows++;
      const it = inter[q.id];
      if (!given) {
        if (it || row.share !== 0) wrong.push(`${what(q, row)}: expected ${row.share}, got ${it ? it.result : 'no interaction (0)'}`);
        continue;
      }
      const got = it ? resultShare(it.result, v2004) : NaN;
      if (!it || !F.result.test(it.result) || !(Math.abs(got - row.share) <= 5e-8))
        wrong.push(`${what(q, row)}: expected ${row.share}, got ${it ? it.result : 'no interaction'}`);
    }
    // The score: the shares times the points over the points, as a percentage to 2 decimals.
    const total = data.questions.reduce((s, q) => s + q.points, 0);
    const earned = asked.reduce((s, a) => s + a.row.share * a.q.points, 0);
    const pct = (earned / total) * 100;
    const raw = values[v2004 ? 'cmi.score.raw' : 'cmi.core.score.raw'];
    if (!(Math.abs(Number(raw) - pct) <= 0.005 + 1e-9) || !F.decimal.test(raw))
      wrong.push(`${entry.quiz} attempt ${k + 1} (response ${k + 1} of each question's rows) ${engine}: expected score ${pct.toFixed(4)}, got ${raw}`);
    if (v2004 && !(Math.abs(Number(values['cmi.score.scaled']) - pct / 100) <= 5e-5))
      wrong.push(`${entry.quiz} attempt ${k + 1} ${engine}: expected scaled score ${pct / 100}, got ${values['cmi.score.scaled']}`);
  }
  assert.ok(rows > 0);
  assert.deepEqual(wrong, [], wrong.join('\n'));
}

grading.load().forEach((entry, n) => {
  for (const version of ['12', '2004']) {
    test(`SCORM ${version === '12' ? '1.2' : '2004'}: every row of the grading table for ${entry.quiz} gets its share, and the score their sum`,
      () => scoreTable(entry, n, version));
  }
});
