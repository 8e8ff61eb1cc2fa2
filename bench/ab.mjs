// End-to-end A/B of two builds in one process: this checkout's package and another checkout's (a
// worktree of an older commit, built), called in alternation on the same JS typed arrays, so the
// whole call (copy in, kernels, output out) is compared with machine noise falling on both alike.
// kernels.mjs --ab compares kernels alone; this is the check for a change whose kernel gain may
// not survive the staged path.
//   node bench/ab.mjs --ab=/tmp/old '[["float16", [524288, 5], "ArgMax", {"axis": -1}], ...]'
// Each case: [type, dims, op, attributes, opset?]; prints medians of µs per call and the median
// per-round ratio other / this (> 1: this checkout faster). Types: those bench/lib/data.mjs makes.
// --processes=N runs the whole A/B in N fresh processes, one after another, and prints each case's
// N ratios and their median: a process's timings can be bimodal (the same module read float16
// ReduceMax over axis 0 of [1024,2048] at 171-176 or 257-265 us, process by process, on the Zen 5
// host: the vCPU the process ran on, lib/cpu-pinning.mjs), so process p runs on CPU p mod N
// where taskset can pin it, and each CPU has its share of the ratios.
// --data=negative|positive|zeros|nan reshapes float inputs for the paths off the common one: every
// value negative (log-probabilities) or non-negative (distances), every row's maximum a zero (a
// third +0, the rest negative), or a NaN every 37 values.
// --resident gives each build the input as a wasmTensor of its own module (read in place: the
// kernel and the call's fixed cost, no copy in); --out has each build write into one output array
// of its own, made once and reused ({ out }, as a frame loop would).
import { spawnSync } from 'node:child_process';
import { cpuPinning } from './lib/cpu-pinning.mjs';
import { makeInput } from './lib/data.mjs';
import { optionNumber, optionText } from './lib/options.mjs';

const args = process.argv.slice(2);
const PROCESSES = optionNumber('processes', 1);
if (PROCESSES > 1) {
  const self = new URL(import.meta.url).pathname;
  const rest = args.filter((a) => !a.startsWith('--processes='));
  const ratios = new Map(); // case -> ratios, in process order
  const pinning = cpuPinning();
  for (let p = 0; p < PROCESSES; p += 1) {
    const command = pinning ? ['taskset', '-c', pinning.cpuList(p), process.execPath] : [process.execPath];
    const run = spawnSync(command[0], [...command.slice(1), self, ...rest], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (run.status !== 0) process.exit(run.status ?? 1);
    for (const line of run.stdout.trim().split('\n')) {
      const [label, ratio] = line.split(', other/this ');
      const key = label.slice(0, label.lastIndexOf(': this '));
      ratios.set(key, [...(ratios.get(key) ?? []), Number(ratio)]);
    }
  }
  const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
  for (const [key, v] of ratios) console.log(`${key}: other/this ${v.map((r) => r.toFixed(3)).join(' ')}, median ${median(v).toFixed(3)}`);
  process.exit(0);
}
const other = optionText('ab', undefined);
const spec = args.find((a) => !a.startsWith('--'));
if (!other || !spec) {
  console.error("usage: node bench/ab.mjs --ab=OTHER_CHECKOUT [--resident] [--out] [--data=...] [--processes=N] '[[type, dims, op, attributes, opset?], ...]'");
  process.exit(2);
}
const DATA = optionText('data', undefined);
const RESIDENT = args.includes('--resident');
const OUT = args.includes('--out');
const ROUNDS = 15;

// x reshaped as DATA asks (float types; float16/bfloat16 as bits).
function reshape(type, x) {
  const half = type === 'float16' || type === 'bfloat16';
  if (!DATA || !(half || type === 'float32' || type === 'float64')) return x;
  const negative = half ? (v) => v | 0x8000 : (v) => -Math.abs(v);
  const positive = half ? (v) => v & 0x7fff : (v) => Math.abs(v);
  const nan = half ? (type === 'float16' ? 0x7e00 : 0x7fc0) : NaN;
  for (let i = 0; i < x.length; i += 1) {
    if (DATA === 'negative') x[i] = negative(x[i]);
    else if (DATA === 'positive') x[i] = positive(x[i]);
    else if (DATA === 'zeros') x[i] = i % 3 === 0 ? 0 : negative(x[i]);
    else if (DATA === 'nan' && i % 37 === 36) x[i] = nan;
  }
  return x;
}
const TARGET_US = 3000; // per sample
const WARM_MS = 1000; // per case

const mine = await import(new URL('../js/index.mjs', import.meta.url));
const theirs = await import(`${other.replace(/\/$/, '')}/js/index.mjs`);
await mine.init();
await theirs.init();

// One build's call of case c: its input (the shared array, or a wasmTensor of its module holding
// the same values) and options (its own reused output array).
function callOf(pkg, c) {
  let x = c.x;
  if (RESIDENT) {
    x = pkg.wasmTensor(x.type, x.dims);
    x.data.set(c.x.data);
  }
  const first = OUT ? pkg.runNode(c.op, [x], c.attrs, c.opset)[0].data : null;
  const options = first ? { out: new first.constructor(first.length) } : undefined;
  return { run: () => pkg.runNode(c.op, [x], c.attrs, c.opset, options), release: () => RESIDENT && x.dispose() };
}
const sample = (call, reps) => {
  const t0 = process.hrtime.bigint();
  for (let k = 0; k < reps; k += 1) call.run();
  return Number(process.hrtime.bigint() - t0) / 1e3 / reps;
};
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];

for (const [type, dims, op, attrs = {}, opset] of JSON.parse(spec)) {
  // The bench's deterministic values (lib/data.mjs: no NaN), the same array for both builds.
  const name = `${op}.${type}.${dims}`, count = dims.reduce((a, b) => a * b, 1);
  const c = { x: { type, data: reshape(type, makeInput({ name, type, count })), dims }, op, attrs, opset };
  // Warm up both for a second: V8 runs a function's baseline code until its optimized code,
  // compiled in the background, is swapped in (docs/speed.md: warm-up); 20 calls left the first case of
  // a run partly on baseline code.
  const mineCall = callOf(mine, c), theirCall = callOf(theirs, c);
  for (const t0 = performance.now(); performance.now() - t0 < WARM_MS; ) sample(mineCall, 1), sample(theirCall, 1);
  const reps = Math.max(1, Math.round(TARGET_US / sample(mineCall, 3)));
  const a = [], b = [], ratio = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    let x, y; // this checkout's and the other's µs, the order alternating round by round
    if (r % 2) (x = sample(mineCall, reps)), (y = sample(theirCall, reps));
    else (y = sample(theirCall, reps)), (x = sample(mineCall, reps));
    a.push(x), b.push(y), ratio.push(y / x);
  }
  mineCall.release(), theirCall.release();
  console.log(`${op} ${type} [${dims}] ${JSON.stringify(attrs)}: this ${median(a).toFixed(2)} µs, other ${median(b).toFixed(2)} µs, other/this ${median(ratio).toFixed(3)}`);
}
