// One bench case's onnx-extrema call (the bench's own runtime, bench/runtimes/extrema.mjs) run in
// a loop for `seconds`, for an engine's own logs and profiles (bench/jsc-tiers.mjs). POSTs to
// /__report?call-loop-starts as the loop starts, then { calls, seconds, trace } (or { error }) to
// /__report?call-loop; bench/call-loop.mjs opens it in any of the three browsers.
import { findCases } from '../lib/cases.mjs';
import { makeInput } from '../lib/data.mjs';
import { load, make } from '../runtimes/extrema.mjs';

const TRACE_WINDOW_MS = 500;
// Calls between clock reads: 1000 of a small case, fewer of a large one, so the loop ends near `seconds`.
const batchOf = (c) => Math.max(1, Math.min(1000, Math.floor(2 ** 18 / c.count)));

// Every call goes through here, so that with ?afterAll its call site has met every case's call,
// as the bench's timing loop (bench/runtimes/serve.mjs: timeCalls) has: none is inlined into it.
function callTimes(call, n) {
  for (let i = 0; i < n; i += 1) call();
}

async function loop(params) {
  const [c] = findCases([params.get('case') ?? 'tiny']);
  const how = { resident: params.has('resident'), reuseOutput: params.has('out') };
  await load(how);
  const runtime = make(how);
  // ?afterAll: every bench case called a few times first, as a bench page has called them before
  // the case: the call path has met every type, op and output kind (its JIT code is more generic),
  // and callTimes every case's call.
  if (params.has('afterAll')) {
    for (const other of findCases()) {
      const { call: otherCall } = runtime.prepare(other, makeInput(other));
      callTimes(otherCall, 3);
      runtime.release();
    }
  }
  const { call } = runtime.prepare(c, makeInput(c));
  await fetch('/__report?call-loop-starts', { method: 'POST', body: '{}' }); // (--perf profiles from here on)
  const seconds = Number(params.get('seconds') ?? 4);
  const start = performance.now();
  const end = start + seconds * 1000;
  let calls = 0;
  const batch = batchOf(c);
  // µs a call in each window of about TRACE_WINDOW_MS: how the call's time moves within one page
  // (a tier reached, code thrown away), which the whole loop's mean hides.
  const trace = [];
  let windowStart = start, windowCalls = 0;
  while (performance.now() < end) {
    callTimes(call, batch);
    calls += batch;
    const now = performance.now();
    if (now - windowStart >= TRACE_WINDOW_MS) {
      trace.push(((now - windowStart) * 1000) / (calls - windowCalls));
      windowStart = now;
      windowCalls = calls;
    }
  }
  const took = (performance.now() - start) / 1000;
  runtime.release();
  return { calls, seconds: took, trace };
}

const report = await loop(new URLSearchParams(location.search)).catch((error) => ({ error: String(error?.stack ?? error) }));
await fetch('/__report?call-loop', { method: 'POST', body: JSON.stringify(report) });
