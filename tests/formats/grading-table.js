// grading-table.js — reads tests/data/grading.json, the grading conformance
// table, for every engine that scores it (tests/browser/grading.test.js,
// tests/browser/qti.test.js, tests/formats/grading-check.js), so that each
// reads a row, a share and a response the same way.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const TABLE = path.join(__dirname, '..', 'data', 'grading.json');

/* A share as written: a number, or "n/d" so that thirds are exact. */
function share(v) {
  if (typeof v === 'number') return v;
  const m = /^(-?\d+)\/(\d+)$/.exec(v);
  if (!m) throw new Error(`grading.json: ${JSON.stringify(v)} is not a share`);
  return Number(m[1]) / Number(m[2]);
}

/* A response as a failing row names it. */
function show(r) {
  return JSON.stringify(r);
}

/* Whether a response is no answer at all: nothing picked, nothing typed. */
function empty(r) {
  return r === null || r === '' || (Array.isArray(r) && r.length === 0);
}

/*
 * The table: [{ quiz, questions: [{ id, rows: [{ response, share, moodle }] }] }],
 * questions in the order written, each share a number (moodle: the share
 * Moodle gives where GIFT and Moodle XML cannot carry the rule, qti: the
 * share a QTI 2.1 player gives where QTI cannot; else the share).
 */
function load(file = TABLE) {
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  return j.quizzes.map((q) => ({
    quiz: q.quiz,
    questions: Object.entries(q.questions).map(([id, rows]) => ({
      id,
      rows: rows.map((r) => {
        const s = share(r.share);
        const m = r.moodle === undefined ? s : share(r.moodle);
        const t = r.qti === undefined ? s : share(r.qti);
        for (const x of [s, m, t]) if (!(x >= 0 && x <= 1)) throw new Error(`grading.json: ${q.quiz} ${id}: share ${x} outside 0..1`);
        return { response: r.response, share: s, moodle: m, own: r.moodle !== undefined, qti: t };
      }),
    })),
  }));
}

/* A choice letter's index in the order written: a = 0. */
function letter(c) {
  return c.charCodeAt(0) - 97;
}

module.exports = { load, share, show, empty, letter, TABLE };
