// init() in Node: bad wasmBinary / wasmUrl values reject with an Error that says what was wrong and
// where, a failed init() leaves the next one free to succeed, and concurrent calls share one load.
// The failures run first: once a load succeeds, init() is settled for the process.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import test, { after, before } from 'node:test';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { argMax, init, Tensor } from '../../js/index.mjs';
import { prime } from '../../js/prime.js';

const wasmFile = new URL('../../dist/ox.wasm', import.meta.url);
let server;

before(async () => {
  server = await startStaticServer({
    mounts: { '/dist/': new URL('../../dist/', import.meta.url).pathname },
    fixed: { '/page.wasm': { status: 200, type: 'text/html', body: '<!DOCTYPE html><title>login</title>' } },
  });
});
after(() => server.close());

async function rejection(options) {
  try {
    await init(options);
  } catch (error) {
    assert.ok(error instanceof Error, `${JSON.stringify(options)} rejected with a non-Error`);
    return error.message;
  }
  assert.fail(`init(${JSON.stringify(options)}) resolved`);
}

test('bad wasmBinary values reject with what they were', async () => {
  assert.match(await rejection({ wasmBinary: 'ox.wasm' }), /init\(\{ wasmBinary \}\) needs an ArrayBuffer or a typed array/);
  assert.match(await rejection({ wasmBinary: new TextEncoder().encode('<!doctype html>') }),
    /init\(\{ wasmBinary \}\) is not a WebAssembly module: got 15 bytes starting "<!doctype html>"/);
  const truncated = (await readFile(wasmFile)).subarray(0, 200);
  const message = await rejection({ wasmBinary: truncated });
  assert.match(message, /^onnx-extrema: the wasm module failed to start: .*CompileError/);
  assert.doesNotMatch(message, /ASSERTIONS/, 'no advice to rebuild Emscripten with assertions');
});

test('bad wasmUrl values name the URL and what came back', async () => {
  const missingFile = new URL('./no-such.wasm', wasmFile);
  assert.match(await rejection({ wasmUrl: missingFile }), new RegExp(`cannot read the wasm at ${missingFile.href}: ENOENT`));
  assert.match(await rejection({ wasmUrl: 'http://[bad' }), /init\(\{ wasmUrl \}\) got "http:\/\/\[bad", which is not a URL/);
  const url404 = `${server.origin}/dist/missing.wasm`;
  const notFound = await rejection({ wasmUrl: url404 });
  assert.ok(notFound.includes(`fetching the wasm at ${url404} answered HTTP 404 Not Found`), notFound);
  const html = await rejection({ wasmUrl: `${server.origin}/page.wasm` });
  assert.ok(html.includes(`the wasm at ${server.origin}/page.wasm (served as text/html) is not a WebAssembly module`), html);
  assert.ok(html.includes('"<!DOCTYPE html><title>lo"'), html);
});

test('operators before init() throw; concurrent init() calls share one load; init() is idempotent', async () => {
  const x = new Tensor('float32', new Float32Array([1, 3, 2]), [3]);
  assert.throws(() => argMax(x), /before init\(\) resolved; await init\(\) first/);
  // init()'s priming calls (js/prime.js) keep their failures to themselves: before the module is
  // loaded each of them throws, and prime() still returns, leaving the operators unloaded.
  assert.equal(prime(), undefined);
  assert.throws(() => argMax(x), /before init\(\) resolved/);
  const first = init({ wasmUrl: `${server.origin}/dist/ox.wasm` });
  const second = init({ wasmUrl: 'http://127.0.0.1:9/never-fetched.wasm' });
  assert.equal(second, first, 'a call while loading returns the same promise');
  await first;
  assert.equal(server.requests.filter((r) => r === '/dist/ox.wasm').length, 1);
  await init({ wasmBinary: 'ignored once loaded' });
  assert.deepEqual(Array.from(argMax(x).data), [1n]);
});
