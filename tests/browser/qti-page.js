// qti-page.js — a page for the QTI browser test, on 127.0.0.1 (chromium runs
// module scripts only from http): it loads @citolab/qti-components and shows
// one QTI 3 item at a time.
//
//   /           the page; window.showItem(xml) renders an item and resolves
//               once its element is ready; window.shownAsDoc(xml) renders it
//               from the transformer's DOM instead and gives the namespace
//               its <math> elements end up in
//   /lib/qti.js @citolab/qti-components as one ES module
'use strict';

const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');

const LIB = path.join(__dirname, '..', '..', 'node_modules', '@citolab', 'qti-components', 'cdn', 'index.js');

const PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>QTI items</title>
<script type="module">
  import { qtiTransformItem } from '/lib/qti.js';
  const ready = async (host) => {
    const item = host.querySelector('qti-assessment-item');
    await customElements.whenDefined('qti-assessment-item');
    if (item.updateComplete) await item.updateComplete;
    return item;
  };
  // The item goes in as the transformer's markup (html()), which the page
  // parses as HTML, as the library's own examples render an item: the HTML
  // parser puts <math> and what it holds in MathML's namespace, so the
  // browser typesets the formulas. The transformer's DOM (htmlDoc()) makes
  // every element with createElement by its local name, in the HTML
  // namespace, whatever namespace the item wrote, and a formula there is
  // only its characters in a row.
  window.showItem = async (xml) => {
    const host = document.getElementById('host');
    host.innerHTML = qtiTransformItem().parse(xml).html();
    return (await ready(host)).getAttribute('identifier');
  };
  window.shownAsDoc = async (xml) => {
    const host = document.getElementById('host');
    host.replaceChildren(qtiTransformItem().parse(xml).htmlDoc());
    const item = await ready(host);
    return [...new Set([...item.querySelectorAll('*')].filter((e) => e.localName === 'math').map((e) => e.namespaceURI))];
  };
  window.qtiReady = true;
</script></head><body><main id="host"></main></body></html>`;

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(PAGE);
    }
    if (url.pathname === '/lib/qti.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      return res.end(fs.readFileSync(LIB));
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${server.address().port}` }));
  });
}

module.exports = { serve };
