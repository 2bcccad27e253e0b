// Checks the live page (web/index.html) in headless Chromium: once the world has run a second
// and a half, takes two screenshots of the canvas a second apart, reads the steps/s the page
// measured over the last second, then waits for the world hash the page keeps at its hash step.
// Node only, no packages: the DevTools protocol over --remote-debugging-pipe (file descriptors
// 3 and 4, messages ended by a NUL byte).
//
//   node browser_check.js CHROMIUM URL SHOT_PREFIX PROFILE_DIR [TIMEOUT_SECONDS]
//
// Writes SHOT_PREFIX-1.png and SHOT_PREFIX-2.png and prints one line:
//   rate=<steps/s> steps=<steps between the shots> ms=<ms between the shots> result=<#result>
// Exit status 0 then; 1 (and the reason on stderr) otherwise.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');

const [chromium, url, shot, profile, timeoutArg] = process.argv.slice(2);
if (!chromium || !url || !shot || !profile) {
  console.error('usage: browser_check.js CHROMIUM URL SHOT_PREFIX PROFILE_DIR [TIMEOUT_SECONDS]');
  process.exit(2);
}
const timeout = (parseFloat(timeoutArg) || 120) * 1000;

const browser = spawn(chromium, [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--user-data-dir=' + profile, '--remote-debugging-pipe', '--window-size=1300,820',
  '--hide-scrollbars', 'about:blank'
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
let stderr = '';
browser.stdio[2].on('data', (d) => { stderr += d; });

const toBrowser = browser.stdio[3], fromBrowser = browser.stdio[4];
let nextId = 1, buffered = '';
const waiting = new Map();
const consoleLines = [];
let lastStatus = '(not loaded)';

function send(method, params, sessionId) {
  const id = nextId++;
  const msg = { id, method, params: params || {} };
  if (sessionId) msg.sessionId = sessionId;
  toBrowser.write(JSON.stringify(msg) + '\0');
  return new Promise((resolve, reject) => waiting.set(id, { resolve, reject, method }));
}

fromBrowser.on('data', (chunk) => {
  buffered += chunk.toString('utf8');
  let end;
  while ((end = buffered.indexOf('\0')) >= 0) {
    const msg = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    if (msg.id && waiting.has(msg.id)) {
      const w = waiting.get(msg.id);
      waiting.delete(msg.id);
      if (msg.error) w.reject(new Error(w.method + ': ' + JSON.stringify(msg.error)));
      else w.resolve(msg.result);
    } else if (msg.method === 'Runtime.consoleAPICalled') {
      consoleLines.push(msg.params.args.map((a) => a.value).join(' '));
    } else if (msg.method === 'Runtime.exceptionThrown') {
      consoleLines.push('exception: ' + JSON.stringify(msg.params.exceptionDetails));
    }
  }
});

function fail(why) {
  console.error('browser check failed: ' + why + ' (page status: ' + lastStatus + ')');
  if (consoleLines.length) console.error('page console:\n  ' + consoleLines.join('\n  '));
  if (stderr) console.error('chromium stderr (end):\n' + stderr.slice(-2000));
  browser.kill('SIGKILL');
  process.exit(1);
}

const timer = setTimeout(() => fail('timed out after ' + timeout / 1000 + ' s'), timeout);
browser.on('exit', (code) => { if (waiting.size) fail('chromium exited (' + code + ')'); });
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

(async () => {
  const { targetInfos } = await send('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page');
  if (!page) fail('no page target');
  const { sessionId } = await send('Target.attachToTarget', { targetId: page.targetId, flatten: true });
  await send('Runtime.enable', {}, sessionId);
  await send('Page.enable', {}, sessionId);
  await send('Emulation.setDeviceMetricsOverride',
    { width: 1300, height: 820, deviceScaleFactor: 1, mobile: false }, sessionId);
  await send('Page.navigate', { url }, sessionId);
  const probe = `(() => {
      const text = (id) => (document.getElementById(id) || {}).textContent;
      const c = document.getElementById('board'), r = c ? c.getBoundingClientRect() : null;
      return { live: !!document.body && document.body.getAttribute('data-live') === '1',
               hash: !!document.body && document.body.hasAttribute('data-hash'),
               status: text('status') || '(no page yet)', steps: Number(text('steps')),
               rate: text('rate'), result: text('result'),
               clip: r && { x: r.left, y: r.top, width: r.width, height: r.height, scale: 1 } };
    })()`;
  async function look() {
    try {
      const r = await send('Runtime.evaluate', { expression: probe, returnByValue: true }, sessionId);
      if (r.result.value) lastStatus = r.result.value.status;
      return r.result.value;
    } catch (e) {
      return null; // the navigation replaced the context while we asked
    }
  }
  // until the page has stepped a second and a half (its steps/s covers a whole second)
  let v;
  while (!((v = await look()) && v.live && v.steps >= 90)) await sleep(200);
  async function canvasShot(path) {
    const png = await send('Page.captureScreenshot', { format: 'png', clip: v.clip }, sessionId);
    fs.writeFileSync(path, Buffer.from(png.data, 'base64'));
  }
  const a = await look(), t0 = Date.now();
  await canvasShot(shot + '-1.png');
  await sleep(1000);
  const b = await look(), t1 = Date.now();
  await canvasShot(shot + '-2.png');
  while (!((v = await look()) && v.hash)) await sleep(200);
  clearTimeout(timer);
  console.log('rate=' + b.rate + ' steps=' + (b.steps - a.steps) + ' ms=' + (t1 - t0) +
              ' result=' + v.result);
  if (consoleLines.length) console.error('page console:\n  ' + consoleLines.join('\n  '));
  try { await send('Browser.close'); } catch (e) { /* closing */ }
  setTimeout(() => { browser.kill('SIGKILL'); process.exit(0); }, 2000).unref();
  browser.on('exit', () => process.exit(0));
})().catch((e) => fail(e.message));
