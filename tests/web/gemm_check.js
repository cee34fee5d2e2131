// gemm_check.js — run the web module's `--gemm-check` (runtime/web/gemm_check.c)
// in node: the WebAssembly-SIMD GEMM against an fp64 reference, called
// directly and through the web device.
//
//   node tests/web/gemm_check.js build/web/labs.js
//
// The module's bytes are labs.wasm beside labs.js, given as they are (the
// loader would fetch them, and node's fetch takes no file path).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const loader = path.resolve(process.argv[2]);
const LabrunModule = require(loader);
const wasmBinary = fs.readFileSync(path.join(path.dirname(loader), 'labs.wasm'));
LabrunModule({ wasmBinary, print: (s) => console.log(s), printErr: (s) => console.error(s) }).then((M) => {
  process.exitCode = M.callMain(['--gemm-check']);
});
