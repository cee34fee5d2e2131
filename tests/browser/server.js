// server.js — a small LMS for the browser tests, on 127.0.0.1.
//
//   /pkg/NAME/...          the unpacked package NAME (a folder under the packages root; its figures under media/)
//   /lib/scorm12.js ...    scorm-again's run-time API builds
//   /lms/12/NAME, /lms/2004/NAME
//                          the host page: creates window.API (1.2) or window.API_1484_11
//                          (2004) with scorm-again, records every call the package makes,
//                          and frames the package.  ?learner=ID&resume=KEY starts from the
//                          state the test stored under KEY in `saved` (a resume).
//                          &frame=nested puts a frame between the host and the package;
//                          &frame=none frames nothing (the test opens the package as a popup).
//   /frame?src=URL         a page that only frames URL
'use strict';

const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.xml': 'application/xml', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml',
};

const SCORM_AGAIN = path.join(__dirname, '..', '..', 'node_modules', 'scorm-again', 'dist');

function hostPage(version, pkg, learner, saved, frame) {
  const v12 = version === '12';
  const lib = v12 ? 'scorm12.js' : 'scorm2004.js';
  const cls = v12 ? 'Scorm12API' : 'Scorm2004API';
  const global = v12 ? 'API' : 'API_1484_11';
  const start = v12
    ? { core: { student_id: learner, student_name: 'Learner, Test' } }
    : { learner_id: learner, learner_name: 'Learner, Test' };
  if (saved) {
    if (v12) { start.core.entry = 'resume'; start.suspend_data = saved.suspend_data; }
    else { start.entry = 'resume'; start.suspend_data = saved.suspend_data; }
  }
  // The calls are wrapped, not mocked: scorm-again answers them; the log keeps what was asked and answered.
  const methods = v12
    ? ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit']
    : ['Initialize', 'Terminate', 'GetValue', 'SetValue', 'Commit'];
  const lastError = v12 ? 'LMSGetLastError' : 'GetLastError';
  const sco = `/pkg/${pkg}/index.html`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Test LMS</title>
<script src="/lib/${lib}"></script>
<script>
  window.lmsLog = [];
  var api = new ${cls}({ autocommit: false, lmsCommitUrl: false, logLevel: 5 });
  api.loadFromJSON(${JSON.stringify(start)}, '');
  ${JSON.stringify(methods)}.forEach(function (m) {
    var real = api[m].bind(api);
    api[m] = function (a, b) {
      var r = arguments.length > 1 ? real(a, String(b)) : real(a);
      window.lmsLog.push({ call: m, key: a, value: b, result: String(r), error: String(api.${lastError}()) });
      return r;
    };
  });
  window.${global} = api;
</script>
<style>html,body,iframe{margin:0;border:0;width:100%;height:100%}</style>
</head><body>${frame === 'none' ? '' : `<iframe id="sco" title="quiz" src="${frame === 'nested'
    ? `/frame?src=${encodeURIComponent(sco)}` : sco}"></iframe>`}</body></html>`;
}

function serve(pkgRoot) {
  const saved = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const send = (code, type, body) => { res.writeHead(code, { 'content-type': type }); res.end(body); };
    let m;
    if ((m = url.pathname.match(/^\/lms\/(12|2004)\/([\w-]+)$/))) {
      const key = url.searchParams.get('resume');
      return send(200, TYPES['.html'], hostPage(m[1], m[2], url.searchParams.get('learner') || 'learner-1',
        key ? saved.get(key) : null, url.searchParams.get('frame')));
    }
    if (url.pathname === '/frame') {
      const src = url.searchParams.get('src');
      if (!/^\/pkg\/[\w-]+\/index\.html$/.test(src)) return send(400, 'text/plain', 'bad src');
      return send(200, TYPES['.html'], `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>frame</title>
<style>html,body,iframe{margin:0;border:0;width:100%;height:100%}</style></head>
<body><iframe id="inner" title="quiz" src="${src}"></iframe></body></html>`);
    }
    let file = null;
    if ((m = url.pathname.match(/^\/lib\/(scorm12\.js|scorm2004\.js)$/))) file = path.join(SCORM_AGAIN, m[1]);
    else if ((m = url.pathname.match(/^\/pkg\/([\w-]+)\/((?:media\/)?[\w.-]+)$/))) file = path.join(pkgRoot, m[1], m[2]);
    if (!file || !fs.existsSync(file)) return send(404, 'text/plain', 'not found');
    send(200, TYPES[path.extname(file)] || 'application/octet-stream', fs.readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}`, saved }));
  });
}

/* The quiz data of a package: its quiz-data.js run as the page runs it, in a context of its own. */
function readQuizData(file) {
  const sandbox = { window: {} };
  vm.runInNewContext(fs.readFileSync(file, 'utf8'), sandbox);
  return JSON.parse(JSON.stringify(sandbox.window.QUIZ_DATA));
}

/* How many scripts a package's own index.html loads: all a page of it may run. */
function ownScripts(pkgDir) {
  return (fs.readFileSync(path.join(pkgDir, 'index.html'), 'utf8').match(/<script\b/g) || []).length;
}

module.exports = { serve, readQuizData, ownScripts };
