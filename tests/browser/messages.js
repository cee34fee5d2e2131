// messages.js — tests/data/player-messages.txt, the player's messages as the
// learner reads them (KEY LANG TEXT, one a line), for the tests that check
// the player's table and pages against them.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

function messages() {
  const out = {};
  const file = path.join(__dirname, '..', 'data', 'player-messages.txt');
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const m = /^(\S+) (\S+) (.+)$/.exec(line);
    if (!m) throw new Error(`player-messages.txt: not KEY LANG TEXT: ${line}`);
    (out[m[1]] = out[m[1]] || {})[m[2]] = m[3];
  }
  return out;
}

module.exports = { messages };
