// lang_check.js — the web module's --lang (runtime/web/i18n_web.c): a lab run
// with --lang=id records its tables, checks, notes and timeline in
// Indonesian from the catalogue embedded in the module (the same labrun.mo
// as labrun's), with --lang=en (or none) in English.
//
//   node tests/web/lang_check.js build/web/labs.js
'use strict';
const assert = require('node:assert/strict');
const { start } = require('./module');

async function run(args) {
  const M = await start(process.argv[2], { print: () => {}, printErr: () => {}, stderr: () => {} });
  const status = M.callMain(args);
  const read = (p) => { try { return M.FS.readFile(p, { encoding: 'utf8' }); } catch (e) { return null; } };
  return { status, report: JSON.parse(read('/out/report.json')), svg: read('/out/timeline.svg') };
}

(async () => {
  const lab = ['tensor-split', '--ranks=2', '--mode=row', '--tokens=5', '--hidden=12', '--ffn=24'];
  const id = await run([lab[0], '--lang=id', ...lab.slice(1)]);
  const en = await run(lab);
  assert.equal(id.status, 0);
  assert.equal(en.status, 0);
  const names = (r) => r.checks.map((c) => c.name);
  assert.deepEqual(names(id.report), ['hasil dibagi sama dengan tanpa pembagian', 'kolektif pada langkah maju']);
  assert.deepEqual(names(en.report), ['split equals unsplit', 'collectives in the forward']);
  // A plural message (ngettext) takes Indonesian's one form.
  assert.match(id.report.checks[0].detail, /^paralel-baris atas 2 rank dalam fp32 /);
  assert.match(en.report.checks[0].detail, /^row-parallel over 2 ranks in fp32 /);
  assert.match(id.svg, /tensor-split baris atas 2 rank: komputasi, lalu all-reduce \(jam dinding\)/);
  // The --lang option is the module's, not a lab parameter; the words the report's keys use stay English.
  assert.ok(!('lang' in id.report.params));
  assert.equal(id.report.basis.max_rel_error, 'measured');
  // The device's note, the web module's own words, is in the catalogue too.
  assert.match(id.report.notes[id.report.notes.length - 1], /^GEMM: kernel SIMD WebAssembly berblok pada satu thread peramban/);
  console.log('web lang: 10 passed');
})().catch((e) => { console.error(e); process.exitCode = 1; });
