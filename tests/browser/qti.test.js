// qti.test.js — QTI 2.1 packages quizc writes, in a real QTI player: each item
// is upgraded to QTI 3 by @citolab/qti-convert (as an LMS importing QTI 2.1
// would) and rendered in headless chromium by @citolab/qti-components, then
// answered right and wrong; the player's own response processing gives SCORE.
//
//   QUIZC_QTI   folder of unpacked QTI packages: kinds (every question kind),
//               seed (the seed quiz, in English), lanjut (the second shipped quiz, in English),
//               grading-N (the N-th quiz of the grading table, tests/data/grading.json),
//               figures (tests/data/media/figures.qz, in English: MathML and figures)
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { launch, close } = require('./chromium');
const { serve } = require('./qti-page');
const grading = require('../formats/grading-table');

const PKGS = process.env.QUIZC_QTI;
let browser, srv, page, convert;

before(async () => {
  assert.ok(PKGS && fs.existsSync(PKGS), 'QUIZC_QTI names the built packages (run tests/browser/qti.sh)');
  ({ convertQti2toQti3: convert } = await import('@citolab/qti-convert/qti-convert-node'));
  srv = await serve();
  browser = await launch();
  page = await browser.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(`${srv.base}/`);
  await page.waitForFunction('window.qtiReady === true');
});

after(async () => {
  await close(browser, srv);
});

async function show(pkg, id) {
  const xml = await convert(fs.readFileSync(path.join(PKGS, pkg, 'items', `${id}.xml`), 'utf8'));
  assert.equal(await page.evaluate((x) => window.showItem(x), xml), id);
  await page.waitForSelector('qti-assessment-item');
}

/* Answer: choice identifiers to click, or a string to type ('' types nothing); then score. */
async function answer(pkg, id, response) {
  await show(pkg, id);
  if (response === '') {
    // No answer: nothing typed.
  } else if (typeof response === 'string') {
    await page.click('qti-text-entry-interaction');
    await page.keyboard.type(response);
    // The field records its value when it loses focus.
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
  } else {
    for (const c of response) await page.click(`qti-simple-choice[identifier="${c}"]`);
  }
  return page.evaluate(() => {
    const item = document.querySelector('qti-assessment-item');
    item.processResponse();
    const v = (name) => { const o = item.getOutcome(name); return o ? o.value : undefined; };
    return { score: Number(v('SCORE')), max: Number(v('MAXSCORE')), feedback: v('FEEDBACK'), general: v('GENERAL') };
  });
}

const cases = [
  // kind, item, right answer, its score, a wrong answer
  ['single (2 points)', 'pick', ['b'], 2, ['a']],
  ['multiple', 'several', ['a', 'c'], 1, ['a', 'b']],
  ['truefalse', 'yes', ['false'], 1, ['true']],
  ['numeric within a tolerance', 'share', '0.435', 1, '0.45'],
  ['numeric as a range', 'range', '0.28', 1, '0.3'],
  ['numeric exact', 'exact', '70000000000', 1, '7'],
  ['text, in another case', 'link', 'NVLINK 4', 1, 'PCIe'],
];

for (const [kind, id, right, points, wrong] of cases) {
  test(`${kind}: the right answer scores ${points}, a wrong one 0`, async () => {
    const r = await answer('kinds', id, right);
    assert.equal(r.score, points, `${id} right: ${JSON.stringify(r)}`);
    assert.equal(r.max, points);
    const w = await answer('kinds', id, wrong);
    assert.equal(w.score, 0, `${id} wrong: ${JSON.stringify(w)}`);
  });
}

test('a multiple with every choice picked scores 0, not the right ones\' share', async () => {
  assert.equal((await answer('kinds', 'several', ['a', 'b', 'c'])).score, 0);
});

test('a multiple scores the picked weights as the player and Moodle do; all-or-nothing only the exact set', async () => {
  // splits: 2 points, three right choices (a, b, c) and two wrong (d, e).  The player keeps SCORE to 3 decimals.
  const two = await answer('partial', 'splits', ['a', 'b']);
  assert.ok(Math.abs(two.score - 4 / 3) < 1e-3, JSON.stringify(two));
  const four = await answer('partial', 'splits', ['a', 'b', 'c', 'd']);
  assert.ok(Math.abs(four.score - 1) < 1e-3, JSON.stringify(four));
  assert.equal((await answer('partial', 'splits', ['a', 'd'])).score, 0);
  // whole: all or nothing, right choices a and b.
  assert.equal((await answer('partial', 'whole', ['a'])).score, 0);
  assert.equal((await answer('partial', 'whole', ['a', 'b', 'c'])).score, 0);
  assert.equal((await answer('partial', 'whole', ['a', 'b'])).score, 1);
});

test('per-choice feedback and the general feedback are shown by outcome', async () => {
  const r = await answer('kinds', 'pick', ['a']);
  assert.equal(r.feedback, 'a', 'FEEDBACK names the chosen choice, whose because is its modal feedback');
  assert.equal(r.general, 'shown');
  const text = await page.evaluate(() => document.querySelector('qti-modal-feedback[identifier="a"]').textContent);
  assert.equal(text.trim(), 'Not this.');
});

test('the lab box is in the numeric question\'s modal feedback: command, claims, snippet', async () => {
  await show('kinds', 'share');
  const text = await page.evaluate(() => document.querySelector('qti-modal-feedback[identifier="shown"]').textContent);
  assert.match(text, /labrun labs\/pipe --stages 4 --microbatches 4 --schedule gpipe/);
  assert.match(text, /share of stage time spent idle \(bubble_fraction\): within 0\.03 of this question's answer/);
  assert.match(text, /static int next_stage/);
});

for (const [pkg, what] of [['seed', 'the seed quiz'], ['lanjut', 'the second shipped quiz']]) {
  test(`every item of ${what} renders and scores 0 unanswered`, async () => {
    const items = fs.readdirSync(path.join(PKGS, pkg, 'items'));
    assert.ok(items.length >= 8);
    for (const f of items) {
      await show(pkg, f.replace(/\.xml$/, ''));
      const s = await page.evaluate(() => {
        const item = document.querySelector('qti-assessment-item');
        item.processResponse();
        return Number(item.getOutcome('SCORE').value);
      });
      assert.equal(s, 0, f);
    }
    assert.deepEqual(page.errors, []);
  });
}

/*
 * The grading table: every row of every quiz in it, answered in the QTI
 * player, whose own response processing gives SCORE; it must be the row's
 * share of the item's points (MAXSCORE), or its "qti" share where QTI 2.1
 * cannot carry the rule.  QTI keeps SCORE to 3 decimals.
 */
grading.load().forEach((entry, n) => {
  test(`the grading table: every row of ${entry.quiz} scores its share in the QTI player`, async () => {
    const wrong = [];
    let rows = 0;
    for (const { id, rows: list } of entry.questions) {
      for (const r of list) {
        const resp = typeof r.response === 'boolean' ? [String(r.response)] : r.response === null ? [] : r.response;
        const got = await answer(`grading-${n}`, id, resp);
        rows++;
        if (!(Math.abs(got.score - r.qti * got.max) <= 1e-3) || !(got.max > 0))
          wrong.push(`${entry.quiz} ${id} response ${grading.show(r.response)} QTI: expected ${r.qti * got.max} of ${got.max}, got ${got.score}`);
      }
    }
    assert.ok(rows > 0);
    assert.deepEqual(wrong, [], wrong.join('\n'));
    assert.deepEqual(page.errors, []);
  });
});

const MATHML = 'http://www.w3.org/1998/Math/MathML';

test('formulas are MathML the player typesets, figures are <img> with their alt text', async () => {
  const src = fs.readFileSync(path.join(PKGS, 'figures', 'items', 'split.xml'), 'utf8');
  assert.ok(/<math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"/.test(src), 'the item holds MathML');
  await show('figures', 'split');
  const seen = await page.evaluate((MATHML) => {
    const item = document.querySelector('qti-assessment-item');
    const maths = [...item.querySelectorAll('*')].filter((e) => e.localName === 'math');
    const subs = [...item.querySelectorAll('*')].filter((e) => e.localName === 'msub');
    const box = (e) => e.getBoundingClientRect();
    const text = item.innerText;
    return {
      maths: maths.length,
      ns: [...new Set(maths.map((m) => m.namespaceURI))],
      shown: maths.filter((m) => box(m).width > 0).length,
      display: maths.map((m) => getComputedStyle(m).display),
      subs: subs.filter((e) => e.namespaceURI === MATHML).length,
      // A subscript is drawn smaller than its base and starts lower; as plain characters both are one size on one line.
      lowered: subs.filter((e) => {
        const [b, i] = [box(e.children[0]), box(e.children[1])];
        return i.height < 0.9 * b.height && i.top > b.top;
      }).length,
      table: maths.length ? [...maths[0].querySelectorAll('*')].filter((e) => e.localName === 'mtable' && e.namespaceURI === MATHML).length : 0,
      first: maths.length ? maths[0].textContent : '',
      raw: ['\\(', '\\[', 'A_i', 'begin{bmatrix}'].filter((r) => text.includes(r)),
      imgs: [...item.querySelectorAll('img')].map((i) => ({ src: i.getAttribute('src'), alt: i.alt })),
    };
  }, MATHML);
  // The prompt's displayed formula, and the choices' formulas.
  assert.equal(seen.maths, 4, `${seen.maths} MathML formulas in the player`);
  assert.deepEqual(seen.ns, [MATHML], 'every <math> in MathML\'s namespace');
  assert.equal(seen.shown, seen.maths, 'every formula takes room on the page');
  // CSS lays each out as math: inline, or blockified where the choice is a flex box; the displayed one as a block.
  assert.ok(seen.display.every((d) => /^(block )?math$/.test(d)), `laid out as math: ${seen.display}`);
  assert.equal(seen.display[0], 'block math', 'the displayed formula a block of math');
  assert.equal(seen.subs, 5, 'the prompt\'s A_1 and A_2, the choices\' A_i, A_1 and A_2 as MathML <msub>');
  assert.equal(seen.lowered, 5, 'each subscript drawn smaller and lower than its base');
  assert.equal(seen.table, 1, 'the bmatrix as a MathML <mtable>');
  assert.equal(seen.first.replace(/\s+/g, ''), 'Y=X[A1A2]', 'the displayed formula\'s characters');
  assert.deepEqual(seen.raw, [], 'no raw TeX on the page');
  // The player puts the item's folder before a relative src (none here: the item is shown from a string).
  assert.equal(seen.imgs.length, 2, 'the prompt\'s figure and the one of a choice\'s feedback');
  assert.equal(seen.imgs[1].alt, 'A bar');
  assert.match(seen.imgs[0].src, /(^|\/)\.\.\/media\/split\.svg$/);
  assert.equal(seen.imgs[0].alt, 'Two blocks, A1 and A2, side by side');
  assert.deepEqual(page.errors, []);
});

test('a fraction is a MathML <mfrac>, its numerator drawn above its denominator', async () => {
  await show('figures', 'cost');
  const frac = await page.evaluate(() => {
    const body = document.querySelector('qti-item-body');
    const fracs = [...body.querySelectorAll('*')].filter((e) => e.localName === 'mfrac');
    if (fracs.length !== 1) return { count: fracs.length };
    const f = fracs[0];
    const [num, den] = [...f.children].map((e) => e.getBoundingClientRect());
    return {
      count: 1,
      ns: f.namespaceURI,
      parts: [...f.children].map((e) => e.localName),
      stacked: num.bottom <= den.top + 0.5,
      // Two rows in one line of the prompt: taller than its text's font size by half again.
      height: f.getBoundingClientRect().height,
      text: parseFloat(getComputedStyle(f.closest('div')).fontSize),
    };
  });
  assert.equal(frac.count, 1, 'the prompt\'s \\frac');
  assert.equal(frac.ns, MATHML);
  assert.deepEqual(frac.parts, ['mrow', 'mrow'], 'numerator and denominator');
  assert.ok(frac.stacked, 'the numerator above the denominator');
  assert.ok(frac.height > 1.5 * frac.text, `the fraction ${frac.height}px high, the text ${frac.text}px`);
});

test('the transformer\'s DOM (htmlDoc) of this player version leaves <math> in the HTML namespace', async () => {
  // Why showItem parses the transformer's markup instead: were this to give
  // MathML's namespace, the page could take the DOM as it is.
  const xml = await convert(fs.readFileSync(path.join(PKGS, 'figures', 'items', 'cost.xml'), 'utf8'));
  assert.deepEqual(await page.evaluate((x) => window.shownAsDoc(x), xml), ['http://www.w3.org/1999/xhtml']);
});
