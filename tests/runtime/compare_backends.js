// compare_backends.js A.json B.json — the same lab on two backends must agree:
// both reports pass every check, hold the same checks and metrics, and every
// metric the report marks exact or modelled (bytes, call counts, formulas) has
// the same value.  Measured and replayed figures differ from run to run and
// are only required to be there.  Prints one line; exit status 1 on a mismatch.
'use strict';
const fs = require('fs');
const [a, b] = process.argv.slice(2).map((f) => ({ f, r: JSON.parse(fs.readFileSync(f, 'utf8')) }));
const problems = [];
for (const { f, r } of [a, b])
    for (const c of r.checks || [])
        if (!c.pass) problems.push(`${f}: check "${c.name}" failed: ${c.detail}`);
const names = (r) => (r.checks || []).map((c) => c.name).sort().join('|');
if (names(a.r) !== names(b.r)) problems.push(`checks differ: ${names(a.r)} vs ${names(b.r)}`);
const ka = Object.keys(a.r.metrics).sort().join(','), kb = Object.keys(b.r.metrics).sort().join(',');
if (ka !== kb) problems.push(`metrics differ: ${ka} vs ${kb}`);
let compared = 0;
for (const [m, v] of Object.entries(a.r.metrics)) {
    const basis = (a.r.basis || {})[m];
    if (basis !== 'exact' && basis !== 'modelled') continue;
    const w = b.r.metrics[m];
    compared++;
    if (!(Math.abs(v - w) <= 1e-9 * Math.max(1, Math.abs(v))))
        problems.push(`metric ${m} (${basis}): ${a.r.backend} ${v}, ${b.r.backend} ${w}`);
}
if (problems.length) {
    for (const p of problems) console.log(`  ${p}`);
    process.exit(1);
}
console.log(`  ${a.r.lab} ${a.r.backend} vs ${b.r.backend}: ${(a.r.checks || []).length} checks pass on both, ` +
            `${compared} exact/modelled metrics equal`);
