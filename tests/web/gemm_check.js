// gemm_check.js — run the web module's `--gemm-check` (runtime/web/gemm_check.c)
// in node: the WebAssembly-SIMD GEMM against an fp64 reference, called
// directly and through the web device.
//
//   node tests/web/gemm_check.js build/web/labs.js
'use strict';
const { start } = require('./module');
start(process.argv[2], { print: (s) => console.log(s), printErr: (s) => console.error(s) }).then((M) => {
  process.exitCode = M.callMain(['--gemm-check']);
});
