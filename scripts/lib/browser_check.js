// Loads a page in headless Chromium, waits until it sets data-done on <body>, prints the text
// of #result and saves a screenshot. Node only, no packages: the DevTools protocol over
// --remote-debugging-pipe (file descriptors 3 and 4, messages ended by a NUL byte).
//
//   node browser_check.js CHROMIUM URL SCREENSHOT.png PROFILE_DIR [TIMEOUT_SECONDS]
//
// Exit status 0 with the result on stdout; 1 (and the reason on stderr) otherwise.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');

const [chromium, url, shot, profile, timeoutArg] = process.argv.slice(2);
if (!chromium || !url || !shot || !profile) {
  console.error('usage: browser_check.js CHROMIUM URL SCREENSHOT PROFILE_DIR [TIMEOUT_SECONDS]');
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
  // Poll until the page says it is done (the module loads asynchronously, then runs its steps).
  const probe = `(() => {
      const st = document.getElementById('status');
      return { done: !!document.body && document.body.getAttribute('data-done') === '1',
               status: st ? st.textContent : '(no page yet)',
               result: (document.getElementById('result') || {}).textContent };
    })()`;
  let result = null;
  for (;;) {
    let v = null;
    try {
      const r = await send('Runtime.evaluate', { expression: probe, returnByValue: true }, sessionId);
      v = r.result.value;
    } catch (e) {
      v = null; // the navigation replaced the context while we asked
    }
    if (v) lastStatus = v.status;
    if (v && v.done) {
      result = v.result;
      break;
    }
    await new Promise((res) => setTimeout(res, 200));
  }
  // one more frame so the canvas shows the final state
  await send('Runtime.evaluate', {
    expression: 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))',
    awaitPromise: true
  }, sessionId);
  const png = await send('Page.captureScreenshot', { format: 'png' }, sessionId);
  fs.writeFileSync(shot, Buffer.from(png.data, 'base64'));
  clearTimeout(timer);
  console.log(result);
  if (consoleLines.length) console.error('page console:\n  ' + consoleLines.join('\n  '));
  try { await send('Browser.close'); } catch (e) { /* closing */ }
  setTimeout(() => { browser.kill('SIGKILL'); process.exit(0); }, 2000).unref();
  browser.on('exit', () => process.exit(0));
})().catch((e) => fail(e.message));
