/*
 * claims.js — what a lab claim means, for the player: whether a figure bears
 * out an `expect` line, and whether a learner's `labrun ... --json` output
 * is a run of the question's lab with the question's values.
 *
 * The meaning is defined once, in doc/claims.md; labrun --verify implements
 * it in runtime/verify_expect.c and this file implements it for the
 * browser.  tests/data/claims.json holds the cases both must agree on
 * (tests/runtime/test_claims.c and tests/browser/claims.test.js run it).
 *
 * The claim's numbers arrive as labrun --verify reads them: quizc has made a
 * percentage value a fraction (20% is 0.2) and has worked out the interval
 * [lo, hi] a `within` claim accepts (libqz's interval.c), so the player holds
 * no rule of its own for tolerances.  Loaded by index.html as a plain
 * script (window.QuizClaims) and by node's tests as a module.
 */
(function (root) {
  'use strict';

  /* A figure as JSON carries it: a number, or null for none (NaN, infinity). */
  function figure(x) {
    return typeof x === 'number' && isFinite(x) ? x : NaN;
  }

  /*
   * Whether measured m bears out claim x ({op, value} or {op: 'within', lo, hi}).  NaN bears out nothing.
   */
  function holds(x, m) {
    m = figure(m);
    var y = x.value;
    switch (x.op) {
      case '<': return m < y;
      case '<=': return m <= y;
      case '>': return m > y;
      case '>=': return m >= y;
      case '==': return Math.abs(m - y) <= 1e-9 * Math.max(1, Math.abs(y));
      case 'within':
        /* quizc works out the interval (a percentage of the value, or an absolute tolerance). */
        return typeof x.lo === 'number' && typeof x.hi === 'number' && m >= x.lo && m <= x.hi;
    }
    return false;
  }

  /* A JSON object: not null, not a list. */
  function isTable(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
  }

  /* A learner's file larger than this is not read (a labrun report is a few kilobytes). */
  var MAX_RUN_BYTES = 4 * 1024 * 1024;

  /*
   * The learner's `labrun ... --json` text as a run: {lab, params, metrics,
   * basis, checks}, or {error: 'notJson' | 'notRun' | 'tooLarge'}.
   */
  function parseRun(text) {
    if (typeof text !== 'string' || text.length > MAX_RUN_BYTES) return { error: 'tooLarge' };
    var j;
    try { j = JSON.parse(text); } catch (e) { return { error: 'notJson' }; }
    if (!isTable(j) || typeof j.lab !== 'string' || !isTable(j.metrics) || !isTable(j.params)) {
      return { error: 'notRun' };
    }
    var checks = Array.isArray(j.checks) ? j.checks.filter(function (c) { return c && typeof c === 'object'; }) : [];
    var basis = isTable(j.basis) ? j.basis : {};
    return { lab: j.lab, params: j.params, metrics: j.metrics, basis: basis, checks: checks };
  }

  /* Whether a run's value v is the value want the question asks for (numbers by value). */
  function sameValue(v, want) {
    if (typeof want === 'number') return typeof v === 'number' && v === want;
    return v === want;
  }

  /*
   * Check run (from parseRun) against lab (a lab of the quiz data: name,
   * params [[name, value]], expects).  Returns {otherLab} when it is another
   * lab, {differ: [[name, ran, asked]]} when its values differ, else
   * {results: [{x, measured, pass, missing, notNumber}], failedChecks: n}.
   */
  function checkRun(lab, run) {
    if (run.lab !== lab.name) return { otherLab: true };
    var differ = [];
    (lab.params || []).forEach(function (p) {
      var has = Object.prototype.hasOwnProperty.call(run.params, p[0]);
      if (!has || !sameValue(run.params[p[0]], p[1])) differ.push([p[0], has ? run.params[p[0]] : undefined, p[1]]);
    });
    if (differ.length) return { differ: differ };
    var failedChecks = run.checks.filter(function (c) { return c.pass !== true; }).length;
    var results = lab.expects.map(function (x) {
      var has = Object.prototype.hasOwnProperty.call(run.metrics, x.metric);
      var m = has ? run.metrics[x.metric] : undefined;
      /* As labrun --verify: a run whose own checks failed bears out no claim.  null is labrun's "no figure". */
      var notNumber = has && m !== null && typeof m !== 'number';
      return { x: x, measured: m, missing: !has, notNumber: notNumber, pass: has && failedChecks === 0 && holds(x, m) };
    });
    return { results: results, failedChecks: failedChecks };
  }

  var api = { holds: holds, parseRun: parseRun, checkRun: checkRun, MAX_RUN_BYTES: MAX_RUN_BYTES };
  root.QuizClaims = api;
  if (typeof module === 'object' && module.exports) module.exports = api;
})(typeof window !== 'undefined' ? window : globalThis);
