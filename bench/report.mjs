// report.mjs — turn the figures bench/run.sh measured into results.json and
// a table.
//
//   node bench/report.mjs DIR      (reads DIR/*.json, writes DIR/results.json)
//
// Each headline key is defined here, once, from the raw figures, which are
// kept in results.json beside it.  A compiler ratio is the median of the
// ratios of interleaved pairs (pairs.mjs), with their min and max and whether
// they came out steady ({median, min, max, n, steady}):
//   quizc_check_vs_gift_pegjs       gift-pegjs parse() time inside node (start-up
//                                   and file read not counted) / quizc --check as
//                                   a whole process (start-up, read, parse, checks),
//                                   the mean of the pair's runs just before and
//                                   just after the parse, each side after a first
//                                   run of its own (run.sh says why)
//   quizc_compile_vs_xmllint_stream xmllint --stream --noout course.xml / quizc
//                                   BANK -o course.xml (whole processes), the
//                                   means of the pair's runs of each in turn,
//                                   after a first compile of its own
//   quizc_check_rss_over_source     peak RSS of quizc --check / bytes of the .qz,
//                                   the largest over the banks (the bilingual one
//                                   and those of other shapes, shapes.json); spread
//                                   over the runs
//   quizc_seed_scorm_ms             quizc quizzes/paralelisme.qz -o seed.zip, whole
//                                   process, median of 15 runs and its spread,
//                                   after a first run that fills quizc's cache of
//                                   formulas (reported beside it)
//   tensor_split_vs_openblas   one OpenBLAS GEMM's time with N threads / the
//                              column-parallel GEMM + all-gather over N ranks,
//                              over interleaved pairs in one process (bench_labs)
//   allreduce_vs_mpi           interleaved pairs (pairs.mjs): each pair's smallest,
//                              over 4 KiB-64 MiB, of threads busbw / Open MPI busbw
//                              (its faster of in place and out of place)
//   allreduce_64m_busbw_vs_memcpy  threads busbw at 64 MiB / one thread's memcpy
//                              of 64 MiB: each 64 MiB trial against the copy
//                              just before it, the median of the trials
//                              (bench_labs); spread over the pairs' threads runs
//   schedule_overhead_us       zero-work GPipe step / (m + p - 1): the time one
//                              micro-batch's forward and backward hand-offs on
//                              one stage add to the critical path
import { readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { STEADY, allreducePairs, checkPairs, compilePairs, median, ok, pairSpread, runs as pairRuns, spread, zip } from "./pairs.mjs";

const dir = process.argv[2];
if (!dir) {
    console.error("usage: node bench/report.mjs DIR");
    process.exit(2);
}
const load = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));
const runs = (prefix) => pairRuns(dir, prefix);
const max = (xs) => Math.max(...xs);

const machine = load("machine.json");
// Other work on the machine slows every figure; the load average says how much there was.
const loadEnd = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const check = checkPairs(dir), compile = compilePairs(dir);
const checkRuns = check.quizc, compileRuns = compile.quizc;
const giftRuns = check.gift, giftProc = ok(runs("gift_process"));
const xmllintRuns = compile.xmllint;
// The banks of other shapes (run.sh's shapes; the first is the English-only bank).
const shapes = load("shapes.json").map((sh, k) => {
    const checks = ok(runs(`quizc_shape_${k}_check`)), compiles = ok(runs(`quizc_shape_${k}_compile`));
    return { ...sh, checks, compiles, rss: spread(checks.map((r) => (r.max_rss_kib * 1024) / sh.bytes)) };
});
const monoCheck = shapes[0].checks, monoCompile = shapes[0].compiles;
const seedRuns = ok(runs("quizc_seed"));
const seedFirst = existsSync(join(dir, "quizc_seed_first.json")) ? ok([load("quizc_seed_first.json")])[0] : null;
// Each pair's first quizc run, on memory the host may have to fault in again: seconds only.
const checkFirst = ok(runs("quizc_check_first")), compileFirst = ok(runs("quizc_compile_first"));
const checkFirstAfter = ok(runs("quizc_check_after_gift_first"));

const qzBytes = statSync(join(dir, "bank.qz")).size, monoBytes = statSync(join(dir, "mono.qz")).size;
const xmlBytes = existsSync(join(dir, "course.xml")) ? statSync(join(dir, "course.xml")).size : 0;
const checkVsGift = pairSpread(check.ratios);
const compileVsXmllint = pairSpread(compile.ratios);
const rssBank = checkRuns.map((r) => (r.max_rss_kib * 1024) / qzBytes);
const rssMono = monoCheck.map((r) => (r.max_rss_kib * 1024) / monoBytes);
const rssOver = shapes.reduce((w, sh) => (sh.rss.median > w.median ? sh.rss : w), spread(rssBank));
const seedMs = spread(seedRuns.map((r) => r.wall_s * 1e3));
const secs = (rs, k = "wall_s") => rs.map((r) => r[k]);
const kib = (rs) => max(rs.map((r) => r.max_rss_kib));

const labs = load("labs.json");
// Per size: the medians over the pairs of each side's busbw, and the spread of the pair ratios.
const ar = allreducePairs(dir);
const arVsMpi = pairSpread(ar.ratios);
const arRows = ar.perSize[0].map(({ bytes }) => {
    const at = ar.perSize.map((p) => p.find((x) => x.bytes === bytes)).filter(Boolean);
    return {
        bytes,
        threads_busbw_gbs: median(at.map((x) => x.threads)),
        mpi_busbw_gbs: median(at.map((x) => x.mpi)),
        ratio: spread(at.map((x) => x.ratio)),
    };
});
// The 64 MiB busbw over one thread's memcpy: in each pair's threads run, the
// median over its 64 MiB trials of each trial against the copy just before it
// (bench_labs): the machine's bandwidth drifts from second to second, more
// than either figure within one.
const ar64PerPair = ar.threads.flatMap((t) => {
    const at = t.allreduce_threads.sizes.find((x) => x.bytes === 64 << 20);
    return at && at.busbw_vs_memcpy ? [{ busbw: at.busbw_gbs, memcpy: at.memcpy_one_thread_gbs, ratio: at.busbw_vs_memcpy }] : [];
});
const ar64VsMemcpy = ar64PerPair.length ? spread(ar64PerPair.map((x) => x.ratio)) : null;

const ts = labs.tensor_split;
const splitVsOpenblas = pairSpread(ts.split_pairs.map((p) => p.openblas_s / p.split_s));
const web = existsSync(join(dir, "web.json")) ? load("web.json") : null;
const results = {
    quizc_check_vs_gift_pegjs: checkVsGift,
    quizc_compile_vs_xmllint_stream: compileVsXmllint,
    quizc_check_rss_over_source: rssOver,
    quizc_seed_scorm_ms: seedMs,
    tensor_split_vs_openblas: splitVsOpenblas,
    allreduce_vs_mpi: arVsMpi,
    allreduce_sizes: arRows,
    allreduce_64m_busbw_vs_memcpy: ar64VsMemcpy,
    quizc_check_rss_banks: [
        { name: "bilingual", options: "", bytes: qzBytes, check_rss_over_source: spread(rssBank),
          peak_rss_kib: { check: kib(checkRuns), compile: kib(compileRuns) } },
        ...shapes.map((sh) => ({ name: sh.name, options: sh.options, bytes: sh.bytes, check_rss_over_source: sh.rss,
                                 peak_rss_kib: { check: kib(sh.checks), compile: kib(sh.compiles) } })),
    ],
    schedule_overhead_us: labs.pipeline_zero_work.per_microbatch_per_stage_us,
    // The labs in headless chromium (bench/web.mjs): the web GEMM over one OpenBLAS
    // thread (the least shape's median ratio), and the slowest lab line that ran.
    web_gemm_vs_openblas_1thread: web ? web.gemm_vs_openblas_1thread : null,
    web_lab_line_max_s: web ? web.lab_line_max_s : null,
    raw: {
        machine,
        compiler: {
            questions: giftRuns[0].questions,
            qz_bytes: qzBytes,
            mono_qz_bytes: monoBytes,
            gift_bytes: giftRuns[0].bytes,
            course_xml_bytes: xmlBytes,
            // Seconds, in run order (pair i is the i-th of each list).
            quizc_check_s: secs(checkRuns),
            quizc_check_cpu_s: checkRuns.map((r) => r.user_s + r.sys_s),
            quizc_check_first_run_s: secs(checkFirst),
            quizc_check_first_after_gift_s: secs(checkFirstAfter),
            quizc_check_runs_per_pair: checkRuns.map((r) => r.runs),
            gift_pegjs_parse_s: secs(giftRuns, "parse_s"),
            gift_pegjs_parse_cpu_s: secs(giftRuns, "parse_cpu_s"),
            gift_pegjs_process_s: secs(giftProc),
            gift_pegjs_questions: giftRuns[0].questions,
            quizc_compile_s: secs(compileRuns),
            quizc_compile_runs_per_pair: compileRuns.map((r) => r.runs),
            quizc_compile_first_run_s: secs(compileFirst),
            xmllint_stream_s: secs(xmllintRuns),
            seed_scorm_s: secs(seedRuns),
            seed_scorm_first_run_s: seedFirst ? seedFirst.wall_s : null,
            // The same check ratio in CPU time, which other load disturbs less.
            check_vs_gift_cpu: spread(zip(checkRuns, giftRuns, (c, g) => g.parse_cpu_s / (c.user_s + c.sys_s))),
            check_rss_over_source_bilingual: spread(rssBank),
            check_rss_over_source_english_only: spread(rssMono),
            // What the compile adds on top of the check (the writer's buffers).
            peak_rss_kib: { check: kib(checkRuns), compile: kib(compileRuns),
                            mono_check: kib(monoCheck), mono_compile: kib(monoCompile),
                            gift_pegjs: kib(giftProc) },
            gift_pegjs_mb_per_s: giftRuns[0].bytes / median(secs(giftRuns, "parse_s")) / 1e6,
            quizc_check_mb_per_s: qzBytes / median(secs(checkRuns)) / 1e6,
        },
        memcpy: labs.memcpy,
        allreduce: { ranks: ar.threads[0].allreduce_threads.ranks, pairs: ar.perSize,
                     threads: ar.threads.map((t) => t.allreduce_threads), mpi: ar.mpi },
        tensor_split: ts,
        pipeline_zero_work: labs.pipeline_zero_work,
        pipeline_zero_work_p4: existsSync(join(dir, "labs_p4.json")) ? load("labs_p4.json").pipeline_zero_work : null,
        web,
        load_average: { start: machine.loadavg, end: loadEnd },
    },
};
writeFileSync(join(dir, "results.json"), JSON.stringify(results, null, 1) + "\n");

// ---- The table ------------------------------------------------------------
const f = (x, d = 2) => (x === null || x === undefined ? "n/a" : x.toFixed(d));
const sp = (x, d = 2) => `${f(x.median, d)} (${f(x.min, d)}-${f(x.max, d)})`;
const rc = results.raw.compiler;
const pairsText = (r) => `${r.n} pairs${r.steady ? "" : `, not steady (more than ${STEADY * 100} % apart)`}`;
const rows = [
    ["quizc_check_vs_gift_pegjs", sp(checkVsGift, 1), ">= 25", checkVsGift.median >= 25,
     `${pairsText(checkVsGift)}; gift-pegjs parse ${f(median(rc.gift_pegjs_parse_s))} s / quizc --check ` +
     `${f(median(rc.quizc_check_s), 3)} s (medians; quizc's the mean of ${rc.quizc_check_runs_per_pair[0]} runs around each parse, ` +
     `a side's first run ${f(median(rc.quizc_check_first_run_s), 3)} s before, ${f(median(rc.quizc_check_first_after_gift_s), 3)} s after)`],
    ["quizc_compile_vs_xmllint_stream", sp(compileVsXmllint), ">= 1", compileVsXmllint.median >= 1,
     `${pairsText(compileVsXmllint)}; xmllint --stream ${f(median(rc.xmllint_stream_s), 3)} s / quizc -o course.xml ` +
     `${f(median(rc.quizc_compile_s), 3)} s (medians; each the mean of ${rc.quizc_compile_runs_per_pair[0]} runs in turn, ` +
     `first run ${f(median(rc.quizc_compile_first_run_s), 3)} s); ` +
     `${(qzBytes / 1e6).toFixed(1)} MB .qz -> ${(xmlBytes / 1e6).toFixed(1)} MB`],
    ["quizc_check_rss_over_source", sp(rssOver), "<= 2", rssOver.median <= 2,
     `bilingual ${f(median(rssBank))}, ` + shapes.map((sh) => `${sh.name} ${f(sh.rss.median)}`).join(", ") +
     `; compile peak ${(rc.peak_rss_kib.compile / 1024).toFixed(0)} MiB vs check ${(rc.peak_rss_kib.check / 1024).toFixed(0)} MiB`],
    ["quizc_seed_scorm_ms", sp(seedMs, 1), "< 20", seedMs.median < 20,
     `${seedMs.n} runs, whole process, formulas from quizc's cache` +
     (seedFirst ? ` (the first run, which fills it: ${f(seedFirst.wall_s * 1e3, 0)} ms)` : "")],
    ["tensor_split_vs_openblas", sp(splitVsOpenblas), ">= 0.85", splitVsOpenblas.median >= 0.85,
     `${pairsText(splitVsOpenblas)}; ${f(ts.split_gflops, 1)} vs ${f(ts.openblas_gflops, 1)} GFLOP/s (medians), ` +
     `${ts.m}^3 fp32, ${ts.ranks} ranks`],
    ["allreduce_vs_mpi", sp(arVsMpi), ">= 1.0", arVsMpi.median >= 1.0,
     `${pairsText(arVsMpi)}; busbw GB/s threads/MPI (medians) ` +
     arRows.map((r) => `${r.bytes >= 1 << 20 ? `${r.bytes >> 20}M` : `${r.bytes >> 10}K`} ` +
                      `${f(r.threads_busbw_gbs, 1)}/${f(r.mpi_busbw_gbs, 1)}`).join(", ")],
    ["allreduce_64m_busbw_vs_memcpy", ar64VsMemcpy ? sp(ar64VsMemcpy) : "n/a", ">= 0.5",
     ar64VsMemcpy !== null && ar64VsMemcpy.median >= 0.5,
     ar64VsMemcpy ? `${ar64VsMemcpy.n} runs; 64 MiB busbw ${f(median(ar64PerPair.map((x) => x.busbw)), 1)} GB/s, ` +
                    `one thread's memcpy ${f(median(ar64PerPair.map((x) => x.memcpy)), 1)} GB/s ` +
                    "(medians of each run's best); each trial against the copy just before it" : "no 64 MiB all-reduce"],
    ["schedule_overhead_us", f(results.schedule_overhead_us), "<= 10", results.schedule_overhead_us <= 10,
     `zero-work gpipe p=${labs.pipeline_zero_work.stages} m=${labs.pipeline_zero_work.microbatches}`],
];
const w = [0, 0, 0, 0];
for (const r of rows)
    for (let i = 0; i < 3; i++)
        w[i] = Math.max(w[i], r[i].length);
const line = (r) => `${r[0].padEnd(w[0])}  ${r[1].padStart(w[1])}  ${r[2].padEnd(w[2])}  ${r[3]}  ${r[4]}`;
console.log(`\nmake bench on ${machine.nproc} cores, ${machine.cpu}, ${machine.date}` +
            ` (load average ${machine.loadavg} at the start, ${loadEnd} at the end)`);
console.log(line(["key", "value", "target", "met", "from"]));
for (const r of rows)
    console.log(line([r[0], r[1], r[2], r[3] ? "yes" : "NO ", r[4]]));
// The same table in Markdown, for doc/performance.md.
const md = [
    `| key | value | target | met | from |`,
    `|---|---:|---|---|---|`,
    ...rows.map((r) => `| \`${r[0]}\` | ${r[1]} | ${r[2].replace(">=", "≥").replace("<=", "≤")} | ${r[3] ? "yes" : "**no**"} | ${r[4]} |`),
];
writeFileSync(join(dir, "table.md"), md.join("\n") + "\n");
console.log(`\nwritten: ${join(dir, "results.json")}, ${join(dir, "table.md")}`);
