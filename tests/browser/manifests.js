// manifests.js — the lab manifests' texts (labs/NAME/lab.qz) by language, for
// the tests that check the player shows none in the wrong language.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const LABS = path.join(__dirname, '..', '..', 'labs');

const squash = (s) => s.replace(/\s+/g, ' ').trim();

/*
 * The strings tagged lang in a manifest: `lang: "..."` and `lang: """..."""`
 * (whitespace squashed, as the page's text is compared squashed).
 */
function manifestStrings(file, lang) {
  const src = fs.readFileSync(file, 'utf8');
  const out = [];
  const re = new RegExp(`(?:^|[\\s{])${lang}:\\s*(?:"""([\\s\\S]*?)"""|"((?:[^"\\\\]|\\\\.)*)")`, 'g');
  for (let m; (m = re.exec(src));) {
    const s = m[1] !== undefined ? m[1] : m[2].replace(/\\(.)/g, '$1');
    out.push(squash(s));
  }
  return out;
}

const manifests = fs.readdirSync(LABS).map((d) => path.join(LABS, d, 'lab.qz')).filter((f) => fs.existsSync(f));

module.exports = { LABS, manifestStrings, manifests };
