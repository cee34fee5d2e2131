// media.test.js — figures and formulas in the player: headless chromium with
// scorm-again as the LMS.  The formulas show as MathML (not raw TeX), each
// figure loads and carries its alt text in the learner's language, in both
// languages; a package with no formula carries no math renderer.
//
//   QUIZC_PACKAGES  figures12: tests/data/media/figures.qz, nomath12: nomath.qz (run.sh packs them)
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve } = require('./server');

const PKGS = process.env.QUIZC_PACKAGES;
const MATHML = 'http://www.w3.org/1998/Math/MathML';

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(path.join(PKGS, 'figures12')), 'QUIZC_PACKAGES holds figures12 (run tests/browser/run.sh)');
  srv = await serve(PKGS);
  browser = await launch();
});

after(async () => {
  await close(browser, srv);
});

async function open(name) {
  const page = await browser.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url || '')) page.errors.push(m.text());
  });
  await page.goto(`${srv.base}/lms/12/${name}`, { waitUntil: 'load' });
  const frame = await (await page.$('#sco')).contentFrame();
  await frame.waitForSelector('section.question');
  return { page, frame };
}

/* What the learner sees of the formulas and figures now. */
function seen(frame) {
  return frame.evaluate((ns) => {
    const maths = [...document.getElementsByTagNameNS(ns, 'math')];
    const imgs = [...document.querySelectorAll('img.figure')].map((i) => ({
      src: i.getAttribute('src'), alt: i.alt, loaded: i.complete && i.naturalWidth > 0,
    }));
    return {
      text: document.body.innerText,
      maths: maths.length,
      fracs: maths.filter((m) => m.getElementsByTagNameNS(ns, 'mfrac').length).length,
      blocks: maths.filter((m) => m.getAttribute('display') === 'block').length,
      imgs,
      temml: typeof window.temml,
    };
  }, MATHML);
}

test('formulas as MathML and figures with their alt text, in both languages', async () => {
  const { page, frame } = await open('figures12');
  await frame.waitForFunction(() => [...document.querySelectorAll('img.figure')].every((i) => i.complete));
  const alts = { en: 'Two blocks, A1 and A2, side by side', id: 'Dua blok, A1 dan A2, berdampingan' };
  for (const lang of ['en', 'id']) {
    if (lang === 'id') {
      await frame.click('#lang-id');
      await frame.waitForFunction(() => document.documentElement.lang === 'id');
      await frame.waitForFunction(() => [...document.querySelectorAll('img.figure')].every((i) => i.complete));
    }
    const s = await seen(frame);
    assert.equal(s.temml, 'object', `${lang}: Temml is loaded`);
    // intro 1, split: 1 displayed and 2 + 1 in the choices, cost: 3 (the explanation waits for an answer).
    assert.ok(s.maths >= 8, `${lang}: ${s.maths} formulas drawn as MathML`);
    assert.ok(s.fracs >= 1, `${lang}: \\frac drawn as <mfrac>`);
    assert.ok(s.blocks >= 1, `${lang}: \\[ \\] drawn displayed`);
    for (const raw of ['\\(', '\\)', '\\[', '\\frac', 'A_i', 'begin{bmatrix}'])
      assert.ok(!s.text.includes(raw), `${lang}: no raw TeX '${raw}' on the page`);
    const split = s.imgs.find((i) => i.src === 'media/split.svg');
    assert.ok(split, `${lang}: the figure split.svg is shown (${JSON.stringify(s.imgs)})`);
    assert.equal(split.alt, alts[lang], `${lang}: its alt text`);
    assert.ok(split.loaded, `${lang}: it loaded`);
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a package with no formula carries no math renderer', async () => {
  const files = fs.readdirSync(path.join(PKGS, 'nomath12'));
  assert.ok(!files.includes('temml.min.js') && !files.includes('math.js'), files.join(' '));
  const { page, frame } = await open('nomath12');
  const s = await seen(frame);
  assert.equal(s.temml, 'undefined');
  assert.ok(s.text.includes('Costs $5, or \\$6?'), 'its text as written');
  assert.deepEqual(page.errors, []);
  await page.close();
});
