// report.mjs — turn the figures bench/run.sh measured into results.json and
// a table.
//
//   node bench/report.mjs DIR      (reads DIR/*.json, writes DIR/results.json)
//
// Each headline key is defined here, once, from the raw figures, which are
// kept in results.json beside it:
//   quizc_vs_gift_pegjs        gift-pegjs parse() time inside node (start-up and
//                              file read not counted) / quizc --check as a whole
//                              process (start-up, read, parse, checks counted);
//                              best run of each
//   quizc_100k_seconds         quizc BANK -o course.xml, whole process, best run
//   quizc_peak_rss_over_source peak RSS of any quizc run / bytes of the .qz bank
//   tensor_split_vs_openblas   one OpenBLAS GEMM's time with N threads / the
//                              column-parallel GEMM + all-gather over N ranks
//   allreduce_vs_mpi           the smallest, over 1-64 MiB, of threads busbw /
//                              Open MPI busbw (its faster of in place and out of place)
//   bubble_abs_error           max |bubble_fraction - (p-1)/(m+p-1)| over
//                              p in {2,4}, m in {4,8,16}, gpipe and 1f1b
//   schedule_overhead_us       zero-work GPipe step / (m + p - 1): the time one
//                              micro-batch's forward and backward hand-offs on
//                              one stage add to the critical path
import { readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) {
    console.error("usage: node bench/report.mjs DIR");
    process.exit(2);
}
const load = (name) => JSON.parse(readFileSync(join(dir, name), "utf8"));
const runs = (prefix) => {
    const out = [];
    for (let i = 1; existsSync(join(dir, `${prefix}_${i}.json`)); i++)
        out.push(load(`${prefix}_${i}.json`));
    return out;
};
const min = (xs) => Math.min(...xs);
const max = (xs) => Math.max(...xs);

const machine = load("machine.json");
// Other work on the machine slows every figure; the load average says how much there was.
const loadEnd = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
const checkRuns = runs("quizc_check"), compileRuns = runs("quizc_compile");
const giftRuns = runs("gift_parse"), giftProc = runs("gift_process");
for (const r of [...checkRuns, ...compileRuns, ...giftProc])
    if (r.status !== 0)
        throw new Error(`a benchmarked process failed (exit ${r.status})`);

const qzBytes = statSync(join(dir, "bank.qz")).size;
const xmlBytes = existsSync(join(dir, "course.xml")) ? statSync(join(dir, "course.xml")).size : 0;
const check_s = min(checkRuns.map((r) => r.wall_s));
const compile_s = min(compileRuns.map((r) => r.wall_s));
const rss_kib = max([...checkRuns, ...compileRuns].map((r) => r.max_rss_kib));
const gift_parse_s = min(giftRuns.map((r) => r.parse_s));
const gift_process_s = min(giftProc.map((r) => r.wall_s));

const labs = load("labs.json");
const mpi = load("mpi.json");
const arRows = labs.allreduce_threads.sizes.map((t) => {
    const m = mpi.sizes.find((x) => x.bytes === t.bytes);
    return {
        bytes: t.bytes,
        threads_busbw_gbs: t.busbw_gbs,
        mpi_busbw_gbs: m.busbw_gbs,
        ratio: t.busbw_gbs / m.busbw_gbs,
    };
});

const bubble = [];
for (const sched of ["gpipe", "1f1b"])
    for (const p of [2, 4])
        for (const m of [4, 8, 16]) {
            const f = `bubble_${sched}_p${p}_m${m}.json`;
            if (!existsSync(join(dir, f)))
                continue;
            const r = load(f);
            const formula = (p - 1) / (m + p - 1);
            const measured = r.metrics.bubble_fraction;
            bubble.push({ schedule: sched, p, m, measured, formula, abs_error: Math.abs(measured - formula) });
        }

const ts = labs.tensor_split;
const results = {
    quizc_vs_gift_pegjs: gift_parse_s / check_s,
    quizc_100k_seconds: compile_s,
    quizc_peak_rss_over_source: (rss_kib * 1024) / qzBytes,
    tensor_split_vs_openblas: ts.openblas_s / ts.split_s,
    allreduce_vs_mpi: min(arRows.map((r) => r.ratio)),
    bubble_abs_error: bubble.length ? max(bubble.map((b) => b.abs_error)) : null,
    schedule_overhead_us: labs.pipeline_zero_work.per_microbatch_per_stage_us,
    raw: {
        machine,
        compiler: {
            questions: 100000,
            qz_bytes: qzBytes,
            gift_bytes: giftRuns[0].bytes,
            course_xml_bytes: xmlBytes,
            quizc_check_s: check_s,
            quizc_check_cpu_s: min(checkRuns.map((r) => r.user_s + r.sys_s)),
            quizc_check_runs_s: checkRuns.map((r) => r.wall_s),
            quizc_compile_s: compile_s,
            quizc_compile_cpu_s: min(compileRuns.map((r) => r.user_s + r.sys_s)),
            quizc_compile_runs_s: compileRuns.map((r) => r.wall_s),
            quizc_peak_rss_kib: rss_kib,
            gift_pegjs_parse_s: gift_parse_s,
            gift_pegjs_parse_runs_s: giftRuns.map((r) => r.parse_s),
            gift_pegjs_process_s: gift_process_s,
            gift_pegjs_parse_cpu_s: min(giftRuns.map((r) => r.parse_cpu_s)),
            // The same ratio in CPU time, which other load on the machine disturbs less.
            cpu_ratio: min(giftRuns.map((r) => r.parse_cpu_s)) / min(checkRuns.map((r) => r.user_s + r.sys_s)),
            gift_pegjs_peak_rss_kib: max(giftProc.map((r) => r.max_rss_kib)),
            gift_pegjs_questions: giftRuns[0].questions,
            process_vs_process: gift_process_s / check_s,
            // The GIFT file is larger (Moodle's multilang spans), so throughput too.
            gift_pegjs_mb_per_s: giftRuns[0].bytes / gift_parse_s / 1e6,
            quizc_check_mb_per_s: qzBytes / check_s / 1e6,
        },
        memcpy: labs.memcpy,
        allreduce: { ranks: labs.allreduce_threads.ranks, sizes: arRows,
                     threads: labs.allreduce_threads, mpi },
        tensor_split: ts,
        bubble,
        pipeline_zero_work: labs.pipeline_zero_work,
        pipeline_zero_work_p4: existsSync(join(dir, "labs_p4.json")) ? load("labs_p4.json").pipeline_zero_work : null,
        load_average: { start: machine.loadavg, end: loadEnd },
    },
};
writeFileSync(join(dir, "results.json"), JSON.stringify(results, null, 1) + "\n");

// ---- The table ------------------------------------------------------------
const f = (x, d = 2) => (x === null || x === undefined ? "n/a" : x.toFixed(d));
const rows = [
    ["quizc_vs_gift_pegjs", f(results.quizc_vs_gift_pegjs, 1), ">= 10", results.quizc_vs_gift_pegjs >= 10,
     `gift-pegjs parse ${f(gift_parse_s)} s (process ${f(gift_process_s)} s) / quizc --check ${f(check_s, 3)} s` +
     ` (CPU: ${f(results.raw.compiler.gift_pegjs_parse_cpu_s)} s / ${f(results.raw.compiler.quizc_check_cpu_s)} s)`],
    ["quizc_100k_seconds", f(results.quizc_100k_seconds, 3), "<= 2", results.quizc_100k_seconds <= 2,
     `${(qzBytes / 1e6).toFixed(1)} MB .qz -> ${(xmlBytes / 1e6).toFixed(1)} MB course.xml` +
     ` (CPU ${f(results.raw.compiler.quizc_compile_cpu_s)} s)`],
    ["quizc_peak_rss_over_source", f(results.quizc_peak_rss_over_source), "<= 10",
     results.quizc_peak_rss_over_source <= 10, `peak RSS ${(rss_kib / 1024).toFixed(0)} MiB`],
    ["tensor_split_vs_openblas", f(results.tensor_split_vs_openblas), ">= 0.85",
     results.tensor_split_vs_openblas >= 0.85,
     `${f(ts.split_gflops, 1)} vs ${f(ts.openblas_gflops, 1)} GFLOP/s, ${ts.m}^3 fp32, ${ts.ranks} ranks`],
    ["allreduce_vs_mpi", f(results.allreduce_vs_mpi), ">= 1.0", results.allreduce_vs_mpi >= 1.0,
     arRows.map((r) => `${r.bytes >> 20}M ${f(r.threads_busbw_gbs, 1)}/${f(r.mpi_busbw_gbs, 1)}`).join(", ") +
     ` GB/s; memcpy ${f(labs.memcpy.one_thread_gbs, 1)} GB/s`],
    ["bubble_abs_error", f(results.bubble_abs_error, 4), "<= 0.02",
     results.bubble_abs_error !== null && results.bubble_abs_error <= 0.02, `${bubble.length} runs`],
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
