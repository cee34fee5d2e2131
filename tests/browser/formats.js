// formats.js — the data model formats of SCORM 1.2 and 2004 4th Edition, as
// patterns, so the tests hold the player to the specifications rather than to
// what scorm-again happens to accept.
'use strict';

const decimal = /^-?\d+(\.\d+)?$/;

const scorm12 = {
  identifier: /^[\x21-\x7e]{1,255}$/,                     // CMIIdentifier: no whitespace
  time: /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,2})?$/,    // CMITime HH:MM:SS[.SS]
  timespan: /^\d{2,4}:[0-5]\d:[0-5]\d(\.\d{1,2})?$/,        // CMITimespan HHHH:MM:SS[.SS]
  decimal,
  type: /^(true-false|choice|fill-in|matching|performance|sequencing|likert|numeric)$/,
  result: /^(correct|wrong|unanticipated|neutral|\d{0,3}(\.\d*)?)$/,     // or a CMIDecimal
  lessonStatus: /^(passed|completed|failed|incomplete|browsed|not attempted)$/,
  exit: /^(time-out|suspend|logout|)$/,
  response: {
    choice: /^[0-9a-z](,[0-9a-z])*$/,                       // single characters 0-9, a-z
    'true-false': /^[01tf]$/,
    numeric: decimal,
    'fill-in': /^[^]{0,255}$/,
  },
};

// short_identifier_type: no whitespace, and "[,]" separates them.
const shortId = '[^\\s\\[\\],]+';
const scorm2004 = {
  identifier: /^(?!\s*$)[^]{1,4000}$/,
  // time(second,10,0): YYYY-MM-DDThh:mm:ss[.s[TZD]] (the zone only after a fraction)
  timestamp: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,2}(Z|[+-]([01]\d|2[0-3])(:[0-5]\d)?)?)?$/,
  // timeinterval(second,10,2): ISO 8601 duration, seconds to hundredths, at least one part
  duration: /^P(?=\d|T\d)(\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d{1,2})?S)?)?$/,
  decimal,
  type: /^(true-false|choice|fill-in|long-fill-in|matching|performance|sequencing|likert|numeric|other)$/,
  result: /^(correct|incorrect|unanticipated|neutral|-?\d{1,4}(\.\d{1,7})?)$/,     // or a real(10,7)
  completion: /^(completed|incomplete|not attempted|unknown)$/,
  success: /^(passed|failed|unknown)$/,
  exit: /^(time-out|suspend|logout|normal|)$/,
  response: {
    choice: new RegExp(`^${shortId}(\\[,\\]${shortId})*$`),
    'true-false': /^(true|false)$/,
    numeric: decimal,
    'fill-in': /^(?!\{)[^]{0,250}$/,
  },
  pattern: {
    choice: new RegExp(`^${shortId}(\\[,\\]${shortId})*$`),
    'true-false': /^(true|false)$/,
    numeric: /^(-?\d+(\.\d+)?)?\[:\](-?\d+(\.\d+)?)?$/,
    'fill-in': /^\{case_matters=(true|false)\}[^]{1,250}$/,
  },
};

module.exports = { scorm12, scorm2004 };
