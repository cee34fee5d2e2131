/*
 * labrun-web.js — run a question's lab in the quiz page: the lab line's
 * parameters as fields, Run and Stop, progress, then the lab's own report
 * (every figure with its basis, the lab's checks, the timeline) and the
 * question's claims checked against the run as a learner's own run is
 * (QuizLabBox.showOutcome, claims.js).
 *
 * The labs' C code runs as WebAssembly in a Web Worker, so the page stays
 * responsive and Stop ends the worker.  The package carries the module as
 * labrun-module.js (quizc, unless --no-live-labs; QUIZ_DATA.liveLabs says
 * so); it is loaded on the first Run and defines labrunWasm, the module's
 * bytes, which are compiled then, once for the page, and labrunWorkerBody:
 * every run's worker is started from that function's source through a blob:
 * URL and gets the compiled module in its message, so a run after the first
 * (in any box, or after Stop) only instantiates it.  Nothing is fetched from
 * anywhere and no special header or origin is needed.  Every text from a run is set with textContent; the timeline is
 * an <img> of a data: URL.  player.js calls QuizLabRun.box with its helpers.
 */
(function (root) {
  'use strict';

  var MODULE_FILE = 'labrun-module.js';
  var loading = null;         /* the promise of the module's script, compiled: { url, wasm } */
  var states = Object.create(null);   /* lab box id -> its state, kept across the player's re-renders */

  function usable() {
    var d = root.QUIZ_DATA;
    return !!(d && d.liveLabs === true && typeof root.Worker === 'function' && typeof root.WebAssembly === 'object');
  }

  /* The module's bytes (base64) as an ArrayBuffer. */
  function bytesOf(b64) {
    var bin = root.atob(b64), a = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) a[i] = bin.charCodeAt(i);
    return a.buffer;
  }

  /* The module's script and its WebAssembly, once: resolves to the worker's source and the compiled module. */
  function loadModule() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        if (typeof root.labrunWorkerBody === 'function') { resolve(); return; }
        var s = document.createElement('script');
        s.src = MODULE_FILE;
        s.onload = function () { typeof root.labrunWorkerBody === 'function' ? resolve() : reject(new Error(MODULE_FILE)); };
        s.onerror = function () { reject(new Error(MODULE_FILE)); };
        document.head.appendChild(s);
      }).then(function () {
        return root.WebAssembly.compile(bytesOf(root.labrunWasm));
      }).then(function (wasm) {
        var src = '(' + root.labrunWorkerBody.toString() + ')();';
        return { url: URL.createObjectURL(new Blob([src], { type: 'text/javascript' })), wasm: wasm };
      });
      loading.catch(function () { loading = null; });
    }
    return loading;
  }

  /*
   * labrun's arguments for the values in st: those the lab line gives and
   * those the learner changed (a value left at the lab's default is not
   * given, as on the command line: some apply only with others); and the
   * page's language, so that the lab's tables, checks, notes and timeline
   * are in it (labrun --lang).
   */
  function argsOf(h, lab, st) {
    var a = [lab.name, '--lang=' + h.lang()];
    var given = Object.create(null);
    lab.args.forEach(function (p) { given[p[0]] = true; });
    st.values.forEach(function (p, i) {
      if (given[p[0]] || String(p[1]) !== String(lab.params[i][1])) a.push('--' + p[0] + '=' + String(p[1]));
    });
    return a;
  }

  function start(h, lab, st) {
    st.result = null;
    st.progress = 0;
    st.phase = 'loading';
    st.redraw();
    loadModule().then(function (mod) {
      if (st.phase !== 'loading') return;
      var w = new Worker(mod.url);
      st.worker = w;
      st.phase = 'running';
      st.started = new Date();
      st.redraw();
      w.onmessage = function (ev) {
        var m = ev.data || {};
        if (m.type === 'progress') {
          st.progress = m.done;
          st.redraw();
        } else if (m.type === 'done') {
          w.terminate();
          st.worker = null;
          st.phase = 'done';
          st.result = m;
          st.redraw();
        }
      };
      w.onerror = function (e) {
        w.terminate();
        st.worker = null;
        st.phase = 'done';
        st.result = { status: 1, report: null, svg: null, errors: String(e.message || e) };
        st.redraw();
      };
      w.postMessage({ args: argsOf(h, lab, st), wasm: mod.wasm });
    }, function () {
      st.phase = 'done';
      st.result = { status: 1, report: null, svg: null, errors: h.t('webMissing') };
      st.redraw();
    });
  }

  function stop(st) {
    if (st.worker) st.worker.terminate();
    st.worker = null;
    st.phase = 'stopped';
    st.redraw();
  }


  /* The lab's own report: figures with their basis, the checks, the notes. */
  function report(h, run, out) {
    var tbl = h.el('table', 'web-metrics');
    tbl.appendChild(h.el('caption', null, h.t('webFigures')));
    var head = h.el('tr');
    ['webMetric', 'webValue', 'webBasis'].forEach(function (k) { head.appendChild(h.el('th', null, h.t(k))); });
    tbl.appendChild(head);
    Object.keys(run.metrics || {}).forEach(function (k) {
      var tr = h.el('tr'), b = run.basis && run.basis[k];
      tr.appendChild(h.el('td', null)).appendChild(h.el('code', null, k));
      tr.appendChild(h.el('td', null, root.QuizLabBox.fmt(h, run.metrics[k])));
      var word = typeof b === 'string' && b ? h.t('basis' + b.charAt(0).toUpperCase() + b.slice(1)) : '';
      tr.appendChild(h.el('td', 'basis', word || String(b)));
      tbl.appendChild(tr);
    });
    out.appendChild(tbl);
    var checks = run.checks || [];
    if (checks.length) {
      var ok = checks.filter(function (c) { return c.pass; }).length;
      out.appendChild(h.el('p', 'checks', h.t('ownChecks', { ok: ok, n: checks.length })));
      var ul = h.el('ul', 'web-checks');
      checks.forEach(function (c) {
        var li = h.el('li', c.pass ? 'pass' : 'fail');
        li.appendChild(h.el('strong', null, c.pass ? h.t('pass') : h.t('fail')));
        li.appendChild(document.createTextNode(' ' + c.name + ': ' + root.QuizUI.prose(c.detail, h.lang())));
        ul.appendChild(li);
      });
      out.appendChild(ul);
    }
    if (run.notes && run.notes.length) {
      var det = h.el('details', 'notes');
      det.appendChild(h.el('summary', null, h.t('notes')));
      run.notes.forEach(function (n) { det.appendChild(h.el('p', null, root.QuizUI.prose(n, h.lang()))); });
      out.appendChild(det);
    }
  }

  function draw(h, lab, st, v) {
    var running = st.phase === 'loading' || st.phase === 'running';
    v.run.disabled = running;
    v.stop.disabled = !running;
    v.inputs.forEach(function (inp) { inp.disabled = running; });
    v.progress.hidden = !running;
    if (st.phase === 'running' && st.progress > 0) v.progress.value = st.progress;
    else v.progress.removeAttribute('value');
    v.status.textContent = st.phase === 'loading' ? h.t('webLoading') : st.phase === 'running' ? h.t('webRunning') :
      st.phase === 'stopped' ? h.t('webStopped') : '';
    var out = v.out;
    while (out.firstChild) out.removeChild(out.firstChild);
    var r = st.result;
    if (!r) return;
    var run = null;
    try { run = r.report ? JSON.parse(r.report) : null; } catch (e) { run = null; }
    if (!run) {
      out.appendChild(h.el('p', 'fail', h.t('webFailed')));
      out.appendChild(h.el('pre', 'web-errors', r.errors || ''));
      return;
    }
    out.appendChild(h.el('p', 'measured-on', h.t('webMachine', { date: st.started.toISOString().slice(0, 10) })));
    if (r.errors) out.appendChild(h.el('pre', 'web-errors', r.errors));
    report(h, run, out);
    if (r.svg) {
      var img = h.el('img', 'timeline');
      img.alt = h.t('webTimeline');
      img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(r.svg);
      out.appendChild(img);
    }
    var raw = h.el('details', 'web-report');
    raw.appendChild(h.el('summary', null, h.t('webJson')));
    raw.appendChild(h.el('pre', 'web-json', r.report));
    out.appendChild(raw);
    if (lab.expects.length) {
      var claims = h.el('div', 'web-claims');
      root.QuizLabBox.showOutcome(h, lab, r.report, claims);
      out.appendChild(claims);
    }
  }

  /* The Run part of lab's box in question q, or null when the package has no module. */
  function box(h, q, lab, id) {
    if (!usable()) return null;
    var st = states[id];
    if (!st) {
      st = states[id] = { values: lab.params.map(function (p) { return [p[0], p[1]]; }), phase: 'idle',
                          result: null, worker: null, progress: 0, redraw: function () {} };
    }
    var sec = h.el('details', 'web-run');
    sec.id = id;
    sec.open = st.phase !== 'idle' || !!st.result;
    sec.appendChild(h.el('summary', null, h.t('webRun')));
    sec.appendChild(h.el('p', 'hint', h.t('webHint')));
    var fields = h.el('div', 'web-params'), inputs = [];
    st.values.forEach(function (p, i) {
      var inp = h.el('input');
      inp.id = id + '-p-' + p[0];
      inp.name = p[0];
      inp.value = String(p[1]);
      inp.size = Math.max(4, String(p[1]).length + 2);
      inp.addEventListener('input', function () { st.values[i][1] = inp.value; });
      var l = h.el('label', null, p[0] + ' ');
      l.htmlFor = inp.id;
      var row = h.el('span', 'web-param');
      row.appendChild(l);
      row.appendChild(inp);
      fields.appendChild(row);
      inputs.push(inp);
    });
    sec.appendChild(fields);
    var bar = h.el('p', 'web-bar');
    var run = h.el('button', 'web-start', h.t('webRunButton'));
    run.type = 'button';
    run.id = id + '-start';
    var stp = h.el('button', 'web-stop', h.t('webStop'));
    stp.type = 'button';
    stp.id = id + '-stop';
    var progress = h.el('progress');
    progress.id = id + '-progress';
    var status = h.el('span', 'web-status');
    status.setAttribute('role', 'status');
    bar.appendChild(run);
    bar.appendChild(stp);
    bar.appendChild(progress);
    bar.appendChild(status);
    sec.appendChild(bar);
    var out = h.el('div', 'web-result');
    out.id = id + '-result';
    sec.appendChild(out);
    var view = { run: run, stop: stp, inputs: inputs, progress: progress, status: status, out: out };
    st.redraw = function () { draw(h, lab, st, view); };
    run.addEventListener('click', function () { start(h, lab, st); });
    stp.addEventListener('click', function () { stop(st); });
    st.redraw();
    return sec;
  }

  root.QuizLabRun = { box: box };
})(window);
