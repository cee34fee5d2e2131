// claims.test.js — the claims table (tests/data/claims.json) through the
// player's claims.js: each case written as the quiz line an author writes,
// compiled by quizc into the player's data (percentages and answer keys as
// the compiler hands them over), then judged as the player judges it.
// tests/runtime/test_claims.c runs the same table through labrun --verify.
//
//   QUIZC   the quizc to compile with (run.sh sets it)
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const claims = require('../../compiler/player/claims.js');
const { readQuizData } = require('./server');

const QUIZC = process.env.QUIZC || 'build/quizc';
const table = JSON.parse(fs.readFileSync('tests/data/claims.json', 'utf8'));

function quizOf(cases) {
  const qs = cases.map((c, i) => `    numeric c${i} {\n        prompt "case ${i}"\n        answer ${c.answer || '0'}\n` +
    `        lab hello ()\n            expect max_abs_error ${c.claim}\n    }\n`);
  return `quiz claims {\n    title "Claims"\n${qs.join('')}}\n`;
}

test('the player judges every case of the shared claims table as the table says', () => {
  assert.ok(table.cases.length >= 30, 'at least 30 cases');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-'));
  const qz = path.join(dir, 'claims.qz');
  fs.writeFileSync(qz, quizOf(table.cases));
  execFileSync(QUIZC, ['-L', 'tests/data/labs', qz, '--dir', path.join(dir, 'pkg')], { stdio: 'inherit' });
  const data = readQuizData(path.join(dir, 'pkg', 'quiz-data.js'));
  assert.equal(data.questions.length, table.cases.length);
  const wrong = [];
  table.cases.forEach((c, i) => {
    const x = data.questions[i].labs[0].expects[0];
    const got = claims.holds(x, c.measured);
    if (got !== c.bears_out) wrong.push(`case ${i}: ${c.claim} with ${c.measured}: player says ${got} (${c.why})`);
  });
  fs.rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(wrong, []);
});

test('a learner run is told apart by lab and by each parameter, and judged claim by claim', () => {
  const lab = {
    name: 'bubble', params: [['stages', 4], ['schedule', 'gpipe']],
    expects: [{ metric: 'bubble_fraction', op: '<', value: 0.5 }, { metric: 'bubble_formula', op: '>', value: 0.9 }],
  };
  const run = (o) => claims.parseRun(JSON.stringify(Object.assign({ lab: 'bubble', params: { stages: 4, schedule: 'gpipe' },
    metrics: { bubble_fraction: 0.27, bubble_formula: 0.27 }, checks: [{ name: 'x', pass: true }] }, o)));
  assert.deepEqual(claims.checkRun(lab, run({ lab: 'memory' })), { otherLab: true });
  assert.deepEqual(claims.checkRun(lab, run({ params: { stages: 2, schedule: 'gpipe' } })).differ, [['stages', 2, 4]]);
  const ok = claims.checkRun(lab, run({}));
  assert.deepEqual(ok.results.map((r) => r.pass), [true, false]);
  const bad = claims.checkRun(lab, run({ checks: [{ name: 'x', pass: false }] }));
  assert.deepEqual(bad.results.map((r) => r.pass), [false, false], 'a run whose own checks failed bears out nothing');
  assert.equal(bad.failedChecks, 1);
  assert.deepEqual(claims.parseRun('{not json'), { error: 'notJson' });
  assert.deepEqual(claims.parseRun('[1, 2]'), { error: 'notRun' });
  assert.deepEqual(claims.parseRun('x'.repeat(claims.MAX_RUN_BYTES + 1)), { error: 'tooLarge' });
});

/* A small deterministic generator (mulberry32), so a failing input can be found again by its number. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

test("fuzz: the player's reader of a learner's report takes any text without throwing", () => {
  const lab = { name: 'bubble', params: [['stages', 4]], expects: [{ metric: 'm', op: '<', value: 1 },
    { metric: 'm', op: 'within', tolerance: 0.1, of_answer: true, lo: -0.1, hi: 1.1 }] };
  const seed = JSON.stringify({ lab: 'bubble', params: { stages: 4 }, metrics: { m: 0.5 }, basis: { m: 'measured' },
    checks: [{ name: 'c', pass: true }], notes: [] });
  const pieces = ['{', '}', '[', ']', '"', ':', ',', 'null', 'true', '1e308', '-0', '"__proto__"', '"constructor"',
    '"lab"', '"params"', '"metrics"', '"checks"', '\\u0000', '9'.repeat(400), '"pass"'];
  const r = rng(14);
  let parsed = 0;
  for (let i = 0; i < 5000; i++) {
    let s = seed;
    for (let k = 1 + Math.floor(r() * 4); k > 0; k--) {
      const at = Math.floor(r() * (s.length + 1)), cut = Math.floor(r() * 6);
      const piece = r() < 0.5 ? pieces[Math.floor(r() * pieces.length)] : String.fromCharCode(Math.floor(r() * 128));
      s = s.slice(0, at) + (r() < 0.7 ? piece : '') + s.slice(at + cut);
    }
    let out;
    try {
      const run = claims.parseRun(s);
      out = run.error ? run : claims.checkRun(lab, run);
      if (!run.error) parsed++;
    } catch (e) {
      assert.fail(`input ${i} threw ${e}: ${s}`);
    }
    assert.ok(out.error || out.otherLab || out.differ || Array.isArray(out.results), `input ${i}: a known outcome`);
  }
  assert.ok(parsed > 100, `some mutants are reports still (${parsed})`);
});
