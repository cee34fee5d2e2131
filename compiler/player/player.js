/*
 * player.js — the learner's side of a quizc SCORM package.
 *
 * Reads window.QUIZ_DATA (quiz-data.js), shows the quiz at once in the
 * default language, grades answers, and reports to the LMS through the SCORM
 * 1.2 or 2004 run-time API when one is found; with none it is a preview.
 *
 * Author text is data, never markup: every element is built with
 * createElement and filled with textContent.  Nothing here assigns innerHTML.
 */
(function () {
  'use strict';

  var DATA = window.QUIZ_DATA;
  var V2004 = DATA && DATA.scorm === '2004';

  /* ---- Interface strings (the quiz's own text comes from the data) ---- */

  var UI = {
    en: {
      question: 'Question {n} of {total}', point: '1 point', points: '{n} points',
      check: 'Check answer', finish: 'Finish and submit', answer: 'Your answer',
      correct: 'Correct.', wrong: 'Not quite.', correctChoice: '(correct answer)',
      unit: 'Unit', language: 'Language', accepted: 'Accepted answer: {a}',
      numAnswer: 'Accepted: {lo} to {hi}', score: 'Score: {s}% (pass mark {p}%)',
      passed: 'Passed.', failed: 'Not passed yet.', unanswered: 'Not answered.',
      preview: 'Preview: no LMS found, so results are not recorded.',
      connected: 'Connected to the LMS: your answers are saved.',
      tryLab: 'Try it in the lab', runThis: 'Run:', expect: 'What you should see:',
      snippet: 'The code that runs', trueLabel: 'True', falseLabel: 'False',
      done: 'Submitted.', leftUnanswered: '{n} question(s) not answered yet.',
      opLt: 'below', opLe: 'at most', opGt: 'above', opGe: 'at least', opEq: 'equal to',
      within: 'within {t} of', ofAnswer: 'this question\'s answer'
    },
    id: {
      question: 'Soal {n} dari {total}', point: '1 poin', points: '{n} poin',
      check: 'Periksa jawaban', finish: 'Selesai dan kirim', answer: 'Jawaban Anda',
      correct: 'Benar.', wrong: 'Belum tepat.', correctChoice: '(jawaban benar)',
      unit: 'Satuan', language: 'Bahasa', accepted: 'Jawaban yang diterima: {a}',
      numAnswer: 'Diterima: {lo} sampai {hi}', score: 'Nilai: {s}% (batas lulus {p}%)',
      passed: 'Lulus.', failed: 'Belum lulus.', unanswered: 'Belum dijawab.',
      preview: 'Pratinjau: LMS tidak ditemukan, jadi hasil tidak dicatat.',
      connected: 'Terhubung ke LMS: jawaban Anda disimpan.',
      tryLab: 'Coba di lab', runThis: 'Jalankan:', expect: 'Yang seharusnya Anda lihat:',
      snippet: 'Kode yang dijalankan', trueLabel: 'Benar', falseLabel: 'Salah',
      done: 'Terkirim.', leftUnanswered: '{n} soal belum dijawab.',
      opLt: 'di bawah', opLe: 'paling banyak', opGt: 'di atas', opGe: 'paling sedikit', opEq: 'sama dengan',
      within: 'dalam selisih {t} dari', ofAnswer: 'jawaban soal ini'
    }
  };
  var LANG_NAMES = { id: 'Bahasa Indonesia', en: 'English', und: 'Default' };

  function t(key, vars) {
    var table = UI[state.lang] || UI[String(state.lang).split('-')[0]] || UI.en;
    var s = table[key] !== undefined ? table[key] : UI.en[key];
    if (vars) {
      Object.keys(vars).forEach(function (k) { s = s.split('{' + k + '}').join(String(vars[k])); });
    }
    return s;
  }

  /* ---- SCORM run-time API ---- */

  /*
   * Both specifications: look in this window's chain of parents for the API
   * object, then in the opener's chain.  Frames from another origin throw on
   * access; they cannot hold our API, so they end the walk.
   */
  function findIn(win, name) {
    var tries = 0;
    try {
      while (win && !win[name] && win.parent && win.parent !== win && tries < 500) {
        tries++;
        win = win.parent;
      }
      return win && win[name] ? win[name] : null;
    } catch (e) {
      return null;
    }
  }

  function findAPI(name) {
    var api = findIn(window, name);
    try {
      if (!api && window.top && window.top.opener) api = findIn(window.top.opener, name);
      if (!api && window.opener) api = findIn(window.opener, name);
    } catch (e) { /* an opener from another origin */ }
    return api;
  }

  var lms = {
    api: null,
    live: false,        /* initialized and not yet finished */
    connected: false,   /* initialized once (stays true after finishing) */
    init: function () {
      this.api = findAPI(V2004 ? 'API_1484_11' : 'API');
      if (!this.api) return false;
      var r = V2004 ? this.api.Initialize('') : this.api.LMSInitialize('');
      this.live = this.connected = String(r) === 'true';
      return this.live;
    },
    get: function (k) {
      if (!this.live) return '';
      var v = V2004 ? this.api.GetValue(k) : this.api.LMSGetValue(k);
      return v === null || v === undefined ? '' : String(v);
    },
    set: function (k, v) {
      if (!this.live) return false;
      return String(V2004 ? this.api.SetValue(k, String(v)) : this.api.LMSSetValue(k, String(v))) === 'true';
    },
    commit: function () {
      if (this.live) V2004 ? this.api.Commit('') : this.api.LMSCommit('');
    },
    finish: function () {
      if (!this.live) return;
      this.live = false;
      V2004 ? this.api.Terminate('') : this.api.LMSFinish('');
    }
  };

  /* ---- Time formats ---- */

  function pad(n, w) { n = String(n); while (n.length < w) n = '0' + n; return n; }

  /* 1.2 CMITimespan HHHH:MM:SS.SS; 2004 ISO 8601 duration PT#H#M#S. */
  function span(ms) {
    var cs = Math.max(0, Math.round(ms / 10));
    var h = Math.floor(cs / 360000), m = Math.floor(cs / 6000) % 60, s = (cs % 6000) / 100;
    if (V2004) {
      return 'PT' + (h ? h + 'H' : '') + (m ? m + 'M' : '') + (Math.round(s * 100) / 100) + 'S';
    }
    return pad(Math.min(h, 9999), 4) + ':' + pad(m, 2) + ':' + pad(Math.floor(s), 2) + '.' + pad(cs % 100, 2);
  }

  /* 1.2 CMITime HH:MM:SS (local time of day); 2004 timestamp YYYY-MM-DDThh:mm:ss.ssZ. */
  function stamp(ms) {
    var d = new Date(ms);
    if (V2004) {
      return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2) +
        'T' + pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) +
        '.' + pad(Math.floor(d.getUTCMilliseconds() / 10), 2) + 'Z';
    }
    return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2);
  }

  /* ---- Stable shuffling: one seed per learner, kept in suspend_data ---- */

  function hash(s) {
    var h = 2166136261;
    for (var i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
    return h >>> 0;
  }

  function rng(seed) {
    return function () {
      seed = (seed + 0x6D2B79F5) | 0;
      var x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
  }

  function shuffled(list, seed) {
    var a = list.slice(), r = rng(seed);
    for (var i = a.length - 1; i > 0; i--) {
      var j = Math.floor(r() * (i + 1)), x = a[i];
      a[i] = a[j];
      a[j] = x;
    }
    return a;
  }

  /* ---- State ---- */

  var state = {
    lang: DATA.languages[0],
    seed: 0,
    answers: {},     /* question id -> choice id | [choice ids] | true/false | string */
    checked: {},     /* question id -> true once graded (immediate feedback) */
    reported: {},    /* question id -> true once its interaction was written */
    done: false,
    score: null
  };
  var started = Date.now(), lastActivity = started, touchStart = {}, lastChange = {};
  var byId = {};
  DATA.questions.forEach(function (q) { byId[q.id] = q; });

  function order() {
    var qs = DATA.questions.slice();
    if (DATA.shuffle === 'questions' || DATA.shuffle === 'all') qs = shuffled(qs, state.seed);
    return qs;
  }

  function choiceOrder(q) {
    if (DATA.shuffle === 'choices' || DATA.shuffle === 'all') return shuffled(q.choices, state.seed ^ hash(q.id));
    return q.choices;
  }

  function save() {
    if (!lms.live) return;
    var s = JSON.stringify({
      v: 1, l: state.lang, s: state.seed, a: state.answers,
      c: Object.keys(state.checked), r: Object.keys(state.reported), d: state.done ? 1 : 0
    });
    lms.set('cmi.suspend_data', s);
  }

  function restore(text) {
    var s;
    try { s = JSON.parse(text); } catch (e) { return; }
    if (!s || s.v !== 1) return;
    if (DATA.languages.indexOf(s.l) >= 0) state.lang = s.l;
    if (typeof s.s === 'number') state.seed = s.s;
    Object.keys(s.a || {}).forEach(function (id) { if (byId[id]) state.answers[id] = s.a[id]; });
    (s.c || []).forEach(function (id) { if (byId[id]) state.checked[id] = true; });
    (s.r || []).forEach(function (id) { if (byId[id]) state.reported[id] = true; });
    state.done = s.d === 1;
  }

  /* ---- Grading ---- */

  function answered(q) {
    var a = state.answers[q.id];
    if (a === undefined || a === null) return false;
    if (Array.isArray(a)) return a.length > 0;
    if (typeof a === 'string') return a.trim() !== '';
    return true;
  }

  /* A number as SCORM's decimal: digits and a point, never an exponent (1e-7 -> 0.0000001). */
  function decimal(x) {
    var s = String(x);
    if (!/e/i.test(s)) return s;
    if (Math.abs(x) >= 1e21) return BigInt(Math.round(x)).toString();
    var digits = Math.min(100, Math.max(0, 15 - Math.floor(Math.log10(Math.abs(x)))));
    return x.toFixed(digits).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  }

  function parseNumber(s) {
    s = String(s).trim().replace(',', '.');
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?%?$/.test(s)) return NaN;
    return parseFloat(s);
  }

  function norm(s) { return String(s).trim().replace(/\s+/g, ' ').toLowerCase(); }

  function isCorrect(q) {
    var a = state.answers[q.id];
    switch (q.kind) {
      case 'single':
        return q.choices.some(function (c) { return c.correct && c.id === a; });
      case 'multiple':
        return Array.isArray(a) && q.choices.every(function (c) { return c.correct === (a.indexOf(c.id) >= 0); });
      case 'truefalse':
        return a === q.answer;
      case 'numeric': {
        var x = parseNumber(a), eps = 1e-9 * Math.max(1, Math.abs(q.min), Math.abs(q.max));
        return !isNaN(x) && x >= q.min - eps && x <= q.max + eps;
      }
      case 'text':
        return q.accept.some(function (s) { return norm(s) === norm(a); });
    }
    return false;
  }

  function totals() {
    var got = 0, max = 0;
    DATA.questions.forEach(function (q) {
      max += q.points;
      if (answered(q) && isCorrect(q)) got += q.points;
    });
    return max > 0 ? Math.round(got / max * 10000) / 100 : 0;
  }

  /* The pass mark: the LMS's when it gives one (read once, at the start), else the quiz's. */
  var mastery = DATA.passing;
  function readMastery() {
    var m = V2004 ? lms.get('cmi.scaled_passing_score') : lms.get('cmi.student_data.mastery_score');
    if (m !== '' && !isNaN(parseFloat(m))) mastery = V2004 ? parseFloat(m) * 100 : parseFloat(m);
  }

  /* ---- Reporting one answer as cmi.interactions.n ---- */

  var TYPES = { single: 'choice', multiple: 'choice', truefalse: 'true-false', numeric: 'numeric', text: 'fill-in' };

  function responseOf(q) {
    var a = state.answers[q.id];
    switch (q.kind) {
      case 'single': return a;
      case 'multiple': return a.slice().sort().join(V2004 ? '[,]' : ',');
      case 'truefalse': return V2004 ? String(a) : (a ? 't' : 'f');
      case 'numeric': {
        var x = parseNumber(a);
        return isNaN(x) ? '' : decimal(x);
      }
      /* 2004 reserves "[,]" and a leading "{" as delimiters. */
      case 'text': return String(a).trim().replace(/\[,\]/g, ',').replace(/^\{/, '(').slice(0, 250);
    }
    return '';
  }

  function patternsOf(q) {
    switch (q.kind) {
      case 'single':
      case 'multiple':
        return [q.choices.filter(function (c) { return c.correct; })
          .map(function (c) { return c.id; }).join(V2004 ? '[,]' : ',')];
      case 'truefalse': return [V2004 ? String(q.answer) : (q.answer ? 't' : 'f')];
      case 'numeric': return [V2004 ? decimal(q.min) + '[:]' + decimal(q.max) : decimal(q.answer)];
      case 'text':
        return q.accept.slice(0, 5).map(function (s) { return V2004 ? '{case_matters=false}' + s : s; });
    }
    return [];
  }

  function report(q, when) {
    if (!lms.live || state.reported[q.id] || !answered(q)) return;
    var n = parseInt(lms.get('cmi.interactions._count'), 10) || 0;
    var p = 'cmi.interactions.' + n + '.';
    var ok = isCorrect(q);
    var start = touchStart[q.id] !== undefined ? touchStart[q.id] : started;
    lms.set(p + 'id', q.id);
    lms.set(p + 'type', TYPES[q.kind]);
    lms.set(p + (V2004 ? 'timestamp' : 'time'), stamp(when));
    lms.set(p + 'weighting', q.points);
    lms.set(p + (V2004 ? 'learner_response' : 'student_response'), responseOf(q));
    patternsOf(q).forEach(function (pat, i) { lms.set(p + 'correct_responses.' + i + '.pattern', pat); });
    lms.set(p + 'result', ok ? 'correct' : (V2004 ? 'incorrect' : 'wrong'));
    lms.set(p + 'latency', span(Math.max(0, when - start)));
    state.reported[q.id] = true;
  }

  function setStatus() {
    if (!lms.live) return;
    if (state.done) {
      var raw = state.score, pass = raw >= mastery;
      if (V2004) {
        lms.set('cmi.score.scaled', Math.round(raw * 100) / 10000);
        lms.set('cmi.score.raw', raw);
        lms.set('cmi.score.min', 0);
        lms.set('cmi.score.max', 100);
        lms.set('cmi.completion_status', 'completed');
        lms.set('cmi.success_status', pass ? 'passed' : 'failed');
      } else {
        lms.set('cmi.core.score.raw', raw);
        lms.set('cmi.core.score.min', 0);
        lms.set('cmi.core.score.max', 100);
        lms.set('cmi.core.lesson_status', pass ? 'passed' : 'failed');
      }
    } else if (V2004) {
      lms.set('cmi.completion_status', 'incomplete');
    } else {
      lms.set('cmi.core.lesson_status', 'incomplete');
    }
  }

  function leave() {
    if (!lms.live) return;
    save();
    var secs = Date.now() - started;
    if (V2004) {
      lms.set('cmi.session_time', span(secs));
      lms.set('cmi.exit', state.done ? 'normal' : 'suspend');
    } else {
      lms.set('cmi.core.session_time', span(secs));
      lms.set('cmi.core.exit', state.done ? '' : 'suspend');
    }
    lms.commit();
    lms.finish();
  }

  /* ---- Actions ---- */

  function touch(q) {
    var now = Date.now();
    if (touchStart[q.id] === undefined) touchStart[q.id] = lastActivity;
    lastChange[q.id] = now;
    lastActivity = now;
  }

  function check(q) {
    if (!answered(q) || state.checked[q.id] || state.done) return;
    state.checked[q.id] = true;
    report(q, Date.now());
    save();
    lms.commit();
    render(q.id + '-check');
  }

  function finish() {
    if (state.done) return;
    var now = Date.now();
    DATA.questions.forEach(function (q) {
      if (answered(q)) {
        state.checked[q.id] = true;
        report(q, lastChange[q.id] || now);
      }
    });
    state.done = true;
    state.score = totals();
    setStatus();
    save();
    leave();
    render('result');
  }

  /* ---- Rendering: elements and text nodes only ---- */

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  var SPAN_TAGS = { code: 'code', em: 'em', strong: 'strong' };

  /* A localized Markdown doc into parent; inline: inside a label, no block elements. */
  function md(parent, text, inline) {
    var doc = text && (text[state.lang] || text[DATA.languages[0]]);
    if (!doc) return parent;
    doc.forEach(function (b) {
      if (b.code !== undefined) {
        var pre = el(inline ? 'span' : 'pre', inline ? 'codeblock' : null);
        pre.appendChild(el('code', null, b.code));
        parent.appendChild(pre);
        return;
      }
      var p = el(inline ? 'span' : 'p', inline ? 'para' : null);
      b.p.forEach(function (s) {
        if (s[0] === 'br') p.appendChild(el('br'));
        else if (SPAN_TAGS[s[0]]) p.appendChild(el(SPAN_TAGS[s[0]], null, s[1]));
        else p.appendChild(document.createTextNode(s[1]));
      });
      parent.appendChild(p);
    });
    return parent;
  }

  function plain(text) {
    var doc = text && (text[state.lang] || text[DATA.languages[0]]);
    if (!doc) return '';
    return doc.map(function (b) {
      return b.code !== undefined ? b.code : b.p.map(function (s) { return s[0] === 'br' ? ' ' : s[1]; }).join('');
    }).join(' ');
  }

  function showFeedback(q) {
    if (DATA.feedback === 'never') return false;
    if (DATA.feedback === 'immediate') return !!state.checked[q.id];
    return state.done;
  }

  function langSwitch() {
    var nav = el('nav', 'langs');
    nav.setAttribute('aria-label', t('language'));
    if (DATA.languages.length < 2) return nav;
    nav.appendChild(el('span', 'langs-label', t('language') + ':'));
    DATA.languages.forEach(function (l) {
      var b = el('button', 'lang', LANG_NAMES[l] || l);
      b.type = 'button';
      b.id = 'lang-' + l;
      b.lang = l;
      b.setAttribute('aria-pressed', String(l === state.lang));
      b.addEventListener('click', function () {
        state.lang = l;
        save();
        render('lang-' + l);
      });
      nav.appendChild(b);
    });
    return nav;
  }

  function choiceInput(q, c, type, locked) {
    var id = 'q-' + q.id + '-' + c.id;
    var row = el('div', 'choice');
    var input = el('input');
    input.type = type;
    input.name = 'q-' + q.id;
    input.id = id;
    input.value = c.id;
    var a = state.answers[q.id];
    input.checked = type === 'radio' ? a === c.id : Array.isArray(a) && a.indexOf(c.id) >= 0;
    input.disabled = locked;
    input.addEventListener('change', function () {
      touch(q);
      if (type === 'radio') {
        state.answers[q.id] = c.id;
      } else {
        var set = Array.isArray(state.answers[q.id]) ? state.answers[q.id].slice() : [];
        var i = set.indexOf(c.id);
        if (input.checked && i < 0) set.push(c.id);
        if (!input.checked && i >= 0) set.splice(i, 1);
        state.answers[q.id] = set.sort();
      }
      save();
    });
    var label = el('label');
    label.htmlFor = id;
    md(label, c.text, true);
    if (showFeedback(q) && c.correct) label.appendChild(el('span', 'mark', ' ' + t('correctChoice')));
    row.appendChild(input);
    row.appendChild(label);
    return row;
  }

  function tfChoices(q) {
    return [
      { id: 'true', value: true, label: t('trueLabel') },
      { id: 'false', value: false, label: t('falseLabel') }
    ].map(function (c) {
      return { id: c.id, value: c.value, correct: q.answer === c.value, text: null, label: c.label };
    });
  }

  function tfInput(q, c, locked) {
    var id = 'q-' + q.id + '-' + c.id;
    var row = el('div', 'choice');
    var input = el('input');
    input.type = 'radio';
    input.name = 'q-' + q.id;
    input.id = id;
    input.value = c.id;
    input.checked = state.answers[q.id] === c.value;
    input.disabled = locked;
    input.addEventListener('change', function () { touch(q); state.answers[q.id] = c.value; save(); });
    var label = el('label', null, c.label);
    label.htmlFor = id;
    if (showFeedback(q) && c.correct) label.appendChild(el('span', 'mark', ' ' + t('correctChoice')));
    row.appendChild(input);
    row.appendChild(label);
    return row;
  }

  function fieldInput(q, locked) {
    var id = 'q-' + q.id + '-input';
    var row = el('div', 'field');
    var label = el('label', null, t('answer'));
    label.htmlFor = id;
    var input = el('input');
    input.type = 'text';
    input.id = id;
    input.name = 'q-' + q.id;
    input.autocomplete = 'off';
    if (q.kind === 'numeric') input.inputMode = 'decimal';
    input.value = state.answers[q.id] !== undefined ? state.answers[q.id] : '';
    input.disabled = locked;
    input.addEventListener('input', function () { touch(q); state.answers[q.id] = input.value; save(); });
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && DATA.feedback === 'immediate') check(q);
    });
    row.appendChild(label);
    row.appendChild(input);
    if (q.kind === 'numeric' && q.unit) {
      var unit = el('span', 'unit');
      unit.id = id + '-unit';
      md(unit, q.unit, true);
      input.setAttribute('aria-describedby', unit.id);
      row.appendChild(unit);
    }
    return row;
  }

  function feedback(q) {
    var box = el('div', 'feedback');
    box.setAttribute('role', 'status');
    if (!showFeedback(q)) return box;
    if (!answered(q)) {
      box.appendChild(el('p', 'verdict', t('unanswered')));
    } else {
      var ok = isCorrect(q);
      box.className = 'feedback ' + (ok ? 'right' : 'wrong');
      box.appendChild(el('p', 'verdict', ok ? t('correct') : t('wrong')));
      var a = state.answers[q.id];
      (q.choices || []).forEach(function (c) {
        var chosen = q.kind === 'single' ? a === c.id : Array.isArray(a) && a.indexOf(c.id) >= 0;
        if (chosen && c.because) md(box, c.because);
      });
    }
    if (q.kind === 'text' && q.accept.length) box.appendChild(el('p', 'key', t('accepted', { a: q.accept[0] })));
    if (q.kind === 'numeric') box.appendChild(el('p', 'key', t('numAnswer', { lo: q.min, hi: q.max })));
    if (q.explain) md(box, q.explain);
    return box;
  }

  var OPS = { '<': 'opLt', '<=': 'opLe', '>': 'opGt', '>=': 'opGe', '==': 'opEq' };

  function expectWords(x) {
    var what = x.help ? x.metric + ' (' + x.help + ')' : x.metric;
    var target = x.of_answer ? t('ofAnswer') : String(x.value) + (x.unit ? ' ' + x.unit : '');
    var op = x.op === 'within' ? t('within', { t: x.tolerance }) : (OPS[x.op] ? t(OPS[x.op]) : x.op);
    return what + ': ' + op + ' ' + target;
  }

  function labs(q) {
    var box = el('div', 'labs');
    if (!q.labs.length && !q.snippets.length) return box;
    box.appendChild(el('h3', null, t('tryLab')));
    q.labs.forEach(function (lab) {
      var sec = el('div', 'lab');
      if (lab.title) md(sec, lab.title);
      sec.appendChild(el('p', 'run', t('runThis')));
      var pre = el('pre', 'command');
      pre.appendChild(el('code', null, lab.command));
      sec.appendChild(pre);
      if (lab.expects.length) {
        sec.appendChild(el('p', null, t('expect')));
        var ul = el('ul');
        lab.expects.forEach(function (x) { ul.appendChild(el('li', null, expectWords(x))); });
        sec.appendChild(ul);
      }
      box.appendChild(sec);
    });
    q.snippets.forEach(function (s) {
      var fig = el('figure', 'snippet');
      fig.appendChild(el('figcaption', null, t('snippet') + ': labs/' + s.lab + '/' + (s.file || '') + ' (' + s.region + ')'));
      var pre = el('pre');
      pre.appendChild(el('code', null, s.code));
      fig.appendChild(pre);
      box.appendChild(fig);
    });
    return box;
  }

  function question(q, n, total) {
    var locked = state.done || (DATA.feedback === 'immediate' && !!state.checked[q.id]);
    var sec = el('section', 'question');
    sec.id = 'q-' + q.id;
    var fs = el('fieldset');
    var legend = el('legend', null, t('question', { n: n, total: total }) + ' · ' +
      (q.points === 1 ? t('point') : t('points', { n: q.points })));
    fs.appendChild(legend);
    var prompt = el('div', 'prompt');
    prompt.id = 'q-' + q.id + '-prompt';
    md(prompt, q.prompt);
    fs.appendChild(prompt);
    fs.setAttribute('aria-describedby', prompt.id);
    if (q.kind === 'single' || q.kind === 'multiple') {
      var type = q.kind === 'single' ? 'radio' : 'checkbox';
      choiceOrder(q).forEach(function (c) { fs.appendChild(choiceInput(q, c, type, locked)); });
    } else if (q.kind === 'truefalse') {
      tfChoices(q).forEach(function (c) { fs.appendChild(tfInput(q, c, locked)); });
    } else {
      fs.appendChild(fieldInput(q, locked));
    }
    sec.appendChild(fs);
    if (DATA.feedback === 'immediate' && !locked) {
      var b = el('button', 'check', t('check'));
      b.type = 'button';
      b.id = 'q-' + q.id + '-check';
      b.addEventListener('click', function () { check(q); });
      sec.appendChild(b);
    }
    sec.appendChild(feedback(q));
    sec.appendChild(labs(q));
    return sec;
  }

  function render(focusId) {
    var app = document.getElementById('app');
    document.documentElement.lang = state.lang === 'und' ? '' : state.lang;
    document.title = plain(DATA.title);
    while (app.firstChild) app.removeChild(app.firstChild);

    var head = el('header');
    head.appendChild(langSwitch());
    head.appendChild(md(el('h1'), DATA.title, true));
    if (DATA.intro) head.appendChild(md(el('div', 'intro'), DATA.intro));
    head.appendChild(el('p', 'mode', lms.connected ? t('connected') : t('preview')));
    app.appendChild(head);

    var qs = order();
    qs.forEach(function (q, i) { app.appendChild(question(q, i + 1, qs.length)); });

    var foot = el('footer');
    var result = el('div', 'result');
    result.id = 'result';
    result.tabIndex = -1;
    result.setAttribute('role', 'status');
    if (state.done) {
      if (state.score === null) state.score = totals();
      result.appendChild(el('p', 'done', t('done')));
      result.appendChild(el('p', 'score', t('score', { s: state.score, p: mastery })));
      result.appendChild(el('p', 'verdict', state.score >= mastery ? t('passed') : t('failed')));
    } else {
      var left = DATA.questions.filter(function (q) { return !answered(q); }).length;
      var b = el('button', 'finish', t('finish'));
      b.type = 'button';
      b.id = 'finish';
      b.addEventListener('click', finish);
      foot.appendChild(b);
      if (left) result.appendChild(el('p', 'left', t('leftUnanswered', { n: left })));
    }
    foot.appendChild(result);
    app.appendChild(foot);

    var f = focusId && document.getElementById(focusId);
    if (!f && focusId && /-check$/.test(focusId)) f = document.getElementById(focusId.replace(/-check$/, ''));
    if (f) {
      if (f.tagName === 'SECTION') f.tabIndex = -1;
      f.focus();
    }
  }

  /* ---- Start ---- */

  function start() {
    if (!DATA || !DATA.questions) return;
    var live = lms.init();
    var learner = '';
    if (live) {
      readMastery();
      learner = V2004 ? lms.get('cmi.learner_id') : lms.get('cmi.core.student_id');
      /* 2004 leaves suspend_data uninitialized (error 403) unless resuming. */
      var entry = V2004 ? lms.get('cmi.entry') : lms.get('cmi.core.entry');
      var sd = !V2004 || entry === 'resume' ? lms.get('cmi.suspend_data') : '';
      if (sd) restore(sd);
    }
    if (!state.seed) state.seed = learner ? hash(DATA.id + '\n' + learner) : (Math.random() * 4294967296) >>> 0;
    if (state.done) state.score = totals();
    if (live && !state.done) {
      setStatus();
      save();
      lms.commit();
    }
    render();
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', leave);
  }

  /* For the tests and for the curious: the state, read-only by convention. */
  window.quizPlayer = { state: state, lms: lms, finish: finish };

  start();
})();
