// One runtime's side of the bench, whatever carries its messages (worker.mjs: a Node process;
// ../browser/runtime.mjs: a browser page). The controller (bench/run.mjs) sends it commands:
// setup a case (build the input, prepare each column, check its output against the reference,
// estimate the call time), run a timed batch of one column of a case set up, tear every case
// down. Several cases can be set up at once (lib/case-groups.mjs: cases timed round by round
// together), each with its own column objects.
// A sample is the mean time of a group of calls long enough (>= SAMPLE_US) to time well.
// A single warm-up call's timer overhead is included in timeCalls(1): groups estimate better.
import { makeInput } from '../lib/data.mjs';
import { findCases } from '../lib/cases.mjs';
import { compare, reference } from '../lib/reference.mjs';
import { callsPerSample, grownGroup } from './group-size.mjs';
import { RUNTIMES } from './registry.mjs';

// The clock's tick (performance.now(): well under 1 us in Node, 5 us in Chromium, 20 us in a
// cross-origin isolated WebKit page), seen as the smallest step between two readings. Each wait
// for a step is bounded (a clock that stood still would spin a page here for good, at its start);
// no step seen counts as a 1 ms clock, the coarsest a browser gives.
const MAX_READS = 1e7;
function clockTickUs() {
  let tick = 1000;
  for (let k = 0; k < 20; k += 1) {
    const t0 = performance.now();
    let t1 = t0;
    for (let reads = 0; t1 === t0 && reads < MAX_READS; reads += 1) t1 = performance.now();
    if (t1 !== t0) tick = Math.min(tick, (t1 - t0) * 1000);
  }
  return tick;
}
// At least 50 ticks a sample: a sample's reading is within 2% of its time.
const SAMPLE_US = Math.max(200, 50 * clockTickUs());

let makeColumns; // () -> { name: column object }, a fresh set for each case
const held = new Map(); // case name -> { columns, prepared: name -> { call, sync, values?, before? } or { unavailable } }
let sink;
const gc = globalThis.gc ?? (() => {});

async function timeCalls(p, k) {
  if (p.before) p.before();
  const call = p.call;
  let t0, t1;
  if (p.sync) {
    t0 = performance.now();
    for (let j = 0; j < k; j += 1) sink = call();
    t1 = performance.now();
  } else {
    t0 = performance.now();
    for (let j = 0; j < k; j += 1) sink = await call();
    t1 = performance.now();
  }
  return ((t1 - t0) * 1000) / k;
}

async function setup(caseName, warmupMs) {
  const c = findCases([caseName])[0];
  await release(caseName); // (a case set up again replaces its first setup)
  const columns = makeColumns();
  const prepared = new Map();
  held.set(caseName, { columns, prepared });
  const input = makeInput(c);
  let expected = null; // computed once, only if some column can be checked
  const report = {};
  for (const [name, column] of Object.entries(columns)) {
    let p;
    try {
      p = await column.prepare(c, input);
    } catch (error) {
      p = { unavailable: `error: ${String(error?.message ?? error).slice(0, 160)}` };
    }
    prepared.set(name, p);
    if (p.unavailable) {
      report[name] = { status: 'n/a', reason: p.unavailable };
      continue;
    }
    let check = null;
    let outputLength; // elements of the output checked: which case the runtime ran
    try {
      if (p.before) p.before();
      const out = p.sync ? p.call() : await p.call();
      if (p.values) {
        expected ??= reference(c, input);
        const values = p.values(out);
        outputLength = values.length;
        check = compare(expected, values);
      }
    } catch (error) {
      prepared.set(name, { unavailable: true });
      report[name] = { status: 'n/a', reason: `error: ${String(error?.message ?? error).slice(0, 160)}` };
      continue;
    }
    // Warm up (the JIT tiers up over the first thousands of calls): at least 5 calls and
    // warmupMs (run.mjs: --warmup-ms); then estimate the call time (group-size.mjs).
    for (let n = 0, t = performance.now(); n < 5 || performance.now() - t < warmupMs; n += 1) await timeCalls(p, 1);
    const { calls, estimateUs } = await callsPerSample((k) => timeCalls(p, k), SAMPLE_US);
    p.perSample = calls;
    report[name] = { status: 'ok', check: p.values ? check : 'not checked (limit)', outputLength, perSample: calls, estimateUs };
  }
  gc();
  return report;
}

async function batch(caseName, name, budgetMs, minSamples) {
  const p = held.get(caseName)?.prepared.get(name);
  if (!p || p.unavailable) throw new Error(`batch: ${name} is not set up for ${caseName}`);
  gc();
  p.perSample = await grownGroup((k) => timeCalls(p, k), p.perSample, SAMPLE_US);
  const samples = [];
  const start = performance.now();
  while (samples.length < minSamples || performance.now() - start < budgetMs) samples.push(await timeCalls(p, p.perSample));
  return { samples, perSample: p.perSample };
}

async function release(caseName) {
  const h = held.get(caseName);
  if (!h) return;
  held.delete(caseName);
  for (const column of Object.values(h.columns)) await column.release?.();
}

async function teardown() {
  for (const caseName of [...held.keys()]) await release(caseName);
  sink = undefined;
  gc();
}

/** Loads runtime `name` (registry.mjs); resolves to its info (a label, a version) and the
 * handler of the controller's messages ({ cmd: 'setup' | 'batch' | 'teardown', ... }; setup and
 * batch name their case). */
export async function serveRuntime(name) {
  const spec = RUNTIMES[name];
  if (!spec) throw new Error(`unknown runtime '${name}'`);
  const mod = await import(spec.module);
  const info = await mod.load(spec.options);
  makeColumns = () => Object.fromEntries(spec.columns.map((column) => [column, mod.make({ ...spec.options, column })]));
  const handle = async (msg) => {
    if (msg.cmd === 'setup') return setup(msg.case, msg.warmupMs);
    if (msg.cmd === 'batch') return batch(msg.case, msg.column, msg.budgetMs, msg.minSamples);
    if (msg.cmd === 'teardown') return teardown();
    throw new Error(`unknown command '${msg.cmd}'`);
  };
  return { info: info ?? {}, handle };
}
