/*
 * grade.js — how the player grades an answer, from the rules quizc writes
 * into the quiz data: each choice's weight and a question's `scoring`
 * (compiler/grading.c), a numeric answer's interval (grammar/interval.c),
 * a text question's accepted answers.  It holds no rule of its own beyond
 * reading an answer: a number with a decimal point or comma, a text
 * compared case-insensitively with the space around it trimmed.
 *
 * Loaded by index.html as a plain script (window.QuizGrade) and by node's
 * tests as a module.
 */
(function (root) {
  'use strict';

  /* Whether a is an answer at all: a choice, a non-empty list, true/false, or non-blank text. */
  function answered(a) {
    if (a === undefined || a === null) return false;
    if (Array.isArray(a)) return a.length > 0;
    if (typeof a === 'string') return a.trim() !== '';
    return true;
  }

  /* A typed number (1.875 or 1,875); NaN for anything else. */
  function parseNumber(s) {
    s = String(s).trim().replace(',', '.');
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?%?$/.test(s)) return NaN;
    return parseFloat(s);
  }

  /*
   * A text answer is matched without case and with the space around it
   * trimmed, and nothing more: space inside it counts, as Moodle's
   * shortanswer and QTI's string mapping count it, so the score is the same
   * wherever the quiz runs.
   */
  function norm(s) { return String(s).trim().toLowerCase(); }

  /* Whether a truefalse, numeric or text answer a to q is right. */
  function isCorrect(q, a) {
    switch (q.kind) {
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

  /*
   * The share of q's points answer a earns, 0 to 1.  A choice question sums
   * the weights quizc wrote for the picked choices, held to 0..1 (Moodle's
   * rule for the same weights), to 7 digits as Moodle keeps them, unless
   * quizc wrote that it scores all or nothing; every other kind is right
   * (1) or not (0).
   */
  function credit(q, a) {
    if (q.kind === 'multiple' && q.scoring === 'all-or-nothing') {
      var all = Array.isArray(a) && q.choices.every(function (c) { return c.correct === (a.indexOf(c.id) >= 0); });
      return all ? 1 : 0;
    }
    if (q.kind === 'single' || q.kind === 'multiple') {
      var picked = q.kind === 'single' ? [a] : Array.isArray(a) ? a : [];
      var sum = 0;
      q.choices.forEach(function (c) { if (picked.indexOf(c.id) >= 0) sum += c.weight; });
      return Math.min(1, Math.max(0, Math.round(sum * 1e7) / 1e7));
    }
    return isCorrect(q, a) ? 1 : 0;
  }

  var api = { answered: answered, parseNumber: parseNumber, credit: credit };
  root.QuizGrade = api;
  if (typeof module === 'object' && module.exports) module.exports = api;
})(typeof window !== 'undefined' ? window : globalThis);
