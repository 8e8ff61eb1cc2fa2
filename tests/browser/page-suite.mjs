// The package in a browser that nothing drives (Firefox: SpiderMonkey; WebKit: JavaScriptCore;
// beside the V8 of Node and Chromium): the packed and installed package from a static server on
// 127.0.0.1, the same pages as tests/js/browser.test.mjs (tests/browser/pages/plain.html), each
// page load a browser process of its own that POSTs the page's result back (scripts/firefox.mjs,
// scripts/webkit.mjs). tests/js/firefox.test.mjs and webkit.test.mjs run it.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { installInNewApp, pack, root } from '../package/pack.mjs';
import { visitInFreshBrowser } from '../../scripts/fresh-browser-visit.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { HEIGHT, WIDTH, expectedMask, expectedToken, firstDifference } from './demo-expected.mjs';
import { DEFAULT_WASM, passed, scriptPolicy, testSite } from './site.mjs';

const REPORT_TIMEOUT_MS = 90_000; // a cold start of a browser on a loaded 2-core machine, and the checks

/**
 * The tests, each named after `engine` ('Firefox'), in browsers `open(url)` starts (openInFirefox,
 * openInWebKit: { until, close }). `float16ArraySince`: the engine's first version with Float16Array, which it must have.
 */
export function pageSuite(engine, open, { float16ArraySince }) {
  let packed;
  let app;
  let server;
  const waiting = new Map(); // report key -> resolve(text)
  let visits = 0;

  const site = (headers) => testSite(app, { headers, onReport: (key, text) => waiting.get(key)?.(text) });

  before(async () => {
    packed = await pack();
    ({ app } = await installInNewApp(packed.tarball));
    server = await startStaticServer(site());
  });

  after(async () => {
    await server?.close();
    for (const dir of [packed?.dir, app]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Opens a page of `on` (the test site by default) in a new browser and returns window.__result
   * as the page reported it, with the paths the page requested (visitInFreshBrowser: a browser
   * that asked for nothing is replaced once). */
  async function visit(pagePath, on = server) {
    const attempt = () => {
      const key = String((visits += 1));
      const report = new Promise((resolve) => waiting.set(key, resolve));
      const url = `${on.origin}${pagePath}${pagePath.includes('?') ? '&' : '?'}report=${key}`;
      return { url, report, release: () => waiting.delete(key) };
    };
    const { text, first } = await visitInFreshBrowser(open, on, attempt, { what: `${pagePath}'s report`, reportMs: REPORT_TIMEOUT_MS });
    const result = JSON.parse(text);
    assert.equal(result.error, undefined, `${pagePath} failed in ${engine}: ${result.error}`);
    return { result, requests: on.requests.slice(first) };
  }

  // A page whose module cannot load reports that (tests/browser/pages/report-errors.js) rather than
  // nothing, which would end only with the report's timeout.
  test(`${engine}: a page whose module fails to load reports it at once`, async () => {
    await assert.rejects(visit('/pages/broken-import.html'), /imports-missing\.mjs failed to load, or a module it imports did/);
  });

  test(`${engine}: plain ES modules with an import map: operators, Float16Array in and out, float16 helpers match Float16Array`, async () => {
    const { result, requests } = await visit('/pages/plain.html');
    passed(result, `${engine}, plain ESM`);
    assert.equal(result.float16Array, true, `${engine} has Float16Array (since ${float16ArraySince}), so its inputs were checked`);
    const f16 = result.float16;
    assert.deepEqual(f16.mismatches, [], `float16/bfloat16 helpers differ from ${engine}'s Float16Array`);
    assert.ok(f16.values > 300_000);
    assert.ok(requests.includes(DEFAULT_WASM), 'the wasm came from next to the package JS');
  });

  test(`${engine}: inside a module Worker, and a module compiled in the page posted to one (init({ wasmModule }))`, async () => {
    const { result } = await visit('/pages/plain.html?mode=worker');
    passed(result, `${engine}, worker`);
    assert.equal(result.inWorker, true);
    const posted = await visit('/pages/plain.html?mode=wasmModule');
    passed(posted.result.page, `${engine}, page, wasmModule`);
    assert.equal(posted.result.worker.error, undefined, `worker: ${posted.result.worker.error}`);
    passed(posted.result.worker, `${engine}, worker, posted wasmModule`);
    assert.equal(posted.requests.filter((r) => r.endsWith('.wasm')).join(), '/elsewhere/ox.wasm', 'one fetch of the wasm, for the compile');
  });

  test(`${engine}: inside a module service worker`, async () => {
    const { result } = await visit('/pages/plain.html?mode=serviceWorker');
    passed(result, `${engine}, service worker`);
    assert.equal(result.inServiceWorker, true);
  });

  test(`${engine}: a failed load rejects with an Error naming the URL and what came back; init() then tries again`, async () => {
    const missing = await visit('/pages/plain.html?mode=missing');
    assert.equal(missing.result.failure.isError, true);
    assert.ok(missing.result.failure.message.includes(`${server.origin}/missing/ox.wasm`), missing.result.failure.message);
    assert.match(missing.result.failure.message, /HTTP 404/);
    passed(missing.result, `${engine}, init() after a failed init()`);
    const { failure } = (await visit('/pages/plain.html?mode=html')).result;
    assert.equal(failure.isError, true);
    assert.match(failure.message, /text\/html/);
    assert.match(failure.message, /not a WebAssembly module/);
  });

  // Each engine words a refused compile its own way; the loader must still say what to add.
  test(`${engine}: a Content Security Policy with 'wasm-unsafe-eval' and no 'unsafe-eval' runs the package; without it, init() says what to add`, async () => {
    const strict = await startStaticServer(site(scriptPolicy("'wasm-unsafe-eval'")));
    const noWasm = await startStaticServer(site(scriptPolicy('')));
    try {
      passed((await visit('/pages/plain.html', strict)).result, `${engine}, strict CSP`);
      const { result } = await visit('/pages/plain.html?mode=worker', strict);
      passed(result, `${engine}, strict CSP, worker`);
      const { failure } = (await visit('/pages/plain.html?mode=blocked', noWasm)).result;
      assert.equal(failure.isError, true);
      assert.match(failure.message, /^onnx-extrema: the page's Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src \(/);
      console.log(`message in ${engine}: ${failure.message}`);
    } finally {
      await strict.close();
      await noWasm.close();
    }
  });

  // The in-browser demo (examples/web/, `npm run demo`; tests/js/demo.test.mjs checks it in
  // Chromium) from the repository's root, in a frame of a page that reports what it computed.
  test(`${engine}: the web demo computes the right mask and next token, and draws the mask`, async () => {
    const demo = await startStaticServer({ root, onReport: (key, text) => waiting.get(key)?.(text) });
    try {
      const { result, requests } = await visit('/tests/browser/pages/demo-report.html', demo);
      assert.ok(requests.includes('/js/index.mjs') && requests.includes('/dist/ox.wasm'), 'the package came through the import map, the wasm beside it');
      const expected = expectedMask();
      assert.deepEqual(result.maskDims, [1, HEIGHT, WIDTH]);
      assert.equal(firstDifference(result.mask, expected), null);
      assert.deepEqual(result.differences, { byPixel: 0, byClass: 0 });
      assert.equal(result.canvasPixels, expected.length);
      assert.equal(result.wrongColour, -1, `canvas pixel ${result.wrongColour} does not have its class's colour`);
      assert.match(result.verdict, /All three masks are identical on all 65,536 pixels/);
      assert.equal(result.token, expectedToken());
      assert.equal(result.tokenAgrees, true);
      assert.equal(result.tokenText, String(expectedToken()));
    } finally {
      await demo.close();
    }
  });
}
