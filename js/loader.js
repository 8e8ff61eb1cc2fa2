// init(): loads the wasm module once. Node reads the .wasm next to the package's JS and hands
// the bytes to the module (Emscripten 3.1.6's own loader cannot load files in Node 20); a browser
// fetches new URL('../dist/ox.wasm', import.meta.url), which bundlers understand, unless
// init({ wasmUrl }) or init({ wasmBinary }) says otherwise.
import createOxModule from '../dist/ox.mjs';
import { currentModule, setModule } from './module.js';

const defaultWasmUrl = new URL('../dist/ox.wasm', import.meta.url);
const isNode = typeof process === 'object' && typeof process.versions?.node === 'string';
const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d];

let loading = null;

function describeBytes(bytes) {
  const head = Array.from(bytes.subarray(0, 16), (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
  return `${bytes.length} bytes starting ${JSON.stringify(head)}`;
}

function checkWasm(bytes, where) {
  if (bytes.length < 8 || WASM_MAGIC.some((b, i) => bytes[i] !== b))
    throw new Error(`onnx-extrema: ${where} is not a WebAssembly module (got ${describeBytes(bytes)}); serve the .wasm file itself there`);
}

async function fetchWasm(url) {
  const where = `the wasm at ${url.href}`;
  if (isNode && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    let bytes;
    try {
      bytes = new Uint8Array(await readFile(url));
    } catch (cause) {
      throw new Error(`onnx-extrema: cannot read ${where}: ${cause.message}`, { cause });
    }
    checkWasm(bytes, where);
    return bytes;
  }
  let response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new Error(`onnx-extrema: cannot fetch ${where}: ${cause.message}`, { cause });
  }
  if (!response.ok) throw new Error(`onnx-extrema: fetching ${where} answered HTTP ${response.status} ${response.statusText}`.trim());
  const bytes = new Uint8Array(await response.arrayBuffer());
  const type = response.headers.get('content-type') || 'no content type';
  checkWasm(bytes, `${where} (${type})`);
  return bytes;
}

function toBytes(wasmBinary) {
  if (wasmBinary instanceof Uint8Array) return wasmBinary;
  if (wasmBinary instanceof ArrayBuffer) return new Uint8Array(wasmBinary);
  if (ArrayBuffer.isView(wasmBinary)) return new Uint8Array(wasmBinary.buffer, wasmBinary.byteOffset, wasmBinary.byteLength);
  throw new Error('onnx-extrema: init({ wasmBinary }) needs an ArrayBuffer or a typed array of the .wasm bytes');
}

async function load(options) {
  let bytes;
  if (options.wasmBinary !== undefined) {
    bytes = toBytes(options.wasmBinary);
    checkWasm(bytes, 'init({ wasmBinary })');
  } else {
    const base = typeof location === 'object' && location.href ? location.href : import.meta.url;
    bytes = await fetchWasm(options.wasmUrl !== undefined ? new URL(String(options.wasmUrl), base) : defaultWasmUrl);
  }
  try {
    return await createOxModule({ wasmBinary: bytes, print: () => {}, printErr: () => {} });
  } catch (cause) {
    throw new Error(`onnx-extrema: the wasm module failed to start: ${cause?.message ?? cause}`, { cause });
  }
}

/**
 * Loads the wasm module; resolves once operators can be called. Idempotent: later calls return
 * the same promise. A failed load rejects, and a later init() tries again.
 * @param {{ wasmBinary?: ArrayBuffer | ArrayBufferView, wasmUrl?: string | URL }} [options]
 */
export function init(options = {}) {
  if (currentModule()) return Promise.resolve();
  if (!loading) {
    loading = load(options ?? {}).then(
      (M) => {
        setModule(M);
      },
      (error) => {
        loading = null;
        throw error;
      },
    );
  }
  return loading;
}
