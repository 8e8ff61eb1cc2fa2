// init(): loads the wasm module once. Node reads the .wasm next to the package's JS and hands
// the bytes to the module (Emscripten 3.1.6's own loader cannot load files in Node 20); a browser
// fetches new URL('../dist/ox.wasm', import.meta.url), which bundlers understand, unless
// init({ wasmUrl }), init({ wasmBinary }) or init({ wasmModule }) says otherwise.
import createOxModule from '../dist/ox.mjs';
import { currentModule, setModule } from './module.js';
import { prime } from './prime.js';
import { bufferOf, describeValue, isDetached, isMapOrSet, isSharedBuffer, keyText, typedArrayKind } from './dtypes.js';
import { detachedText } from './tensor.js';

// Computed at init(), not at import: a classic-script bundle (esbuild's default iife format) has an
// empty import.meta, and new URL(path, undefined) throws.
function defaultWasmUrl() {
  try {
    return new URL('../dist/ox.wasm', import.meta.url);
  } catch (cause) {
    throw new Error(`onnx-extrema: cannot locate ox.wasm: import.meta.url is ${import.meta.url} in this bundle (an iife or CommonJS output?); pass init({ wasmUrl }) or init({ wasmBinary })`, { cause });
  }
}
const isNode = typeof globalThis.process?.versions?.node === 'string';
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

let loading = null;

// The smallest module that uses a v128 (i8x16.splat of i32.const 0). A runtime that refuses it has
// no WebAssembly SIMD (Safari before 16.4, so iPhones left on iOS 15; Chrome before 91), and would
// refuse ox.wasm with a compile error that names only an opcode.
const SIMD_PROBE = [0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11];

// (a runtime that refuses to look at bytes at all, as one that takes only compiled modules may,
// leaves the answer to the load)
function validates(bytes) {
  try {
    return WebAssembly.validate(new Uint8Array(bytes));
  } catch {
    return true;
  }
}

// What this runtime lacks that ox.wasm needs, checked before its bytes are fetched.
function missingWasmSupport() {
  if (typeof WebAssembly !== 'object' || WebAssembly === null || typeof WebAssembly.validate !== 'function')
    return "this runtime has no WebAssembly (Node's --jitless and Safari's Lockdown Mode turn it off)";
  if (!validates(SIMD_PROBE))
    return "this runtime's WebAssembly has no SIMD (simd128), which onnx-extrema's kernels are built on: it needs Chrome or Edge 91+, Firefox 89+, Safari 16.4+ (iOS 16.4+), Node 20+, Deno or Bun";
  return null;
}

const HINT = 'serve dist/ox.wasm there, or pass init({ wasmUrl }) or init({ wasmBinary })';

function describeBytes(bytes) {
  const head = Array.from(bytes.subarray(0, 24), (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
  return `${bytes.length} bytes starting ${JSON.stringify(head)}`;
}

// `what` says where the bytes came from and, for a response, its content type.
function checkWasm(bytes, what, hint = HINT) {
  if (bytes.length < 8 || WASM_MAGIC.some((b, i) => bytes[i] !== b))
    throw new Error(`onnx-extrema: ${what} is not a WebAssembly module: got ${describeBytes(bytes)}; ${hint}`);
}

// node:fs/promises without a static or literal import, so browser bundlers (Vite, webpack) see no
// Node built-in to resolve or stub: process.getBuiltinModule (Node >= 20.16), else a hidden import().
async function nodeFs() {
  const name = 'node:fs/promises';
  const { process } = globalThis;
  if (typeof process.getBuiltinModule === 'function') return process.getBuiltinModule(name);
  return import(/* webpackIgnore: true */ /* @vite-ignore */ name);
}

async function fetchWasm(url) {
  const where = `the wasm at ${url.href}`;
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await nodeFs();
    let bytes;
    try {
      bytes = new Uint8Array(await readFile(url));
    } catch (cause) {
      throw new Error(`onnx-extrema: cannot read ${where}: ${cause.message}`, { cause });
    }
    checkWasm(bytes, where, 'reinstall the package, or pass init({ wasmBinary })');
    return bytes;
  }
  let response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new Error(`onnx-extrema: cannot fetch ${where}: ${cause.message}; ${HINT}`, { cause });
  }
  if (!response.ok) {
    const status = `HTTP ${response.status} ${response.statusText}`.trim();
    throw new Error(`onnx-extrema: fetching ${where} answered ${status} (${contentType(response)}); ${HINT}`);
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  checkWasm(bytes, `${where} (served as ${contentType(response)})`);
  return bytes;
}

const contentType = (response) => response.headers.get('content-type') || 'no content type';

function toBytes(wasmBinary) {
  if (!(wasmBinary instanceof ArrayBuffer || isSharedBuffer(wasmBinary) || ArrayBuffer.isView(wasmBinary)))
    throw new Error('onnx-extrema: init({ wasmBinary }) needs an ArrayBuffer, a SharedArrayBuffer or a typed array of the .wasm bytes');
  // A detached buffer (transferred to a worker, say) reads as empty, or cannot be viewed at all.
  if (typedArrayKind(wasmBinary) !== undefined && isDetached(wasmBinary))
    throw new Error(`onnx-extrema: init({ wasmBinary }) got ${detachedText(wasmBinary)}; pass the bytes of dist/ox.wasm`);
  try {
    const bytes = wasmBinary instanceof Uint8Array ? wasmBinary
      : ArrayBuffer.isView(wasmBinary) ? new Uint8Array(wasmBinary.buffer, wasmBinary.byteOffset, wasmBinary.byteLength)
        : new Uint8Array(wasmBinary);
    // Shared bytes are copied: WebAssembly's compile may refuse them, and another thread could
    // change them while it reads.
    return isSharedBuffer(bufferOf(bytes)) ? new Uint8Array(bytes) : bytes;
  } catch (cause) {
    throw new Error(`onnx-extrema: init({ wasmBinary }) cannot read its bytes (${cause.message}); pass the bytes of dist/ox.wasm`, { cause });
  }
}

// init({ wasmBinary })'s bytes, checked to be a wasm module's.
function wasmBytes(wasmBinary) {
  const bytes = toBytes(wasmBinary);
  checkWasm(bytes, 'init({ wasmBinary })', 'pass the bytes of dist/ox.wasm');
  return bytes;
}

// A relative wasmUrl is relative to the page (or worker script) in a browser, and to this file
// (the package's js/ folder) where there is no page, as in Node.
function resolveWasmUrl(wasmUrl) {
  const base = typeof location === 'object' && location?.href ? location.href : import.meta.url;
  try {
    return new URL(String(wasmUrl), base);
  } catch (cause) {
    throw new Error(`onnx-extrema: init({ wasmUrl }) got ${JSON.stringify(String(wasmUrl))}, which is not a URL`, { cause });
  }
}

const INIT_OPTIONS = ['wasmBinary', 'wasmUrl', 'wasmModule'];

// init()'s options as { wasmBinary, wasmUrl, wasmModule }, each read once. Anything but an object
// of one of those (or nothing) is an Error rather than a load from the default place: `init(bytes)`
// meant { wasmBinary: bytes }, and a misspelt `wasmURL`, an Emscripten option such as locateFile,
// or a second source would have been ignored.
function readInitOptions(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options) || isMapOrSet(options) || ArrayBuffer.isView(options) || options instanceof ArrayBuffer || isWasmModule(options))
    throw new Error(`onnx-extrema: init(options) takes an object such as { wasmBinary }, { wasmUrl } or { wasmModule }, got ${isWasmModule(options) ? 'a WebAssembly.Module' : describeValue(options)}`);
  for (const key in options) {
    if (Object.hasOwn(options, key) && !INIT_OPTIONS.includes(key))
      throw new Error(`onnx-extrema: init() got unknown option '${keyText(key)}'; its options are wasmBinary, wasmUrl and wasmModule`);
  }
  const { wasmBinary, wasmUrl, wasmModule } = options;
  const read = { wasmBinary, wasmUrl, wasmModule };
  const given = INIT_OPTIONS.filter((key) => read[key] !== undefined);
  if (given.length > 1) throw new Error(`onnx-extrema: init() takes one of wasmBinary, wasmUrl and wasmModule, got ${given.join(' and ')}`);
  return read;
}

// (by its tag, so a Module of another realm, such as one posted from another worker, is one too)
const isWasmModule = (value) => Object.prototype.toString.call(value) === '[object WebAssembly.Module]';

// A compiled module is instantiated through Emscripten's instantiateWasm hook, whose failures
// the glue only logs: they reject here instead.
function checkWasmModule(wasmModule) {
  if (!isWasmModule(wasmModule))
    throw new Error(`onnx-extrema: init({ wasmModule }) needs a WebAssembly.Module of dist/ox.wasm (WebAssembly.compile of its bytes, or a bundler's import of the .wasm as a module), got ${describeValue(wasmModule)}`);
}

function fromCompiled(wasmModule) {
  checkWasmModule(wasmModule);
  let fail;
  const failed = new Promise((_, reject) => {
    fail = reject;
  });
  const instantiateWasm = (imports, receive) => {
    // (in a then, so an instantiate that throws rather than rejects rejects too)
    Promise.resolve().then(() => WebAssembly.instantiate(wasmModule, imports)).then((instance) => receive(instance, wasmModule)).catch(fail);
    return {}; // (asynchronous: the exports arrive through receive)
  };
  return { options: { instantiateWasm }, failed };
}

async function load(options) {
  const { wasmBinary, wasmUrl, wasmModule } = readInitOptions(options);
  const missing = missingWasmSupport();
  if (missing) throw new Error(`onnx-extrema: cannot run here: ${missing}`);
  let source;
  if (wasmModule !== undefined) {
    source = fromCompiled(wasmModule);
  } else if (wasmBinary !== undefined) {
    source = { options: { wasmBinary: wasmBytes(wasmBinary) } };
  } else {
    source = { options: { wasmBinary: await fetchWasm(wasmUrl !== undefined ? resolveWasmUrl(wasmUrl) : defaultWasmUrl()) } };
  }
  try {
    const started = createOxModule({ ...source.options, locateFile: (file) => file, print: () => {}, printErr: () => {} });
    return await (source.failed ? Promise.race([started, source.failed]) : started);
  } catch (cause) {
    const text = String(cause?.message ?? cause).replace(/\s*Build with -s ASSERTIONS=1 for more info\.?/, '');
    // The engine refused to compile the module: Chromium and WebKit name the policy, Firefox says
    // "call to WebAssembly.instantiate() blocked by CSP" (Firefox 153, WebKitGTK 2.50: tests/browser/page-suite.mjs).
    if (/WebAssembly/.test(text) && /Content.Security.Policy|blocked by CSP/i.test(text))
      throw new Error(`onnx-extrema: the page's Content Security Policy does not allow WebAssembly: add 'wasm-unsafe-eval' to its script-src (${text.trim()})`, { cause });
    // V8's words where its embedder compiles no wasm from bytes (Cloudflare Workers).
    if (/code generation disallowed/i.test(text))
      throw new Error(`onnx-extrema: this runtime compiles no WebAssembly from bytes: pass init({ wasmModule }), the module its bundler makes of onnx-extrema/ox.wasm (${text.trim()})`, { cause });
    // (a wasm module other than this package's own ox.wasm fails here too, for want of its exports)
    throw new Error(`onnx-extrema: the wasm module failed to start (is it this onnx-extrema version's dist/ox.wasm?): ${text}`, { cause });
  }
}

// Once loaded, init() loads nothing, but its options are still checked as a load checks them
// (what they are, and that given bytes are a wasm module's): an unknown option or garbage bytes
// rejected before the load and passed after it.
function optionsChecked(options) {
  return (async () => {
    const { wasmBinary, wasmModule } = readInitOptions(options);
    if (wasmBinary !== undefined) wasmBytes(wasmBinary);
    if (wasmModule !== undefined) checkWasmModule(wasmModule);
  })();
}

/**
 * Loads the wasm module; resolves once operators can be called. Idempotent: calls during the load
 * return the same promise, and calls after it load nothing (their options are checked, not used).
 * A failed load rejects, and a later init() tries again.
 * @param {{ wasmBinary?: ArrayBuffer | SharedArrayBuffer | ArrayBufferView, wasmUrl?: string | URL, wasmModule?: WebAssembly.Module }} [options]
 */
export function init(options = {}) {
  if (currentModule()) return optionsChecked(options);
  if (!loading) {
    // The options are read a tick later, once `loading` is set: a getter of theirs that calls
    // init() again gets this promise instead of starting another load.
    loading = (async () => {
      await undefined; // (not Promise.resolve().then(() => ...): Parcel 2 rewrites that pattern, parcel#8116)
      return load(options);
    })().then(
      (M) => {
        setModule(M);
        prime();
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}
