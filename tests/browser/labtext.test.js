// labtext.test.js — the lab box in the learner's language: the seed quiz's
// packages (SCORM 1.2 and 2004, built by run.sh) in headless chromium with
// scorm-again as the LMS.  Every English string of every lab manifest
// (labs/NAME/lab.qz) is absent from the Indonesian view, every Indonesian
// one from the English view, and each claim leads with the head of its
// metric's description in the view's language, then its name as code.
//
//   QUIZC_PACKAGES   folder of unpacked packages: seed12, seed2004
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');
const { LABS, manifestStrings, manifests } = require('./manifests');

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

/* The quiz data a package carries (quiz-data.js sets window.QUIZ_DATA). */
function quizData(pkg) {
  return readQuizData(path.join(PKGS, pkg, 'quiz-data.js'));
}

function plain(text, lang) {
  return text[lang].map((b) => (b.code !== undefined ? b.code : b.p.map((s) => (s[0] === 'br' ? ' ' : s[1])).join(''))).join(' ');
}

/* What the learner reads, without code blocks (commands and snippets are code, in no language). */
const readable = () => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll('pre').forEach((e) => e.remove());
  return body.textContent.replace(/\s+/g, ' ');
};

/* Each claim as the page shows it: the code element's text and title, and the whole item's text. */
const claims = () => [...document.querySelectorAll('.lab li')].map((li) => ({
  code: li.querySelector('code').textContent, codeTitle: li.querySelector('code').title, text: li.textContent,
}));

async function labBoxes(version, pkg) {
  const data = quizData(pkg);
  assert.deepEqual(data.languages, ['id', 'en']);
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${srv.base}/lms/${version}/${pkg}`, { waitUntil: 'load' });
  const frame = await (await page.$('#sco')).contentFrame();
  // Before an answer may be shown, a lab box has its title and command, and no claim or own-run check.
  await frame.waitForSelector('section.question .lab pre.command');
  assert.equal((await frame.$$('.lab li')).length, 0, 'no claim before answering');
  assert.equal((await frame.$$('.lab .own-run')).length, 0, 'no own-run check before answering');
  await frame.click('#finish');
  await frame.waitForSelector('section.question .lab li');

  const expects = data.questions.flatMap((q) => q.labs.flatMap((l) => l.expects));
  assert.ok(expects.length >= 30, `the seed quiz makes ${expects.length} claims`);
  const words = { id: ['sama dengan', 'di bawah', 'dalam selisih'], en: ['equal to', 'below', 'within'] };
  const other = { id: 'en', en: 'id' };

  for (const lang of ['id', 'en']) {
    if (lang === 'en') await frame.click('#lang-en');
    assert.equal(await frame.evaluate(() => document.documentElement.lang), lang);
    const text = await frame.evaluate(readable);

    // Not one string the manifests hold in the other language.
    let checked = 0;
    for (const file of manifests) {
      const mine = new Set(manifestStrings(file, lang));
      for (const s of manifestStrings(file, other[lang])) {
        if (mine.has(s)) continue;   // the same in both languages (none today)
        assert.ok(!text.includes(s), `${lang} view shows the ${other[lang]} text of ${path.relative(LABS, file)}: "${s}"`);
        checked++;
      }
    }
    assert.ok(checked >= 100, `${checked} manifest strings checked`);

    // The box's own words in the view's language.
    for (const w of words[lang]) assert.ok(text.includes(w), `${lang} view says "${w}"`);
    for (const w of words[other[lang]]) assert.ok(!text.includes(` ${w} `), `${lang} view does not say "${w}"`);

    // Each claim: the head of its description in this language, then the metric's name as code, no parenthesis in another.
    const shown = await frame.evaluate(claims);
    assert.equal(shown.length, expects.length);
    shown.forEach((c, i) => {
      const x = expects[i];
      assert.equal(c.code, x.metric);
      assert.ok(x.help && x.help[lang], `the manifest describes ${x.metric} in ${lang}`);
      const help = plain(x.help, lang);
      const at = c.text.indexOf(` (${x.metric}): `);
      assert.ok(at > 0, `claim ${i} names ${x.metric} as code after its description: ${c.text}`);
      assert.ok(help.startsWith(c.text.slice(0, at)), `claim ${i} leads with its description's head: ${c.text}`);
      assert.equal(c.codeTitle, help, `claim ${i}: the whole description is the code's title`);
      let depth = 0, deepest = 0;
      for (const ch of c.text) { depth += ch === '(' ? 1 : ch === ')' ? -1 : 0; deepest = Math.max(deepest, depth); }
      assert.ok(deepest <= 1, `claim ${i} nests no parentheses: ${c.text}`);
    });
    const fits = { id: '1 bila model utuh muat di satu perangkat, selain itu 0 (fits_single): sama dengan 0',
                   en: '1 when the unsplit model fits one device, else 0 (fits_single): equal to 0' };
    assert.ok(shown.some((c) => c.text === fits[lang]), `${lang} view: "${fits[lang]}"`);
  }
  assert.deepEqual(errors, []);
  await page.close();
}

test('SCORM 1.2: the seed quiz\'s lab boxes are entirely in the learner\'s language', () => labBoxes('12', 'seed12'));
test('SCORM 2004: the seed quiz\'s lab boxes are entirely in the learner\'s language', () => labBoxes('2004', 'seed2004'));

test('the manifests hold every lab text in Indonesian and English', () => {
  assert.equal(manifests.length, 5);
  for (const file of manifests) {
    const id = manifestStrings(file, 'id'), en = manifestStrings(file, 'en');
    assert.ok(en.length > 5, `${file}: ${en.length} English strings`);
    assert.equal(id.length, en.length, `${file}: as many Indonesian strings as English ones`);
  }
});
