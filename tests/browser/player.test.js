// player.test.js — the SCORM packages quizc writes, taken in headless Debian
// chromium with scorm-again as the LMS (see run.sh, which builds the packages).
//
//   QUIZC_PACKAGES   folder of unpacked packages: seed12, seed2004, lanjut12, lanjut2004, pipa12, pipa2004, partial12, partial2004,
//                    acak12, acak2004, hostile, silent
//   QUIZC_ARTIFACTS  where screenshots go
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData, ownScripts } = require('./server');
const { scorm12, scorm2004 } = require('./formats');

const PKGS = process.env.QUIZC_PACKAGES;
const ARTIFACTS = process.env.QUIZC_ARTIFACTS;

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(PKGS), 'QUIZC_PACKAGES names the built packages (run tests/browser/run.sh)');
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  srv = await serve(PKGS);
  browser = await launch(['--allow-file-access-from-files']);
});

after(async () => {
  await close(browser, srv);
});

/* The quiz data a package carries (quiz-data.js sets window.QUIZ_DATA). */
function quizData(pkg) {
  return readQuizData(path.join(PKGS, pkg, 'quiz-data.js'));
}

function plain(text, lang) {
  return text[lang].map((b) => (b.code !== undefined ? b.code : b.p.map((s) => (s[0] === 'br' ? ' ' : s[1])).join(''))).join(' ');
}

/*
 * The runs of words a text shows, cut at each paragraph and at each formula
 * or figure or line break: the page shows a formula as MathML and a figure as an <img>,
 * whose characters are not the TeX or the alt text the data holds.
 */
function pieces(text, lang) {
  const out = [];
  for (const b of text[lang]) {
    if (b.code !== undefined) { out.push(b.code); continue; }
    let run = '';
    for (const s of b.p) {
      if (['math', 'dmath', 'img', 'br'].includes(s[0])) { out.push(run); run = ''; }
      else run += s[1];
    }
    out.push(run);
  }
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

/* Whether the feedback fb shows every run of words of text. */
function showsText(fb, text, lang) {
  return pieces(text, lang).every((x) => fb.includes(x));
}

async function newPage(width = 1000) {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  return page;
}

/* Open the package in the test LMS; returns the page and the package's frame once the quiz is shown. */
async function openInLms(version, pkg, query = '') {
  const page = await newPage();
  await page.goto(`${srv.base}/lms/${version}/${pkg}${query}`, { waitUntil: 'load' });
  const frame = await (await page.$('#sco')).contentFrame();
  await frame.waitForSelector('section.question');
  return { page, frame };
}

/* Answer q in the frame, right or wrong on purpose; returns the response SCORM should record. */
async function answer(page, frame, q, right, v2004) {
  const sep = v2004 ? '[,]' : ',';
  switch (q.kind) {
    case 'single': {
      const c = q.choices.find((x) => x.correct === right);
      await frame.click(`#q-${q.id}-${c.id}`);
      return c.id;
    }
    case 'multiple': {
      const pick = right ? q.choices.filter((x) => x.correct) : [q.choices.find((x) => !x.correct)];
      for (const c of pick) await frame.click(`#q-${q.id}-${c.id}`);
      return pick.map((c) => c.id).sort().join(sep);
    }
    case 'truefalse': {
      const value = right ? q.answer : !q.answer;
      await frame.click(`#q-${q.id}-${value}`);
      return v2004 ? String(value) : (value ? 't' : 'f');
    }
    case 'numeric': {
      const value = right ? q.answer : q.max + 1;
      await frame.type(`#q-${q.id}-input`, String(value));
      return String(value);
    }
    case 'text': {
      // Case and surrounding space do not matter.
      const value = right ? ` ${q.accept[0].toUpperCase()} ` : 'no idea';
      await frame.type(`#q-${q.id}-input`, value);
      return value.trim();
    }
  }
  throw new Error(`unknown kind ${q.kind}`);
}

function expectedPattern(q, v2004) {
  const sep = v2004 ? '[,]' : ',';
  switch (q.kind) {
    case 'single': case 'multiple':
      return q.choices.filter((c) => c.correct).map((c) => c.id).join(sep);
    case 'truefalse': return v2004 ? String(q.answer) : (q.answer ? 't' : 'f');
    case 'numeric': return v2004 ? `${q.min}[:]${q.max}` : String(q.answer);
    case 'text': return v2004 ? `{case_matters=false}${q.accept[0]}` : q.accept[0];
  }
  return null;
}

const TYPE = { single: 'choice', multiple: 'choice', truefalse: 'true-false', numeric: 'numeric', text: 'fill-in' };

/* The last value the package set for each element, and the interactions grouped by index. */
function digest(log) {
  const values = {};
  const inter = [];
  for (const e of log) {
    if (!/SetValue$/.test(e.call)) continue;
    values[e.key] = e.value;
    const m = e.key.match(/^cmi\.interactions\.(\d+)\.(.+)$/);
    if (m) {
      inter[+m[1]] = inter[+m[1]] || { order: [] };
      inter[+m[1]][m[2]] = e.value;
      inter[+m[1]].order.push(m[2]);
    }
  }
  return { values, inter };
}

/*
 * Take a quiz in the LMS: answer every question (right where plan says so),
 * switch language halfway, finish.  Checks what the learner sees on the way
 * and, at the end, every value the package gave the LMS.
 */
async function takeQuiz(version, pkg, plan) {
  const v2004 = version === '2004';
  const F = v2004 ? scorm2004 : scorm12;
  const data = quizData(pkg);
  const [first, second] = data.languages;
  const { page, frame } = await openInLms(version, pkg);

  // The quiz is there at once, in the default language.
  assert.equal(await frame.$eval('h1', (e) => e.textContent), plain(data.title, first));
  assert.equal(await frame.evaluate(() => document.documentElement.lang), first);
  assert.equal((await frame.$$('section.question')).length, data.questions.length);
  assert.ok(await frame.$eval('.mode', (e) => e.textContent.length > 0));
  // Every input has a label.
  assert.ok(await frame.evaluate(() => [...document.querySelectorAll('input')].every((i) => i.labels.length > 0)));

  const responses = {};
  const half = Math.ceil(data.questions.length / 2);
  for (let i = 0; i < data.questions.length; i++) {
    const q = data.questions[i];
    if (i === half) {
      await frame.click(`#lang-${second}`);
      assert.equal(await frame.evaluate(() => document.documentElement.lang), second);
      assert.equal(await frame.$eval('h1', (e) => e.textContent), plain(data.title, second));
      // Answers given before the switch are still there.
      const q0 = data.questions[0];
      if (q0.kind === 'single') {
        const c = q0.choices.find((x) => x.correct === plan[0]);
        assert.equal(await frame.$eval(`#q-${q0.id}-${c.id}`, (e) => e.checked), true);
      }
    }
    const lang = i < half ? first : second;
    if (i === 0 && q.kind === 'single') {
      // The keyboard alone: focus the choice, Space selects it, Tab reaches "check", Enter presses it.
      const c = q.choices.find((x) => x.correct === plan[i]);
      await frame.focus(`#q-${q.id}-${c.id}`);
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      assert.equal(await frame.evaluate(() => document.activeElement.id), `q-${q.id}-check`);
      await page.keyboard.press('Enter');
      responses[q.id] = c.id;
    } else {
      responses[q.id] = await answer(page, frame, q, plan[i], v2004);
      if (data.feedback === 'immediate') await frame.click(`#q-${q.id}-check`);
    }
    if (data.feedback === 'immediate') {
      // Right or wrong, the chosen choice's feedback and the explanation, right after answering.
      const fb = await frame.$eval(`#q-${q.id} .feedback`, (e) => e.textContent);
      const verdict = await frame.$eval(`#q-${q.id} .feedback .verdict`, (e) => e.textContent);
      const words = { id: ['Benar.', 'Belum tepat.'], en: ['Correct.', 'Not quite.'] }[lang];
      assert.equal(verdict, plan[i] ? words[0] : words[1], `verdict of ${q.id}`);
      if (q.explain) assert.ok(showsText(fb, q.explain, lang), `explanation of ${q.id} shown`);
      if (q.kind === 'single' && !plan[i]) {
        const c = q.choices.find((x) => !x.correct);
        if (c.because) assert.ok(showsText(fb, c.because, lang), `because of ${q.id} shown`);
      }
      // Answered and checked: the answer's inputs are locked (the lab box's own-run picker stays open).
      assert.ok(await frame.$$eval(`#q-${q.id} fieldset input`, (es) => es.every((e) => e.disabled)));
    }
  }

  await frame.click('#finish');
  await frame.waitForSelector('#result .score');
  const log = await page.evaluate(() => window.lmsLog);
  assert.deepEqual(page.errors, []);

  // Every call succeeded, began with initialize and ended with finish / terminate.
  for (const e of log) {
    // Reading an element the LMS has no value for yet is 403 in 2004 (the mastery score, probed).
    if (v2004 && e.call === 'GetValue' && e.error === '403' && e.key === 'cmi.scaled_passing_score') continue;
    assert.equal(e.error, '0', `${e.call}(${e.key || ''}, ${e.value === undefined ? '' : e.value}) failed`);
    assert.equal(e.result === 'false', false, `${e.call}(${e.key}) answered false`);
  }
  assert.equal(log[0].call, v2004 ? 'Initialize' : 'LMSInitialize');
  assert.equal(log[log.length - 1].call, v2004 ? 'Terminate' : 'LMSFinish');
  assert.ok(log.some((e) => e.call === (v2004 ? 'Commit' : 'LMSCommit')));

  const { values, inter } = digest(log);
  const total = data.questions.reduce((s, q) => s + q.points, 0);
  const got = data.questions.reduce((s, q, i) => s + (plan[i] ? q.points : 0), 0);
  const pct = Math.round((got / total) * 10000) / 100;
  const passed = pct >= data.passing;
  const P = v2004 ? 'cmi.' : 'cmi.core.';
  assert.equal(Number(values[`${P}score.raw`]), pct);
  assert.match(values[`${P}score.raw`], F.decimal);
  assert.equal(values[`${P}score.min`], '0');
  assert.equal(values[`${P}score.max`], '100');
  if (v2004) {
    assert.match(values['cmi.score.scaled'], F.decimal);
    assert.ok(Math.abs(Number(values['cmi.score.scaled']) - pct / 100) < 1e-9);
    assert.equal(values['cmi.completion_status'], 'completed');
    assert.equal(values['cmi.success_status'], passed ? 'passed' : 'failed');
    assert.equal(values['cmi.exit'], 'normal');
    assert.match(values['cmi.session_time'], F.duration);
  } else {
    assert.equal(values['cmi.core.lesson_status'], passed ? 'passed' : 'failed');
    // Unfinished, it said so first.
    const first12 = log.find((e) => e.key === 'cmi.core.lesson_status');
    assert.equal(first12.value, 'incomplete');
    assert.equal(values['cmi.core.exit'], '');
    assert.match(values['cmi.core.session_time'], F.timespan);
  }

  // One interaction per answered question, each field in its version's format.
  assert.equal(inter.length, data.questions.length);
  const seen = new Set();
  for (const it of inter) {
    assert.equal(it.order[0], 'id', 'the id is set first');
    assert.match(it.id, F.identifier);
    const i = data.questions.findIndex((q) => q.id === it.id);
    assert.ok(i >= 0, `interaction ${it.id} names a question`);
    assert.ok(!seen.has(it.id), `one interaction for ${it.id}`);
    seen.add(it.id);
    const q = data.questions[i];
    const type = TYPE[q.kind];
    assert.equal(it.type, type);
    assert.match(it.type, F.type);
    assert.equal(it.result, plan[i] ? 'correct' : (v2004 ? 'incorrect' : 'wrong'), `result of ${q.id}`);
    assert.match(it.result, F.result);
    assert.equal(Number(it.weighting), q.points);
    assert.match(it.weighting, F.decimal);
    const resp = v2004 ? it.learner_response : it.student_response;
    assert.equal(resp, responses[q.id], `response to ${q.id}`);
    assert.match(resp, F.response[type]);
    const pat = it['correct_responses.0.pattern'];
    assert.equal(pat, expectedPattern(q, v2004), `pattern of ${q.id}`);
    if (v2004) assert.match(pat, F.pattern[type]);
    else assert.match(pat, F.response[type]);
    assert.match(v2004 ? it.timestamp : it.time, v2004 ? F.timestamp : F.time);
    assert.match(it.latency, v2004 ? F.duration : F.timespan);
  }

  // The result the learner sees agrees with what the LMS got.
  const score = await frame.$eval('#result .score', (e) => e.textContent);
  assert.ok(score.includes(`${pct}%`), score);
  await page.close();
  return { pct, passed };
}

function seedPlan(n, wrong) {
  return Array.from({ length: n }, (_, i) => !wrong.includes(i));
}

test('SCORM 1.2: the seed quiz taken with three wrong answers fails, every interaction recorded', async () => {
  const data = quizData('seed12');
  const r = await takeQuiz('12', 'seed12', seedPlan(data.questions.length, [2, 5, 7]));
  assert.equal(r.passed, false);
});

test('SCORM 2004: the seed quiz taken with one wrong answer passes, every interaction recorded', async () => {
  const data = quizData('seed2004');
  const r = await takeQuiz('2004', 'seed2004', seedPlan(data.questions.length, [2]));
  assert.equal(r.passed, true);
});

test('SCORM 1.2: the second shipped quiz taken with three wrong answers of ten fails', async () => {
  const data = quizData('lanjut12');
  const r = await takeQuiz('12', 'lanjut12', seedPlan(data.questions.length, [1, 4, 8]));
  assert.equal(r.passed, false);
});

test('SCORM 2004: the second shipped quiz taken with two wrong answers passes', async () => {
  const data = quizData('lanjut2004');
  const r = await takeQuiz('2004', 'lanjut2004', seedPlan(data.questions.length, [2, 7]));
  assert.equal(r.passed, true);
});

test('SCORM 1.2: every question kind, right and wrong, in both languages', async () => {
  await takeQuiz('12', 'pipa12', [true, false, true, false, true]);
});

test('SCORM 2004: every question kind, right and wrong, in both languages', async () => {
  await takeQuiz('2004', 'pipa2004', [false, true, true, true, false]);
});

/* Question order and each question's choice order, as shown. */
async function shownOrder(frame) {
  return frame.evaluate(() => [...document.querySelectorAll('section.question')].map((s) =>
    s.id + ':' + [...s.querySelectorAll('input[type=radio],input[type=checkbox]')].map((i) => i.value).join('')));
}

async function resume(version) {
  const v2004 = version === '2004';
  const F = v2004 ? scorm2004 : scorm12;
  const pkg = v2004 ? 'acak2004' : 'acak12';
  const data = quizData(pkg);
  const byId = Object.fromEntries(data.questions.map((q) => [q.id, q]));
  const { page, frame } = await openInLms(version, pkg, '?learner=learner-A');
  const order = await shownOrder(frame);
  await answer(page, frame, byId.a1, true, v2004);
  await answer(page, frame, byId.a2, false, v2004);
  await answer(page, frame, byId.a4, true, v2004);
  await frame.click('#lang-en');
  // Feedback waits for the submit (on-submit).
  assert.equal(await frame.$$eval('.feedback .verdict', (es) => es.length), 0);
  // The learner leaves: the frame unloads, the package suspends.
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  const end = v2004 ? 'Terminate' : 'LMSFinish';
  await page.waitForFunction((c) => window.lmsLog.some((e) => e.call === c), {}, end);
  const first = digest(await page.evaluate(() => window.lmsLog));
  const P = v2004 ? 'cmi.' : 'cmi.core.';
  assert.equal(first.values[`${P}exit`], 'suspend');
  assert.equal(first.values[v2004 ? 'cmi.completion_status' : 'cmi.core.lesson_status'], 'incomplete');
  assert.match(first.values[`${P}session_time`], v2004 ? F.duration : F.timespan);
  assert.equal(first.inter.length, 0, 'nothing graded before the submit');
  const suspend = first.values['cmi.suspend_data'];
  // 1.2 holds 4096 characters of suspend_data, 2004 64000.
  assert.ok(suspend && suspend.length <= 4096, 'suspend_data fits SCORM 1.2');
  await page.close();

  srv.saved.set(pkg, { suspend_data: suspend });
  const again = await openInLms(version, pkg, `?learner=learner-A&resume=${pkg}`);
  const f2 = again.frame;
  assert.deepEqual(await shownOrder(f2), order, 'the same order after the resume');
  assert.equal(await f2.evaluate(() => document.documentElement.lang), 'en');
  const b = byId.a1.choices.find((c) => c.correct).id;
  assert.equal(await f2.$eval(`#q-a1-${b}`, (e) => e.checked), true);
  const w = byId.a2.choices.find((c) => !c.correct).id;
  assert.equal(await f2.$eval(`#q-a2-${w}`, (e) => e.checked), true);
  assert.equal(await f2.$eval('#q-a4-input', (e) => e.value), '42');
  await f2.click('#finish');
  await f2.waitForSelector('#result .score');
  // on-submit: now every question shows its verdict.
  assert.equal(await f2.$$eval('.feedback .verdict', (es) => es.length), data.questions.length);
  assert.equal(await f2.$eval('#q-a4 .key', (e) => e.textContent), 'The answer: 42');
  const second = digest(await again.page.evaluate(() => window.lmsLog));
  assert.deepEqual(second.inter.map((i) => i.id).sort(), ['a1', 'a2', 'a4']);
  assert.equal(second.values[`${P}score.raw`], '40');
  assert.equal(second.values[v2004 ? 'cmi.success_status' : 'cmi.core.lesson_status'], 'failed');
  await again.page.close();

  // Another learner gets another order.
  const other = await openInLms(version, pkg, '?learner=learner-B');
  assert.notDeepEqual(await shownOrder(other.frame), order);
  await other.page.close();
}

test('SCORM 1.2: a resume restores the answers, the language and the shuffled order of one learner', () => resume('12'));
test('SCORM 2004: a resume restores the answers, the language and the shuffled order of one learner', () => resume('2004'));

/* Answer the first question right, finish, and return the LMS's log. */
async function answerOneAndFinish(host, frame, data, v2004) {
  const q = data.questions[0];
  await answer(host, frame, q, true, v2004);
  await frame.click('#finish');
  await frame.waitForSelector('#result .score');
  return host.evaluate(() => window.lmsLog);
}

/*
 * A multiple question earns the weights of the picked choices, held to 0..1,
 * or all or nothing when its quiz says so: the score the learner sees, the
 * score and each interaction's result the LMS receives, as Moodle grades
 * the same weights and QTI scores the same items.
 */
async function partialCredit(version) {
  const v2004 = version === '2004';
  const F = v2004 ? scorm2004 : scorm12;
  const data = quizData(`partial${version}`);
  const multi = data.questions.find((q) => q.id === 'splits');
  const right = multi.choices.filter((c) => c.correct), wrong = multi.choices.filter((c) => !c.correct);
  assert.equal(right.length, 3);
  const cases = [
    { pick: [right[0], right[1]], share: 2 / 3, verdict: /Partly right: 67% of the points\./ },
    { pick: [right[0], right[1], right[2], wrong[0]], share: 1 / 2, verdict: /Partly right: 50% of the points\./ },
    { pick: [right[0], wrong[0]], share: 0, verdict: /^Not quite\.$/ },
    { pick: [...right], share: 1, verdict: /^Correct\.$/ },
  ];
  for (const c of cases) {
    const { page, frame } = await openInLms(version, `partial${version}`);
    for (const x of c.pick) await frame.click(`#q-splits-${x.id}`);
    await frame.click('#q-splits-check');
    assert.match(await frame.$eval('#q-splits .feedback .verdict', (e) => e.textContent), c.verdict);
    // whole scores all or nothing: one of its two right choices earns 0.
    await frame.click('#q-whole-a');
    await frame.click('#q-whole-check');
    assert.match(await frame.$eval('#q-whole .feedback .verdict', (e) => e.textContent), /^Not quite\.$/);
    const ring = data.questions.find((q) => q.id === 'ring');
    await frame.click(`#q-ring-${ring.choices.find((x) => x.correct).id}`);
    await frame.click('#q-ring-check');
    await frame.click('#finish');
    await frame.waitForSelector('#result .score');
    const log = await page.evaluate(() => window.lmsLog);
    assert.deepEqual(page.errors, []);
    for (const e of log) {
      if (v2004 && e.call === 'GetValue' && e.error === '403' && e.key === 'cmi.scaled_passing_score') continue;
      assert.equal(e.error, '0', `${e.call}(${e.key || ''}, ${e.value === undefined ? '' : e.value}) failed`);
    }
    const { values, inter } = digest(log);
    // splits 2 points, whole 1, ring 1.
    const pct = Math.round(((2 * Math.round(c.share * 1e7) / 1e7 + 0 + 1) / 4) * 10000) / 100;
    assert.equal(Number(values[v2004 ? 'cmi.score.raw' : 'cmi.core.score.raw']), pct, `score for ${c.pick.map((x) => x.id)}`);
    assert.equal(inter.find((x) => x.id === 'whole').result, v2004 ? 'incorrect' : 'wrong');
    const it = inter.find((x) => x.id === 'splits');
    const result = c.share === 1 ? 'correct' : c.share === 0 ? (v2004 ? 'incorrect' : 'wrong') : String(Math.round(c.share * 1e7) / 1e7);
    assert.equal(it.result, result);
    assert.match(it.result, F.result);
    assert.ok((await frame.$eval('#result .score', (e) => e.textContent)).includes(`${pct}%`));
    await page.close();
  }
}

test('SCORM 1.2: a multiple question gives partial credit as Moodle scores its weights, or all or nothing', () => partialCredit('12'));
test('SCORM 2004: a multiple question gives partial credit as Moodle scores its weights, or all or nothing', () => partialCredit('2004'));

test('SCORM 1.2: the API is found two frames up', async () => {
  const data = quizData('seed12');
  const page = await newPage();
  await page.goto(`${srv.base}/lms/12/seed12?frame=nested`, { waitUntil: 'load' });
  const mid = await (await page.$('#sco')).contentFrame();
  const frame = await (await mid.$('#inner')).contentFrame();
  await frame.waitForSelector('section.question');
  assert.match(await frame.$eval('.mode', (e) => e.textContent), /LMS/);
  const log = await answerOneAndFinish(page, frame, data, false);
  assert.equal(log[0].call, 'LMSInitialize');
  assert.equal(log[log.length - 1].call, 'LMSFinish');
  assert.equal(digest(log).inter.length, 1);
  await page.close();
});

test('SCORM 2004: the API is found through the opener of a popup window', async () => {
  const data = quizData('seed2004');
  const page = await newPage();
  await page.goto(`${srv.base}/lms/2004/seed2004?frame=none`, { waitUntil: 'load' });
  const popped = new Promise((resolve) => page.once('popup', resolve));
  await page.evaluate(() => { window.open('/pkg/seed2004/index.html', 'sco'); });
  const popup = await popped;
  await popup.waitForSelector('section.question');
  const log = await answerOneAndFinish(page, popup.mainFrame(), data, true);
  assert.equal(log[0].call, 'Initialize');
  assert.equal(log[log.length - 1].call, 'Terminate');
  const { values, inter } = digest(log);
  assert.equal(inter.length, 1);
  assert.equal(values['cmi.completion_status'], 'completed');
  await popup.close();
  await page.close();
});

test('a hostile quiz shows its markup as text and runs none of it', async () => {
  const page = await newPage();
  await page.goto(`${srv.base}/pkg/hostile/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  await page.click('#q-h1-a');
  await page.click('#q-h1-check');
  await page.type('#q-h2-input', 'x');
  await page.click('#q-h2-check');
  const r = await page.evaluate(() => ({
    pwned: window.__pwned,
    text: document.body.textContent,
    scripts: document.querySelectorAll('script').length,
    bad: document.querySelectorAll('#app img, #app iframe, #app svg, #app a, #app b, #app script').length,
    title: document.title,
  }));
  assert.equal(r.pwned, undefined);
  assert.equal(r.scripts, ownScripts(path.join(PKGS, 'hostile')), "only the scripts the package's index.html loads");
  assert.equal(r.bad, 0);
  assert.ok(r.title.includes("<script>window.__pwned = 'title'</script>"));
  for (const s of ['<img src=x onerror="window.__pwned = \'intro\'">', '[a link](javascript:window.__pwned=\'link\')',
    '<b>bold</b>', '<img src=x onerror="window.__pwned=\'choice\'">', '<svg onload="window.__pwned=\'svg\'"></svg>',
    "<script>window.__pwned = 'codeblock'</script>"]) {
    assert.ok(r.text.includes(s), `shown as text: ${s}`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('with no LMS, opened from disk, the package is a working preview; screenshots in both languages', async () => {
  const data = quizData('pipa12');
  const page = await newPage();
  await page.goto('file://' + path.resolve(PKGS, 'pipa12', 'index.html'), { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  assert.equal(await page.$eval('h1', (e) => e.textContent), plain(data.title, 'id'));
  assert.match(await page.$eval('.mode', (e) => e.textContent), /Pratinjau/);
  // The lab: its exact command, the expectation in words, the code that runs.
  const s1 = data.questions[0];
  // In Indonesian, asking labrun for Indonesian: the lab's manifest is written in it.
  assert.equal(await page.$eval('#q-s1 .command code', (e) => e.textContent), s1.labs[0].command + ' --lang id');
  assert.equal(s1.labs[0].command, 'labrun labs/pipe --stages 4 --microbatches 16 --schedule gpipe');
  assert.equal(await page.$eval('#q-s1 .snippet code', (e) => e.textContent), s1.snippets[0].code);
  assert.ok(s1.snippets[0].code.length > 0);
  // The claim, which tells the answer, once the answer is checked.
  assert.equal(await page.$('#q-s1 .lab li'), null);
  const right = s1.choices.find((c) => c.correct).id;
  await page.click(`#q-s1-${right}`);
  await page.click('#q-s1-check');
  assert.match(await page.$eval('#q-s1 .lab li', (e) => e.textContent), /bubble_fraction.*di bawah 0,2$/);
  await page.click('#q-m1-a');
  await page.click('#q-m1-c');
  await page.click('#q-m1-check');
  await page.type('#q-n1-input', '0,27');   // a decimal comma, as Indonesian writes it
  await page.click('#q-n1-check');
  assert.equal(await page.$eval('#q-n1 .verdict', (e) => e.textContent), 'Benar.');
  await page.screenshot({ path: path.join(ARTIFACTS, 'player-id.png'), fullPage: true });
  await page.click('#lang-en');
  assert.equal(await page.$eval('#q-n1 .verdict', (e) => e.textContent), 'Correct.');
  await page.screenshot({ path: path.join(ARTIFACTS, 'player-en.png'), fullPage: true });
  // Phone width: nothing wider than the screen.
  await page.setViewport({ width: 360, height: 740 });
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await page.screenshot({ path: path.join(ARTIFACTS, 'player-phone.png') });
  await page.click('#finish');
  await page.waitForSelector('#result .score');
  assert.match(await page.$eval('#result .score', (e) => e.textContent), /Score: \d/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('feedback never: answers are graded but no verdict, feedback or explanation is shown', async () => {
  const page = await newPage();
  await page.goto(`${srv.base}/pkg/silent/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  assert.equal(await page.$('.check'), null, 'no per-question check');
  await page.click('#q-b1-a');
  await page.click('#finish');
  await page.waitForSelector('#result .score');
  const text = await page.evaluate(() => document.body.textContent);
  assert.ok(text.includes('Score: 100%'));
  for (const s of ['must never be shown', 'Neither must this', 'Nor this explanation', 'Correct.', '(correct answer)'])
    assert.ok(!text.includes(s), `not shown: ${s}`);
  await page.close();
});
