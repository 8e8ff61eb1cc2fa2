// init() in Node: bad wasmBinary / wasmUrl values reject with an Error that says what was wrong and
// where, a failed init() leaves the next one free to succeed, and concurrent calls share one load.
// The failures run first: once a load succeeds, init() is settled for the process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import test, { after, before } from 'node:test';
import { startStaticServer } from '../../scripts/static-server.mjs';
import { argMax, init, Tensor } from '../../js/index.mjs';
import { prime } from '../../js/prime.js';
import { NOT_NODE } from './helpers.mjs';

const wasmFile = new URL('../../dist/ox.wasm', import.meta.url);
// The package's entry, quoted for the scripts below that run in processes of their own (a load
// settles init() for its process).
const indexHref = JSON.stringify(new URL('../../js/index.mjs', import.meta.url).href);
const runModule = (script, flags = [], cwd = undefined) =>
  spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30000, cwd });
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
  assert.match(await rejection({ wasmBinary: 'ox.wasm' }), /init\(\{ wasmBinary \}\) needs an ArrayBuffer, a SharedArrayBuffer or a typed array/);
  assert.match(await rejection({ wasmBinary: new TextEncoder().encode('<!doctype html>') }),
    /init\(\{ wasmBinary \}\) is not a WebAssembly module: got 15 bytes starting "<!doctype html>"/);
  const truncated = (await readFile(wasmFile)).subarray(0, 200);
  const message = await rejection({ wasmBinary: truncated });
  assert.match(message, /^onnx-extrema: the wasm module failed to start \(is it this onnx-extrema version's dist\/ox\.wasm\?\): .*CompileError/);
  assert.doesNotMatch(message, /ASSERTIONS/, 'no advice to rebuild Emscripten with assertions');
  // A wasm module, but not this package's: it compiles, then lacks the exports the glue reads.
  assert.match(await rejection({ wasmBinary: new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]) }),
    /^onnx-extrema: the wasm module failed to start \(is it this onnx-extrema version's dist\/ox\.wasm\?\): /);
  // Bytes whose buffer was transferred away (to a worker, say).
  const transferred = (view) => (structuredClone(view.buffer, { transfer: [view.buffer] }), view);
  assert.match(await rejection({ wasmBinary: transferred(new Uint8Array(await readFile(wasmFile))) }),
    /^onnx-extrema: init\(\{ wasmBinary \}\) got a Uint8Array whose buffer is detached/);
  const resizable = new ArrayBuffer(64, { maxByteLength: 128 });
  const pastTheEnd = new Uint8Array(resizable, 0, 64);
  resizable.resize(8); // the buffer is still there; the fixed-length view lies past its end
  assert.match(await rejection({ wasmBinary: pastTheEnd }),
    /^onnx-extrema: init\(\{ wasmBinary \}\) got a Uint8Array out of the bounds of its resizable buffer/);
  assert.match(await rejection({ wasmBinary: transferred(new Uint8Array(16)).buffer }),
    /^onnx-extrema: init\(\{ wasmBinary \}\) cannot read its bytes \(.*detached/);
});

test('options that are no object of one of wasmBinary, wasmUrl and wasmModule reject, not load from the default place', async () => {
  const bytes = await readFile(wasmFile);
  const compiled = await WebAssembly.compile(bytes);
  for (const [options, said] of [[5, 'a number'], ['ox.wasm', 'the string "ox.wasm"'], [bytes, 'a Uint8Array'], [[bytes], 'an Array'], [new Map(), 'a Map'], [compiled, 'a WebAssembly.Module']])
    assert.equal(await rejection(options), `onnx-extrema: init(options) takes an object such as { wasmBinary }, { wasmUrl } or { wasmModule }, got ${said}`);
  assert.equal(await rejection({ wasmURL: 'x.wasm' }), "onnx-extrema: init() got unknown option 'wasmURL'; its options are wasmBinary, wasmUrl and wasmModule");
  assert.match(await rejection({ wasmBinary: bytes, locateFile: (f) => f }), /^onnx-extrema: init\(\) got unknown option 'locateFile'/);
  assert.equal(await rejection({ wasmBinary: bytes, wasmUrl: wasmFile }), 'onnx-extrema: init() takes one of wasmBinary, wasmUrl and wasmModule, got wasmBinary and wasmUrl');
  assert.equal(await rejection({ wasmModule: compiled, wasmUrl: wasmFile }), 'onnx-extrema: init() takes one of wasmBinary, wasmUrl and wasmModule, got wasmUrl and wasmModule');
});

test('bad wasmModule values reject with what they were', async () => {
  const bytes = await readFile(wasmFile);
  for (const [value, said] of [[bytes, 'a Uint8Array'], [wasmFile.href, `the string ${JSON.stringify(wasmFile.href.slice(0, 40))}`], [{}, 'an object']])
    assert.equal(await rejection({ wasmModule: value }),
      `onnx-extrema: init({ wasmModule }) needs a WebAssembly.Module of dist/ox.wasm (WebAssembly.compile of its bytes, or a bundler's import of the .wasm as a module), got ${said}`);
  // A compiled module, but not this package's: it instantiates, then lacks the exports the glue
  // reads; and one whose imports the glue does not give.
  const empty = await WebAssembly.compile(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  assert.match(await rejection({ wasmModule: empty }), /^onnx-extrema: the wasm module failed to start \(is it this onnx-extrema version's dist\/ox\.wasm\?\): /);
  const importsF = await WebAssembly.compile(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 2, 7, 1, 1, 0x78, 1, 0x66, 0, 0]));
  assert.match(await rejection({ wasmModule: importsF }), /^onnx-extrema: the wasm module failed to start \(is it this onnx-extrema version's dist\/ox\.wasm\?\): (WebAssembly\.instantiate\(\): Import #0 |import x:f )/);  // (V8's wording, which differs by version; JavaScriptCore's in Bun)
});

// In a process of its own, since a load settles init() for the process: the bytes in a
// SharedArrayBuffer (a worker handed them over, say), whole or as a view at an offset, load.
test('wasmBinary in a SharedArrayBuffer loads', { skip: NOT_NODE }, () => {
  for (const form of ['shared', 'new Uint8Array(shared, 8, bytes.length)']) {
    const script = `
      import { readFile } from 'node:fs/promises';
      import { argMax, init } from ${indexHref};
      const bytes = await readFile(new URL(${JSON.stringify(wasmFile.href)}));
      const shared = new SharedArrayBuffer(bytes.length + 16);
      new Uint8Array(shared, ${form === 'shared' ? 0 : 8}).set(bytes);
      await init({ wasmBinary: ${form === 'shared' ? 'shared.slice(0, bytes.length)' : form} });
      console.log(argMax({ type: 'float32', data: new Float32Array([1, 3, 2]), dims: [3] }).data[0]);`;
    const child = runModule(script);
    assert.equal(child.stderr, '', form);
    assert.equal(child.stdout.trim(), '1n', form);
  }
});

// init(null) is init(): null counts as no options, as it does for the operators' options. In a
// process of its own, since a load settles init() for the process.
test('init(null) loads from the default place, as init() does', { skip: NOT_NODE }, () => {
  const script = `
    import { argMax, init } from ${indexHref};
    await init(null);
    console.log(argMax({ type: 'float32', data: new Float32Array([1, 3, 2]), dims: [3] }).data[0]);`;
  const child = runModule(script);
  assert.equal(child.stderr, '');
  assert.equal(child.stdout.trim(), '1n');
});

// Runtimes that cannot run ox.wasm at all say so instead of failing to compile it: Node's --jitless
// (no WebAssembly) for real, and a runtime without WebAssembly SIMD (Safari before 16.4) as a
// WebAssembly that refuses every module with a byte of the SIMD prefix (0xfd), as such an engine
// refuses ox.wasm. In processes of their own, since a load settles init() for the process.
test('a runtime without WebAssembly, or without its SIMD, is an Error saying so', { skip: NOT_NODE }, () => {
  const tryInit = `
    const { init } = await import(${indexHref});
    await init().then(() => console.log('loaded'), (e) => console.log(e.message));`;
  const jitless = runModule(tryInit, ['--jitless']);
  assert.equal(jitless.stdout.trim(), "onnx-extrema: cannot run here: this runtime has no WebAssembly (Node's --jitless and Safari's Lockdown Mode turn it off)");
  const noSimd = runModule(`
    const simd = (bytes) => new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, bytes.byteLength).includes(0xfd);
    const refuse = (real) => (bytes, ...rest) => (simd(bytes) ? Promise.reject(new WebAssembly.CompileError('invalid value type 0x7b')) : real(bytes, ...rest));
    const { validate, compile, instantiate } = WebAssembly;
    WebAssembly.validate = (bytes) => !simd(bytes) && validate(bytes);
    WebAssembly.compile = refuse(compile);
    WebAssembly.instantiate = refuse(instantiate);
    ${tryInit}`);
  assert.equal(noSimd.stderr, '');
  assert.match(noSimd.stdout.trim(), /^onnx-extrema: cannot run here: this runtime's WebAssembly has no SIMD \(simd128\), which onnx-extrema's kernels are built on: it needs Chrome or Edge 91\+, Firefox 89\+, Safari 16\.4\+/);
});

// A runtime that compiles no wasm from bytes (Cloudflare Workers; here V8's own refusal, the
// WebAssembly of a vm context made with codeGeneration: { wasm: false }): init() says to pass a
// compiled module, and one compiled beforehand loads. And an instantiate that throws instead of
// rejecting (a shim) rejects init({ wasmModule }), which the next init() retries.
test('no wasm compiled from bytes: init() points to wasmModule, which loads; a throwing instantiate rejects', { skip: NOT_NODE }, () => {
  const script = `
    import vm from 'node:vm';
    import { readFileSync } from 'node:fs';
    const { argMax, init } = await import(${indexHref});
    const wasmModule = new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(wasmFile.href)})));
    const outcome = (promise) => promise.then(() => 'loaded', (e) => e.message);
    const { instantiate } = WebAssembly;
    WebAssembly.instantiate = () => { throw new TypeError('instantiate is not available'); };
    console.log(await outcome(init({ wasmModule })));
    const locked = vm.runInContext('WebAssembly', vm.createContext({}, { codeGeneration: { wasm: false } }));
    for (const k of ['instantiate', 'compile', 'validate']) WebAssembly[k] = locked[k].bind(locked);
    console.log(await outcome(init()));
    console.log(await outcome(init({ wasmModule })));
    console.log(argMax({ type: 'float32', data: new Float32Array([1, 3, 2]), dims: [3] }).data[0]);`;
  const child = runModule(script);
  assert.equal(child.stderr, '');
  const [thrown, fromBytes, compiled, answer] = child.stdout.trim().split('\n');
  assert.equal(thrown, "onnx-extrema: the wasm module failed to start (is it this onnx-extrema version's dist/ox.wasm?): instantiate is not available");
  assert.match(fromBytes, /^onnx-extrema: this runtime compiles no WebAssembly from bytes: pass init\(\{ wasmModule \}\), the module its bundler makes of onnx-extrema\/ox\.wasm \(.*Wasm code generation disallowed by embedder/);
  assert.equal(compiled, 'loaded');
  assert.equal(answer, '1n');
});

// In a process of its own: a module compiled once, in a worker thread, and posted to the main
// thread (as a browser's worker pool shares one), starts there and computes.
test('wasmModule: a WebAssembly.Module of ox.wasm, compiled elsewhere and posted over, loads', { skip: NOT_NODE }, () => {
  const script = `
    import { Worker } from 'node:worker_threads';
    import { argMax, init } from ${indexHref};
    const compiler = new Worker(\`
      import { parentPort } from 'node:worker_threads';
      import { readFileSync } from 'node:fs';
      WebAssembly.compile(readFileSync(new URL(${JSON.stringify(wasmFile.href)}))).then((m) => parentPort.postMessage(m));\`, { eval: true });
    const wasmModule = await new Promise((resolve) => compiler.once('message', resolve));
    await compiler.terminate();
    await init({ wasmModule });
    console.log(argMax({ type: 'float32', data: new Float32Array([1, 3, 2]), dims: [3] }).data[0]);`;
  const child = runModule(script);
  assert.equal(child.stderr, '');
  assert.equal(child.stdout.trim(), '1n');
});

// In a process of its own, started in another folder: where there is no page, a relative wasmUrl
// is relative to the package's js/ folder, not to the working directory.
test('a relative wasmUrl in Node is relative to the js/ folder', { skip: NOT_NODE }, () => {
  const script = `
    import { argMax, init } from ${indexHref};
    await init({ wasmUrl: '../dist/ox.wasm' });
    console.log(argMax({ type: 'float32', data: new Float32Array([1, 3, 2]), dims: [3] }).data[0]);`;
  const child = runModule(script, [], tmpdir());
  assert.equal(child.stderr, '');
  assert.equal(child.stdout.trim(), '1n');
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

test('operators before init() throw; concurrent init() calls share one load; init() is idempotent, its options still checked', async () => {
  const x = new Tensor('float32', new Float32Array([1, 3, 2]), [3]);
  assert.throws(() => argMax(x), /before init\(\) resolved; await init\(\) first/);
  // init()'s priming calls (js/prime.js) keep their failures to themselves: before the module is
  // loaded each of them throws, and prime() still returns, leaving the operators unloaded.
  assert.equal(prime(), undefined);
  assert.throws(() => argMax(x), /before init\(\) resolved/);
  // The options are read once the load has begun: a getter of theirs calling init() again gets
  // the same promise (it started a load of its own each time, one wasm instance per call).
  let fromGetter;
  const options = {
    get wasmUrl() {
      fromGetter = init(options);
      return `${server.origin}/dist/ox.wasm`;
    },
  };
  const first = init(options);
  const second = init({ wasmUrl: 'http://127.0.0.1:9/never-fetched.wasm' });
  assert.equal(second, first, 'a call while loading returns the same promise');
  await first;
  assert.equal(fromGetter, first, "a call from the options' getter returns the same promise");
  assert.equal(server.requests.filter((r) => r === '/dist/ox.wasm').length, 1);
  // Once loaded, init() loads nothing, but checks its options as a load does.
  await init({ wasmUrl: 'http://127.0.0.1:9/never-fetched.wasm' });
  await init({ wasmBinary: new Uint8Array(await (await fetch(`${server.origin}/dist/ox.wasm`)).arrayBuffer()) });
  await assert.rejects(init({ wasmBinary: 'bytes' }), /^Error: onnx-extrema: init\(\{ wasmBinary \}\) needs an ArrayBuffer/);
  await assert.rejects(init({ wasmBinary: new Uint8Array([1, 2, 3]) }), /init\(\{ wasmBinary \}\) is not a WebAssembly module/);
  await assert.rejects(init({ wasmModule: new Uint8Array(8) }), /init\(\{ wasmModule \}\) needs a WebAssembly.Module/);
  await assert.rejects(init({ foo: 1 }), /init\(\) got unknown option 'foo'/);
  await assert.rejects(init(new Uint8Array(8)), /init\(options\) takes an object/);
  assert.deepEqual(Array.from(argMax(x).data), [1n]);
});
