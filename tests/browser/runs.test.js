// runs.test.js — recorded lab runs (labrun --verify --record, quizc --runs) in
// the player, and the learner's own labrun --json checked in the page, in
// headless chromium with scorm-again as the LMS, for SCORM 1.2 and 2004.
//
//   QUIZC_PACKAGES  runs-{immediate,on-submit,never}-{12,2004}: tests/scorm/data/runs.qz
//                   under each feedback timing, packed with QUIZC_RUNS/runs.json
//   QUIZC_RUNS      runs.json, own.json (bubble as b1 asks), own-stages2.json,
//                   own-tensor.json (written by run.sh with the build's labrun)
//   QUIZC           the quizc that packed them (for the hostile and byte-identity checks)
//   QUIZC_ARTIFACTS where the screenshots go
'use strict';

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { launch, close } = require('./chromium');
const { serve, ownScripts } = require('./server');

const PKGS = process.env.QUIZC_PACKAGES;
const RUNS = process.env.QUIZC_RUNS;
const QUIZC = process.env.QUIZC || 'build/quizc';
const ARTIFACTS = process.env.QUIZC_ARTIFACTS;
const QUIZ = 'tests/scorm/data/runs.qz';

let browser, srv, tmp;

before(async () => {
  assert.ok(RUNS && fs.existsSync(path.join(RUNS, 'runs.json')), 'QUIZC_RUNS holds runs.json (run tests/browser/run.sh)');
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'runs-test-'));
  srv = await serve(PKGS);
  browser = await launch(['--allow-file-access-from-files']);
});

after(async () => {
  await close(browser, srv);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function quizc(...args) {
  return spawnSync(QUIZC, args, { encoding: 'utf8' });
}

async function open(url) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1000, height: 900 });
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.requests = [];
  page.on('request', (r) => page.requests.push(r.url()));
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

async function inLms(version, pkg) {
  const page = await open(`${srv.base}/lms/${version}/${pkg}`);
  const frame = await (await page.$('#sco')).contentFrame();
  await frame.waitForSelector('section.question');
  return { page, frame };
}

const runShown = (frame, q) => frame.$(`#q-${q}-lab0-run`);

for (const version of ['12', '2004']) {
  test(`SCORM ${version}, feedback immediate: each question's recorded run appears once it is answered`, async () => {
    const { page, frame } = await inLms(version, `runs-immediate-${version}`);
    assert.equal(await runShown(frame, 'b1'), null, 'not before answering');
    assert.equal(await runShown(frame, 'b2'), null);
    await frame.type('#q-b1-input', '0.2727');
    await frame.click('#q-b1-check');
    await frame.waitForSelector('#q-b1-lab0-run');
    assert.equal(await runShown(frame, 'b2'), null, 'b2 is not answered yet');
    const text = await frame.$eval('#q-b1-lab0-run', (e) => e.textContent);
    assert.match(text, /^Diukur pada \d+ inti .*, \d{4}-\d\d-\d\d/, 'machine and date, in Indonesian');
    const rows = await frame.$$eval('#q-b1-lab0-run li.claim', (es) => es.map((e) => e.textContent));
    assert.equal(rows.length, 2, 'one row per claim');
    assert.match(rows[0], /^LULUS [^(]*\(bubble_formula\) .*= 0,2727 \(dimodelkan\)/);
    assert.match(rows[1], /^LULUS [^(]*\(bubble_fraction\) .*\(diputar ulang dari biaya terukur\)/);
    const src = await frame.$eval('#q-b1-lab0-run img.timeline', (e) => e.getAttribute('src'));
    assert.ok(src.startsWith('data:image/svg+xml;'), 'the timeline is an image of a data: URL');
    assert.equal(await frame.$eval('#q-b1-lab0-run img.timeline', (e) => e.naturalWidth > 0), true, 'and it renders');
    // The run's notes and timeline in the learner's language: labrun --record wrote them in both.
    const words = () => frame.$eval('#q-b1-lab0-run', (e) => ({
      notes: [...e.querySelectorAll('details.notes p:not(.backend)')].map((p) => ({ text: p.textContent, lang: p.lang })),
      svg: decodeURIComponent(e.querySelector('img.timeline').getAttribute('src').replace(/^[^,]*,/, '')),
    }));
    const id = await words();
    assert.ok(id.notes.length >= 2, 'the bubble lab writes notes');
    assert.match(id.notes[0].text, /^gelembung = menganggur \/ \(p x langkah\)/, 'the notes in Indonesian');
    assert.ok(id.notes.every((n) => n.lang === '' && !/\d\.\d/.test(n.text)), 'with the decimal comma, in the page\'s language');
    assert.match(id.svg, />tahap 1</, 'the timeline in Indonesian');
    assert.doesNotMatch(id.svg, />(stage 1|forward|backward|idle)</);
    await frame.click('#lang-en');
    const en = await words();
    assert.equal(en.notes.length, id.notes.length);
    assert.match(en.notes[0].text, /^bubble = idle \/ \(p x step\)/, 'the same run in English');
    assert.match(en.svg, />stage 1</);
    assert.doesNotMatch(en.svg, />tahap 1</);
    assert.match(await frame.$eval('#q-b1-lab0-run .measured-on', (e) => e.textContent), /^Measured on \d+ cores of /);
    assert.match(await frame.$eval('#q-b1-lab0-run li.claim', (e) => e.textContent), /^PASS [^(]*\(bubble_formula\) .*= 0\.2727 \(modelled\) — within 0\.001 of/);
    await frame.click('#q-b2-a');
    await frame.click('#q-b2-check');
    assert.match(await frame.$eval('#q-b2-lab0-run li.claim', (e) => e.textContent), /^PASS [^(]*\(max_rel_error\) .*\(measured\)/);
    assert.equal(await frame.$('#q-b2-lab0-run img.timeline') !== null, true, 'tensor-split draws a timeline too');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`SCORM ${version}, feedback on-submit: recorded runs appear only after submission`, async () => {
    const { page, frame } = await inLms(version, `runs-on-submit-${version}`);
    await frame.type('#q-b1-input', '0.2727');
    await frame.click('#q-b2-a');
    assert.equal(await frame.$('.check'), null, 'no per-question check');
    assert.equal(await runShown(frame, 'b1'), null, 'answered, not submitted: no run');
    await frame.click('#finish');
    await frame.waitForSelector('#result .score');
    assert.ok(await runShown(frame, 'b1'));
    assert.ok(await runShown(frame, 'b2'));
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`SCORM ${version}, feedback never: recorded runs are never shown`, async () => {
    const { page, frame } = await inLms(version, `runs-never-${version}`);
    await frame.type('#q-b1-input', '0.2727');
    await frame.click('#finish');
    await frame.waitForSelector('#result .score');
    assert.equal(await frame.$('.recorded'), null);
    const text = await frame.evaluate(() => document.body.textContent);
    assert.ok(!text.includes('Diukur pada') && !text.includes('LULUS'));
    // Nor the claims, which state the answer, nor a check of the learner's own run against them.
    assert.equal(await frame.$('#q-b1 .lab li'), null);
    assert.equal(await frame.$('#q-b1-lab0-own'), null);
    assert.ok(await frame.$('#q-b1 .lab pre.command'), 'the command stays');
    await page.close();
  });
}

/* Paste text into b1's own-run area and check it; returns the result's text. */
async function paste(page, text) {
  await page.$eval('#q-b1-lab0-own', (e) => { e.open = true; });
  await page.$eval('#q-b1-lab0-own-paste', (e, t) => { e.value = t; }, text);
  await page.click('#q-b1-lab0-own-check');
  return page.$eval('#q-b1-lab0-own-result', (e) => e.textContent);
}

test("the learner's own run: passing, failing, another lab, other values, not a report; nothing is sent", async () => {
  const page = await open(`${srv.base}/pkg/runs-on-submit-12/index.html`);
  await page.waitForSelector('section.question');
  // Not before the answers may be shown: a run checked against the claims would give the answer away.
  assert.equal(await page.$('#q-b1-lab0-own'), null);
  await page.type('#q-b1-input', '0.2727');
  await page.click('#finish');
  await page.waitForSelector('#q-b1-lab0-own');
  const own = fs.readFileSync(path.join(RUNS, 'own.json'), 'utf8');
  // The report file, through the file picker.
  await page.click('#q-b1-lab0-own summary');
  const input = await page.$('#q-b1-lab0-own-file');
  await input.uploadFile(path.join(RUNS, 'own.json'));
  await page.waitForSelector('#q-b1-lab0-own-result li');
  let out = await page.$eval('#q-b1-lab0-own-result', (e) => e.textContent);
  assert.match(out, /^Run Anda membuktikan 2 dari 2 klaim\./);
  // Pasted, with a figure that does not bear out `bubble_fraction < 0.5`.
  const failing = JSON.parse(own);
  failing.metrics.bubble_fraction = 0.9;
  out = await paste(page, JSON.stringify(failing));
  assert.match(out, /^Run Anda membuktikan 1 dari 2 klaim\./);
  const rows = await page.$$eval('#q-b1-lab0-own-result li', (es) => es.map((e) => e.className + ': ' + e.textContent));
  assert.match(rows[0], /^claim pass: LULUS [^(]*\(bubble_formula\) .*\(dimodelkan\)/, 'the run says how each figure was obtained');
  assert.match(rows[1], /^claim fail: GAGAL [^(]*\(bubble_fraction\) .*= 0,9 /);
  // A run whose own checks failed bears out nothing, as labrun --verify has it.
  const broken = JSON.parse(own);
  broken.checks[0].pass = false;
  out = await paste(page, JSON.stringify(broken));
  assert.match(out, /Run Anda membuktikan 0 dari 2 klaim\..*1 pemeriksaan lab sendiri gagal/);
  // Other values, and another lab, told apart.
  await page.click('#lang-en');
  out = await paste(page, fs.readFileSync(path.join(RUNS, 'own-stages2.json'), 'utf8'));
  assert.equal(out, 'This run is labs/bubble with stages=2; the question asks for stages=4.');
  out = await paste(page, fs.readFileSync(path.join(RUNS, 'own-tensor.json'), 'utf8'));
  assert.equal(out, 'This run is labs/tensor-split; the question asks for labs/bubble.');
  out = await paste(page, 'labrun: error: no lab');
  assert.match(out, /^This is not JSON/);
  out = await paste(page, '{"lab": "bubble"}');
  assert.match(out, /^This JSON is not a labrun report/);
  // Kept across a re-render (a language switch).
  await page.click('#lang-id');
  assert.match(await page.$eval('#q-b1-lab0-own-result', (e) => e.textContent), /^JSON ini bukan laporan labrun/);
  const base = `${srv.base}/pkg/runs-on-submit-12/`;
  // The recorded run's timelines are data: URLs, drawn from the page itself; nothing else leaves the package.
  assert.deepEqual(page.requests.filter((u) => !u.startsWith(base) && !u.startsWith('data:')), [], 'nothing but the package is fetched');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('the package with recorded runs is byte-identical from run to run, and its course.xml is valid', () => {
  for (const scorm of ['1.2', '2004']) {
    const a = path.join(tmp, `a-${scorm}.zip`), b = path.join(tmp, `b-${scorm}.zip`);
    for (const out of [a, b]) {
      const r = quizc(QUIZ, '--runs', path.join(RUNS, 'runs.json'), '--scorm', scorm, '-o', out);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, '', 'no warning: the runs were recorded with these labs');
    }
    assert.ok(fs.readFileSync(a).equals(fs.readFileSync(b)), `SCORM ${scorm}: the same bytes`);
  }
  const xml = path.join(tmp, 'course.xml');
  assert.equal(quizc(QUIZ, '--runs', path.join(RUNS, 'runs.json'), '-o', xml).status, 0);
  assert.equal(spawnSync('xmllint', ['--noout', '--schema', 'compiler/course.xsd', xml]).status, 0, 'valid course.xml');
  assert.equal((fs.readFileSync(xml, 'utf8').match(/<run /g) || []).length, 2, 'both lab references carry their run');
});

/* A runs file of ours, changed by fn. */
function runsWith(fn) {
  const r = JSON.parse(fs.readFileSync(path.join(RUNS, 'runs.json'), 'utf8'));
  fn(r);
  return r;
}

test('a run recorded with another version of the lab is packed, with a warning', () => {
  const f = path.join(tmp, 'stale.json');
  fs.writeFileSync(f, JSON.stringify(runsWith((r) => { r.runs[0].hash = 'fnv1a64:0000000000000000'; })));
  const r = quizc(QUIZ, '--runs', f, '-o', path.join(tmp, 'stale.zip'));
  assert.equal(r.status, 0);
  assert.match(r.stderr, /runs\.qz:\d+:\d+: warning: the run of lab '\w[\w-]*' in .*stale\.json was recorded with another version of the lab/);
  assert.ok(fs.existsSync(path.join(tmp, 'stale.zip')));
});

test('what is not a runs file is refused with the reason, and nothing is written', () => {
  const cases = [
    ['course.xml', fs.readFileSync('compiler/course.xsd'), /^\S+course\.xml:1:1: error: not a runs file: /],
    ['report.json', fs.readFileSync(path.join(RUNS, 'own.json')), /report\.json: error: not a runs file: it has no "format": "labrun-runs"/],
    ['v2.json', JSON.stringify(runsWith((r) => { r.version = 2; })), /v2\.json: error: runs file version 2; this quizc reads version 1/],
    ['basis.json', JSON.stringify(runsWith((r) => { r.runs[0].metrics[0].basis = 'guessed'; })),
      /basis\.json: error: runs\[0\]\.metrics\[0\]: "basis" is measured, replayed, modelled or exact, not "guessed"/],
    ['overflow.json', '{"format": "labrun-runs", "version": 1, "runs": [], "x": 1e400}', /overflow\.json:1:\d+: error: not a runs file: real number overflow/],
    ['control.json', JSON.stringify(runsWith((r) => { r.runs[0].notes = ['bell \u0007']; })), /runs\[0\]\.notes\[0\]: "note" holds a control character/],
  ];
  for (const [name, body, want] of cases) {
    const f = path.join(tmp, name), out = path.join(tmp, name + '.zip');
    fs.writeFileSync(f, body);
    const r = quizc(QUIZ, '--runs', f, '-o', out);
    assert.equal(r.status, 1, name);
    assert.match(r.stderr, want, name);
    assert.ok(!fs.existsSync(out), `${name}: no output`);
  }
});

test('a 50 MB runs file is refused unread', () => {
  const f = path.join(tmp, 'huge.json');
  const fd = fs.openSync(f, 'w');
  fs.writeSync(fd, '{"format": "labrun-runs", "version": 1, "runs": [], "pad": "');
  const chunk = Buffer.alloc(1 << 20, 'x');
  for (let i = 0; i < 50; i++) fs.writeSync(fd, chunk);
  fs.writeSync(fd, '"}');
  fs.closeSync(fd);
  const out = path.join(tmp, 'huge.zip');
  const r = quizc(QUIZ, '--runs', f, '-o', out);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /huge\.json: error: the runs file is 52428\d+ bytes; quizc reads at most 8 MiB of recorded runs/);
  assert.ok(!fs.existsSync(out));
  fs.rmSync(f);
});

test('a hostile runs file stays inert: script in names, notes and the timeline, huge numbers', async () => {
  const evil = (k) => `<img src=x onerror="window.__pwned='${k}'"><script>window.__pwned='${k}'</script>`;
  const hostile = runsWith((r) => {
    for (const run of r.runs) {
      run.machine = { cpu: evil('cpu'), cores: 1000000, gpu: evil('gpu'), gpus: 8, driver: evil('driver'), nccl: '2' };
      run.metrics.push({ name: evil('metric'), value: 1.7976931348623157e308, basis: 'measured' });
      run.metrics[0].value = 1.7976931348623157e308;
      run.notes.push(evil('note'));
      run.checks.push({ name: evil('check'), pass: true, detail: evil('detail') });
      run.svg = `<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned='svg'" width="10" height="10">` +
        `<script>window.__pwned='svgscript'</script><image href="http://127.0.0.1:9/leak"/></svg>`;
      for (const w of Object.values(run.words || {})) {
        w.notes.push(evil('note'));
        w.checks.push({ name: evil('check'), detail: evil('detail') });
        w.svg = run.svg;
      }
    }
  });
  const f = path.join(tmp, 'hostile.json');
  fs.writeFileSync(f, JSON.stringify(hostile));
  const dir = path.join(PKGS, 'runs-hostile');
  const r = quizc('-L', 'tests/data/labs', QUIZ, '--runs', f, '--dir', dir);
  assert.equal(r.status, 0, r.stderr);
  const xml = path.join(tmp, 'hostile.xml');
  assert.equal(quizc(QUIZ, '--runs', f, '-o', xml).status, 0);
  assert.equal(spawnSync('xmllint', ['--noout', '--schema', 'compiler/course.xsd', xml]).status, 0, 'still valid XML');
  const page = await open(`${srv.base}/pkg/runs-hostile/index.html`);
  await page.waitForSelector('section.question');
  await page.type('#q-b1-input', '0.2727');
  await page.click('#q-b1-check');
  await page.waitForSelector('#q-b1-lab0-run');
  await page.click('#q-b1-lab0-run details summary');
  const text = await page.$eval('#q-b1-lab0-run', (e) => e.textContent);
  assert.ok(text.includes(`8 \u00d7 ${evil('gpu')}`), 'the GPU name is shown as text');
  assert.ok(text.includes(evil('note')), 'so is the note');
  assert.match(text, /GAGAL [^(]*\(bubble_fraction\) .*= 1,798e\+308/, 'the largest double is a figure like any other');
  await new Promise((res) => setTimeout(res, 300));  // let any image error or load handler have its chance
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.evaluate(() => document.querySelectorAll('script').length), ownScripts(path.join(PKGS, 'runs-hostile')),
               "the package's own scripts only");
  assert.equal(await page.evaluate(() => document.querySelectorAll('#app img:not(.timeline), #app svg').length), 0);
  assert.ok(!page.requests.some((u) => u.includes(':9/leak') || u.endsWith('/x')), 'nothing fetched for the run');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a run without words in the learner\'s language shows its own, marked as that language, and quizc says so', async () => {
  const f = path.join(tmp, 'english-only.json');
  fs.writeFileSync(f, JSON.stringify(runsWith((r) => { for (const run of r.runs) delete run.words; })));
  const dir = path.join(PKGS, 'runs-english-only');
  const r = quizc(QUIZ, '--runs', f, '--dir', dir);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /warning: the runs in .*english-only\.json have their notes and timelines in 'en' only, not in 'id' \(the first is lab 'bubble' at line \d+\): learners reading 'id' see them in 'en'/);
  const page = await open(`${srv.base}/pkg/runs-english-only/index.html`);
  await page.waitForSelector('section.question');
  await page.type('#q-b1-input', '0.2727');
  await page.click('#q-b1-check');
  await page.waitForSelector('#q-b1-lab0-run');
  const notes = await page.$$eval('#q-b1-lab0-run details.notes p:not(.backend)', (es) => es.map((p) => [p.lang, p.textContent]));
  assert.ok(notes.length >= 2);
  assert.match(notes[0][1], /^bubble = idle \/ \(p x step\)/);
  assert.ok(notes.every(([lang, text]) => lang === 'en' && !/\d,\d/.test(text)), 'English, with its decimal point, marked lang="en"');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a GPU run names its GPUs, and the learner\'s check works opened from disk (offline)', async () => {
  const f = path.join(tmp, 'gpu.json');
  fs.writeFileSync(f, JSON.stringify(runsWith((r) => {
    for (const run of r.runs) {
      run.backend = 'cuda';
      run.date = '2027-01-12T09:30:00Z';
      run.machine = { cpu: 'AMD EPYC 9654', cores: 16, gpu: 'NVIDIA H200', gpus: 8, driver: '13.0', nccl: '2.27.7' };
    }
  })));
  const dir = path.join(PKGS, 'runs-gpu');
  assert.equal(quizc(QUIZ, '--runs', f, '--dir', dir).status, 0);
  const page = await open('file://' + path.resolve(dir, 'index.html'));
  await page.waitForSelector('section.question');
  await page.type('#q-b1-input', '0.2727');
  await page.click('#q-b1-check');
  assert.equal(await page.$eval('#q-b1-lab0-run .measured-on', (e) => e.textContent), 'Diukur pada 8 \u00d7 NVIDIA H200, 2027-01-12');
  await page.click('#lang-en');
  assert.equal(await page.$eval('#q-b1-lab0-run .measured-on', (e) => e.textContent), 'Measured on 8 \u00d7 NVIDIA H200, 2027-01-12');
  assert.match(await paste(page, fs.readFileSync(path.join(RUNS, 'own.json'), 'utf8')), /^Your run bears out 2 of 2 claims\./);
  assert.ok(page.requests.every((u) => u.startsWith('file://') || u.startsWith('data:image/svg+xml')), 'nothing but the package and its timeline image');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('screenshots of a question with its recorded run, in both languages', async () => {
  const page = await open(`${srv.base}/pkg/runs-immediate-12/index.html`);
  await page.waitForSelector('section.question');
  await page.type('#q-b1-input', '0.2727');
  await page.click('#q-b1-check');
  await page.waitForSelector('#q-b1-lab0-run img.timeline');
  await page.waitForFunction(() => document.querySelector('#q-b1-lab0-run img.timeline').complete);
  const q = await page.$('#q-b1');
  await q.screenshot({ path: path.join(ARTIFACTS, 'recorded-run-id.png') });
  await page.click('#lang-en');
  await page.waitForFunction(() => document.querySelector('#q-b1-lab0-run img.timeline').complete);
  await (await page.$('#q-b1')).screenshot({ path: path.join(ARTIFACTS, 'recorded-run-en.png') });
  await page.close();
});

test("a learner's report with odd names or values of the wrong type gets a clear message, never an exception", async () => {
  const page = await open(`${srv.base}/pkg/runs-on-submit-12/index.html`);
  page.on('console', (m) => { if (m.type() === 'error' && !/\/favicon\.ico$/.test(m.location().url || '')) page.errors.push(m.text()); });
  await page.waitForSelector('section.question');
  // The own-run check comes with the answers: submit first.
  await page.type('#q-b1-input', '0.2727');
  await page.click('#finish');
  await page.waitForSelector('#q-b1-lab0-own');
  await page.click('#lang-en');
  const ownText = fs.readFileSync(path.join(RUNS, 'own.json'), 'utf8');
  const own = JSON.parse(ownText);
  const withOwn = (fn) => { const r = JSON.parse(ownText); fn(r); return JSON.stringify(r); };
  // Keys spliced in as text: an object literal would make "__proto__" a prototype, not a key.
  const spliced = (where, keys) => JSON.stringify(own).replace(`"${where}":{`, `"${where}":{${keys},`);
  const NOT_RUN = 'This JSON is not a labrun report (it has no lab, params and metrics).';
  const NOTHING = 'There is nothing to check: give the output of labrun --json.';
  const cases = [
    ['', NOTHING],
    [' \n\t', NOTHING],
    ['{"lab": "bubble", ', /^This is not JSON: give the output of labrun --json\.$/],
    ['[' .repeat(200000), /^This is not JSON/],
    ['[1, 2]', NOT_RUN],
    [`[${ownText}]`, NOT_RUN],
    ['null', NOT_RUN],
    ['"bubble"', NOT_RUN],
    ['1e400', NOT_RUN],
    ['{"__proto__": {"lab": "bubble", "params": {}, "metrics": {}}}', NOT_RUN],
    [withOwn((r) => { r.params = []; }), NOT_RUN],
    [withOwn((r) => { r.metrics = null; }), NOT_RUN],
    [withOwn((r) => { r.lab = 42; }), NOT_RUN],
    [withOwn((r) => { r.lab = '__proto__'; }), 'This run is labs/__proto__; the question asks for labs/bubble.'],
    [spliced('metrics', '"__proto__":1,"constructor":{"x":1},"toString":"x","hasOwnProperty":[]'), /^Your run bears out 2 of 2 claims\./],
    [spliced('params', '"__proto__":{"stages":2},"constructor":1'), /^Your run bears out 2 of 2 claims\./],
    [spliced('', '"__proto__":{"lab":"x"},"constructor":null,"toString":1').replace('"":{', ''), /^Your run bears out 2 of 2 claims\./],
    [withOwn((r) => { r.params.stages = '4'; }), 'This run is labs/bubble with stages="4"; the question asks for stages=4.'],
    [withOwn((r) => { r.params.stages = ' 4garbage'; }), 'This run is labs/bubble with stages=" 4garbage"; the question asks for stages=4.'],
    [withOwn((r) => { r.params.stages = { toString: 1, valueOf: 2 }; }),
      'This run is labs/bubble with stages={"toString":1,"valueOf":2}; the question asks for stages=4.'],
    [withOwn((r) => { r.params.stages = [4]; }), 'This run is labs/bubble with stages=[4]; the question asks for stages=4.'],
    [withOwn((r) => { r.params.stages = null; }), 'This run is labs/bubble with stages=null; the question asks for stages=4.'],
    [withOwn((r) => { delete r.params.stages; }), 'This run is labs/bubble with stages=?; the question asks for stages=4.'],
    [JSON.stringify(own).replace('"stages":4', '"stages":4e400'), 'This run is labs/bubble with stages=Infinity; the question asks for stages=4.'],
    [JSON.stringify(own).replace('"stages":4', '"stages":' + '['.repeat(20000) + ']'.repeat(20000)), /^This run is labs\/bubble with stages=\[\[\[/],
    [withOwn((r) => { r.params.schedule = 7; }), 'This run is labs/bubble with schedule=7; the question asks for schedule=gpipe.'],
    [withOwn((r) => { r.metrics.bubble_formula = '0.2727'; r.metrics.bubble_fraction = 'NaN'; }),
      /^Your run bears out 0 of 2 claims\..*= - \(modelled\).*\(the report gives "0\.2727", not a number\).*\(the report gives "NaN", not a number\)/],
    [withOwn((r) => { r.metrics.bubble_formula = { value: 0.27 }; r.metrics.bubble_fraction = [0.27]; }),
      /^Your run bears out 0 of 2 claims\..*\(the report gives \{"value":0\.27\}, not a number\).*\(the report gives \[0\.27\], not a number\)/],
    [JSON.stringify(own).replace(/"bubble_formula":[^,]*/, '"bubble_formula":1e400'), /^Your run bears out 1 of 2 claims\..*FAIL [^(]*\(bubble_formula\) .*= - /],
    [withOwn((r) => { r.metrics.bubble_formula = null; }), /^Your run bears out 1 of 2 claims\./],
    [withOwn((r) => { r.basis.bubble_formula = 'constructor'; r.basis.bubble_fraction = ['x']; }),
      /^Your run bears out 2 of 2 claims\..*= 0\.2727 \(constructor\).*\(bubble_fraction\) .*= 0\.2727 —/],
    [withOwn((r) => { r.basis = 'measured'; r.checks = 'all passed'; }), /^Your run bears out 2 of 2 claims\./],
    [withOwn((r) => { r.checks = [{ name: 'x', pass: 'true' }, null, 3]; }), /^Your run bears out 0 of 2 claims\..*1 of the lab's own checks failed/],
  ];
  for (const [text, want] of cases) {
    const out = await paste(page, text);
    const what = text.length > 200 ? text.slice(0, 200) + '…' : text;
    if (typeof want === 'string') assert.equal(out, want, what);
    else assert.match(out, want, what);
    assert.deepEqual(page.errors, [], what);
  }
  // In the learner's language, and from a file: an empty file, a file that is not JSON.
  await page.click('#lang-id');
  const empty = path.join(tmp, 'empty.json'), junk = path.join(tmp, 'junk.json');
  fs.writeFileSync(empty, '');
  fs.writeFileSync(junk, '\u0000\u00ff binary');
  const input = await page.$('#q-b1-lab0-own-file');
  await input.uploadFile(empty);
  await page.waitForFunction(() => /kosong|Tidak ada/.test(document.getElementById('q-b1-lab0-own-result').textContent));
  assert.equal(await page.$eval('#q-b1-lab0-own-result', (e) => e.textContent),
    'Tidak ada yang bisa diperiksa: berikan keluaran labrun --json.');
  await input.uploadFile(junk);
  await page.waitForFunction(() => /bukan JSON/.test(document.getElementById('q-b1-lab0-own-result').textContent));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('a recorded run and a report whose metrics and parameters are named __proto__, constructor, toString', async () => {
  // A lab of those names, in a folder of this test's own.
  const labs = path.join(tmp, 'labs');
  fs.mkdirSync(path.join(labs, 'names'), { recursive: true });
  fs.writeFileSync(path.join(labs, 'names', 'lab.qz'), `lab names {
    title "Names"
    param __proto__ = 2 in 1..8 "a parameter named __proto__"
    metric constructor "a metric named constructor"
    metric toString "a metric named toString"
    metric __proto__ "a metric named __proto__"
}
`);
  const qz = path.join(tmp, 'names.qz');
  fs.writeFileSync(qz, `quiz n {
    title "t"
    feedback immediate
    single s1 {
        prompt "p"
        correct "a"
        wrong "b"
        lab names (__proto__ = 3)
            expect constructor > 0
            expect toString > 0
            expect __proto__ > 0
    }
}
`);
  // Recorded: __proto__ only; constructor and toString were not reported.
  const runsFile = path.join(tmp, 'names-runs.json');
  fs.writeFileSync(runsFile, `{"format": "labrun-runs", "version": 1, "runs": [{"lab": "names", "params": {"__proto__": 3},
    "backend": "cpu", "machine": {"cores": 2}, "date": "2026-12-04T12:00:00Z", "labrun": "0.1.0",
    "metrics": [{"name": "__proto__", "value": 5, "basis": "measured"}], "checks": []}]}`);
  const r = quizc('-L', labs, qz, '--runs', runsFile, '--dir', path.join(PKGS, 'runs-names'));
  assert.equal(r.status, 0, r.stderr);
  const page = await open(`${srv.base}/pkg/runs-names/index.html`);
  await page.waitForSelector('section.question');
  await page.click('#q-s1-a');
  await page.click('#q-s1-check');
  await page.waitForSelector('#q-s1-lab0-run');
  const rows = await page.$$eval('#q-s1-lab0-run li.claim', (es) => es.map((e) => e.textContent));
  assert.deepEqual(rows, [
    'FAIL a metric named constructor (constructor) = - \u2014 above 0 (the run did not report it)',
    'FAIL a metric named toString (toString) = - \u2014 above 0 (the run did not report it)',
    'PASS a metric named __proto__ (__proto__) = 5 (measured) \u2014 above 0',
  ]);
  // The learner's own report, its keys spliced in as text (an object literal would make __proto__ a prototype).
  const report = '{"lab": "names", "params": {"__proto__": 3}, "metrics": {"__proto__": 5, "constructor": 1},' +
    ' "basis": {"__proto__": "exact", "toString": "measured"}, "checks": []}';
  await page.$eval('#q-s1-lab0-own', (e) => { e.open = true; });
  await page.$eval('#q-s1-lab0-own-paste', (e, t) => { e.value = t; }, report);
  await page.click('#q-s1-lab0-own-check');
  const own = await page.$$eval('#q-s1-lab0-own-result p, #q-s1-lab0-own-result li', (es) => es.map((e) => e.textContent));
  assert.deepEqual(own, [
    'Your run bears out 2 of 3 claims.',
    'PASS a metric named constructor (constructor) = 1 \u2014 above 0',
    'FAIL a metric named toString (toString) = - \u2014 above 0 (the run did not report it)',
    'PASS a metric named __proto__ (__proto__) = 5 (exact) \u2014 above 0',
  ]);
  await page.$eval('#q-s1-lab0-own-paste', (e, t) => { e.value = t; }, report.replace('{"__proto__": 3}', '{"__proto__": "3"}'));
  await page.click('#q-s1-lab0-own-check');
  assert.equal(await page.$eval('#q-s1-lab0-own-result', (e) => e.textContent),
    'This run is labs/names with __proto__="3"; the question asks for __proto__=3.');
  assert.deepEqual(page.errors, []);
  await page.close();
});
