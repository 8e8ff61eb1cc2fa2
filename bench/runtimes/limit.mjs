// Limits of this runtime, for scale, on the case's input bytes read as float32 (so every dtype
// gets the same bandwidth figure): limit-max = NaN-propagating SIMD max over the input already in
// the wasm heap; limit-stream = copy each 256 KiB chunk of the JS array into a staging buffer and
// max it while in cache (the ideal of onnx-extrema's streaming path); limit-copy-in = HEAPU8.set
// of the whole input into the heap; limit-copy-chunks = the same copy in 256 KiB chunks into one
// staging buffer that stays in cache, with no work on them. Wasm reads only its own memory, so
// every runtime given a JS typed array pays at least the cheaper of the two copies: the report's
// copy floor.
import { readBytes } from '../lib/platform.mjs';

const STAGING_BYTES = 256 * 1024;
let M = null;

export async function load() {
  const { default: createLimitModule } = await import('../build/limit.mjs');
  M = await createLimitModule({ wasmBinary: await readBytes(new URL('../build/limit.wasm', import.meta.url)) });
  return { label: 'bench/limit/streaming_max.cc (em++ -O3 -msimd128)' };
}

export function make({ column }) {
  const held = [];
  const alloc = (bytes) => {
    const p = M._malloc(bytes);
    if (!p) throw new Error('limit: out of memory');
    held.push(p);
    return p;
  };
  return {
    name: column,
    prepare(c, input) {
      const bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
      const floats = bytes.length >> 2;
      if (column === 'limit-max') {
        const p = alloc(bytes.length);
        M.HEAPU8.set(bytes, p);
        return { sync: true, call: () => M._max_f32(p, floats, -Infinity) };
      }
      if (column === 'limit-copy-in') {
        const p = alloc(bytes.length);
        return { sync: true, call: () => M.HEAPU8.set(bytes, p) };
      }
      // limit-stream maxes each chunk while in cache; limit-copy-chunks only copies it.
      const staging = alloc(STAGING_BYTES);
      const maxEach = column === 'limit-stream';
      const end = maxEach ? floats * 4 : bytes.length; // the max reads whole floats
      return {
        sync: true,
        call: () => {
          const heap = M.HEAPU8;
          let best = -Infinity;
          for (let at = 0; at < end; at += STAGING_BYTES) {
            const stop = Math.min(at + STAGING_BYTES, end);
            heap.set(bytes.subarray(at, stop), staging);
            if (maxEach) best = M._max_f32(staging, (stop - at) >> 2, best);
          }
          return best;
        },
      };
    },
    release() {
      for (const p of held.splice(0)) M._free(p);
    },
  };
}
