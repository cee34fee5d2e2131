// command.test.js — a lab box's command: it wraps where it is long, and its
// copy button, reached and pressed from the keyboard, copies it, or, where
// the clipboard is refused, selects it and says how to copy it, in the
// learner's language (tests/data/player-messages.txt).  The seed quiz's
// package (seed12, built by run.sh) in headless chromium.
//
//   QUIZC_PACKAGES   folder of unpacked packages: seed12
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');
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

/* The first lab box's command, opened in a context that grants the clipboard or refuses it. */
async function open(grant, lang, width) {
  const ctx = await browser.createBrowserContext();
  await ctx.overridePermissions(srv.base, grant ? ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write'] : []);
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewport({ width, height: 800 });
  await page.goto(`${srv.base}/pkg/seed12/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('.lab .command-box button.copy');
  if (lang === 'en') await page.click('#lang-en');
  return { ctx, page, errors };
}

/* Tab from the command's lab box start until the copy button has focus; the number of presses, or -1. */
async function tabToCopy(page) {
  const id = await page.$eval('.lab .command-box button.copy', (b) => b.id);
  await page.evaluate(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); });
  for (let i = 1; i <= 200; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((x) => document.activeElement && document.activeElement.id === x, id)) return i;
  }
  return -1;
}

for (const lang of ['id', 'en']) {
  test(`${lang}: the copy button, from the keyboard, puts the command on the clipboard`, async () => {
    const { ctx, page, errors } = await open(true, lang, 1000);
    const data = readQuizData(path.join(PKGS, 'seed12', 'quiz-data.js'));
    const first = data.questions.find((q) => q.labs.length);
    // In Indonesian the command asks labrun for Indonesian, as the lab's manifest is written in it.
    assert.deepEqual(first.labs[0].speaks, ['id', 'en']);
    const want = first.labs[0].command + (lang === 'id' ? ' --lang id' : '');
    assert.equal(await page.$eval('.lab .command-box button.copy', (b) => b.textContent), MSG.copy[lang]);
    assert.ok(await tabToCopy(page) > 0, 'the copy button is reached with Tab');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.lab .command-box .copied').textContent !== '');
    assert.equal(await page.$eval('.lab .command-box .copied', (e) => e.textContent), MSG.copied[lang]);
    assert.equal(await page.$eval('.lab .command-box .copied', (e) => e.getAttribute('role')), 'status');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want);
    assert.deepEqual(errors, []);
    await ctx.close();
  });

  test(`${lang}: where the clipboard is refused, the command is selected and the learner told to copy it`, async () => {
    const { ctx, page, errors } = await open(false, lang, 1000);
    assert.ok(await tabToCopy(page) > 0);
    await page.keyboard.press('Space');
    await page.waitForFunction(() => document.querySelector('.lab .command-box .copied').textContent !== '');
    assert.equal(await page.$eval('.lab .command-box .copied', (e) => e.textContent), MSG.copyByHand[lang]);
    const r = await page.evaluate(() => ({
      selected: String(window.getSelection()),
      command: document.querySelector('.lab .command-box code').textContent,
    }));
    assert.equal(r.selected, r.command, 'the whole command is selected');
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('on a phone, every command wraps inside its box instead of running off it', async () => {
  const { ctx, page, errors } = await open(true, 'id', 360);
  const boxes = await page.$$eval('.lab pre.command', (ps) => ps.map((p) => ({
    text: p.textContent, scroll: p.scrollWidth, client: p.clientWidth, lines: Math.round(p.getBoundingClientRect().height),
  })));
  assert.ok(boxes.length >= 5);
  const long = boxes.filter((b) => b.text.length > 40);
  assert.ok(long.length > 0, 'some command is longer than a phone line');
  for (const b of boxes) assert.ok(b.scroll <= b.client, `"${b.text}" wraps (${b.scroll} > ${b.client})`);
  const lineHeight = await page.$eval('.lab pre.command', (p) => parseFloat(getComputedStyle(p).lineHeight) || 16);
  assert.ok(long.some((b) => b.lines > 2 * lineHeight), 'a long command takes more than one line');
  assert.deepEqual(errors, []);
  await ctx.close();
});

test('every command, the own-run one too, has its copy button; the own-run one copies the command with --json', async () => {
  const { ctx, page, errors } = await open(true, 'en', 1000);
  await page.click('#finish');
  await page.waitForSelector('.lab .own-run');
  const r = await page.$$eval('pre.command', (ps) => ps.map((p) => {
    const b = p.parentNode.querySelector('button.copy');
    return { text: p.textContent, button: !!b && b.parentNode === p.parentNode, own: !!p.closest('.own-run') };
  }));
  assert.ok(r.filter((x) => x.own).length >= 5, 'the own-run checks show their command');
  for (const x of r) assert.ok(x.button, `"${x.text}" has a copy button`);
  const own = await page.$('.own-run');
  await page.evaluate((d) => { d.open = true; }, own);
  const want = await page.$eval('.own-run pre.command', (p) => p.textContent);
  assert.match(want, /^labrun .* --json run\.json$/);
  await page.click('.own-run button.copy');
  await page.waitForFunction(() => document.querySelector('.own-run .copied').textContent !== '');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), want);
  assert.deepEqual(errors, []);
  await ctx.close();
});
