// One bench case's onnx-extrema call (the bench's own runtime, bench/runtimes/extrema.mjs) run in
// a loop for `seconds`, for an engine's own logs and profiles (bench/jsc-tiers.mjs). POSTs
// { calls, seconds } (or { error }) to /__report?call-loop.
import { findCases } from '../lib/cases.mjs';
import { makeInput } from '../lib/data.mjs';
import { load, make } from '../runtimes/extrema.mjs';

const BATCH = 1000; // calls between clock reads

async function loop(params) {
  const [c] = findCases([params.get('case') ?? 'tiny']);
  const how = { resident: params.has('resident'), reuseOutput: params.has('out') };
  await load(how);
  const runtime = make(how);
  const { call } = runtime.prepare(c, makeInput(c));
  const seconds = Number(params.get('seconds') ?? 4);
  const start = performance.now();
  const end = start + seconds * 1000;
  let calls = 0;
  while (performance.now() < end) {
    for (let i = 0; i < BATCH; i += 1) call();
    calls += BATCH;
  }
  const took = (performance.now() - start) / 1000;
  runtime.release();
  return { calls, seconds: took };
}

const report = await loop(new URLSearchParams(location.search)).catch((error) => ({ error: String(error?.stack ?? error) }));
await fetch('/__report?call-loop', { method: 'POST', body: JSON.stringify(report) });
