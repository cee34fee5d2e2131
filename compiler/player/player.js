/*
 * player.js — the learner's side of a quizc SCORM package.
 *
 * Reads window.QUIZ_DATA (quiz-data.js), shows the quiz at once in the
 * default language, grades answers, and reports to the LMS through the
 * run-time of scorm.js when an LMS is there; with none it is a preview.
 *
 * Author text is data, never markup: every element is built with
 * createElement and filled with textContent.  Nothing here assigns innerHTML.
 *
 * Question ids and language tags are the author's names, and a name such as
 * `__proto__`, `constructor` or `toString` is a name like any other: every
 * table keyed by one has no prototype (dict()), and every lookup in a table
 * that has one asks for an own entry (own()).
 */
(function () {
  'use strict';

  var DATA = window.QUIZ_DATA;
  var lms = null;   /* the run-time (scorm.js), set at the start */

  /* A table keyed by the author's or the learner's names: nothing in it but what is put there. */
  function dict() { return Object.create(null); }

  /* o's own entry k, or undefined: never something o inherits. */
  function own(o, k) {
    return o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
  }

  /* ---- Interface strings (ui.js; the quiz's own text comes from the data) ---- */

  var UI = window.QuizUI.strings, LANG_NAMES = window.QuizUI.names;

  function t(key, vars) {
    var table = own(UI, state.lang) || own(UI, String(state.lang).split('-')[0]) || UI.en;
    var s = own(table, key) !== undefined ? table[key] : UI.en[key];
    if (vars) {
      Object.keys(vars).forEach(function (k) { s = s.split('{' + k + '}').join(String(vars[k])); });
    }
    return s;
  }

  /* A number in the learner's language (ui.js): 0,2627 in Indonesian, 0.2627 in English. */
  function num(x) { return window.QuizUI.number(x, state.lang); }

  /* ---- Stable shuffling: one seed per learner, kept in suspend_data (shuffle.js) ---- */

  var hash = window.QuizShuffle.hash, shuffled = window.QuizShuffle.shuffled;

  /* ---- State ---- */

  var state = {
    lang: DATA.languages[0],
    seed: 0,
    answers: dict(),   /* question id -> choice id | [choice ids] | true/false | string */
    checked: dict(),   /* question id -> true once graded (immediate feedback) */
    reported: dict(),  /* question id -> true once its interaction was written */
    done: false,
    score: null
  };
  var started = Date.now(), lastActivity = started, touchStart = dict(), lastChange = dict();
  var notNumber = dict();  /* numeric question id -> true while its answer, checked, is not a number: not graded, not locked */
  var ownRuns = dict();  /* lab box id -> the learner's run text, kept across re-renders, never saved or sent */
  var byId = dict();
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
    lms.suspend(s);
  }

  /* The longest typed answer kept (SCORM's suspend_data is itself bounded). */
  var MAX_TYPED = 4096;

  /*
   * answer as saved for q, when it is an answer q can have: a choice id of
   * q, a list of them, true/false, or text.  Anything else (an LMS's or an
   * old version's data) is undefined: the question stays unanswered.
   */
  function savedAnswer(q, a) {
    var ids = (q.choices || []).map(function (c) { return c.id; });
    switch (q.kind) {
      case 'single': return typeof a === 'string' && ids.indexOf(a) >= 0 ? a : undefined;
      case 'multiple':
        if (!Array.isArray(a) || !a.every(function (x) { return typeof x === 'string' && ids.indexOf(x) >= 0; })) return undefined;
        return a.filter(function (x, i) { return a.indexOf(x) === i; }).sort();
      case 'truefalse': return typeof a === 'boolean' ? a : undefined;
      case 'numeric':
      case 'text': return typeof a === 'string' && a.length <= MAX_TYPED ? a : undefined;
    }
    return undefined;
  }

  /* Saved ids that are questions of this quiz, from a list; nothing from anything else. */
  function savedIds(list) {
    return Array.isArray(list) ? list.filter(function (id) { return typeof id === 'string' && byId[id]; }) : [];
  }

  /* What suspend_data holds (save() wrote it, or the LMS made it up): taken where it fits, else ignored. */
  function restore(text) {
    var s;
    try { s = JSON.parse(text); } catch (e) { return; }
    if (!s || typeof s !== 'object' || Array.isArray(s) || s.v !== 1) return;
    if (typeof s.l === 'string' && DATA.languages.indexOf(s.l) >= 0) state.lang = s.l;
    if (typeof s.s === 'number' && isFinite(s.s)) state.seed = s.s >>> 0;
    var a = s.a && typeof s.a === 'object' && !Array.isArray(s.a) ? s.a : {};
    Object.keys(a).forEach(function (id) {
      var v = byId[id] ? savedAnswer(byId[id], a[id]) : undefined;
      if (v !== undefined) state.answers[id] = v;
    });
    /* Checked means graded: a question with no answer kept was not. */
    savedIds(s.c).forEach(function (id) { if (state.answers[id] !== undefined) state.checked[id] = true; });
    savedIds(s.r).forEach(function (id) { state.reported[id] = true; });
    state.done = s.d === 1;
  }

  /* ---- Grading: grade.js's rules on the answers kept here ---- */

  var G = window.QuizGrade;
  function answered(q) { return G.answered(state.answers[q.id]); }
  function credit(q) { return G.credit(q, state.answers[q.id]); }
  var parseNumber = G.parseNumber;

  function totals() {
    var got = 0, max = 0;
    DATA.questions.forEach(function (q) {
      max += q.points;
      if (answered(q)) got += q.points * credit(q);
    });
    return max > 0 ? Math.round(got / max * 10000) / 100 : 0;
  }

  /* The pass mark: the LMS's when it gives one (read once, at the start), else the quiz's. */
  var mastery = DATA.passing;

  /* ---- Reporting to the LMS ---- */

  function report(q, when) {
    if (!lms.live || state.reported[q.id] || !answered(q)) return;
    var start = touchStart[q.id] !== undefined ? touchStart[q.id] : started;
    lms.interaction({
      q: q, answer: state.answers[q.id], number: parseNumber(state.answers[q.id]),
      credit: credit(q), when: when, latency: Math.max(0, when - start)
    });
    state.reported[q.id] = true;
  }

  function setStatus() {
    if (lms.live) lms.status(state.done, state.score, state.score >= mastery);
  }

  function leave() {
    if (!lms.live) return;
    save();
    lms.end(state.done, Date.now() - started);
  }

  /* ---- Actions ---- */

  function touch(q) {
    var now = Date.now();
    if (touchStart[q.id] === undefined) touchStart[q.id] = lastActivity;
    lastChange[q.id] = now;
    lastActivity = now;
  }

  /* Whether q is numeric and its answer is typed but no number ("1.875 GB", "abc"): the learner is asked again. */
  function refused(q) {
    notNumber[q.id] = q.kind === 'numeric' && answered(q) && isNaN(parseNumber(state.answers[q.id]));
    return notNumber[q.id];
  }

  function check(q) {
    if (!answered(q) || state.checked[q.id] || state.done) return;
    if (refused(q)) {
      render('q-' + q.id + '-input');
      return;
    }
    state.checked[q.id] = true;
    report(q, Date.now());
    save();
    lms.commit();
    render('q-' + q.id + '-check');
  }

  function finish() {
    if (state.done) return;
    var asked = DATA.questions.filter(refused);
    if (asked.length) {
      render('q-' + order().filter(refused)[0].id + '-input');
      return;
    }
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

  /* TEXT t in the learner's language, else the quiz's first: a list of blocks, or null. */
  function localized(t) {
    var doc = own(t, state.lang);
    if (!Array.isArray(doc)) doc = own(t, DATA.languages[0]);
    return Array.isArray(doc) ? doc : null;
  }

  /* A localized Markdown doc into parent; inline: inside a label, no block elements. */
  function md(parent, text, inline) {
    var doc = localized(text);
    if (!doc) return parent;
    doc.forEach(function (b) {
      if (b.code !== undefined) {
        var pre = el(inline ? 'span' : 'pre', inline ? 'codeblock' : null);
        pre.tabIndex = 0;   /* a long line scrolls: the keyboard reaches it */
        pre.appendChild(el('code', null, b.code));
        parent.appendChild(pre);
        return;
      }
      var p = el(inline ? 'span' : 'p', inline ? 'para' : null);
      b.p.forEach(function (s) {
        if (s[0] === 'br') p.appendChild(el('br'));
        else if (own(SPAN_TAGS, s[0])) p.appendChild(el(SPAN_TAGS[s[0]], null, s[1]));
        else if (s[0] === 'img') p.appendChild(Object.assign(el('img', 'figure'), { src: s[1], alt: s[2] }));
        else if ((s[0] === 'math' || s[0] === 'dmath') && window.QzMath) p.appendChild(window.QzMath.render(s[1], s[0] === 'dmath'));
        else p.appendChild(document.createTextNode(s[1]));
      });
      parent.appendChild(p);
    });
    return parent;
  }

  function plain(text) {
    var doc = localized(text);
    if (!doc) return '';
    return doc.map(function (b) {
      return b.code !== undefined ? b.code : b.p.map(function (s) { return s[0] === 'br' ? ' ' : s[s[0] === 'img' ? 2 : 1]; }).join('');
    }).join(' ');
  }

  /* Whether q's answer may be shown now: after checking it (immediate) or submitting the attempt; never with `never`. */
  function showFeedback(q) {
    if (DATA.feedback === 'never') return false;
    return state.done || (DATA.feedback === 'immediate' && !!state.checked[q.id]);
  }

  function langSwitch() {
    var nav = el('nav', 'langs');
    nav.setAttribute('aria-label', t('language'));
    if (DATA.languages.length < 2) return nav;
    nav.appendChild(el('span', 'langs-label', t('language') + ':'));
    DATA.languages.forEach(function (l) {
      var b = el('button', 'lang', own(LANG_NAMES, l) || l);
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

  /*
   * One radio button or checkbox with its label.  c is a choice of the data
   * (its id is the answer kept), or a true/false choice (value, label).
   */
  function choiceInput(q, c, type, locked) {
    var id = 'q-' + q.id + '-' + c.id;
    var value = c.value !== undefined ? c.value : c.id;
    var row = el('div', 'choice');
    var input = el('input');
    input.type = type;
    input.name = 'q-' + q.id;
    input.id = id;
    input.value = c.id;
    var a = state.answers[q.id];
    input.checked = type === 'radio' ? a === value : Array.isArray(a) && a.indexOf(value) >= 0;
    input.disabled = locked;
    input.addEventListener('change', function () {
      touch(q);
      if (type === 'radio') {
        state.answers[q.id] = value;
      } else {
        var set = Array.isArray(state.answers[q.id]) ? state.answers[q.id].slice() : [];
        var i = set.indexOf(value);
        if (input.checked && i < 0) set.push(value);
        if (!input.checked && i >= 0) set.splice(i, 1);
        state.answers[q.id] = set.sort();
      }
      save();
    });
    var label = el('label', null, c.label);
    label.htmlFor = id;
    if (c.text) md(label, c.text, true);
    if (showFeedback(q) && c.correct) label.appendChild(el('span', 'mark', ' ' + t('correctChoice')));
    row.appendChild(input);
    row.appendChild(label);
    return row;
  }

  function tfChoices(q) {
    return [
      { id: 'true', value: true, correct: q.answer === true, label: t('trueLabel') },
      { id: 'false', value: false, correct: q.answer === false, label: t('falseLabel') }
    ];
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
    var described = [];
    if (q.kind === 'numeric' && q.unit) {
      var unit = el('span', 'unit');
      unit.id = id + '-unit';
      md(unit, q.unit, true);
      described.push(unit.id);
      row.appendChild(unit);
    }
    if (notNumber[q.id] && !locked) {
      input.setAttribute('aria-invalid', 'true');
      described.push('q-' + q.id + '-nan');
    }
    if (described.length) input.setAttribute('aria-describedby', described.join(' '));
    return row;
  }

  function feedback(q) {
    var box = el('div', 'feedback');
    box.id = 'q-' + q.id + '-feedback';
    box.setAttribute('role', 'status');
    if (notNumber[q.id] && !showFeedback(q) && !state.done) {
      var nan = el('p', 'verdict nan', t('enterNumber'));
      nan.id = 'q-' + q.id + '-nan';
      box.appendChild(nan);
    }
    if (!showFeedback(q)) return box;
    if (!answered(q)) {
      box.appendChild(el('p', 'verdict', t('unanswered')));
    } else {
      var got = credit(q);
      box.className = 'feedback ' + (got === 1 ? 'right' : got > 0 ? 'partly' : 'wrong');
      box.appendChild(el('p', 'verdict', got === 1 ? t('correct') : got > 0 ?
        t('partly', { p: Math.round(got * 100) }) : t('wrong')));
      var a = state.answers[q.id];
      (q.choices || []).forEach(function (c) {
        var chosen = q.kind === 'single' ? a === c.id : Array.isArray(a) && a.indexOf(c.id) >= 0;
        if (chosen && c.because) md(box, c.because);
      });
    }
    if (q.kind === 'text' && q.accept.length) box.appendChild(el('p', 'key', t('accepted', { a: q.accept[0] })));
    if (q.kind === 'numeric') {
      box.appendChild(el('p', 'key', q.min === q.max ? t('numExact', { x: num(q.min) }) : t('numAnswer', { lo: num(q.min), hi: num(q.max) })));
    }
    if (q.explain) md(box, q.explain);
    return box;
  }

  /* What labbox.js needs of the player: it words the claims and holds the live results. */
  var boxHelpers = { el: el, t: t, plain: plain, lang: function () { return state.lang; } };

  function labs(q) {
    var box = el('div', 'labs');
    box.id = 'q-' + q.id + '-labs';
    if (!q.labs.length && !q.snippets.length) return box;
    box.appendChild(el('h3', null, t('tryLab')));
    q.labs.forEach(function (lab, i) {
      var sec = el('div', 'lab'), id = 'q-' + q.id + '-lab' + i;
      sec.id = id;
      if (lab.title) md(sec, lab.title);
      sec.appendChild(el('p', 'run', t('runThis')));
      sec.appendChild(QuizLabBox.command(boxHelpers, QuizLabBox.labCommand(boxHelpers, lab), id));
      /*
       * The claims state the answer ("fits ... equal to 0"), and a run checked
       * against them would let a learner probe for it: they, what a machine
       * measured and the own-run check wait for the quiz's feedback timing,
       * as the feedback GIFT, Moodle XML and QTI show after answering does.
       */
      if (!showFeedback(q)) {
        box.appendChild(sec);
        return;
      }
      if (lab.expects.length) {
        sec.appendChild(el('p', null, t('expect')));
        var ul = el('ul');
        lab.expects.forEach(function (x) { ul.appendChild(QuizLabBox.expectItem(boxHelpers, x)); });
        sec.appendChild(ul);
      }
      if (lab.run) sec.appendChild(QuizLabBox.recorded(boxHelpers, q, lab, id + '-run'));
      if (lab.expects.length) sec.appendChild(QuizLabBox.ownRun(boxHelpers, q, lab, id + '-own', ownRuns));
      var live = QuizLabRun.box(boxHelpers, q, lab, id + '-web');
      if (live) sec.appendChild(live);
      box.appendChild(sec);
    });
    q.snippets.forEach(function (s) {
      var fig = el('figure', 'snippet');
      fig.appendChild(el('figcaption', null, t('snippet') + ': labs/' + s.lab + '/' + (s.file || '') + ' (' + s.region + ')'));
      var pre = el('pre');
      pre.tabIndex = 0;   /* a long line scrolls: the keyboard reaches it */
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
      tfChoices(q).forEach(function (c) { fs.appendChild(choiceInput(q, c, 'radio', locked)); });
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

  var morph = window.QuizMorph.morph;

  function render(focusId) {
    var shown = document.getElementById('app');
    document.documentElement.lang = state.lang === 'und' ? '' : state.lang;
    document.title = plain(DATA.title);
    var app = el('main');
    app.id = 'app';

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
      result.appendChild(el('p', 'score', t('score', { s: num(state.score), p: num(mastery) })));
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

    /* The first drawing replaces the <noscript> text; every later one is laid over what is shown. */
    if (shown.querySelector('header')) morph(shown, app);
    else shown.parentNode.replaceChild(app, shown);

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
    lms = QuizScorm.connect(DATA.scorm);
    var learner = '';
    if (lms.live) {
      var m = lms.mastery();
      if (isFinite(m)) mastery = m;
      learner = lms.learnerId();
      var sd = lms.suspended();
      if (sd) restore(sd);
    }
    if (!state.seed) state.seed = learner ? hash(DATA.id + '\n' + learner) : (Math.random() * 4294967296) >>> 0;
    if (state.done) state.score = totals();
    if (lms.live && !state.done) {
      setStatus();
      save();
      lms.commit();
    }
    render();
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', leave);
  }

  start();
})();
