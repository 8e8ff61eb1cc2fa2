// Checks the memory target: the wasm heap stays small whatever the input size (inputs are
// streamed through the staging buffer, never copied whole), and a 256 MiB input leaves the
// process no more than 64 MiB larger once it (and the outputs) are freed.
//   node bench/memory.mjs [--mib=256]
// Prints process RSS and the wasm heap size at each step; exits 1 if a limit is exceeded.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { optionNumber } from './lib/options.mjs';

if (typeof globalThis.gc !== 'function') {
  // gc() is needed to free the input between steps: run again with it exposed.
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const { init, argMax, argMin, reduceMax, hardmax, Tensor } = await import('../js/index.mjs');
const { currentModule } = await import('../js/module.js');

const MIB = optionNumber('mib', 256);
const RSS_LIMIT_MIB = 64; // growth of the process once everything is freed
const HEAP_LIMIT_MIB = 16; // growth of the wasm heap while running on the big input

const mib = (bytes) => bytes / 2 ** 20;
const fmt = (bytes) => `${mib(bytes).toFixed(1)} MiB`;
// Full collections on both sides of a turn of the event loop: within one synchronous run, three
// gc() calls sometimes (1 run in 6 here, Node 20) left the last 64 MiB output counted in
// process.memoryUsage().arrayBuffers and the RSS (+70 MiB, a false FAIL), which one more gc() after
// the measurement freed (no call into onnx-extrema between); with a turn of the event loop in the
// middle, 30 runs of 30 freed it.
async function settle() {
  for (let i = 0; i < 3; i += 1) globalThis.gc();
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (let i = 0; i < 3; i += 1) globalThis.gc();
}

await init();
const M = currentModule();
const heapSize = () => M.HEAPU8.byteLength;

// Warm the module (staging buffer, first working memory) on a small input, then take the baseline.
argMax(new Tensor('float32', new Float32Array(1024).fill(1), [4, 256]), { axis: -1 });
await settle();
const base = { rss: process.memoryUsage().rss, heap: heapSize() };
console.log(`baseline: rss ${fmt(base.rss)}, wasm heap ${fmt(base.heap)}`);

const rows = (MIB * 2 ** 20) / 4 / 1024;
let x = new Tensor('float32', new Float32Array(rows * 1024), [rows, 1024]);
for (let i = 0; i < x.data.length; i += 1) x.data[i] = ((i * 2654435761) % 1000003) / 1000003;
console.log(`input: float32 [${rows},1024] ${fmt(x.data.byteLength)}; rss ${fmt(process.memoryUsage().rss)}`);

// The same data seen with other dims (-1: the rest).
function reshaped(...dims) {
  const known = dims.filter((d) => d > 0).reduce((a, b) => a * b, 1);
  return new Tensor('float32', x.data, dims.map((d) => (d > 0 ? d : x.data.length / known)));
}

const steps = [
  ['argMax axis -1', () => argMax(x, { axis: -1 })],
  ['argMin axis 0', () => argMin(x, { axis: 0 })],
  ['reduceMax axes [-1]', () => reduceMax(x, { axes: [-1] })],
  ['reduceMax all', () => reduceMax(x, {})],
  ['hardmax axis -1', () => hardmax(x, { axis: -1 })],
  // Large outputs: working state for a window of outputs only (src/exec/execution.h).
  ['argMax axis 0 [2,N]', () => argMax(reshaped(2, -1), { axis: 0 })],
  ['argMin axis -1 [N,2]', () => argMin(reshaped(-1, 2), { axis: -1 })],
  ['hardmax axis 0 [2,N]', () => hardmax(reshaped(2, -1), { axis: 0 })],
  ['reduceMax [1,3] rank 4', () => reduceMax(reshaped(64, 2, -1, 2), { axes: [1, 3] })],
  // Fed gathered: the blocks of a reduced leading axis fold into the same outputs.
  ['reduceMax [0,2] [2,N,2]', () => reduceMax(reshaped(2, -1, 2), { axes: [0, 2] })],
  ['reduceMax [0,2] [2,4,2,N]', () => reduceMax(reshaped(2, 4, 2, -1), { axes: [0, 2] })],
];
let peakHeap = heapSize();
let peakRss = 0;
for (const [name, run] of steps) {
  let out = run();
  const rss = process.memoryUsage().rss;
  peakRss = Math.max(peakRss, rss);
  peakHeap = Math.max(peakHeap, heapSize());
  console.log(`${name.padEnd(26)} output ${fmt(out.data.byteLength).padStart(10)}; rss ${fmt(rss)}, wasm heap ${fmt(heapSize())}`);
  out = null;
  await settle();
}

x = null;
await settle();
const after = { rss: process.memoryUsage().rss, heap: heapSize() };
const rssGrowth = after.rss - base.rss;
const heapGrowth = peakHeap - base.heap;
console.log(`freed:    rss ${fmt(after.rss)} (${rssGrowth >= 0 ? '+' : ''}${fmt(rssGrowth)} over the baseline; peak ${fmt(peakRss)}), wasm heap ${fmt(after.heap)} (peak ${fmt(peakHeap)}, +${fmt(heapGrowth)})`);

const failures = [];
if (mib(rssGrowth) > RSS_LIMIT_MIB) failures.push(`the process stayed ${fmt(rssGrowth)} larger (limit ${RSS_LIMIT_MIB} MiB)`);
if (mib(heapGrowth) > HEAP_LIMIT_MIB) failures.push(`the wasm heap grew by ${fmt(heapGrowth)} on a ${MIB} MiB input (limit ${HEAP_LIMIT_MIB} MiB)`);
if (failures.length) {
  console.log(`FAIL: ${failures.join('; ')}`);
  process.exit(1);
}
console.log(`OK: rss +${fmt(Math.max(0, rssGrowth))} <= ${RSS_LIMIT_MIB} MiB once freed; wasm heap +${fmt(heapGrowth)} <= ${HEAP_LIMIT_MIB} MiB`);
