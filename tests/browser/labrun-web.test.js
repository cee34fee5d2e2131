// labrun-web.test.js — the labs run in the quiz page (labrun-web.js, the
// WebAssembly module of mk/web.mk), taken in headless chromium: every lab line
// of both shipped quizzes, in a SCORM 1.2 and a 2004 package under scorm-again
// and in the file:// preview, against build/labrun on the same parameters and the same backend
// (coop: every rank a coroutine on one thread, timed figures replayed).
//
//   QUIZC_PACKAGES   the packages run.sh built (seed12, lanjut2004, ...)
//   LABRUN           build/labrun
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { launch, close } = require('./chromium');
const { serve, readQuizData } = require('./server');

const PKGS = process.env.QUIZC_PACKAGES;
const LABRUN = process.env.LABRUN;
/* The page's one backend (runtime/web/backend_web.c), and labrun's on it. */
const BACKEND = ['--backend', 'coop'];

let browser, srv;

before(async () => {
  assert.ok(PKGS && fs.existsSync(PKGS), 'QUIZC_PACKAGES names the built packages (run tests/browser/run.sh)');
  assert.ok(LABRUN && fs.existsSync(LABRUN), 'LABRUN names build/labrun');
  srv = await serve(PKGS);
  browser = await launch(['--allow-file-access-from-files']);
});

after(async () => {
  await close(browser, srv);
});

/* labrun's own report for a lab line in the page's language lang (its checks' words): its --json, parsed. */
const nativeRuns = new Map();
function nativeRun(lab, lang) {
  const args = [`labs/${lab.name}`, '--lang', lang];
  lab.args.forEach(([k, v]) => args.push(`--${k}=${v}`));
  const key = args.join(' ');
  if (!nativeRuns.has(key)) {
    const r = spawnSync(LABRUN, [...args, ...BACKEND, '--quiet', '--json', '-'], { encoding: 'utf8' });
    assert.ok(r.stdout, `${key}: labrun wrote no report: ${r.stderr}`);
    nativeRuns.set(key, JSON.parse(r.stdout));
  }
  return nativeRuns.get(key);
}

/* labrun --verify's verdicts: "q1|tp=1, pp=1" -> Map(metric -> PASS/FAIL). */
function verdicts(quiz) {
  const r = spawnSync(LABRUN, ['--verify', quiz, ...BACKEND], { encoding: 'utf8' });
  const out = new Map();
  for (const line of r.stdout.split('\n')) {
    const c = line.split(' | ').map((s) => s.trim());
    if (c.length !== 7 || !/^(PASS|FAIL)$/.test(c[6])) continue;
    const key = `${c[0]}|${c[2]}`;
    if (!out.has(key)) out.set(key, new Map());
    out.get(key).set(c[3], c[6]);
  }
  return out;
}

function paramsKey(lab) {
  return lab.args.length ? lab.args.map(([k, v]) => `${k}=${v}`).join(', ') : 'defaults';
}

/* A page that records every request leaving the package's origin (and stops it). */
async function guardedPage(allowed) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 900 });
  page.errors = [];
  page.outside = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.setRequestInterception(true);
  page.on('request', (req) => {
    const u = req.url();
    if (u.startsWith('data:') || u.startsWith('blob:') || allowed.some((a) => u.startsWith(a))) req.continue();
    else { page.outside.push(u); req.abort(); }
  });
  return page;
}

/* Run lab box `id` in frame with its fields as they are; the result: report (parsed) or errors. */
async function runBox(frame, id) {
  await frame.$eval(`#${id}`, (d) => { d.open = true; });
  await frame.click(`#${id}-start`);
  await frame.waitForFunction((i) => {
    const out = document.getElementById(`${i}-result`);
    return out && out.firstChild && !document.getElementById(`${i}-start`).disabled;
  }, { timeout: 120000 }, id);
  return frame.$eval(`#${id}-result`, (out) => {
    const json = out.querySelector('pre.web-json');
    const errs = out.querySelector('pre.web-errors');
    const claims = [...out.querySelectorAll('.web-claims li.claim')].map((li) =>
      [li.querySelector('.metric code').textContent, li.classList.contains('pass') ? 'PASS' : 'FAIL']);
    /* What the learner reads: the result less the raw JSON and the names set as code. */
    const shown = out.cloneNode(true);
    shown.querySelectorAll('pre.web-json, code').forEach((e) => e.remove());
    return { report: json ? JSON.parse(json.textContent) : null, errors: errs ? errs.textContent : '',
             machine: (out.querySelector('.measured-on') || {}).textContent || '', claims,
             shown: shown.textContent };
  });
}

/* Same figure: exact and modelled ones to 12 significant digits (two libms), the rest by the run's checks. */
function sameFigure(a, b) {
  if (a === null || b === null) return a === b;
  return Number(a).toPrecision(12) === Number(b).toPrecision(12);
}

function compare(lab, web, native, label) {
  const run = web.report;
  assert.equal(run.lab, lab.name, label);
  assert.equal(run.backend, native.backend, `${label}: the backend`);
  assert.equal(run.ranks, native.ranks, `${label}: the ranks`);
  assert.deepEqual(Object.keys(run.metrics).sort(), Object.keys(native.metrics).sort(), `${label}: the same metrics`);
  for (const [k, v] of Object.entries(native.metrics)) {
    assert.equal(run.basis[k], native.basis[k], `${label}: ${k}'s basis`);
    if (native.basis[k] === 'exact' || native.basis[k] === 'modelled') {
      assert.ok(sameFigure(run.metrics[k], v), `${label}: ${k} = ${run.metrics[k]} in the page, ${v} by labrun`);
    }
  }
  assert.deepEqual(run.checks.map((c) => c.name), native.checks.map((c) => c.name), `${label}: the same checks`);
  for (const c of run.checks) assert.ok(c.pass, `${label}: the lab's check "${c.name}" holds in the page: ${c.detail}`);
  assert.match(web.machine, /WebAssembly, 1 (thread|utas), \d{4}-\d\d-\d\d/, `${label}: the machine line`);
}

/* Whether a claim on a measured or replayed figure got another verdict in the page than theirs (labrun's). */
function timedMismatch(web, theirs) {
  if (!web.report) return false;
  const mine = new Map(web.claims);
  return [...theirs].some(([metric, verdict]) => mine.has(metric) && mine.get(metric) !== verdict &&
    ['measured', 'replayed'].includes(web.report.basis[metric]));
}

/* Every lab line of pkg's quiz, run in the page and compared. */
async function everyLine(version, pkg, quiz) {
  const data = readQuizData(path.join(PKGS, pkg, 'quiz-data.js'));
  assert.equal(data.liveLabs, true, `${pkg} carries the labs`);
  const want = verdicts(quiz);
  const page = await guardedPage([srv.base]);
  await page.goto(`${srv.base}/lms/${version}/${pkg}`, { waitUntil: 'load' });
  const frame = await (await page.$('#sco')).contentFrame();
  await frame.waitForSelector('section.question');
  /* The Run button waits for the feedback timing, as the rest of the box does. */
  assert.equal(await frame.$('.web-run'), null, 'no Run button before the answers are shown');
  await frame.click('#finish');
  await frame.waitForSelector('.web-run');
  /* The page passes its language to the module (--lang): the checks' words are labrun --lang's. */
  const lang = await frame.evaluate(() => document.documentElement.lang || 'en');
  let ran = 0;
  for (const q of data.questions) {
    for (let i = 0; i < q.labs.length; i++) {
      const lab = q.labs[i], id = `q-${q.id}-lab${i}-web`, label = `${pkg} ${q.id} ${lab.command}`;
      const native = nativeRun(lab, lang);
      const theirs = want.get(`${q.id}|${paramsKey(lab)}`) || new Map();
      let web = await runBox(frame, id);
      /*
       * A claim on a timed figure (measured or replayed in the page, by its
       * wall clock) can come out otherwise when other work takes the
       * worker's core mid-run: such a line runs again, three runs at most,
       * and one of them must agree; a figure of any other basis gets one run.
       */
      for (let runs = 1; runs < 3 && timedMismatch(web, theirs); runs++) {
        console.log(`${label}: a timed claim differs from labrun's in run ${runs}; running it again`);
        web = await runBox(frame, id);
      }
      assert.ok(web.report, `${label}: a report (${web.errors})`);
      compare(lab, web, native, label);
      if (lang === 'id') {
        assert.doesNotMatch(web.shown, /\d\.\d/, `${label}: every number the run shows has the decimal comma`);
      }
      const mine = new Map(web.claims);
      assert.equal(mine.size, lab.expects.length, `${label}: every claim checked`);
      for (const [metric, verdict] of theirs) {
        assert.ok(mine.has(metric), `${label}: ${metric} checked in the page`);
        assert.equal(mine.get(metric), verdict, `${label}: ${metric} = ${web.report.metrics[metric]} in the page, ` +
                     `${native.metrics[metric]} by labrun`);
      }
      ran++;
    }
  }
  assert.equal(ran, data.questions.reduce((n, q) => n + q.labs.length, 0), `${pkg}: every lab line ran`);
  assert.deepEqual(page.errors, [], 'no error in the page');
  assert.deepEqual(page.outside, [], 'no request leaves the package');
  await page.close();
  return ran;
}

test('every lab line of the seed quiz runs in a SCORM 1.2 package as labrun does', async () => {
  await everyLine('12', 'seed12', 'quizzes/paralelisme.qz');
});

test('every lab line of the follow-on quiz runs in a SCORM 2004 package as labrun does', async () => {
  await everyLine('2004', 'lanjut2004', 'quizzes/paralelisme-lanjut.qz');
});

test('in the file:// preview a lab runs, and a value out of range is refused with the manifest\'s words', async () => {
  const dir = path.resolve(PKGS, 'seed12');
  const page = await guardedPage([`file://${dir}/`]);
  await page.goto(`file://${dir}/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  await page.click('#finish');
  await page.waitForSelector('.web-run');
  const data = readQuizData(path.join(dir, 'quiz-data.js'));
  const q = data.questions.find((x) => x.labs.some((l) => l.name === 'memory'));
  const i = q.labs.findIndex((l) => l.name === 'memory');
  const id = `q-${q.id}-lab${i}-web`;
  const web = await runBox(page, id);
  const lang = await page.evaluate(() => document.documentElement.lang || 'en');
  compare(q.labs[i], web, nativeRun(q.labs[i], lang), 'file:// preview');
  /* tp = 99: labrun's message from the manifest's range. */
  const r = spawnSync(LABRUN, ['labs/memory', '--tp', '99'], { encoding: 'utf8' });
  const message = r.stderr.trim();
  assert.match(message, /out of range; allowed: 1\.\.16/);
  await page.$eval(`#${id}-p-tp`, (inp) => { inp.value = '99'; inp.dispatchEvent(new Event('input')); });
  const bad = await runBox(page, id);
  assert.equal(bad.report, null, 'no report for a refused run');
  assert.ok(bad.errors.includes(message), `the page says "${message}": ${bad.errors}`);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.outside, [], 'no request leaves the package');
  await page.close();
});

test('Stop ends a run at once, and every Run in the page reuses the one module it compiled', async () => {
  const dir = path.resolve(PKGS, 'seed12');
  const page = await guardedPage([`file://${dir}/`]);
  /* Count the page's compiles of WebAssembly (labrun-web.js compiles the module's bytes once). */
  await page.evaluateOnNewDocument(() => {
    const compile = WebAssembly.compile;
    window.wasmCompiles = 0;
    WebAssembly.compile = function (...a) { window.wasmCompiles++; return compile.apply(this, a); };
  });
  await page.goto(`file://${dir}/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  await page.click('#finish');
  await page.waitForSelector('.web-run');
  const data = readQuizData(path.join(dir, 'quiz-data.js'));
  const q = data.questions.find((x) => x.labs.some((l) => l.name === 'bubble'));
  const i = q.labs.findIndex((l) => l.name === 'bubble');
  const id = `q-${q.id}-lab${i}-web`;
  /* A run long enough to stop: the most steps the lab takes. */
  const steps = await page.$eval(`#${id}-p-steps`, (inp) => inp.value);
  await page.$eval(`#${id}-p-steps`, (inp) => { inp.value = '1000'; inp.dispatchEvent(new Event('input')); });
  await page.$eval(`#${id}`, (d) => { d.open = true; });
  await page.click(`#${id}-start`);
  await page.waitForFunction((b) => !document.getElementById(`${b}-stop`).disabled &&
    document.getElementById(`${b}-progress`).hasAttribute('value'), { timeout: 60000 }, id);
  const stopped = await page.evaluate((b) => {
    document.getElementById(`${b}-stop`).click();
    return { start: document.getElementById(`${b}-start`).disabled, stop: document.getElementById(`${b}-stop`).disabled,
             status: document.querySelector(`#${b} .web-status`).textContent,
             result: document.getElementById(`${b}-result`).childNodes.length };
  }, id);
  assert.deepEqual({ ...stopped, status: stopped.status.length > 0 }, { start: false, stop: true, status: true, result: 0 },
    'Stop ends the run in the same turn: Run enabled, a status, no result');
  /* The stopped worker answers nothing later. */
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await page.$eval(`#${id}-result`, (out) => out.childNodes.length), 0, 'no result after Stop');
  /* Run again at the quiz's values, then another lab's box: both from the one compiled module. */
  await page.$eval(`#${id}-p-steps`, (inp, v) => { inp.value = v; inp.dispatchEvent(new Event('input')); }, steps);
  const again = await runBox(page, id);
  assert.ok(again.report, `a run after Stop reports (${again.errors})`);
  const lang = await page.evaluate(() => document.documentElement.lang || 'en');
  compare(q.labs[i], again, nativeRun(q.labs[i], lang), 'after Stop');
  const mq = data.questions.find((x) => x.labs.some((l) => l.name === 'memory'));
  const mi = mq.labs.findIndex((l) => l.name === 'memory');
  const other = await runBox(page, `q-${mq.id}-lab${mi}-web`);
  compare(mq.labs[mi], other, nativeRun(mq.labs[mi], lang), 'another box');
  assert.equal(await page.evaluate(() => window.wasmCompiles), 1, 'the page compiled the module once');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.outside, [], 'no request leaves the package');
  await page.close();
});

test('quizc --no-live-labs leaves the module out, and the page has no Run button', async () => {
  const dir = path.resolve(PKGS, 'no-live-labs');
  fs.rmSync(dir, { recursive: true, force: true });
  execFileSync(process.env.QUIZC, ['quizzes/paralelisme.qz', '--no-live-labs', '--dir', dir]);
  assert.ok(!fs.existsSync(path.join(dir, 'labrun-module.js')));
  assert.ok(!fs.readFileSync(path.join(dir, 'imsmanifest.xml'), 'utf8').includes('labrun-module.js'));
  assert.equal(readQuizData(path.join(dir, 'quiz-data.js')).liveLabs, undefined);
  assert.ok(fs.readFileSync(path.join(PKGS, 'seed12', 'imsmanifest.xml'), 'utf8').includes('href="labrun-module.js"'),
    'a package with the module lists it');
  const page = await guardedPage([`file://${dir}/`]);
  await page.goto(`file://${dir}/index.html`, { waitUntil: 'load' });
  await page.waitForSelector('section.question');
  await page.click('#finish');
  await page.waitForSelector('.lab');
  assert.equal(await page.$('.web-run'), null, 'no Run button');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the module and its loader add at most 1 MiB to a compressed package', () => {
  const full = fs.readFileSync(path.join(PKGS, 'seed12', 'labrun-module.js'));
  const loader = fs.readFileSync(path.join(PKGS, 'seed12', 'labrun-web.js'));
  const zlib = require('node:zlib');
  const bytes = zlib.deflateRawSync(full, { level: 9 }).length + zlib.deflateRawSync(loader, { level: 9 }).length;
  assert.ok(bytes <= 1024 * 1024, `${bytes} bytes compressed`);
});
