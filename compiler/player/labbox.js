/*
 * labbox.js — the parts of a question's lab box that hold live results: a
 * recorded run (quizc --runs) with its figures, machine, date and timeline,
 * and the learner's own `labrun ... --json` checked against the question's
 * claims (claims.js).  Nothing leaves the page: a file is read with
 * FileReader, a paste from the text area, and neither is sent anywhere.
 *
 * It also words a claim for every part of the box, in the learner's
 * language: the head of the metric's description from the lab's manifest,
 * its name as code, then the operator and the target; and shows a command
 * with a button that copies it.  player.js calls
 * QuizLabBox.expectItem, command, recorded and ownRun with its helpers (el, t,
 * plain, lang); this file calls nothing of player.js.
 * Every text from a run is set with textContent; the timeline SVG is shown
 * as an <img> of a data: URL, which a browser renders without running
 * anything in it.
 */
(function (root) {
  'use strict';

  var C = root.QuizClaims;

  /* o's own entry k, or undefined: a name from a run such as "constructor" finds nothing inherited. */
  function own(o, k) {
    return o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
  }

  /* A value of a learner's report, shown: a number or text as it is (text quoted on request), anything else as JSON, bounded. */
  function shown(v, quote) {
    var s;
    if (typeof v === 'number') s = String(v);
    else if (typeof v === 'string' && !quote) s = v;
    else {
      try { s = JSON.stringify(v); } catch (e) { s = undefined; }
      if (s === undefined) s = '?';
    }
    return s.length > 60 ? s.slice(0, 60) + '\u2026' : s;
  }

  /* A figure in the learner's language (ui.js): 4, 0,2727, 1,2e-7 in Indonesian; "-" for none. */
  function fmt(h, x) { return root.QuizUI.figure(x, h.lang()); }

  var OPS = { '<': 'opLt', '<=': 'opLe', '>': 'opGt', '>=': 'opGe', '==': 'opEq' };

  /* A metric's description in the learner's language (the manifest's TEXT): one place for every use. */
  function metricHelp(h, x) { return h.plain(x.help); }

  /*
   * The description's head, which a claim leads with: up to its first
   * parenthesis, colon or semicolon ("share of stage time spent idle"), so
   * that the name in parentheses after it nests in none.
   */
  function shortHelp(help) {
    var cut = help.search(/ \(|: |; /);
    return (cut >= 0 ? help.slice(0, cut) : help).trim();
  }

  /*
   * The metric as an element: its short description, then its name as code
   * in parentheses; the whole description is the code's title.
   */
  function metricWords(h, x) {
    var s = h.el('span', 'metric'), help = metricHelp(h, x), head = help ? shortHelp(help) : '';
    var code = h.el('code', null, x.metric);
    if (help) code.title = help;
    if (head) s.appendChild(document.createTextNode(head + ' ('));
    s.appendChild(code);
    if (head) s.appendChild(document.createTextNode(')'));
    return s;
  }

  /* The claim without its metric: "above 0.7", "within 0.03 of the answer". */
  function claimWords(h, x) {
    var num = function (v) { return root.QuizUI.number(v, h.lang()); };
    var target = x.of_answer ? h.t('ofAnswer') : num(x.value) + (x.unit ? ' ' + x.unit : '');
    var op = x.op === 'within' ? h.t('within', { t: num(x.tolerance) + (x.percent ? '%' : '') }) : (own(OPS, x.op) ? h.t(OPS[x.op]) : x.op);
    return op + ' ' + target;
  }

  /* A claim as a list item: the metric's short description, its name as code, the claim. */
  function expectItem(h, x) {
    var li = h.el('li');
    li.appendChild(metricWords(h, x));
    li.appendChild(document.createTextNode(': ' + claimWords(h, x)));
    return li;
  }

  /*
   * A command to run, wrapping where it is long, with a button that copies
   * it.  Where the clipboard is refused (no permission, a page opened from
   * disk) the command is selected instead and the learner told to copy it.
   */
  function command(h, text, id) {
    var box = h.el('div', 'command-box');
    var pre = h.el('pre', 'command');
    var code = h.el('code', null, text);
    code.id = id + '-cmd';
    pre.appendChild(code);
    box.appendChild(pre);
    var b = h.el('button', 'copy', h.t('copy'));
    b.type = 'button';
    b.id = id + '-copy';
    b.setAttribute('aria-describedby', code.id);
    var said = h.el('span', 'copied');
    said.id = id + '-copied';
    said.setAttribute('role', 'status');
    function select() {
      var range = document.createRange();
      range.selectNodeContents(code);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      said.textContent = h.t('copyByHand');
    }
    b.addEventListener('click', function () {
      var clip = navigator.clipboard;
      if (!clip || typeof clip.writeText !== 'function') { select(); return; }
      /* What the box shows now: a re-render in another language may have changed it. */
      clip.writeText(code.textContent).then(function () { said.textContent = h.t('copied'); }, select);
    });
    box.appendChild(b);
    box.appendChild(said);
    return box;
  }

  var BASIS = { measured: 'basisMeasured', replayed: 'basisReplayed', modelled: 'basisModelled', exact: 'basisExact' };

  /* "8 × NVIDIA H200" on GPUs, "2 cores, AMD EPYC" on CPUs. */
  function machineWords(h, m) {
    if (m.gpu && m.gpus) return m.gpus + ' \u00d7 ' + m.gpu;
    if (m.gpu) return m.gpu;
    return h.t('cpuCores', { n: m.cores || '?', cpu: m.cpu || 'CPU' });
  }

  function verdict(h, pass) {
    return h.el('strong', pass ? 'pass' : 'fail', pass ? h.t('pass') : h.t('fail'));
  }

  /* One claim's row: PASS/FAIL, the metric and its description, the figure, how it was obtained, the claim. */
  function claimRow(h, x, measured, basis, pass, note) {
    var li = h.el('li', pass ? 'claim pass' : 'claim fail');
    li.appendChild(verdict(h, pass));
    li.appendChild(document.createTextNode(' '));
    li.appendChild(metricWords(h, x));
    li.appendChild(document.createTextNode(' = ' + fmt(h, measured)));
    if (basis) li.appendChild(h.el('span', 'basis', ' (' + (own(BASIS, basis) ? h.t(BASIS[basis]) : basis) + ')'));
    li.appendChild(h.el('span', 'wanted', ' \u2014 ' + claimWords(h, x)));
    if (note) li.appendChild(h.el('span', 'note', ' ' + note));
    return li;
  }

  /* The recorded run of lab (lab.run), for the box of question q. */
  function recorded(h, q, lab, id) {
    var r = lab.run, sec = h.el('div', 'recorded');
    sec.id = id;
    var when = String(r.date || '').slice(0, 10);
    sec.appendChild(h.el('p', 'measured-on', h.t('measuredOn', { machine: machineWords(h, r.machine || {}), date: when })));
    var byName = new Map();
    (r.metrics || []).forEach(function (m) { if (!byName.has(m[0])) byName.set(m[0], m); });
    var failed = (r.checks || []).filter(function (c) { return !c.pass; }).length;
    var ul = h.el('ul', 'claims');
    lab.expects.forEach(function (x) {
      var m = byName.get(x.metric);
      var pass = !!m && failed === 0 && C.holds(x, m[1]);
      ul.appendChild(claimRow(h, x, m ? m[1] : null, m ? m[2] : null, pass, m ? '' : h.t('notReported')));
    });
    sec.appendChild(ul);
    if (r.checks && r.checks.length) {
      sec.appendChild(h.el('p', 'checks', h.t('ownChecks', { ok: r.checks.length - failed, n: r.checks.length })));
    }
    /* The run's notes and timeline in the learner's language when labrun wrote them in it, else its own. */
    var words = r.words && own(r.words, h.lang()) ? r.words[h.lang()] : r;
    var spoken = words === r ? r.lang : h.lang();
    if (words.svg) {
      var img = h.el('img', 'timeline');
      img.alt = h.t('timeline');
      img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(words.svg);
      sec.appendChild(img);
    }
    if (words.notes && words.notes.length) {
      var det = h.el('details', 'notes');
      det.appendChild(h.el('summary', null, h.t('notes')));
      words.notes.forEach(function (n) {
        var p = h.el('p', null, root.QuizUI.prose(n, spoken || h.lang()));
        if (spoken && spoken !== h.lang()) p.lang = spoken;
        det.appendChild(p);
      });
      /* Which labrun and backend, as code (as the LMS formats write it): a version is no number to localise. */
      var who = h.el('p', 'backend');
      who.appendChild(h.el('code', null, 'labrun ' + r.labrun + ', --backend ' + r.backend));
      det.appendChild(who);
      sec.appendChild(det);
    }
    return sec;
  }

  /*
   * "stages=2, microbatches=8": values as labrun prints them.  A run's value
   * of another type than the question's is quoted as JSON ("4" is not 4).
   */
  function pairs(list, which) {
    return list.map(function (d) {
      var v = d[which];
      return d[0] + '=' + (v === undefined ? '?' : shown(v, typeof v !== typeof d[2]));
    }).join(', ');
  }

  /* What the learner's run says about lab, into out. */
  function showOutcome(h, lab, text, out) {
    while (out.firstChild) out.removeChild(out.firstChild);
    if (typeof text !== 'string') return;
    if (!text.trim()) {
      out.appendChild(h.el('p', 'fail', h.t('empty')));
      return;
    }
    var run = C.parseRun(text);
    if (run.error) {
      out.appendChild(h.el('p', 'fail', h.t(run.error === 'notJson' ? 'notJson' : run.error === 'tooLarge' ? 'tooLarge' : 'notRun')));
      return;
    }
    var res = C.checkRun(lab, run);
    if (res.otherLab) {
      out.appendChild(h.el('p', 'fail other', h.t('otherLab', { ran: 'labs/' + run.lab, asked: 'labs/' + lab.name })));
      return;
    }
    if (res.differ) {
      out.appendChild(h.el('p', 'fail other', h.t('otherParams', {
        lab: 'labs/' + lab.name, ran: pairs(res.differ, 1), asked: pairs(res.differ, 2)
      })));
      return;
    }
    var ok = res.results.filter(function (r) { return r.pass; }).length;
    out.appendChild(h.el('p', ok === res.results.length ? 'pass' : 'fail',
      h.t('ownSummary', { ok: ok, n: res.results.length })));
    var ul = h.el('ul', 'claims');
    res.results.forEach(function (r) {
      var basis = !r.missing && typeof own(run.basis, r.x.metric) === 'string' ? run.basis[r.x.metric] : null;
      var note = r.missing ? h.t('notReported') : r.notNumber ? h.t('notNumber', { v: shown(r.measured, true) }) : '';
      ul.appendChild(claimRow(h, r.x, r.measured, basis, r.pass, note));
    });
    out.appendChild(ul);
    if (res.failedChecks) out.appendChild(h.el('p', 'fail', h.t('checksFailed', { n: res.failedChecks })));
  }

  /* lab's command, asking for the learner's language when labrun speaks it for this lab (English is its own). */
  function labCommand(h, lab) {
    var l = h.lang();
    return lab.command + (l !== 'en' && (lab.speaks || []).indexOf(l) >= 0 ? ' --lang ' + l : '');
  }

  /*
   * The learner's own run for lab: a file picker and a paste area, checked
   * at once.  store keeps the text by id across the player's re-renders.
   */
  function ownRun(h, q, lab, id, store) {
    var det = h.el('details', 'own-run');
    det.id = id;
    if (store[id] !== undefined) det.open = true;
    det.appendChild(h.el('summary', null, h.t('ownRun')));
    det.appendChild(h.el('p', 'hint', h.t('ownHint')));
    det.appendChild(command(h, labCommand(h, lab) + ' --json run.json', id));
    var file = h.el('input');
    file.type = 'file';
    file.accept = '.json,application/json';
    file.id = id + '-file';
    var fl = h.el('label', null, h.t('ownFile') + ' ');
    fl.htmlFor = file.id;
    var row = h.el('p', 'own-file');
    row.appendChild(fl);
    row.appendChild(file);
    det.appendChild(row);
    var area = h.el('textarea');
    area.id = id + '-paste';
    area.rows = 4;
    area.spellcheck = false;
    area.value = store[id] || '';
    var al = h.el('label', 'own-paste', h.t('ownPaste'));
    al.htmlFor = area.id;
    det.appendChild(al);
    det.appendChild(area);
    var b = h.el('button', 'own-check', h.t('ownCheck'));
    b.type = 'button';
    b.id = id + '-check';
    det.appendChild(b);
    var out = h.el('div', 'own-result');
    out.id = id + '-result';
    out.setAttribute('role', 'status');
    det.appendChild(out);
    function take(text) {
      store[id] = text;
      showOutcome(h, lab, text, out);
    }
    b.addEventListener('click', function () { take(area.value); });
    file.addEventListener('change', function () {
      var f = file.files && file.files[0];
      if (!f) return;
      if (f.size > C.MAX_RUN_BYTES) {
        delete store[id];
        while (out.firstChild) out.removeChild(out.firstChild);
        out.appendChild(h.el('p', 'fail', h.t('tooLarge')));
        return;
      }
      var rd = new FileReader();
      rd.onload = function () { area.value = String(rd.result); take(area.value); };
      rd.readAsText(f);
    });
    if (store[id] !== undefined) showOutcome(h, lab, store[id], out);
    return det;
  }

  root.QuizLabBox = { expectItem: expectItem, command: command, labCommand: labCommand, recorded: recorded, ownRun: ownRun, fmt: fmt,
                      showOutcome: showOutcome };
})(window);
