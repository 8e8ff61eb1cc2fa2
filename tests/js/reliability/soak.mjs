// The soak: many mixed calls (every operator, version and type; small tensors, some large ones,
// some hostile calls that must fail) against a pool whose answers the reference computed once.
// Every answer is checked. The wasm heap must stay the same size from the first 10% of the calls
// on, and allocator placement (with the holes below the heap top filled) must not climb: a leak of
// a few bytes per call shows.
import { bytesOf } from '../../../js/dtypes.js';
import { fillHoles, probe } from './heap.mjs';
import { KNOWN, TRAP, hostileCalls } from './hostile.mjs';
import { randomCall, rng, verify } from './workload.mjs';

// Small calls (at most SMALL_MAX elements) read their input from wasm memory one time in
// RESIDENT_EVERY: a wasmTensor made, filled, called and disposed, whose allocation must not leak
// either. (Larger ones would be allocated above the holes filled at 10% and could grow the heap.)
const RESIDENT_EVERY = 10;
const SMALL_MAX = 256;
function verifyResident(api, call) {
  const t = api.wasmTensor(call.x.type, call.x.dims);
  try {
    bytesOf(t.data).set(bytesOf(call.x.data));
    return verify(api, call, t);
  } finally {
    t.dispose();
  }
}

/**
 * Runs `calls` calls; returns { calls, seconds, failures[], samples[], byKind, resident, steady }.
 * `report(sample)` is called at every 10%.
 */
export function soak(api, { calls = 1_000_000, seed = 1, poolSize = 4000, report = () => {} } = {}) {
  const r = rng(seed);
  const pool = [];
  for (let i = 0; i < poolSize; i += 1) pool.push(randomCall(r, i % 50 === 0 ? 'large' : 'small'));
  for (let i = 0; i < 4; i += 1) pool.push(randomCall(r, 'huge'));
  const hostile = hostileCalls().filter((c) => c.kind === 'error');
  const byKind = new Map();
  let resident = 0;
  const failures = [];
  const samples = [];
  let release = null;
  let probe10 = null;
  const started = performance.now();
  // Each of the pool's larger calls once first, checked: the core keeps working memory up to a
  // high-water mark (src/exec/execution.h: trim), and a mark first reached after the 10% probe
  // would sit below fresh allocations for good (a 65537-element call's 256 KiB state moved them
  // 256 KiB up in 2 of 5 seeds), which the check below would read as a leak.
  for (const call of pool) {
    if (call.x.data.length <= SMALL_MAX) continue;
    const problem = verify(api, call);
    if (problem) failures.push(`${problem} (first run)`);
  }
  try {
    for (let k = 0; k < calls; k += 1) {
      const roll = r();
      if (roll < 0.02) {
        // a hostile call: must throw an Error naming the operator/version (or pass the caller's own)
        const call = hostile[r.int(0, hostile.length - 1)];
        let error = null;
        try {
          call.run(api);
        } catch (e) {
          error = e;
        }
        const right = error === TRAP || (error instanceof Error && error.message.startsWith(call.label));
        if (!right && !KNOWN.some((issue) => issue.explains(call, error)))
          failures.push(`${call.name}: ${error ? error.message : 'returned'}`);
        continue;
      }
      // 1 call in 2000 is one of the ~2^20-element ones; otherwise small or large from the pool
      const call = roll < 0.0205 ? pool[poolSize + r.int(0, 3)] : pool[r.int(0, poolSize - 1)];
      const key = `${call.op} ${call.x.type}`;
      byKind.set(key, (byKind.get(key) ?? 0) + 1);
      const inWasm = call.x.data.length <= SMALL_MAX && r.int(0, RESIDENT_EVERY - 1) === 0;
      resident += inWasm ? 1 : 0;
      const problem = inWasm ? verifyResident(api, call) : verify(api, call);
      if (problem) failures.push(inWasm ? `${problem} (wasmTensor)` : problem);
      if (failures.length > 20) break;
      if ((k + 1) % Math.max(1, Math.floor(calls / 10)) === 0) {
        if (!release) {
          release = fillHoles(); // at 10%: from here on the heap must not move
          probe10 = probe();
        }
        const seconds = (performance.now() - started) / 1000;
        const sample = { done: k + 1, seconds, callsPerSecond: (k + 1) / seconds, ...probe(), rss: process.memoryUsage().rss };
        samples.push(sample);
        report(sample);
      }
    }
  } finally {
    if (release) release();
  }
  // Leaked blocks push fresh allocations up for good; a working buffer that moved can shift them
  // by its size (256 KiB here) from one sample to the next. So compare the lowest placement over
  // the last three samples with the lowest over the first three (from 10% on), allowing 64 KiB:
  // a leak of 2 bytes per call exceeds that within 50,000 calls.
  const drift = 64 << 10;
  const lowest = (list, key) => Math.min(...list.map((sample) => sample[key]));
  const early = [probe10, ...samples.slice(0, 2)];
  const late = samples.slice(-3);
  const steady = probe10 !== null && samples.every((sample) => sample.heap === probe10.heap) &&
    lowest(late, 'large') - lowest(early, 'large') <= drift && lowest(late, 'small') - lowest(early, 'small') <= drift;
  return { calls, seconds: (performance.now() - started) / 1000, failures, samples, byKind, resident, steady, probe10 };
}
