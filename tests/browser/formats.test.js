// formats.test.js — scorm.js's time and number formats, at their edges,
// against the specifications' patterns (formats.js).  No browser needed: the
// file runs in a bare context with a window that holds no LMS.
'use strict';

const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { scorm12, scorm2004 } = require('./formats');

const src = fs.readFileSync(path.join(__dirname, '..', '..', 'compiler', 'player', 'scorm.js'), 'utf8');
const win = {};
win.parent = win;
vm.runInNewContext(src, { window: win, BigInt });
const S = win.QuizScorm;

const H = 3600e3;
const spans = [0, 4, 5, 999, 1000, 59999, 60000, 61234.5, H - 1, H, 25 * H + 61e3, 9999 * H + 3599e3, 12000 * H];

test('1.2 timespans are HHHH:MM:SS.SS at every size', () => {
  for (const ms of spans) assert.match(S.span(ms, false), scorm12.timespan, `${ms} ms`);
  assert.equal(S.span(0, false), '0000:00:00.00');
  assert.equal(S.span(61234.5, false), '0000:01:01.23');
  assert.equal(S.span(25 * H + 61e3, false), '0025:01:01.00');
  assert.equal(S.span(12000 * H, false), '9999:59:59.99', 'capped at the largest the format holds');
});

test('2004 durations are ISO 8601 with at most two decimals of seconds', () => {
  for (const ms of spans) assert.match(S.span(ms, true), scorm2004.duration, `${ms} ms`);
  assert.equal(S.span(0, true), 'PT0.00S');
  assert.equal(S.span(61234.5, true), 'PT1M1.23S');
  assert.equal(S.span(25 * H + 61e3, true), 'PT25H1M1.00S');
});

test('1.2 times of day and 2004 timestamps', () => {
  for (const when of [0, Date.UTC(2026, 11, 2, 23, 59, 59, 999), Date.UTC(2030, 0, 1, 0, 0, 0, 5)]) {
    assert.match(S.stamp(when, false), scorm12.time);
    assert.match(S.stamp(when, true), scorm2004.timestamp);
  }
  assert.equal(S.stamp(Date.UTC(2026, 11, 2, 15, 30, 22, 507), true), '2026-12-02T15:30:22.50Z');
});

test('decimals never use an exponent', () => {
  const cases = [[0, '0'], [42, '42'], [0.2727, '0.2727'], [-3e-8, '-0.00000003'], [1e-7, '0.0000001'],
    [2.5e-10, '0.00000000025'], [70e9, '70000000000'], [1e21, '1000000000000000000000']];
  for (const [x, want] of cases) {
    assert.equal(S.decimal(x), want);
    assert.match(S.decimal(x), scorm12.decimal);
  }
});

test('with no LMS in reach, connect gives a preview run-time that records nothing', () => {
  const rt = S.connect('1.2');
  assert.equal(rt.connected, false);
  assert.equal(rt.set('cmi.core.lesson_status', 'passed'), false);
  assert.equal(rt.get('cmi.core.student_id'), '');
});

/* scorm.js connected to an LMS that answers every GetValue from values. */
function withLms(version, values) {
  const w = {};
  w.parent = w;
  const get = (k) => (Object.prototype.hasOwnProperty.call(values, k) ? values[k] : '');
  if (version === '2004') w.API_1484_11 = { Initialize: () => 'true', GetValue: get, SetValue: () => 'true' };
  else w.API = { LMSInitialize: () => 'true', LMSGetValue: get, LMSSetValue: () => 'true' };
  vm.runInNewContext(src, { window: w, BigInt });
  return w.QuizScorm.connect(version);
}

test("the LMS's pass mark is taken only when it is a number", () => {
  const cases = [['80', 80], [' 75.5 ', 75.5], ['', NaN], ['80abc', NaN], ['0x50', NaN], ['1e2', NaN], ['Infinity', NaN], ['-', NaN]];
  for (const [given, want] of cases) {
    assert.deepEqual(withLms('1.2', { 'cmi.student_data.mastery_score': given }).mastery(), want, `1.2: ${JSON.stringify(given)}`);
  }
  const scaled = [['0.8', 80], ['1', 100], ['0.8 and more', NaN], ['', NaN], ['[0.8]', NaN]];
  for (const [given, want] of scaled) {
    assert.deepEqual(withLms('2004', { 'cmi.scaled_passing_score': given }).mastery(), want, `2004: ${JSON.stringify(given)}`);
  }
});
