// pairs.mjs — the ratios of interleaved pairs (the compiler's, the all-reduce's), defined once for
// run.sh (which asks whether a ratio is steady yet) and report.mjs.
//
//   node bench/pairs.mjs DIR check|compile|allreduce   exit 0: steady, 1: take another pair
//
// A ratio's pairs are steady when, leaving out the lowest and the highest
// fifth of them (one of each at least), the rest lie within STEADY of their
// median.  Pairs come from DIR's raw figures as run.sh writes them:
//   check    gift_parse_I.json's parse_s / the mean wall time of
//            quizc_check_I_1..K.json, the runs around that parse
//   compile  the mean wall time of xmllint_stream_I_1..K.json / that of
//            quizc_compile_I_1..K.json, the two run in turn
//   allreduce the smallest, over the sizes both measured, of
//            allreduce_threads_I.json's busbw / allreduce_mpi_I.json's busbw
//            (bench_labs.c and bench_mpi_allreduce.c)
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const STEADY = 0.15;

export const median = (xs) => {
    const v = [...xs].sort((a, b) => a - b), n = v.length;
    return n % 2 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
};

const load = (dir, name) => JSON.parse(readFileSync(join(dir, name), "utf8"));

// DIR/prefix_1.json, prefix_2.json, ... as far as they go.
export const runs = (dir, prefix) => {
    const out = [];
    for (let i = 1; existsSync(join(dir, `${prefix}_${i}.json`)); i++)
        out.push(load(dir, `${prefix}_${i}.json`));
    return out;
};

export const ok = (rs) => {
    for (const r of rs)
        if (r.status !== 0)
            throw new Error(`a benchmarked process failed (exit ${r.status})`);
    return rs;
};

// Pair i's figure for one side: the mean of its runs prefix_i_1, prefix_i_2, ...
// (their peak RSS, the largest).  A parse of a quarter of a minute is one long sample of
// the host's speed; a mean over many short runs around it samples the same host
// (a middle of three runs took it at one moment, and moved with it).
export const meanOf = (dir, prefix) => {
    const out = [];
    for (let i = 1; existsSync(join(dir, `${prefix}_${i}_1.json`)); i++) {
        const rs = [];
        for (let k = 1; existsSync(join(dir, `${prefix}_${i}_${k}.json`)); k++)
            rs.push(load(dir, `${prefix}_${i}_${k}.json`));
        const mean = (key) => ok(rs).reduce((a, r) => a + r[key], 0) / rs.length;
        out.push({ wall_s: mean("wall_s"), user_s: mean("user_s"), sys_s: mean("sys_s"),
                   max_rss_kib: Math.max(...rs.map((r) => r.max_rss_kib)), status: 0, runs: rs.length });
    }
    return out;
};

// f of each pair: a[i] with b[i], as far as both go.
export const zip = (a, b, f) => a.slice(0, Math.min(a.length, b.length)).map((x, i) => f(x, b[i]));

// The figures behind each ratio, and the pair ratios themselves (in run order).
export const checkPairs = (dir) => {
    const quizc = meanOf(dir, "quizc_check"), gift = runs(dir, "gift_parse");
    return { quizc, gift, ratios: zip(quizc, gift, (c, g) => g.parse_s / c.wall_s) };
};
export const compilePairs = (dir) => {
    const quizc = meanOf(dir, "quizc_compile"), xmllint = meanOf(dir, "xmllint_stream");
    return { quizc, xmllint, ratios: zip(quizc, xmllint, (c, x) => x.wall_s / c.wall_s) };
};

// Each pair's threads/MPI busbw ratio at every size both measured, and the pair's
// figure, the smallest of them: the all-reduce must not lose at any size.
export const allreducePairs = (dir) => {
    const threads = runs(dir, "allreduce_threads"), mpi = runs(dir, "allreduce_mpi");
    const perSize = zip(threads, mpi, (t, m) => t.allreduce_threads.sizes.flatMap((ts) => {
        const ms = m.sizes.find((x) => x.bytes === ts.bytes);
        return ms ? [{ bytes: ts.bytes, threads: ts.busbw_gbs, mpi: ms.busbw_gbs, ratio: ts.busbw_gbs / ms.busbw_gbs }] : [];
    }));
    for (const p of perSize)
        if (!p.length)
            throw new Error("an all-reduce pair without a size both sides measured");
    return { threads, mpi, perSize, ratios: perSize.map((p) => Math.min(...p.map((x) => x.ratio))) };
};

export const steady = (ratios) => {
    const n = ratios.length;
    if (n < 3) return false;
    const cut = Math.max(1, Math.floor(n / 5));
    const kept = [...ratios].sort((a, b) => a - b).slice(cut, n - cut);
    const m = median(ratios);
    return Math.max(...kept) - Math.min(...kept) <= STEADY * m;
};

// {median, min, max, n} of a list of figures; with steady for a ratio's pairs.
export const spread = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs), n: xs.length });
export const pairSpread = (ratios) => ({ ...spread(ratios), steady: steady(ratios) });

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
    const [dir, which] = process.argv.slice(2);
    const get = { check: checkPairs, compile: compilePairs, allreduce: allreducePairs }[which];
    if (!dir || !get) {
        console.error("usage: node bench/pairs.mjs DIR check|compile|allreduce");
        process.exit(2);
    }
    process.exit(steady(get(dir).ratios) ? 0 : 1);
}
