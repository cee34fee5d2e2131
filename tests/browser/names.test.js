// names.test.js — question ids and language tags that name what every
// JavaScript object inherits (__proto__, constructor, toString,
// hasOwnProperty, valueOf) are names like any other in the player, and
// saved state from the LMS is taken only where it fits the quiz.  Headless
// chromium with scorm-again as the LMS, SCORM 1.2 and 2004.
//
//   QUIZC_PACKAGES  names12, names2004: tests/scorm/data/names.qz (run.sh packs them)
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');

const PKGS = process.env.QUIZC_PACKAGES;
// The language tags of those names that have a language tag's shape; quizc refuses __proto__,
// constructor and hasOwnProperty as tags (xml:lang cannot carry them).
const LANGS = ['en', 'toString', 'valueOf'];
const IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(path.join(PKGS, 'names12')), 'QUIZC_PACKAGES holds names12 (run tests/browser/run.sh)');
  srv = await serve(PKGS);
  browser = await launch();
});

after(async () => {
  await close(browser, srv);
});

/* The package in the test LMS; page.errors collects uncaught exceptions and console errors of the package. */
async function inLms(version, query = '') {
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 900 });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => {
    // The browser's own asking for a site icon is not the package's.
    if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url || '')) page.errors.push(m.text());
  });
  await page.goto(`${srv.base}/lms/${version}/names${version}${query}`, { waitUntil: 'load' });
  const frame = await (await page.$('#sco')).contentFrame();
  await frame.waitForSelector('section.question');
  return { page, frame };
}

/* The last value the package set for each element, and its interactions by index. */
async function lmsState(page) {
  const log = await page.evaluate(() => window.lmsLog);
  const values = {}, inter = [];
  for (const e of log) {
    if (!/SetValue$/.test(e.call)) continue;
    values[e.key] = e.value;
    const m = e.key.match(/^cmi\.interactions\.(\d+)\.(.+)$/);
    if (m) (inter[+m[1]] = inter[+m[1]] || {})[m[2]] = e.value;
  }
  return { values, inter, failed: log.filter((e) => /SetValue$/.test(e.call) && e.result !== 'true') };
}

/* What the learner sees of every question: nothing answered, nothing graded, nothing locked. */
async function untouched(frame) {
  return frame.evaluate((ids) => ids.map((id) => {
    const sec = document.getElementById('q-' + id);
    const inputs = [...sec.querySelectorAll('input')];
    return {
      id,
      checked: inputs.filter((i) => i.checked).length,
      typed: inputs.filter((i) => i.type === 'text' && i.value !== '').length,
      disabled: inputs.filter((i) => i.disabled).length,
      feedback: sec.querySelector('.feedback').textContent,
      marks: sec.querySelectorAll('.mark').length,
      check: !!document.getElementById('q-' + id + '-check'),
    };
  }), IDS);
}

const NOTHING = IDS.map((id) => ({ id, checked: 0, typed: 0, disabled: 0, feedback: '', marks: 0, check: true }));

for (const version of ['12', '2004']) {
  const v2004 = version === '2004';

  test(`SCORM ${version}: ids named __proto__, constructor, toString, hasOwnProperty, valueOf and languages toString, valueOf are names like any other`, async () => {
    const data = readQuizData(path.join(PKGS, `names${version}`, 'quiz-data.js'));
    assert.deepEqual(data.languages, LANGS);
    assert.deepEqual(Object.keys(data.title), LANGS, 'every translation is a key of the data, toString and valueOf too');
    const { page, frame } = await inLms(version);
    assert.deepEqual(await untouched(frame), NOTHING, 'before answering: nothing answered, checked or shown');
    assert.equal(await frame.$eval('#result', (e) => e.textContent), '5 question(s) not answered yet.');
    assert.deepEqual((await lmsState(page)).inter, [], 'no interaction before answering');
    // The language switch: each tag is a button of its own name, and each shows its own text.
    assert.deepEqual(await frame.$$eval('button.lang', (es) => es.map((e) => e.textContent)), ['English', ...LANGS.slice(1)]);
    for (const l of LANGS) {
      await frame.click(`[id="lang-${l}"]`);
      assert.equal(await frame.$eval('h1', (e) => e.textContent), `Names [${l}]`, l);
      assert.equal(await frame.$eval('#q-__proto__-prompt', (e) => e.textContent), `Pick the first [${l}]`, l);
      assert.equal(await frame.$eval('#q-__proto__-check', (e) => e.textContent), 'Check answer', `${l}: the interface stays English`);
      assert.deepEqual(await untouched(frame), NOTHING, `${l}: still nothing answered`);
    }
    // Answering: four right, one wrong.
    await frame.click('#q-__proto__-a');
    await frame.click('#q-__proto__-check');
    await frame.click('#q-constructor-false');
    await frame.click('#q-constructor-check');
    await frame.type('#q-toString-input', '4');
    await frame.click('#q-toString-check');
    await frame.type('#q-hasOwnProperty-input', 'Own');
    await frame.click('#q-hasOwnProperty-check');
    await frame.click('#q-valueOf-a');
    await frame.click('#q-valueOf-b');
    await frame.click('#q-valueOf-check');
    const verdicts = await frame.$$eval('.feedback .verdict', (es) => es.map((e) => e.closest('section').id + ' ' + e.textContent));
    assert.deepEqual(verdicts, ['q-__proto__ Correct.', 'q-constructor Not quite.', 'q-toString Correct.',
      'q-hasOwnProperty Correct.', 'q-valueOf Correct.']);
    await frame.click('#finish');
    await frame.waitForSelector('#result .score');
    assert.equal(await frame.$eval('#result .score', (e) => e.textContent), 'Score: 80% (pass mark 50%)');
    const { values, inter, failed } = await lmsState(page);
    assert.deepEqual(failed, [], 'the LMS took every value');
    const wrong = v2004 ? 'incorrect' : 'wrong';
    assert.deepEqual(inter.map((i) => [i.id, i.result]), [['__proto__', 'correct'], ['constructor', wrong],
      ['toString', 'correct'], ['hasOwnProperty', 'correct'], ['valueOf', 'correct']]);
    const resp = v2004 ? 'learner_response' : 'student_response';
    assert.deepEqual(inter.map((i) => i[resp]), ['a', v2004 ? 'false' : 'f', '4', 'Own', v2004 ? 'a[,]b' : 'a,b']);
    assert.equal(values[v2004 ? 'cmi.score.raw' : 'cmi.core.score.raw'], '80');
    assert.equal(values[v2004 ? 'cmi.success_status' : 'cmi.core.lesson_status'], 'passed');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`SCORM ${version}: a resume brings back answers to __proto__ and constructor, and only those`, async () => {
    const { page, frame } = await inLms(version, `?learner=n-${version}`);
    await frame.click('[id="lang-valueOf"]');
    await frame.click('#q-__proto__-b');
    await frame.type('#q-toString-input', '5');
    await frame.click('#q-toString-check');
    await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
    await page.waitForFunction(() => window.lmsLog.some((e) => /^(LMSFinish|Terminate)$/.test(e.call)));
    const suspend = (await lmsState(page)).values['cmi.suspend_data'];
    await page.close();
    const key = `names-resume-${version}`;
    srv.saved.set(key, { suspend_data: suspend });
    const again = await inLms(version, `?learner=n-${version}&resume=${key}`);
    const f = again.frame;
    assert.equal(await f.$eval('h1', (e) => e.textContent), 'Names [valueOf]', 'the language comes back');
    assert.equal(await f.$eval('#q-__proto__-b', (e) => e.checked), true);
    assert.equal(await f.$eval('#q-toString-input', (e) => e.value), '5');
    assert.equal(await f.$eval('#q-toString .verdict', (e) => e.textContent), 'Not quite.', 'toString was checked');
    const rest = (await untouched(f)).filter((q) => !['__proto__', 'toString'].includes(q.id));
    assert.deepEqual(rest, NOTHING.filter((q) => !['__proto__', 'toString'].includes(q.id)), 'the others are not answered');
    assert.equal(await f.$eval('#q-__proto__ .feedback', (e) => e.textContent), '', '__proto__ was answered, not checked');
    assert.deepEqual(again.page.errors, []);
    await again.page.close();
  });

  test(`SCORM ${version}: saved state that does not fit the quiz is ignored, never thrown on`, async () => {
    const bad = [
      'not json',
      '',
      'null',
      '[1, 2]',
      '{"v": 1, "a": [], "c": "constructor", "r": {"length": 2}, "l": ["en"], "s": "seed"}',
      '{"v": 1, "a": {"__proto__": "z", "constructor": {"toString": 1}, "toString": [1], "valueOf": ["a", "zz"]}}',
      '{"v": 1, "a": {"hasOwnProperty": 7, "__proto__": ["a"]}, "c": [1, null, {}, "nope"], "r": ["__proto__"], "l": "__proto__"}',
      '{"v": 1, "a": {"toString": {"valueOf": 3}}, "c": ["toString"], "s": 1e400, "d": "1"}',
      '{"__proto__": {"v": 1}, "a": {"__proto__": "a"}}',
    ];
    for (const [i, sd] of bad.entries()) {
      const key = `names-bad-${version}-${i}`;
      srv.saved.set(key, { suspend_data: sd });
      const { page, frame } = await inLms(version, `?resume=${key}`);
      assert.deepEqual(await untouched(frame), NOTHING, `case ${i}: ${sd}`);
      assert.deepEqual(page.errors, [], `case ${i}: ${sd}`);
      // The quiz still works: answer one and finish.
      await frame.click('#q-valueOf-c');
      await frame.click('#finish');
      await frame.waitForSelector('#result .score');
      assert.equal(await frame.$eval('#result .score', (e) => e.textContent), 'Score: 0% (pass mark 50%)', `case ${i}`);
      assert.deepEqual(page.errors, [], `case ${i}: ${sd}`);
      await page.close();
    }
  });
}
