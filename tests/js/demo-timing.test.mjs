// The web demo's timing (examples/web/timing.mjs) on a browser's coarse clock, with the machine
// interrupting it: run against a stand-in performance.now() that reads whole 100 µs steps (a page
// that is not cross-origin isolated) and calls that each take 5 µs of its time.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { WARM_UP_MILLIS, medianMillis } from '../../examples/web/timing.mjs';

const GRAIN_MS = 0.1;
const CALL_MS = 0.005;

// Installs a fake clock for the duration of `body`: `elapsed` is its true time in ms, read in
// whole GRAIN_MS steps, as a browser reads it.
function withCoarseClock(body) {
  const saved = Object.getOwnPropertyDescriptor(globalThis, 'performance');
  const clock = { elapsed: 0 };
  Object.defineProperty(globalThis, 'performance', {
    configurable: true,
    value: { now: () => Math.floor(clock.elapsed / GRAIN_MS) * GRAIN_MS },
  });
  try {
    return body(clock);
  } finally {
    Object.defineProperty(globalThis, 'performance', saved);
  }
}

test('a call interrupted while the demo picks how many calls make a sample leaves no median of 0', () => {
  withCoarseClock((clock) => {
    let calls = 0;
    let interruptAt = -1;
    const call = () => {
      calls += 1;
      clock.elapsed += CALL_MS;
      if (calls === interruptAt) clock.elapsed += 20; // the machine ran something else for 20 ms
    };
    // The warm-up runs first (the page's first timing: this file's first): interrupt the second call
    // after it, while the count of calls per sample is picked.
    const warmUpCalls = Math.ceil(WARM_UP_MILLIS.first / CALL_MS);
    interruptAt = warmUpCalls + 2;
    const { fast } = medianMillis({ fast: call });
    assert.ok(calls > interruptAt, 'the interruption happened');
    assert.ok(fast > 0.8 * CALL_MS && fast < 1.25 * CALL_MS, `median ${fast} ms per call, where a call takes ${CALL_MS}`);
  });
});

test("undisturbed, each method's median is its time per call", () => {
  withCoarseClock((clock) => {
    const { quick, slow } = medianMillis({ quick: () => (clock.elapsed += CALL_MS), slow: () => (clock.elapsed += 0.3) });
    assert.ok(quick > 0.8 * CALL_MS && quick < 1.25 * CALL_MS, `quick: ${quick}`);
    assert.ok(slow > 0.8 * 0.3 && slow < 1.25 * 0.3, `slow: ${slow}`);
  });
});
