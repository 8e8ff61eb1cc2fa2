// Kernel-only speed in wasm: each case runs the execution (state reset + kernels, + Hardmax
// write-out) on input already in wasm memory, through the _benchKernel hook, so no copy (but
// --copied's, below) and no JS is timed. Beside each case, in the same run and interleaved round
// by round, a plain streaming-max loop (f32x4.pmax, 4 accumulators) over the same bytes gives the
// bandwidth yardstick. Prints medians, the best sample (least disturbed by other processes on a
// shared machine), the median and quartiles of the per-round ratio kernel/stream, and the ratio of
// bests.
//   node bench/kernels.mjs [substring,filters] [--rounds=N] [--chunk=BYTES] [--ms=TARGET] [--cached | --copied] [--ab=DIST/]
//     [--scan=OP.DTYPE --lengths=L1,L2,.. [--inner=W] [--last]] [--guarded] [--data=negative|positive]
// --chunk feeds the input in chunks of that many bytes, as js/feed.js stages it (256 KiB).
// --cached shrinks each case to at most 256 KiB (the outer axis first, then the longer of the
// others), so the kernel runs on input in L2 as it does on a staged chunk; without it the input
// streams from memory, and a kernel's speed there can differ from the staged path's (ReduceMax
// over float64 rows of 10 ran 1.5x faster from memory in one change and 1.05x end to end).
// Nor does --cached time a chunk as the call meets it, just after its copy: ReduceMax's column
// sweep over rows 4 KiB apart (a 256 KiB chunk of [1024,1024] over axis 0) ran about twice as fast
// right after the copy as repeated here, where the blocked walk ran 1.5x faster and lost end to
// end (docs/speed.md, the ninety-eighth session). --copied does: each case shrunk as --cached
// shrinks it, every kernel run (and the yardstick's) follows a copy of the case's bytes from a JS
// array into its input, as js/feed.js stages a chunk with set(); the times include that copy, so
// compare two kernels with --ab, whose ratio then reads as the staged call's. Confirm with bench/ab.mjs.
// --guarded measures against the stream loop with a NaN detector beside its max (a running sum,
// as the float row kernels keep one): the ceiling of an exact float kernel, about 0.65 of the
// bare loop in cache on V8 (two SIMD ops a vector against one).
// --ab puts another build's kernel (say a worktree of an older commit) in the stream loop's
// place: both modules in one process, rounds interleaved, so the per-round time ratio is steadier
// than two runs one after the other on a noisy machine. DIST/ is that checkout's
// bench/build/kernels/ (run this script there once to build it), or its dist/ for a commit from
// before the hooks left the shipped module (7992d84 and earlier).
// The hooks are in a build of the module of their own (CMake's ox_wasm_bench, never shipped),
// which this script first brings up to date with the sources; OX_DIST names another directory.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { optionNumber, optionText } from './lib/options.mjs';

// Only the bench target: scripts/build.sh (which also links the shipped module) just configures
// build/wasm when it is not yet.
function benchBuild() {
  const rootDir = new URL('..', import.meta.url).pathname;
  const quiet = { cwd: rootDir, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_PATH: '/usr/share/nodejs' } };
  const steps = [['cmake', '--build', 'build/wasm', '--target', 'ox_wasm_bench']];
  // Configured: a build file there, as scripts/lib/configure.sh decides (a failed configure leaves
  // only a cache, and build.sh then configures again).
  const configured = ['build.ninja', 'Makefile'].some((file) => existsSync(new URL(`../build/wasm/${file}`, import.meta.url)));
  if (!configured) steps.unshift(['bash', 'scripts/build.sh', 'wasm']);
  for (const [cmd, ...rest] of steps)
    if (spawnSync(cmd, rest, quiet).status !== 0) throw new Error(`kernels.mjs: ${[cmd, ...rest].join(' ')} failed`);
  return new URL('./build/kernels/', import.meta.url).pathname;
}
const dist = process.env.OX_DIST ?? benchBuild();
const load = async (dir) => {
  const { default: createOxModule } = await import(dir + 'ox.mjs');
  return createOxModule({ wasmBinary: await readFile(dir + 'ox.wasm') });
};

const args = process.argv.slice(2);
const filter = args.find((s) => !s.startsWith('--')) ?? '';
const ROUNDS = optionNumber('rounds', 21);
const CHUNK_BYTES = optionNumber('chunk', 0);
const TARGET_MS = optionNumber('ms', 3);
const AB_DIST = optionText('ab', undefined);
const COPIED = args.includes('--copied');
const CACHED = COPIED || args.includes('--cached');
const GUARDED = args.includes('--guarded');
const DATA = optionText('data', undefined);
const NEGATIVE = DATA === 'negative'; // float inputs all negative (log-probabilities): a max's other side
const POSITIVE = DATA === 'positive'; // float inputs all non-negative (distances): a min's other side
if (GUARDED && AB_DIST) throw new Error('kernels.mjs: --guarded and --ab both name the yardstick; give one');
const CACHED_BYTES = 256 * 1024;
const SOURCE_COPIES = 4; // --copied (copiedEach)
const WARM_MS = 300; // per case, at least

const KIND = { ArgMax: 0, ArgMin: 1, ReduceMax: 2, Hardmax: 3 };
const DTYPE = {
  float32: [1, 4], uint8: [2, 1], int8: [3, 1], uint16: [4, 2], int16: [5, 2], int32: [6, 4], int64: [7, 8],
  bool: [9, 1], float16: [10, 2], float64: [11, 8], uint32: [12, 4], uint64: [13, 8], bfloat16: [16, 2],
};

// name, op, dtype, [outer, reduce, inner], select_last
const CASES = [];
const add = (name, op, dtype, shape, last = 0) => CASES.push({ name, op, dtype, shape, last });
for (const t of ['float32', 'float16', 'bfloat16', 'float64', 'int32', 'uint8']) {
  add(`argmax_vocab_32k.${t}`, 'ArgMax', t, [1, 32000, 1]);
  add(`argmax_rows.${t}`, 'ArgMax', t, [4096, 1024, 1]);
  add(`argmax_seg.${t}`, 'ArgMax', t, [1, 21, 262144]);
  add(`reducemax_rows.${t}`, 'ReduceMax', t, [4096, 1024, 1]);
  add(`reducemax_channels.${t}`, 'ReduceMax', t, [8, 256, 3136]);
  add(`reducemax_axis0.${t}`, 'ReduceMax', t, [1, 1024, 1024]);
  // One staging chunk (256 KiB) of the rows, in cache as the streamed call sees it after its copy.
  add(`reducemax_rows_chunk.${t}`, 'ReduceMax', t, [(256 << 10) / 1024 / DTYPE[t][1], 1024, 1]);
}
add('argmax_vocab_8x128k.float32', 'ArgMax', 'float32', [8, 128256, 1]);
add('argmin_rows.float32', 'ArgMin', 'float32', [4096, 1024, 1]);
add('argmax_rows_last.float32', 'ArgMax', 'float32', [4096, 1024, 1], 1);
add('argmax_cls.float32', 'ArgMax', 'float32', [64, 1000, 1]);
add('reducemax_spatial.float32', 'ReduceMax', 'float32', [2048, 3136, 1]);
add('reducemax_all.float32', 'ReduceMax', 'float32', [1, 4096 * 4096, 1]);
add('hardmax_last.float32', 'Hardmax', 'float32', [4096, 1024, 1]);
add('hardmax_channels.float32', 'Hardmax', 'float32', [1, 21, 262144]);
add('argmax_int64_rows', 'ArgMax', 'int64', [4096, 1024, 1]);
// int64 under the other rules (the sweep's argmin_rows_last.large.int64 ran at half of float64's speed end
// to end; in cache every rule runs alike, about 0.45 of the stream loop: the copy in is the difference).
add('argmin_int64_rows', 'ArgMin', 'int64', [4096, 1024, 1]);
add('argmin_int64_rows_last', 'ArgMin', 'int64', [4096, 1024, 1], 1);
add('argmax_int64_rows_last', 'ArgMax', 'int64', [4096, 1024, 1], 1);
add('argmin_rows_last.float64', 'ArgMin', 'float64', [4096, 1024, 1], 1);
// Short rows: class scores in NHWC layout (21 VOC, 150 ADE20K classes), binary and few-class heads.
for (const t of ['float32', 'float16', 'uint8', 'float64', 'int32', 'int64'])
  for (const n of [2, 3, 4, 5, 7, 8, 10, 21, 40, 64, 150]) {
    const rows = Math.round((5 << 20) / DTYPE[t][1] / n);
    add(`argmax_short_rows_${n}.${t}`, 'ArgMax', t, [rows, n, 1]);
    add(`reducemax_short_rows_${n}.${t}`, 'ReduceMax', t, [rows, n, 1]);
  }
add('argmax_mask_nhwc.float32', 'ArgMax', 'float32', [262144, 2, 1]);
add('argmax_mask.float32', 'ArgMax', 'float32', [1, 2, 262144]);  // the same scores in NCHW layout
add('argmax_seg_nhwc.float32', 'ArgMax', 'float32', [262144, 21, 1]);
add('argmax_short_columns.float32', 'ArgMax', 'float32', [65536, 4, 5]);
// Narrow columns (point coordinates, a few classes; a tile and a part): R rows read as one virtual row.
// (int32 and int64 middle axes of 3 and 5: among the sweep's thinnest margins.)
const NARROW = [['float32', 2], ['float32', 3], ['float32', 4], ['float32', 5], ['float16', 3], ['float16', 7], ['float64', 3],
  ['uint8', 3], ['uint8', 5], ['uint8', 15], ['uint8', 20], ['int32', 3], ['int32', 5], ['float64', 5], ['int64', 3], ['int64', 5]];
for (const [t, w] of NARROW) {
  add(`argmax_narrow_${w}.${t}`, 'ArgMax', t, [1, Math.round((4 << 20) / DTYPE[t][1] / w), w]);
  add(`reducemax_narrow_${w}.${t}`, 'ReduceMax', t, [1, Math.round((4 << 20) / DTYPE[t][1] / w), w]);
  add(`argmax_narrow_slices_${w}.${t}`, 'ArgMax', t, [Math.round((4 << 20) / DTYPE[t][1] / w / 256), 256, w]);
  add(`reducemax_narrow_slices_${w}.${t}`, 'ReduceMax', t, [Math.round((4 << 20) / DTYPE[t][1] / w / 256), 256, w]);
  // Slices long enough for the narrow path's virtual rows, and slices of a few vectors.
  add(`argmax_narrow_slices_2k_${w}.${t}`, 'ArgMax', t, [Math.round((4 << 20) / DTYPE[t][1] / w / 2048), 2048, w]);
  add(`argmax_narrow_slices_40_${w}.${t}`, 'ArgMax', t, [Math.round((4 << 20) / DTYPE[t][1] / w / 40), 40, w]);
}
// A staging chunk (256 KiB) of a column problem by its width: rows a multiple of 4 KiB apart share
// an L1 set (kernels/l1_geometry.h; arg_columns_simd.h: blocked_in_cache), the widths beside them do not.
for (const t of ['float32', 'int32', 'float64', 'float16'])
  for (const w of [256, 512, 1000, 1024, 1056, 2048, 4096]) {
    add(`reducemax_chunk_cols_${w}.${t}`, 'ReduceMax', t, [1, Math.floor((256 << 10) / DTYPE[t][1] / w), w]);
    add(`argmax_chunk_cols_${w}.${t}`, 'ArgMax', t, [1, Math.floor((256 << 10) / DTYPE[t][1] / w), w]);
  }
add('tiny.float32', 'ArgMax', 'float32', [1, 10, 1]);
// --scan=OP.DTYPE --lengths=L1,L2,.. [--inner=W] [--last]: instead of the cases above, rows (slices
// of W columns) of each length, 4 MiB (256 KiB with --cached): where one path hands over to the
// next (short rows, halving, groups of rows, the row kernel), with --ab to compare two builds'
// choices length by length (the thresholds in row_group_max.h, arg_halving.h were set this way).
const scan = optionText('scan', undefined);
if (scan) {
  const [op, dtype] = scan.split('.');
  const inner = optionNumber('inner', 1);
  if (!(op in KIND) || !(dtype in DTYPE)) throw new Error(`kernels.mjs: --scan=${scan}: OP.DTYPE, e.g. ArgMax.uint8`);
  CASES.length = 0;
  for (const length of optionText('lengths', '').split(',').map(Number))
    if (length > 0)
      add(`${op.toLowerCase()}_${length}x${inner}.${dtype}`, op, dtype,
        [Math.max(1, Math.round((4 << 20) / DTYPE[dtype][1] / length / inner)), length, inner], args.includes('--last') ? 1 : 0);
}

const M = await load(dist);
const other = AB_DIST ? await load(AB_DIST) : null;

function fillRandom(module, ptr, bytes, dtype) {
  const heap = module.HEAPU8;
  let seed = 12345;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / 16777216;
  if (dtype === 'float32') {
    const f = new Float32Array(heap.buffer, ptr, bytes / 4);
    for (let i = 0; i < f.length; i += 1) f[i] = (next() - 0.5) * 100;
  } else if (dtype === 'float64') {
    const f = new Float64Array(heap.buffer, ptr, bytes / 8);
    for (let i = 0; i < f.length; i += 1) f[i] = (next() - 0.5) * 100;
  } else if (dtype === 'float16' || dtype === 'bfloat16') {
    const u = new Uint16Array(heap.buffer, ptr, bytes / 2);
    const inf = dtype === 'float16' ? 0x7c00 : 0x7f80;
    for (let i = 0; i < u.length; i += 1) {
      const magnitude = Math.floor(next() * inf); // finite values of both signs
      u[i] = (next() < 0.5 ? 0x8000 : 0) | magnitude;
    }
  } else {
    for (let i = 0; i < bytes; i += 1) heap[ptr + i] = Math.floor(next() * 256);
  }
  if (NEGATIVE || POSITIVE) {
    const sign = NEGATIVE ? -1 : 1;
    if (dtype === 'float32' || dtype === 'float64') {
      const f = new (dtype === 'float32' ? Float32Array : Float64Array)(heap.buffer, ptr, bytes / (dtype === 'float32' ? 4 : 8));
      for (let i = 0; i < f.length; i += 1) f[i] = sign * Math.abs(f[i]);
    } else if (dtype === 'float16' || dtype === 'bfloat16') {
      const u = new Uint16Array(heap.buffer, ptr, bytes / 2);
      for (let i = 0; i < u.length; i += 1) u[i] = NEGATIVE ? u[i] | 0x8000 : u[i] & 0x7fff;
    }
  }
}

function timeOnce(fn, reps) {
  const t0 = process.hrtime.bigint();
  fn(reps);
  return Number(process.hrtime.bigint() - t0) / 1e3 / reps; // µs per call
}

const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const quartiles = (a) => {
  const q = [...a].sort((x, y) => x - y);
  return `${q[Math.floor((q.length - 1) / 4)].toFixed(2)}-${q[Math.ceil((3 * (q.length - 1)) / 4)].toFixed(2)}`;
};
const fmt = (v, d = 1) => (v >= 100 ? v.toFixed(0) : v.toFixed(d));

const yardstick = AB_DIST ? `--ab ${AB_DIST}` : GUARDED ? 'guarded stream' : 'stream';
const shrunk = COPIED ? ', copied (each case shrunk to 256 KiB, copied in before every run, the copy timed)' : CACHED ? ', cached (each case shrunk to 256 KiB)' : '';
console.log(`rounds ${ROUNDS}, chunk ${CHUNK_BYTES ? CHUNK_BYTES + ' bytes' : 'whole input'}${shrunk}, node ${process.version}`);
if (AB_DIST) console.log(`kernel: ${dist}; ratio: its GB/s over the kernel of ${AB_DIST} (> 1: ${dist} faster)`);
console.log(`| case | shape | bytes | kernel µs (median) | kernel GB/s median (best) | ${yardstick} GB/s median (best) | ratio median (quartiles) | ratio of bests |`);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const c of CASES) {
  if (filter && !filter.split(',').some((f) => c.name.includes(f))) continue;
  const [code, size] = DTYPE[c.dtype];
  let [outer, reduce, inner] = c.shape;
  if (CACHED) {
    const fit = (n) => Math.max(1, Math.floor((n * CACHED_BYTES) / (outer * reduce * inner * size)));
    if (outer * reduce * inner * size > CACHED_BYTES) outer = fit(outer);
    if (outer * reduce * inner * size > CACHED_BYTES) {
      if (reduce >= inner) reduce = fit(reduce);
      else inner = fit(inner);
    }
  }
  const shape = [outer, reduce, inner];
  const count = outer * reduce * inner;
  const bytes = count * size;
  const outBytes = c.op === 'Hardmax' ? bytes : 0;
  const chunk = CHUNK_BYTES ? Math.max(1, Math.floor(CHUNK_BYTES / size)) : 0;
  // --copied: `runs(1)` after each copy of the input's bytes into it from a JS array made once,
  // the next of SOURCE_COPIES copies each time: a 1 MiB source, read from beyond L2 as a large
  // input's chunks are. (64 copies, a 16 MiB source as the bench's rows have, spread the samples
  // of one case over 0.62-1.08 of their median; 4 over 0.96-1.02.)
  const copiedEach = (module, input, runs) => {
    const source = new Uint8Array(bytes * SOURCE_COPIES);
    for (let k = 0; k < SOURCE_COPIES; k += 1) source.set(module.HEAPU8.subarray(input, input + bytes), k * bytes);
    let next = 0;
    return (reps) => {
      for (let r = 0; r < reps; r += 1) {
        module.HEAPU8.set(source.subarray(next * bytes, (next + 1) * bytes), input);
        next = (next + 1) % SOURCE_COPIES;
        runs(1);
      }
    };
  };
  // The case's input (the same values) and output in a module's heap, and its kernel there.
  const kernelIn = (module) => {
    // On a cache line, as js/session.js places its staging buffer (emmalloc gives 8 mod 64; an
    // older build for --ab may not export the line size).
    const line = module.CACHE_LINE_BYTES ?? 64;
    const block = module._malloc(bytes + 16 + line), output = outBytes ? module._malloc(outBytes) : 0;
    const input = Math.ceil(block / line) * line;
    fillRandom(module, input, bytes, c.dtype);
    const kernelRuns = (reps) => {
      if (module._benchKernel(KIND[c.op], code, c.last, outer, reduce, inner, input, chunk, output, reps) !== 0)
        throw new Error(module._lastError());
    };
    const run = COPIED ? copiedEach(module, input, kernelRuns) : kernelRuns;
    return { run, input, free: () => (module._free(block), output && module._free(output)) };
  };
  const mine = kernelIn(M), theirs = other ? kernelIn(other) : null;
  const kernel = mine.run;
  const floats = Math.floor(bytes / 4);
  const streamLoop = GUARDED ? M._benchGuardedMax : M._benchStreamMax;
  const streamRuns = (reps) => streamLoop(mine.input, floats, reps);
  const stream = theirs ? theirs.run : COPIED ? copiedEach(M, mine.input, streamRuns) : streamRuns;
  // Warm up (V8 compiles wasm with Liftoff first and tiers hot functions up to TurboFan, in the
  // background: 20 calls of a small case could end before the swap), then calibrate reps so one
  // sample takes about TARGET_MS.
  for (let w = 0, t0 = performance.now(); w < 20 || performance.now() - t0 < WARM_MS; w += 1) kernel(1), stream(1);
  const calibrate = (fn) => Math.max(1, Math.round((TARGET_MS * 1000) / Math.max(timeOnce(fn, 3), 0.01)));
  const kReps = calibrate(kernel), sReps = calibrate(stream);
  const k = [], s = [], ratio = [];
  for (let r = 0; r < ROUNDS; r += 1) {
    // Adjacent samples, alternating order: load from other processes hits both alike.
    let kt, st;
    if (r % 2) (kt = timeOnce(kernel, kReps)), (st = timeOnce(stream, sReps));
    else (st = timeOnce(stream, sReps)), (kt = timeOnce(kernel, kReps));
    k.push(bytes / kt / 1e3);
    s.push(bytes / st / 1e3);
    ratio.push(st / kt);
  }
  const best = (a) => Math.max(...a);
  console.log(`| ${c.name} | ${c.op} [${shape}]${c.last ? ' last' : ''} | ${bytes} | ${fmt(bytes / median(k) / 1e3, 2)} | ` +
    `${fmt(median(k))} (${fmt(best(k))}) | ${fmt(median(s))} (${fmt(best(s))}) | ${median(ratio).toFixed(2)} ` +
    `(${quartiles(ratio)}) | ${(best(k) / best(s)).toFixed(2)} |`);
  mine.free();
  if (theirs) theirs.free();
}
