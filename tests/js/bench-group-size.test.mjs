// How many calls a bench sample times (bench/runtimes/group-size.mjs), on made-up clocks: a
// coarse one (a WebKit page's 20 us), a preempted group, a clock that never moves. Every answer
// is a finite group: an infinite one had a WebKit page's batch loop run for good.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { MAX_GROUP, callsPerSample, grownGroup } from '../../bench/runtimes/group-size.mjs';

const SAMPLE_US = 1000; // 50 ticks of a 20 us clock

// µs per call of a group of k calls of `callUs` each, read on a clock of `tickUs` (or one that
// never moves: `frozen`); `pauses`: µs added to the groups in turn (a preempted group), then none.
function clock({ callUs, tickUs = 1, frozen = false, pauses = [] }) {
  const queue = [...pauses];
  const groups = [];
  const timeGroup = async (k) => {
    groups.push(k);
    const took = k * callUs + (queue.shift() ?? 0);
    return frozen ? 0 : (Math.floor(took / tickUs) * tickUs) / k;
  };
  return { timeGroup, groups };
}

test('group size: one preempted group of one call does not end the estimate on a coarse clock', async () => {
  // A [1,10] call of 3 us, a 20 us clock, the first group preempted for 1.5 ms: read alone, that
  // group ended the doubling at one call, and four groups of one call then read 0.
  const { timeGroup, groups } = clock({ callUs: 3, tickUs: 20, pauses: [1500] });
  const { calls, estimateUs } = await callsPerSample(timeGroup, SAMPLE_US);
  assert.ok(estimateUs > 2.9 && estimateUs <= 3, `estimate ${estimateUs}`);
  assert.ok(calls >= 330 && calls <= 345, `calls ${calls}`);
  assert.ok(groups.every((k) => k <= MAX_GROUP));
});

test('group size: calls of a known length', async () => {
  assert.equal((await callsPerSample(clock({ callUs: 50, tickUs: 1 }).timeGroup, SAMPLE_US)).calls, 20);
  assert.equal((await callsPerSample(clock({ callUs: 4000, tickUs: 20 }).timeGroup, SAMPLE_US)).calls, 1);
  // Calls far below the tick: the group grows until the clock sees it.
  const { calls } = await callsPerSample(clock({ callUs: 0.01, tickUs: 20 }).timeGroup, SAMPLE_US);
  assert.ok(calls >= 99_000 && calls <= 101_000, `calls ${calls}`);
});

test('group size: a clock that never moves gives the largest group, not an infinite one', async () => {
  const { timeGroup, groups } = clock({ callUs: 3, frozen: true });
  assert.deepEqual(await callsPerSample(timeGroup, SAMPLE_US), { calls: MAX_GROUP, estimateUs: 0 });
  assert.ok(groups.every((k) => k <= MAX_GROUP));
});

test('group size: the five groups of the estimate read 0 after a group that saw the clock', async () => {
  // Both groups of the doubling's last step paused (the clock saw them), the five after read 0.
  const { timeGroup } = clock({ callUs: 3, tickUs: 20, pauses: [1500, 1500] });
  const { calls } = await callsPerSample(timeGroup, SAMPLE_US);
  assert.ok(Number.isFinite(calls) && calls >= 1 && calls <= MAX_GROUP, `calls ${calls}`);
});

test('group size: a batch grows a group that a pause made too short, up to the largest', async () => {
  // 3 us calls on a 20 us clock: 50 calls read 140 us of a 1000 us sample, so the group doubles
  // until one reads at least half a sample.
  assert.equal(await grownGroup(clock({ callUs: 3, tickUs: 20 }).timeGroup, 50, SAMPLE_US), 200);
  assert.equal(await grownGroup(clock({ callUs: 3, tickUs: 20 }).timeGroup, 400, SAMPLE_US), 400);
  assert.equal(await grownGroup(clock({ callUs: 3, frozen: true }).timeGroup, 1, SAMPLE_US), MAX_GROUP);
});
