// field.test.js — a numeric answer that is not a number ("1.875 GB", "abc")
// is neither graded nor locked: the learner is asked for a number in their
// language (tests/data/player-messages.txt), and 1,875 and 1.875 are both
// numbers.  The seed quiz's package (seed12, built by run.sh; feedback
// immediate) in headless chromium, opened from its folder (a preview).
//
//   QUIZC_PACKAGES   folder of unpacked packages: seed12
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { launch, close } = require('./chromium');
const { serve } = require('./server');
const UI = require('../../compiler/player/ui.js');
const { messages } = require('./messages');

const PKGS = process.env.QUIZC_PACKAGES;

const MSG = messages();

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(PKGS), 'QUIZC_PACKAGES names the built packages (run tests/browser/run.sh)');
  srv = await serve(PKGS);
  browser = await launch();
});

after(async () => {
  await close(browser, srv);
});

test('every message of tests/data/player-messages.txt is the player\'s, in both languages', () => {
  for (const [key, langs] of Object.entries(MSG)) {
    for (const lang of ['en', 'id']) assert.equal(UI.strings[lang][key], langs[lang], `${key} ${lang}`);
  }
});

/* The numeric question q9's state: its message, whether it is locked, graded, and where focus is. */
const field = () => {
  const input = document.getElementById('q-q9-input');
  const fb = document.querySelector('#q-q9 .feedback');
  return {
    message: (document.getElementById('q-q9-nan') || {}).textContent || null,
    disabled: input.disabled, invalid: input.getAttribute('aria-invalid'),
    describedBy: input.getAttribute('aria-describedby') || '',
    graded: /right|wrong|partly/.test(fb.className), check: !!document.getElementById('q-q9-check'),
    focus: document.activeElement && document.activeElement.id,
    inStatus: !!(document.getElementById('q-q9-nan') && document.getElementById('q-q9-nan').closest('[role=status]')),
  };
};

async function typeInto(page, text) {
  await page.click('#q-q9-input', { clickCount: 3 });
  await page.keyboard.press('Backspace');
  await page.type('#q-q9-input', text);
}

for (const lang of ['id', 'en']) {
  test(`${lang}: "1.875 GB" and "abc" get "${MSG.enterNumber[lang]}", ungraded and unlocked; 1,875 and 1.875 are numbers`, async () => {
    for (const good of ['1,875', '1.875']) {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${srv.base}/pkg/seed12/index.html`, { waitUntil: 'load' });
      await page.waitForSelector('#q-q9-input');
      if (lang === 'en') await page.click('#lang-en');
      for (const bad of ['1.875 GB', 'abc']) {
        await typeInto(page, bad);
        await page.click('#q-q9-check');
        const s = await page.evaluate(field);
        assert.equal(s.message, MSG.enterNumber[lang], `${bad}: the message`);
        assert.equal(s.disabled, false, `${bad}: not locked`);
        assert.equal(s.graded, false, `${bad}: not graded`);
        assert.equal(s.check, true, `${bad}: still checkable`);
        assert.equal(s.invalid, 'true');
        assert.ok(s.describedBy.split(' ').includes('q-q9-nan'), 'the field is described by the message');
        assert.ok(s.inStatus, 'the message is in a status region');
        assert.equal(s.focus, 'q-q9-input', 'focus stays in the field');
      }
      // Enter in the field asks the same.
      await typeInto(page, 'abc');
      await page.keyboard.press('Enter');
      assert.equal((await page.evaluate(field)).message, MSG.enterNumber[lang]);
      // Finishing with it asks for the number too, and submits nothing.
      await page.click('#finish');
      assert.equal((await page.evaluate(field)).focus, 'q-q9-input');
      assert.equal(await page.$('#result .score'), null, 'not submitted');

      await typeInto(page, good);
      await page.click('#q-q9-check');
      const s = await page.evaluate(field);
      assert.equal(s.message, null, `${good}: no message`);
      assert.equal(s.graded, true, `${good}: graded`);
      assert.equal(s.disabled, true, `${good}: locked`);
      assert.equal(s.invalid, null);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });
}
