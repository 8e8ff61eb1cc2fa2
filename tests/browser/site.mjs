// The site the browser tests serve (Chromium: tests/js/browser.test.mjs; Firefox and WebKit:
// tests/browser/page-suite.mjs): the installed package, the pages, the operator checks, the package's
// wasm at another path, and an HTML page where a wasm is expected. And what a page's checks must show.
import assert from 'node:assert/strict';
import path from 'node:path';
import { root } from '../package/pack.mjs';

export const NOT_WASM = '<!doctype html><html><body>Sorry, this is not the file you asked for</body></html>';
export const DEFAULT_WASM = '/node_modules/onnx-extrema/dist/ox.wasm';

/** startStaticServer's options for the site, the package installed in `app`; `mounts` adds folders,
 * `headers` go on every file, `onReport` takes the pages' POSTed results. */
export function testSite(app, { mounts = {}, headers = {}, onReport } = {}) {
  return {
    mounts: {
      '/node_modules/': path.join(app, 'node_modules'),
      '/pages/': path.join(root, 'tests/browser/pages'),
      '/checks/': path.join(root, 'tests/package'),
      '/elsewhere/': path.join(app, 'node_modules/onnx-extrema/dist'),
      ...mounts,
    },
    fixed: { '/html/ox.wasm': { status: 200, type: 'text/html; charset=utf-8', body: NOT_WASM } },
    headers,
    onReport,
  };
}

/** The header of a Content Security Policy whose script-src adds `sources` (and `more` directives). */
export const scriptPolicy = (sources, more = '') => ({ 'content-security-policy': `default-src 'self'; script-src 'self' 'unsafe-inline' ${sources}${more}` });

/** The operator checks (tests/package/checks.mjs) ran, all of them, and none failed. */
export function passed(result, what) {
  assert.deepEqual(result.failures, [], `${what}: operator checks failed`);
  assert.ok(result.checks >= 18, `${what}: only ${result.checks} checks ran`);
}
