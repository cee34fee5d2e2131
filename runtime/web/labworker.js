/*
 * labworker.js — the worker side of a lab run in the quiz page.  The build
 * (mk/web.mk) puts it after emscripten's LabrunModule factory inside one
 * function, labrunWorkerBody, in labrun-module.js; the page starts a worker
 * from that function's source (a blob: URL, so no file is fetched and any
 * origin works, file:// included) and posts it one message:
 *
 *     { args: ["bubble", "--stages", "4", ...], wasm: MODULE }
 *
 * MODULE is the labs' WebAssembly.Module, which the page compiled once from
 * the bytes labrun-module.js carries (labrunWasm) and posts to every run's
 * worker; the worker only instantiates it, so a fresh instance (every static
 * of the C code at its start value) costs no compiling.  The bytes
 * themselves are taken too (compiled here, as bench/web.mjs does for a
 * first run).  It answers { type: "progress", done: 0..1, what } while the
 * lab runs (the runtime's progress lines), then once { type: "done", status,
 * report, svg, errors, output }: labrun's exit status, the --json report's
 * text (or null), the timeline SVG (or null), what the run wrote on stderr
 * and on stdout.  The page stops a run by terminating the worker.
 */
/* global LabrunModule */
self.onmessage = function (ev) {
  'use strict';
  var args = ev.data && ev.data.args, wasm = ev.data && ev.data.wasm;
  var errors = '', line = '', output = '';
  /* stderr one character at a time: a progress line ends in ESC [ K, a message in a newline. */
  function errChar(c) {
    if (c === null || c === undefined) return;
    var ch = String.fromCharCode(c);
    if (ch === '\r') { line = ''; return; }
    line += ch;
    var m;
    if (line.slice(-3) === '\u001b[K') {
      if ((m = /:\s*(\d+)% ?(.*)\u001b\[K$/.exec(line))) {
        self.postMessage({ type: 'progress', done: Number(m[1]) / 100, what: m[2] });
      }
      line = '';
    } else if (ch === '\n') {
      errors += line;
      line = '';
    }
  }
  /* emscripten's hook: instantiate the module given, compiled or not, with the imports it asks for. */
  function instantiate(imports, receive) {
    WebAssembly.instantiate(wasm, imports).then(function (r) {
      if (r instanceof WebAssembly.Instance) receive(r, wasm);
      else receive(r.instance, r.module);
    }, function (e) {
      self.postMessage({ type: 'done', status: 1, report: null, svg: null, errors: String(e), output: '' });
    });
    return {};
  }
  LabrunModule({ stderr: errChar, print: function (s) { output += s + '\n'; }, printErr: function (s) { errors += s + '\n'; },
                 instantiateWasm: instantiate })
    .then(function (M) {
      var status;
      try {
        status = M.callMain(args);
      } catch (e) {
        status = 1;
        errors += String(e && e.message || e) + '\n';
      }
      if (line) errors += line;
      function read(path) {
        try { return M.FS.readFile(path, { encoding: 'utf8' }); } catch (e) { return null; }
      }
      self.postMessage({ type: 'done', status: status, report: read('/out/report.json'),
                         svg: read('/out/timeline.svg'), errors: errors, output: output });
    }, function (e) {
      self.postMessage({ type: 'done', status: 1, report: null, svg: null, errors: String(e), output: '' });
    });
};
