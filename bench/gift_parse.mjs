// gift_parse.mjs — parse a GIFT file with gift-pegjs and time the parse.
//
//   node bench/gift_parse.mjs FILE.gift
//
// Prints one JSON object: the bytes read, the questions found, the time to
// read and decode the file, and the time of parse() alone, measured inside
// node with performance.now() (and its CPU time, process.cpuUsage()) so
// node's start-up and the file read are not charged to the parser.  The
// whole process is timed from outside (runstat).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { parse } = require("gift-pegjs");

const file = process.argv[2];
if (!file) {
    console.error("usage: node bench/gift_parse.mjs FILE.gift");
    process.exit(2);
}

const t0 = performance.now();
const text = readFileSync(file, "utf8");
const t1 = performance.now();
const c1 = process.cpuUsage();
const questions = parse(text);
const c2 = process.cpuUsage(c1);
const t2 = performance.now();

// Count what was parsed, so a parse that silently dropped questions shows.
const kinds = {};
for (const q of questions)
    kinds[q.type] = (kinds[q.type] || 0) + 1;

console.log(JSON.stringify({
    bytes: Buffer.byteLength(text, "utf8"),
    questions: questions.length - (kinds.Category || 0),
    kinds,
    read_s: (t1 - t0) / 1000,
    parse_s: (t2 - t1) / 1000,
    // CPU time of the process during parse() (user + system, GC threads included).
    parse_cpu_s: (c2.user + c2.system) / 1e6,
}));
