/*
 * scorm.js — the SCORM run-time side of the player: find the LMS's API, and
 * speak the data model of SCORM 1.2 or SCORM 2004 4th Edition, each in its
 * own vocabulary and formats.  player.js decides what to report; this file
 * decides how it is spelled.
 *
 *   var rt = QuizScorm.connect('1.2' | '2004');   // rt.connected: an LMS answered
 */
window.QuizScorm = (function () {
  'use strict';

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

  /* ---- Formats ---- */

  function pad(n, w) { n = String(n); while (n.length < w) n = '0' + n; return n; }

  /* A number as SCORM's decimal: digits and a point, never an exponent (1e-7 -> 0.0000001). */
  function decimal(x) {
    var s = String(x);
    if (!/e/i.test(s)) return s;
    if (Math.abs(x) >= 1e21) return BigInt(Math.round(x)).toString();
    var digits = Math.min(100, Math.max(0, 15 - Math.floor(Math.log10(Math.abs(x)))));
    return x.toFixed(digits).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  }

  /* 1.2 CMITimespan HHHH:MM:SS.SS; 2004 ISO 8601 duration PT#H#M#S.SS. */
  function span(ms, v2004) {
    var cs = Math.max(0, Math.round(ms / 10));
    var h = Math.floor(cs / 360000), m = Math.floor(cs / 6000) % 60, s = Math.floor(cs / 100) % 60;
    var frac = pad(cs % 100, 2);
    if (v2004) return 'PT' + (h ? h + 'H' : '') + (m ? m + 'M' : '') + s + '.' + frac + 'S';
    if (h > 9999) return '9999:59:59.99';
    return pad(h, 4) + ':' + pad(m, 2) + ':' + pad(s, 2) + '.' + frac;
  }

  /* 1.2 CMITime HH:MM:SS (local time of day); 2004 timestamp YYYY-MM-DDThh:mm:ss.ssZ. */
  function stamp(ms, v2004) {
    var d = new Date(ms);
    if (v2004) {
      return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2) +
        'T' + pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2) +
        '.' + pad(Math.floor(d.getUTCMilliseconds() / 10), 2) + 'Z';
    }
    return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2);
  }

  /*
   * The learner's response to q as the data model writes it.  answer is what
   * the player keeps: a choice id, a sorted list of ids, true/false, or the
   * text typed; number is that text read as a number (numeric questions).
   */
  function response(q, answer, number, v2004) {
    switch (q.kind) {
      case 'single': return answer;
      case 'multiple': return answer.slice().sort().join(v2004 ? '[,]' : ',');
      case 'truefalse': return v2004 ? String(answer) : (answer ? 't' : 'f');
      case 'numeric': return isNaN(number) ? '' : decimal(number);
      /* 2004 reads "[,]" and a leading "{" as delimiters; 1.2 holds 255 characters. */
      case 'text': return String(answer).trim().replace(/\[,\]/g, ',').replace(/^\{/, '(').slice(0, v2004 ? 250 : 255);
    }
    return '';
  }

  /* The correct_responses patterns of q (a text question: one per accepted answer). */
  function patterns(q, v2004) {
    switch (q.kind) {
      case 'single':
      case 'multiple':
        return [q.choices.filter(function (c) { return c.correct; })
          .map(function (c) { return c.id; }).join(v2004 ? '[,]' : ',')];
      case 'truefalse': return [v2004 ? String(q.answer) : (q.answer ? 't' : 'f')];
      case 'numeric': return [v2004 ? decimal(q.min) + '[:]' + decimal(q.max) : decimal(q.answer)];
      case 'text':
        return q.accept.slice(0, 5).map(function (s) { return v2004 ? '{case_matters=false}' + s : s; });
    }
    return [];
  }

  /* ---- The run-time: one per page ---- */

  function connect(version) {
    var v2004 = version === '2004';
    var api = findAPI(v2004 ? 'API_1484_11' : 'API');
    var rt = {
      v2004: v2004,
      live: false,        /* initialized and not yet finished */
      connected: false,   /* initialized once (stays true after finishing) */

      get: function (k) {
        if (!rt.live) return '';
        var v = v2004 ? api.GetValue(k) : api.LMSGetValue(k);
        return v === null || v === undefined ? '' : String(v);
      },
      set: function (k, v) {
        if (!rt.live) return false;
        return String(v2004 ? api.SetValue(k, String(v)) : api.LMSSetValue(k, String(v))) === 'true';
      },
      commit: function () {
        if (rt.live) v2004 ? api.Commit('') : api.LMSCommit('');
      },

      learnerId: function () { return rt.get(v2004 ? 'cmi.learner_id' : 'cmi.core.student_id'); },

      /* What was saved for a resume; 2004 leaves suspend_data uninitialized (error 403) unless resuming. */
      suspended: function () {
        if (v2004 && rt.get('cmi.entry') !== 'resume') return '';
        return rt.get('cmi.suspend_data');
      },
      suspend: function (text) { rt.set('cmi.suspend_data', text); },

      /* The LMS's pass mark in percent, or NaN when it gives none or no number ("80abc" is none). */
      mastery: function () {
        var s = v2004 ? rt.get('cmi.scaled_passing_score') : rt.get('cmi.student_data.mastery_score');
        var m = /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(s) ? Number(s) : NaN;
        return v2004 ? m * 100 : m;
      },

      /* One answered question as cmi.interactions.n (n: the next free index). */
      interaction: function (r) {
        var n = parseInt(rt.get('cmi.interactions._count'), 10) || 0;
        var p = 'cmi.interactions.' + n + '.';
        rt.set(p + 'id', r.q.id);   /* first: it creates the record */
        rt.set(p + 'type', r.q.interaction);     /* quizc's kinds table names it */
        rt.set(p + (v2004 ? 'timestamp' : 'time'), stamp(r.when, v2004));
        rt.set(p + 'weighting', decimal(r.q.points));
        rt.set(p + (v2004 ? 'learner_response' : 'student_response'), response(r.q, r.answer, r.number, v2004));
        patterns(r.q, v2004).forEach(function (pat, i) { rt.set(p + 'correct_responses.' + i + '.pattern', pat); });
        /* Right, wrong, or the share earned (a decimal both versions take as a result). */
        rt.set(p + 'result', r.credit === 1 ? 'correct' : r.credit > 0 ? decimal(r.credit) : (v2004 ? 'incorrect' : 'wrong'));
        rt.set(p + 'latency', span(r.latency, v2004));
      },

      /* Unfinished: incomplete.  Finished: the score (percent) and passed / failed. */
      status: function (done, score, passed) {
        if (!done) {
          rt.set(v2004 ? 'cmi.completion_status' : 'cmi.core.lesson_status', 'incomplete');
          return;
        }
        var s = v2004 ? 'cmi.score.' : 'cmi.core.score.';
        if (v2004) rt.set('cmi.score.scaled', decimal(Math.round(score * 100) / 10000));
        rt.set(s + 'raw', decimal(score));
        rt.set(s + 'min', 0);
        rt.set(s + 'max', 100);
        if (v2004) {
          rt.set('cmi.completion_status', 'completed');
          rt.set('cmi.success_status', passed ? 'passed' : 'failed');
        } else {
          rt.set('cmi.core.lesson_status', passed ? 'passed' : 'failed');
        }
      },

      /* The session ends: its time, how it ended (suspended until submitted), commit, finish. */
      end: function (done, ms) {
        if (!rt.live) return;
        rt.set(v2004 ? 'cmi.session_time' : 'cmi.core.session_time', span(ms, v2004));
        rt.set(v2004 ? 'cmi.exit' : 'cmi.core.exit', done ? (v2004 ? 'normal' : '') : 'suspend');
        rt.commit();
        rt.live = false;
        v2004 ? api.Terminate('') : api.LMSFinish('');
      }
    };
    if (api) {
      var ok = v2004 ? api.Initialize('') : api.LMSInitialize('');
      rt.live = rt.connected = String(ok) === 'true';
    }
    return rt;
  }

  return { connect: connect, span: span, stamp: stamp, decimal: decimal };
})();
