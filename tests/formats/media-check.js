// media-check.js MODE FILE SRCDIR — what the formats carry of tests/data/media/figures.qz
// (run by tests/compiler/media.sh):
//   moodle  every <file> of the Moodle XML decodes to the bytes of its source,
//           every @@PLUGINFILE@@ reference has its file beside it, and the TeX
//           stands in the delimiters Moodle's MathJax filter reads
//   gift    gift-pegjs reads back each formula's TeX and the special
//           characters around it exactly
// Prints "ok: ..." per check; exits 1 at the first failure.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const [mode, file, src] = process.argv.slice(2);
const text = fs.readFileSync(file, 'utf8');
let n = 0;
function ok(what) { n++; console.log('ok: ' + what); }
function fail(what) { console.log('FAIL: ' + what); process.exit(1); }

// The TeX of figures.qz as the texts hold it, with what sits beside it.
const wanted = [
  String.raw`\((p-1)/(m+p-1)\)`,
  String.raw`\(\frac{p-1}{m+p-1}\)? Costs $5 {or} #3 ~ = : escaped.`,
  String.raw`\[ \frac{3}{11} \approx 0.27 \]`,
  String.raw`\(X A_i\) di GPU \(i\)`,
];

if (mode === 'moodle') {
  const files = [...text.matchAll(/<file name="([^"]+)" path="\/" encoding="base64">([^<]*)<\/file>/g)];
  if (files.length < 2) fail(`${files.length} embedded files`);
  for (const [, name, b64] of files) {
    const bytes = Buffer.from(b64, 'base64');
    const want = fs.readFileSync(path.join(src, name));
    if (!bytes.equals(want)) fail(`${name}: the embedded file is not the source's bytes`);
  }
  ok(`${files.length} embedded files decode to their sources' bytes`);
  // Each text element: its @@PLUGINFILE@@ names, and the files that follow its <text>.
  for (const m of text.matchAll(/<text><!\[CDATA\[([^]*?)\]\]><\/text>((?:\s*<file [^>]*>[^<]*<\/file>)*)/g)) {
    const refs = [...m[1].matchAll(/@@PLUGINFILE@@\/([^"]+)"/g)].map(r => r[1]);
    const here = [...m[2].matchAll(/<file name="([^"]+)"/g)].map(r => r[1]);
    for (const r of refs) if (!here.includes(r)) fail(`@@PLUGINFILE@@/${r} without its <file> beside the text`);
  }
  ok('every @@PLUGINFILE@@ reference has its file beside its text');
  const html = [...text.matchAll(/<!\[CDATA\[([^]*?)\]\]>/g)].map(m => m[1]).join('\n')
    .replace(/&amp;/g, '&');
  for (const w of wanted) if (!html.includes(w)) fail(`Moodle XML lacks ${w}`);
  ok(`the TeX of ${wanted.length} texts in \\( \\) and \\[ \\]`);
} else if (mode === 'gift') {
  const { parse } = require('gift-pegjs');
  const qs = parse(text);
  const all = JSON.stringify(qs);
  for (const w of wanted) if (!all.includes(JSON.stringify(w).slice(1, -1))) fail(`gift-pegjs reads back no ${w}`);
  ok(`gift-pegjs reads the TeX of ${wanted.length} texts back exactly`);
  const split = qs.find(q => q.title === 'split');
  if (!split || !split.stem.text.includes('[Two blocks, A1 and A2, side by side]') ||
      !split.stem.text.includes('[Dua blok, A1 dan A2, berdampingan]'))
    fail('the alt texts in both languages in place of the figure');
  ok('the alt text in both languages in place of the figure');
} else {
  fail(`unknown mode ${mode}`);
}
console.log(`${n} checks`);
