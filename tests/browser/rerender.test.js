// rerender.test.js — the player redraws only what changed: checking an
// answer, asking for a number, switching language and submitting keep every
// element that stays (the same node, not a copy), so focus stays where the
// learner is and each role="status" region is the one a screen reader was
// already watching, with new words in it.  And axe-core finds nothing
// serious or critical in the page, in both languages, before and after
// answering.  The seed quiz's package (seed12, built by run.sh) in headless
// chromium.
//
//   QUIZC_PACKAGES   folder of unpacked packages: seed12
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');

const PKGS = process.env.QUIZC_PACKAGES;
const AXE = require.resolve('axe-core/axe.min.js');

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(PKGS), 'QUIZC_PACKAGES names the built packages (run tests/browser/run.sh)');
  srv = await serve(PKGS);
  browser = await launch();
});

after(async () => {
  await close(browser, srv);
});

async function open() {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  // axe-core is put in the page by the test; the package's own policy allows only its own scripts.
  await page.setBypassCSP(true);
  await page.goto(`${srv.base}/pkg/seed12/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  // Every element of the page, numbered: a redraw that keeps a node keeps its number.
  await page.evaluate(() => {
    window.__n = 0;
    document.querySelectorAll('#app *').forEach((e) => { e.__mark = ++window.__n; });
    window.__regions = [...document.querySelectorAll('[role=status]')];
  });
  return { page, errors };
}

/* Whether each selected element is still the node marked at the start (and in the page). */
const kept = (page, sel) => page.$$eval(sel, (es) => es.map((e) => !!e.__mark && document.contains(e)));

test('checking an answer keeps the page: the same status regions, the same other questions, new words', async () => {
  const { page, errors } = await open();
  const data = readQuizData(path.join(PKGS, 'seed12', 'quiz-data.js'));
  const q = data.questions.find((x) => x.kind === 'single');
  const right = q.choices.find((c) => c.correct).id;
  await page.evaluate((id) => {
    // Every change to a status region, while the region itself is in the page.
    window.__said = [];
    new MutationObserver((ms) => ms.forEach((m) => {
      const r = m.target.nodeType === 1 ? m.target.closest('[role=status]') : m.target.parentNode.closest('[role=status]');
      if (r && document.contains(r)) window.__said.push({ mark: r.__mark, text: r.textContent });
    })).observe(document.getElementById('app'), { childList: true, subtree: true, characterData: true });
    window.__fb = document.querySelector(`#q-${id} .feedback`).__mark;
  }, q.id);
  await page.click(`#q-${q.id}-${right}`);
  await page.click(`#q-${q.id}-check`);
  const r = await page.evaluate((id) => ({
    fb: document.querySelector(`#q-${id} .feedback`).__mark,
    text: document.querySelector(`#q-${id} .feedback`).textContent,
    said: window.__said,
    focus: document.activeElement.id,
  }), q.id);
  assert.ok(r.fb && r.fb === await page.evaluate(() => window.__fb), 'the feedback region is the one that was there');
  assert.ok(r.text.startsWith('Benar.'), r.text);
  assert.ok(r.said.some((s) => s.mark === r.fb && s.text.startsWith('Benar.')), 'its words changed while it stayed in the page');
  assert.equal(r.focus, `q-${q.id}`, 'the checked question has focus (its button is gone)');
  assert.ok((await kept(page, 'section.question')).every(Boolean), 'every question section is the one drawn at the start');
  assert.ok(await page.evaluate(() => window.__regions.length > 10 && window.__regions.every((r) => document.contains(r))),
    'every status region drawn at the start is still in the page');
  assert.deepEqual(errors, []);
  await page.close();
});

test('typing, asking for a number and switching language keep focus and the elements', async () => {
  const { page, errors } = await open();
  await page.type('#q-q9-input', 'abc');
  await page.keyboard.press('Enter');
  let r = await page.evaluate(() => ({ focus: document.activeElement.id, mark: document.activeElement.__mark }));
  assert.equal(r.focus, 'q-q9-input');
  assert.ok(r.mark, 'the field with focus is the one the learner typed in');
  await page.focus('#lang-en');
  await page.keyboard.press('Enter');
  r = await page.evaluate(() => ({ focus: document.activeElement.id, mark: document.activeElement.__mark, lang: document.documentElement.lang }));
  assert.equal(r.lang, 'en');
  assert.equal(r.focus, 'lang-en');
  assert.ok(r.mark, 'the language button keeps focus and is the same button');
  assert.ok((await kept(page, 'section.question, [role=status], input')).every(Boolean), 'nothing was drawn anew');
  assert.ok(await page.evaluate(() => window.__regions.every((r) => document.contains(r))));
  assert.equal(await page.$eval('#q-q9-input', (e) => e.value), 'abc', 'the typed answer stays');
  assert.deepEqual(errors, []);
  await page.close();
});

/* axe-core's serious and critical violations in the page as it is. */
async function axe(page) {
  if (!(await page.evaluate(() => !!window.axe))) await page.addScriptTag({ path: AXE });
  const v = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] })).violations
    .filter((x) => x.impact === 'serious' || x.impact === 'critical')
    .map((x) => `${x.id} (${x.impact}): ${x.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`));
  return v;
}

test('axe-core: nothing serious or critical, in both languages, before and after answering', async () => {
  const { page, errors } = await open();
  for (const when of ['before', 'after']) {
    if (when === 'after') {
      await page.type('#q-q9-input', '1.875 GB');
      await page.click('#q-q9-check');
      assert.deepEqual(await axe(page), [], 'with the request for a number');
      await page.click('#finish');   // asks for the number
      await page.click('#q-q9-input', { clickCount: 3 });
      await page.keyboard.press('Backspace');
      await page.type('#q-q9-input', '0,27');
      await page.click('#finish');
      await page.waitForSelector('#result .score');
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    }
    for (const lang of ['id', 'en']) {
      await page.click(`#lang-${lang}`);
      assert.deepEqual(await axe(page), [], `${lang}, ${when} answering`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
