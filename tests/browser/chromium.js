// chromium.js — headless Debian Chromium as every browser test starts it
// (CHROMIUM names another binary), and the end of a test file's session.
'use strict';

const puppeteer = require('puppeteer-core');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/* A headless browser with the flags a container needs, and extra ones. */
function launch(extra = []) {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...extra],
  });
}

/* Close the browser and the package server (either may be missing after a failed start). */
async function close(browser, srv) {
  if (browser) await browser.close();
  if (srv) srv.server.close();
}

module.exports = { launch, close, CHROMIUM };
