// web.mjs — the labs in headless chromium (make bench): every lab line of the
// shipped quizzes timed in a page as a learner runs it (a worker started from
// build/web/labrun-module.js and given the module the page compiled once,
// Run to report), beside the same line in a worker that compiles the module
// itself (what every Run cost before the page kept the compiled module),
// interleaved; and the web GEMM against one OpenBLAS thread in interleaved
// pairs.  Writes OUT/web.json; report.mjs puts it in results.json.  Figures
// only: nothing here is asserted.
//
//   node bench/web.mjs OUT QUIZC LABS_MODULE BENCH_GEMM
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const require = createRequire(import.meta.url);
const puppeteer = require("puppeteer-core");
const { readQuizData } = require("../tests/browser/server.js");

const [out, quizc, module, benchGemm] = process.argv.slice(2);
const PAIRS = Number(process.env.PAIRS || 5);
const QUIZZES = ["quizzes/paralelisme.qz", "quizzes/paralelisme-lanjut.qz"];
// The labs' GEMM shapes (M x N x K): a bubble stage's micro-batch (batch 16,
// hidden 64), tensor-split's MLP (64 tokens, hidden 256, ffn 1024) both ways,
// and a square one.
const SHAPES = ["16x64x64", "64x1024x256", "64x256x1024", "256x256x256"];

const median = (v) => { const s = [...v].sort((a, b) => a - b); const h = s.length >> 1; return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2; };
const lines = (text) => text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));

mkdirSync(out, { recursive: true });
const page0 = join(out, "web-bench.html");
writeFileSync(page0, `<!DOCTYPE html><meta charset="utf-8"><title>bench</title><script src="file://${resolve(module)}"></script>`);

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium", headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--allow-file-access-from-files"],
});
const page = await browser.newPage();
await page.goto(`file://${resolve(page0)}`, { waitUntil: "load" });
const version = await browser.version();

// The module compiled once in the page, as labrun-web.js does on the first Run.
const compileMs = await page.evaluate(async () => {
  const bin = atob(window.labrunWasm), a = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
  window.benchBytes = a;
  const t0 = performance.now();
  window.benchModule = await WebAssembly.compile(a);
  return performance.now() - t0;
});
process.stderr.write(`bench: web module compiled in ${compileMs.toFixed(0)} ms\n`);

// One run in a new worker: milliseconds from start to its answer.  compiled:
// given the page's compiled module (the page now); else given the bytes, which
// it compiles (every Run before).
const inWorker = (args, compiled = true) => page.evaluate((a, c) => new Promise((done) => {
  const url = URL.createObjectURL(new Blob([`(${window.labrunWorkerBody.toString()})();`], { type: "text/javascript" }));
  const t0 = performance.now();
  const w = new Worker(url);
  w.onmessage = (ev) => {
    if (ev.data.type !== "done") return;
    w.terminate();
    done({ ms: performance.now() - t0, status: ev.data.status, output: ev.data.output, errors: ev.data.errors });
  };
  w.postMessage({ args: a, wasm: c ? window.benchModule : window.benchBytes.slice().buffer });
}), args, compiled);

// ---- Every lab line, at the quiz's parameters --------------------------------
const labLines = [];
const seen = new Set();
for (const quiz of QUIZZES) {
  const dir = join(out, "web-pkg");
  execFileSync(quizc, [quiz, "--dir", dir]);
  for (const q of readQuizData(join(dir, "quiz-data.js")).questions) {
    for (const lab of q.labs) {
      const args = [lab.name, ...lab.args.map(([k, v]) => `--${k}=${v}`)];
      if (seen.has(args.join(" "))) continue;
      seen.add(args.join(" "));
      // Interleaved, the order alternating from line to line: both under the same load.
      const first = labLines.length % 2 === 0;
      const a = await inWorker(args, first), b = await inWorker(args, !first);
      const [r, fresh] = first ? [a, b] : [b, a];
      labLines.push({ quiz, command: lab.command, seconds: r.ms / 1000, status: r.status,
                      compiling_seconds: fresh.ms / 1000, compiling_status: fresh.status });
      process.stderr.write(`bench: web ${lab.command}: ${(r.ms / 1000).toFixed(2)} s, exit ${r.status}; ` +
                           `compiling in the worker ${(fresh.ms / 1000).toFixed(2)} s, exit ${fresh.status}\n`);
    }
  }
}

// ---- The GEMM: web and one OpenBLAS thread, interleaved ----------------------
const pairs = [];
for (let i = 0; i < PAIRS; i++) {
  const web = lines((await inWorker(["--gemm-bench", ...SHAPES])).output);
  const native = lines(execFileSync(benchGemm, SHAPES, { encoding: "utf8" }));
  pairs.push({ web, native });
  process.stderr.write(`bench: gemm pair ${i + 1}: ${web.map((w, k) => (w.gflops / native[k].gflops).toFixed(2)).join(" ")}\n`);
}
const gemm = SHAPES.map((shape, k) => ({
  shape,
  web_gflops: median(pairs.map((p) => p.web[k].gflops)),
  openblas_1thread_gflops: median(pairs.map((p) => p.native[k].gflops)),
  ratio: median(pairs.map((p) => p.web[k].gflops / p.native[k].gflops)),
  web_max_rel_error: Math.max(...pairs.map((p) => p.web[k].max_rel_error)),
}));
await browser.close();

writeFileSync(join(out, "web.json"), JSON.stringify({
  browser: version,
  gemm,
  gemm_vs_openblas_1thread: Math.min(...gemm.map((g) => g.ratio)),
  lab_lines: labLines,
  compile_ms: compileMs,
  lab_line_max_s: Math.max(...labLines.map((l) => l.seconds)),
  lab_line_compiling_max_s: Math.max(...labLines.map((l) => l.compiling_seconds)),
}, null, 1) + "\n");
