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
  const js = fs.readFileSync(path.join(dir, 'pkg', 'quiz-data.js'), 'utf8');
  const data = JSON.parse(js.slice(js.indexOf('=') + 1).trim().replace(/;$/, ''));
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
