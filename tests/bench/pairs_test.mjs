// pairs_test.mjs — the benchmark's pair ratios and its steadiness rule
// (bench/pairs.mjs), on figures written as run.sh writes them.
//
//   node tests/bench/pairs_test.mjs
//
// Prints "N passed, N failed" (scripts/run-tests.sh counts it).
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { allreducePairs, checkPairs, compilePairs, pairSpread, steady } from "../../bench/pairs.mjs";

const pairsMjs = fileURLToPath(new URL("../../bench/pairs.mjs", import.meta.url));
let passed = 0, failed = 0;
const test = (name, f) => {
    try {
        f();
        passed++;
    } catch (e) {
        failed++;
        console.log(`FAIL ${name}: ${e.message}`);
    }
};
const eq = (got, want, what) => {
    if (Math.abs(got - want) > 1e-9 * Math.max(1, Math.abs(want)))
        throw new Error(`${what}: got ${got}, want ${want}`);
};
const is = (got, want, what) => {
    if (got !== want) throw new Error(`${what}: got ${got}, want ${want}`);
};

const dir = mkdtempSync(join(tmpdir(), "pairs-"));
const put = (name, obj) => writeFileSync(join(dir, name), JSON.stringify(obj));
const proc = (wall_s, status = 0) => ({ wall_s, user_s: wall_s, sys_s: 0, max_rss_kib: 1, status });
const cli = (which) => spawnSync(process.execPath, [pairsMjs, dir, which].filter(Boolean)).status;

try {
    // Two check pairs: quizc's runs around the parse (here four), gift-pegjs's parse.
    put("quizc_check_1_1.json", { ...proc(0.50), max_rss_kib: 7 });
    put("quizc_check_1_2.json", proc(0.30));
    put("quizc_check_1_3.json", proc(0.40));
    put("quizc_check_1_4.json", proc(0.40));
    put("gift_parse_1.json", { parse_s: 12 });
    put("quizc_check_2_1.json", proc(0.30));
    put("quizc_check_2_2.json", proc(0.30));
    put("quizc_check_2_3.json", proc(0.90));
    put("quizc_check_2_4.json", proc(0.10));
    put("gift_parse_2.json", { parse_s: 12 });
    // A side's first run is reported apart, never in a ratio.
    put("quizc_check_first_1.json", proc(5));
    put("quizc_check_after_gift_first_1.json", proc(5));
    test("a check pair's quizc figure is the mean of its runs, its peak RSS their largest", () => {
        const c = checkPairs(dir);
        is(c.ratios.length, 2, "pairs");
        eq(c.ratios[0], 12 / 0.40, "pair 1");
        eq(c.ratios[1], 12 / 0.40, "pair 2");
        eq(c.quizc[0].user_s, 0.40, "pair 1's mean user time");
        is(c.quizc[0].max_rss_kib, 7, "pair 1's peak RSS");
        is(c.quizc[1].runs, 4, "pair 2's runs");
    });
    test("a pair without its other side is not a pair", () => {
        put("quizc_check_3_1.json", proc(0.3));
        is(checkPairs(dir).ratios.length, 2, "pairs");
    });
    test("too few pairs are never steady", () => {
        is(steady([40, 40]), false, "two equal ratios");
        is(cli("check"), 1, "exit status with two pairs");
    });
    test("pairs within 15 % of their median are steady", () => {
        is(steady([38, 39, 40, 41, 42]), true, "38-42");
        const s = pairSpread([38, 39, 40, 41, 42]);
        is(s.steady, true, "pairSpread's steady");
        eq(s.median, 40, "median");
        eq(s.min, 38, "min");
        eq(s.max, 42, "max");
        is(s.n, 5, "n");
    });
    test("the lowest and the highest fifth are left out", () => {
        // Fewer than five pairs still leave one out at each end.
        is(steady([20, 40, 41, 60]), true, "one stray at each end of four");
        // One stray pair at each end: the three in the middle decide.
        is(steady([20, 39, 40, 41, 60]), true, "one stray at each end of five");
        // Two strays on one side of five: one of them is kept.
        is(steady([39, 40, 41, 60, 61]), false, "two strays at the top of five");
        // Of ten, two at each end are left out.
        is(steady([10, 15, 39, 39, 40, 40, 41, 41, 70, 80]), true, "two strays at each end of ten");
        is(steady([10, 39, 39, 40, 40, 41, 41, 60, 70, 80]), false, "three strays at the top of ten");
    });
    test("a spread just past 15 % of the median is not steady", () => {
        is(steady([1, 100, 100, 115, 200]), true, "15 % exactly");
        is(steady([1, 100, 100, 116, 200]), false, "16 %");
    });
    test("compile pairs: the mean of xmllint's runs over the mean of quizc's", () => {
        // Runs in turn at the host's two speeds: one of each alone would give 0.9/1.0 or 1.5/0.6.
        put("quizc_compile_1_1.json", proc(0.6));
        put("xmllint_stream_1_1.json", proc(1.5));
        put("quizc_compile_1_2.json", proc(1.0));
        put("xmllint_stream_1_2.json", proc(0.9));
        put("quizc_compile_1_3.json", proc(0.8));
        put("xmllint_stream_1_3.json", proc(1.2));
        put("quizc_compile_first_1.json", proc(3));
        const c = compilePairs(dir);
        is(c.ratios.length, 1, "pairs");
        eq(c.ratios[0], 1.5, "ratio of the means, 1.2 / 0.8");
        is(c.quizc[0].runs, 3, "quizc runs in the pair");
        eq(c.xmllint[0].wall_s, 1.2, "xmllint's mean");
    });
    test("the command line: steady, not steady, usage", () => {
        for (let i = 2; i <= 5; i++) {
            put(`quizc_compile_${i}_1.json`, proc(0.6));
            put(`xmllint_stream_${i}_1.json`, proc(0.9 + i / 100));
        }
        is(cli("compile"), 0, "five steady pairs");
        put("xmllint_stream_4_1.json", proc(2));
        put("xmllint_stream_5_1.json", proc(2));
        is(cli("compile"), 1, "two of five pairs far off");
        is(cli("nonsense"), 2, "an unknown ratio");
        is(cli(), 2, "no ratio named");
    });
    test("an all-reduce pair's figure is its smallest ratio over the sizes both measured", () => {
        const sz = (bytes, busbw_gbs) => ({ bytes, busbw_gbs });
        put("allreduce_threads_1.json", { allreduce_threads: { sizes: [sz(4096, 2), sz(1 << 20, 9), sz(64 << 20, 12)] } });
        put("allreduce_mpi_1.json", { sizes: [sz(4096, 1), sz(1 << 20, 10), sz(64 << 20, 6)] });
        put("allreduce_threads_2.json", { allreduce_threads: { sizes: [sz(4096, 3), sz(1 << 20, 9)] } });
        put("allreduce_mpi_2.json", { sizes: [sz(4096, 2), sz(1 << 20, 6), sz(64 << 20, 1)] });
        const a = allreducePairs(dir);
        is(a.ratios.length, 2, "pairs");
        eq(a.ratios[0], 0.9, "pair 1: 1 MiB is the worst");
        eq(a.ratios[1], 1.5, "pair 2: 64 MiB, measured by one side only, is left out");
        is(a.perSize[0].length, 3, "pair 1's sizes");
        eq(a.perSize[0][2].ratio, 2, "pair 1 at 64 MiB");
        is(cli("allreduce"), 1, "two pairs are never steady");
    });
    test("a failed benchmarked process is an error, not a figure", () => {
        put("quizc_compile_2_1.json", proc(0.6, 1));
        let threw = false;
        try {
            compilePairs(dir);
        } catch {
            threw = true;
        }
        is(threw, true, "threw");
    });
} finally {
    rmSync(dir, { recursive: true, force: true });
}
console.log(`bench pairs: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
