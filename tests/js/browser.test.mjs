// The package in a browser: headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core;
// no downloaded browser) loads the packed and installed package from a static server on 127.0.0.1,
// as plain ES modules with an import map, in a module Worker and a module service worker, under
// Content Security Policies, in a Chrome extension, as a Vite build and as esbuild bundles.
// Pages and scripts: tests/browser/. Operator checks: tests/package/checks.mjs.
import assert from 'node:assert/strict';
import { copyFile, cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { build as esbuild } from 'esbuild';
import { build, createLogger } from 'vite';
import { installInNewApp, pack, root } from '../package/pack.mjs';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.mjs';
import { DEFAULT_WASM, passed, scriptPolicy, testSite } from '../browser/site.mjs';

let packed;
let app;
let viteOut;
let viteWarnings = [];
let esbuildOut;
let server;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} is missing: run scripts/setup.sh (it installs Debian's chromium)`);
  packed = await pack();
  ({ app } = await installInNewApp(packed.tarball));
  for (const f of ['index.html', 'main.js', 'url.html', 'url.js']) await copyFile(path.join(root, 'tests/browser/vite-app', f), path.join(app, f));
  await copyFile(path.join(root, 'tests/package/checks.mjs'), path.join(app, 'checks.mjs'));
  viteOut = await mkdtemp(path.join(tmpdir(), 'ox-vite-'));
  const logger = createLogger('warn');
  const warn = logger.warn;
  logger.warn = (message, options) => {
    viteWarnings.push(message);
    warn(message, options);
  };
  await build({
    root: app,
    base: '/vite/',
    configFile: false,
    customLogger: logger,
    logLevel: 'warn',
    build: { outDir: viteOut, emptyOutDir: true, rollupOptions: { input: { index: path.join(app, 'index.html'), url: path.join(app, 'url.html') } } },
  });
  // esbuild bundles (tests/browser/esbuild-app): ES module with the wasm as a file, and classic
  // scripts (esbuild's default format, iife) with the wasm inlined, and with no options.
  esbuildOut = await mkdtemp(path.join(tmpdir(), 'ox-esbuild-'));
  const esbuildApp = path.join(root, 'tests/browser/esbuild-app');
  for (const name of ['esm', 'iife', 'iife-default']) {
    await copyFile(path.join(esbuildApp, `${name}.js`), path.join(app, `${name}.js`));
    await copyFile(path.join(esbuildApp, `${name}.html`), path.join(esbuildOut, `${name}.html`));
  }
  const bundled = (name, options) =>
    esbuild({ entryPoints: [path.join(app, `${name}.js`)], bundle: true, outdir: esbuildOut, logLevel: 'error', ...options });
  await bundled('esm', { format: 'esm', loader: { '.wasm': 'file' } });
  await bundled('iife', { loader: { '.wasm': 'binary' } });
  await bundled('iife-default', {});
  server = await startStaticServer(siteOptions());
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await server?.close();
  for (const dir of [packed?.dir, app, viteOut, esbuildOut]) if (dir) await rm(dir, { recursive: true, force: true });
});

/** The test site (tests/browser/site.mjs) with the bundles; `headers` on every file. */
function siteOptions(headers = {}) {
  return testSite(app, { headers, mounts: { '/vite/': viteOut, '/esbuild/': esbuildOut } });
}

/** Loads a page (from `site`, the test site by default), waits for window.__result; returns it
 * with the paths the page requested. */
async function visit(pagePath, site = server) {
  const page = await browser.newPage();
  const messages = [];
  page.on('console', (m) => messages.push(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
  const first = site.requests.length;
  try {
    await page.goto(site.origin + pagePath);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 20_000 });
    const result = await page.evaluate(() => window.__result);
    const requests = site.requests.slice(first);
    assert.equal(result.error, undefined, `${pagePath} failed: ${result.error}\n${messages.join('\n')}`);
    assert.deepEqual(messages.filter((m) => m.startsWith('page error')), [], `${pagePath}: uncaught errors`);
    return { result, requests, messages };
  } catch (error) {
    error.message += `\n(page ${pagePath}; browser console:\n${messages.join('\n')})`;
    throw error;
  } finally {
    await page.close();
  }
}

test('plain ES modules with an import map: operators, Float16Array in and out, float16 helpers match Float16Array', async () => {
  const { result, requests } = await visit('/pages/plain.html');
  passed(result, 'plain ESM');
  assert.equal(result.float16Array, true, 'Chromium has Float16Array, so its inputs were checked');
  const f16 = result.float16;
  console.log(`float16 cross-check: ${f16.values} values to bits, ${f16.patterns} patterns from bits, ${f16.bfloatValues} bfloat16 values`);
  assert.deepEqual(f16.mismatches, [], 'float16/bfloat16 helpers differ from the browser');
  assert.ok(f16.values > 300_000);
  assert.ok(requests.includes(DEFAULT_WASM), 'the wasm came from next to the package JS');
});

test('init({ wasmUrl }) as a string or URL, and init({ wasmBinary }), replace the default location', async () => {
  for (const mode of ['wasmUrl', 'wasmUrlObject', 'wasmBinary']) {
    const { result, requests } = await visit(`/pages/plain.html?mode=${mode}`);
    passed(result, mode);
    assert.ok(requests.includes('/elsewhere/ox.wasm'), `${mode}: the wasm was fetched from the given place`);
    assert.ok(!requests.includes(DEFAULT_WASM), `${mode}: the default wasm was not fetched`);
  }
});

test('a failed load rejects with an Error naming the URL and what came back; init() then tries again', async () => {
  const missing = await visit('/pages/plain.html?mode=missing');
  const url404 = `${server.origin}/missing/ox.wasm`;
  assert.equal(missing.result.failure.isError, true);
  assert.ok(missing.result.failure.message.includes(url404), missing.result.failure.message);
  assert.match(missing.result.failure.message, /HTTP 404/);
  passed(missing.result, 'init() after a failed init()');

  const html = await visit('/pages/plain.html?mode=html');
  const { isError, message } = html.result.failure;
  assert.equal(isError, true);
  assert.ok(message.includes(`${server.origin}/html/ox.wasm`), message);
  assert.ok(message.includes('text/html'), `names the content type: ${message}`);
  assert.ok(message.includes('<!doctype html>'), `shows what came back: ${message}`);
  assert.match(message, /not a WebAssembly module/);
  console.log(`messages:\n  ${missing.result.failure.message}\n  ${message}`);
});

test('inside a module service worker', async () => {
  const { result, requests } = await visit('/pages/plain.html?mode=serviceWorker');
  passed(result, 'service worker');
  assert.equal(result.inServiceWorker, true);
  assert.ok(requests.includes(DEFAULT_WASM));
});

test('init({ wasmModule }): one module compiled in the page, instantiated there and in a worker it was posted to', async () => {
  const { result, requests } = await visit('/pages/plain.html?mode=wasmModule');
  passed(result.page, 'page, wasmModule');
  assert.equal(result.worker.error, undefined, `worker: ${result.worker.error}`);
  passed(result.worker, 'worker, posted wasmModule');
  assert.equal(requests.filter((r) => r.endsWith('.wasm')).join(), '/elsewhere/ox.wasm', 'one fetch of the wasm, for the compile');
});

test('an operator called before init() throws a clear error', async () => {
  const { result } = await visit('/pages/plain.html?mode=beforeInit');
  assert.match(result.message, /before init\(\) resolved; await init\(\) first/);
});

// A Content Security Policy without 'unsafe-eval' (a Chrome extension's pages, say) allows
// WebAssembly only through 'wasm-unsafe-eval': with it, the package runs (its glue evaluates no
// strings), in the page and in a module Worker, also where Trusted Types are enforced (the
// package passes no string to a script sink); without it, init() rejects saying what to add.
test("a Content Security Policy with 'wasm-unsafe-eval' and no 'unsafe-eval' runs the package; without it, init() says what to add", async () => {
  const strict = await startStaticServer(siteOptions(scriptPolicy("'wasm-unsafe-eval'")));
  const trustedTypes = await startStaticServer(siteOptions(scriptPolicy("'wasm-unsafe-eval'", "; require-trusted-types-for 'script'")));
  const noWasm = await startStaticServer(siteOptions(scriptPolicy('')));
  try {
    passed((await visit('/pages/plain.html', strict)).result, 'strict CSP');
    const { result } = await visit('/pages/plain.html?mode=worker', strict);
    passed(result, 'strict CSP, worker');
    assert.equal(result.inWorker, true);
    passed((await visit('/pages/plain.html', trustedTypes)).result, 'strict CSP, Trusted Types');
    const { failure } = (await visit('/pages/plain.html?mode=blocked', noWasm)).result;
    assert.equal(failure.isError, true);
    assert.match(failure.message, /^onnx-extrema: the page's Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src \(/);
    console.log(`message: ${failure.message}`);
  } finally {
    await strict.close();
    await trustedTypes.close();
    await noWasm.close();
  }
});

// A Chrome (Manifest V3) extension whose pages allow 'wasm-unsafe-eval' and not 'unsafe-eval'
// (tests/browser/extension/): the installed package copied in, run in the extension's background
// service worker and in one of its pages.
test('in a Chrome extension: its background service worker and an extension page', async () => {
  const extension = await mkdtemp(path.join(tmpdir(), 'ox-extension-'));
  const profile = await mkdtemp(path.join(tmpdir(), 'ox-extension-profile-'));
  let context;
  try {
    await cp(path.join(root, 'tests/browser/extension'), extension, { recursive: true });
    await copyFile(path.join(root, 'tests/package/checks.mjs'), path.join(extension, 'checks.mjs'));
    const installed = path.join(app, 'node_modules/onnx-extrema');
    for (const part of ['js', 'dist', 'package.json']) await cp(path.join(installed, part), path.join(extension, 'onnx-extrema', part), { recursive: true });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, `--disable-extensions-except=${extension}`, `--load-extension=${extension}`],
    });
    const background = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 20_000 }));
    const inBackground = await background.evaluate(() => self.runChecks());
    passed(inBackground, 'extension background');
    assert.equal(inBackground.inServiceWorker, true);
    const page = await context.newPage();
    await page.goto(`chrome-extension://${new URL(background.url()).host}/page.html`);
    await page.waitForFunction(() => window.__result !== undefined, null, { timeout: 20_000 });
    const inPage = await page.evaluate(() => window.__result);
    assert.equal(inPage.error, undefined, `extension page: ${inPage.error}`);
    passed(inPage, 'extension page');
  } finally {
    await context?.close();
    await rm(extension, { recursive: true, force: true });
    await rm(profile, { recursive: true, force: true });
  }
});

test('inside a module Worker', async () => {
  const { result, requests } = await visit('/pages/plain.html?mode=worker');
  passed(result, 'worker');
  assert.equal(result.inWorker, true);
  assert.equal(result.float16Array, true);
  assert.ok(requests.includes(DEFAULT_WASM));
});

test('a Vite build of an app importing onnx-extrema emits the wasm and works when served', async () => {
  const assets = await readdir(path.join(viteOut, 'assets'));
  assert.ok(assets.some((f) => f.endsWith('.wasm')), `no .wasm among the built assets: ${assets.join(', ')}`);
  assert.deepEqual(viteWarnings, [], 'the build warned');
  for (const page of ['index', 'url']) {
    const { result, requests } = await visit(`/vite/${page}.html`);
    passed(result, `Vite ${page}`);
    const wasm = requests.filter((r) => r.endsWith('.wasm'));
    assert.equal(wasm.length, 1, `${page}: one wasm fetched (${wasm.join(', ')})`);
    assert.match(wasm[0], /^\/vite\/assets\/[\w-]+\.wasm$/, `${page}: the wasm came from the build`);
    assert.ok(!requests.some((r) => r.startsWith('/node_modules/') || r.startsWith('/checks/')), `${page}: only built files were used`);
  }
});

test('esbuild bundles: an ES module with the wasm as a file, a classic script with it inlined; with no wasm location, a clear Error', async () => {
  const wasmFiles = (await readdir(esbuildOut)).filter((f) => f.endsWith('.wasm'));
  assert.equal(wasmFiles.length, 1, `esbuild's file loader emitted the wasm once: ${wasmFiles.join(', ')}`);
  const esm = await visit('/esbuild/esm.html');
  passed(esm.result, 'esbuild esm');
  assert.ok(esm.requests.includes(`/esbuild/${wasmFiles[0]}`), 'the wasm came from beside the bundle');
  const iife = await visit('/esbuild/iife.html');
  passed(iife.result, 'esbuild iife');
  assert.ok(!iife.requests.some((r) => r.endsWith('.wasm')), 'the inlined wasm needs no fetch');
  // (the bundle used to throw 'Invalid URL' as it loaded: import.meta is empty in a classic script)
  const bare = await visit('/esbuild/iife-default.html');
  assert.equal(bare.result.failure.isError, true);
  assert.match(bare.result.failure.message, /^onnx-extrema: cannot locate ox\.wasm: import\.meta\.url is undefined in this bundle .*pass init\(\{ wasmUrl \}\) or init\(\{ wasmBinary \}\)/);
});
