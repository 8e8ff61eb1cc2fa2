// Chooses the staging chunk size by measurement: streams a float32 JS array through a staging
// buffer of each size (copy a chunk into the wasm heap, SIMD-max it while in cache: the ideal of
// onnx-extrema's path, bench/limit/streaming_max.cc) and, for comparison, copies the whole input
// into the heap then maxes it, and maxes it in place. Prints GB/s (input bytes / median time).
//   node bench/staging.mjs [--sizes=0.125,4,16,64] (MiB)
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { optionText } from './lib/options.mjs';

const CHUNKS_KIB = [16, 32, 64, 128, 256, 512, 1024];
const sizesMiB = optionText('sizes', '0.125,4,16,64').split(',').map(Number);

if (!existsSync(new URL('./build/limit.wasm', import.meta.url)))
  spawnSync('bash', ['limit/build.sh'], { cwd: fileURLToPath(new URL('.', import.meta.url)), stdio: 'inherit' });
const { default: createLimitModule } = await import('./build/limit.mjs');
const M = await createLimitModule({ wasmBinary: await readFile(new URL('./build/limit.wasm', import.meta.url)) });

// Samples of every variant, interleaved in rounds so machine noise falls on all of them alike.
function measure(variants, rounds = 9, perRound = 3) {
  const samples = variants.map(() => []);
  for (const f of variants) for (let i = 0; i < 2; i += 1) f(); // warm-up
  for (let r = 0; r < rounds; r += 1)
    variants.forEach((f, v) => {
      for (let i = 0; i < perRound; i += 1) {
        const t = performance.now();
        f();
        samples[v].push((performance.now() - t) * 1000);
      }
    });
  return samples.map((s) => s.sort((a, b) => a - b)[s.length >> 1]);
}

const gbs = (bytes, us) => (bytes / (us * 1000)).toFixed(1);
console.log(`load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}; GB/s, median`);
console.log(['input', ...CHUNKS_KIB.map((k) => `stream ${k}K`), 'copy all+max', 'max in heap'].join('\t'));
for (const mib of sizesMiB) {
  const n = Math.round((mib * 2 ** 20) / 4);
  const x = new Float32Array(n);
  for (let i = 0; i < n; i += 1) x[i] = Math.sin(i);
  const bytes = new Uint8Array(x.buffer);
  const whole = M._malloc(n * 4);
  const staging = M._malloc(CHUNKS_KIB[CHUNKS_KIB.length - 1] * 1024);
  const stream = (chunk) => () => {
    let best = -Infinity;
    for (let at = 0; at < n * 4; at += chunk) {
      const end = Math.min(at + chunk, n * 4);
      M.HEAPU8.set(bytes.subarray(at, end), staging);
      best = M._max_f32(staging, (end - at) >> 2, best);
    }
    return best;
  };
  const medians = measure([
    ...CHUNKS_KIB.map((kib) => stream(kib * 1024)),
    () => (M.HEAPU8.set(bytes, whole), M._max_f32(whole, n, -Infinity)),
    () => M._max_f32(whole, n, -Infinity),
  ]);
  const row = [`${mib} MiB`, ...medians.map((us) => gbs(n * 4, us))];
  console.log(row.join('\t'));
  M._free(whole);
  M._free(staging);
}
