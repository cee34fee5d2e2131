// module.js — the web module (build/web/labs.js) started in node, for the
// checks under tests/web/.  Its bytes are labs.wasm beside labs.js, given as
// they are: the loader would fetch them, and node's fetch takes no file path.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// start(LOADER, OPTIONS): the module's instance (a promise), with OPTIONS
// (print, printErr, ...) passed on to emscripten's loader.
function start(loader, options) {
  const file = path.resolve(loader);
  const LabrunModule = require(file);
  const wasmBinary = fs.readFileSync(path.join(path.dirname(file), 'labs.wasm'));
  return LabrunModule({ ...options, wasmBinary });
}

module.exports = { start };
