// The bench's CPU pinning (bench/lib/cpu-pinning.mjs): where it pins, which CPUs a round gets,
// the taskset calls it makes (a recorded stand-in), and on this machine a real process pinned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';

import { cpuPinning } from '../../bench/lib/cpu-pinning.mjs';
import { summarize } from '../../bench/lib/report.mjs';

// A stand-in for execFileSync: records each call; `fail(args)` says which calls throw.
function recorder(fail = () => false) {
  const calls = [];
  const run = (cmd, args) => {
    calls.push([cmd, ...args]);
    if (fail(args)) throw new Error(`${cmd} failed`);
    return Buffer.alloc(0);
  };
  return { calls, run };
}

test('cpu pinning: none off Linux, on one CPU, or without taskset', () => {
  assert.equal(cpuPinning({ platform: 'darwin', cpus: 2, run: recorder().run }), null);
  assert.equal(cpuPinning({ platform: 'linux', cpus: 1, run: recorder().run }), null);
  assert.equal(cpuPinning({ platform: 'linux', cpus: 2, run: recorder(() => true).run }), null);
});

test('cpu pinning: round r on CPU r mod N for one thread, every CPU for more', () => {
  const p = cpuPinning({ platform: 'linux', cpus: 2, run: recorder().run });
  assert.deepEqual([0, 1, 2, 3].map((r) => p.cpuList(r)), ['0', '1', '0', '1']);
  assert.equal(p.cpuList(1, 2), '0-1');
  const three = cpuPinning({ platform: 'linux', cpus: 3, run: recorder().run });
  assert.deepEqual([0, 1, 2, 3].map((r) => three.cpuList(r)), ['0', '1', '2', '0']);
});

test('cpu pinning: taskset on every thread of the process, only when its CPUs change', () => {
  const { calls, run } = recorder();
  const p = cpuPinning({ platform: 'linux', cpus: 2, run });
  calls.length = 0; // (the --version probe)
  assert.equal(p.pin(123, 1), true);
  assert.equal(p.pin(123, 3), true); // CPU 1 again: no call
  assert.equal(p.pin(123, 2), true);
  assert.equal(p.pin(456, 0, 2), true);
  assert.deepEqual(calls, [
    ['taskset', '-a', '-p', '-c', '1', '123'],
    ['taskset', '-a', '-p', '-c', '0', '123'],
    ['taskset', '-a', '-p', '-c', '0-1', '456'],
  ]);
});

test('cpu pinning: a process taskset cannot pin (ended) leaves the round where it is', () => {
  const p = cpuPinning({ platform: 'linux', cpus: 2, run: recorder((args) => args[0] === '-a').run });
  assert.equal(p.pin(123, 0), false);
});

test('cpu pinning: a live process on this machine runs on the CPU its round names', async (t) => {
  const p = cpuPinning();
  if (!p) return t.skip('no CPU pinning here (not Linux, one CPU, or no taskset)');
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
  try {
    // taskset's list ("1", "0,1", "0-3") as the CPUs it names
    const cpusOf = (list) =>
      list.split(',').flatMap((part) => {
        const [a, b = a] = part.split('-').map(Number);
        return Array.from({ length: b - a + 1 }, (_, k) => a + k);
      });
    const affinity = () => cpusOf(execFileSync('taskset', ['-c', '-p', String(child.pid)]).toString().trim().split(': ').pop());
    if (!p.pin(child.pid, 1)) return t.skip('taskset cannot set a process\'s CPUs here (a container\'s cpuset?)');
    assert.deepEqual(affinity(), [1]);
    assert.equal(p.pin(child.pid, 2), true);
    assert.deepEqual(affinity(), [0]);
    assert.equal(p.pin(child.pid, 0, 2), true);
    assert.deepEqual(affinity(), Array.from({ length: p.cpus }, (_, k) => k));
  } finally {
    child.kill();
    await once(child, 'exit');
  }
});

test('cpu pinning: a column whose rounds ran on two CPUs is the mean of their medians', () => {
  // Rounds alternate CPUs 0 and 1; CPU 0 about 1.5x slower. The pooled median would be a value
  // between the clusters (here 7.5, whichever side the split put it); each CPU's median is stable.
  const entry = { status: 'ok', rounds: [[9, 9.5, 8.5], [6, 6.5, 5.5], [9, 10, 8], [6, 7, 5]], cpus: ['0', '1', '0', '1'] };
  const s = summarize(entry);
  assert.deepEqual(s.cpuMedians, { 0: 9, 1: 6 });
  assert.equal(s.medianUs, 7.5);
  const lopsided = { ...entry, rounds: [[9, 9, 9, 9, 9], [6], [9, 9, 9, 9, 9], [6]] };
  assert.equal(summarize(lopsided).medianUs, 7.5);
  // Unpinned rounds (null) or one CPU: the median of every sample, as before.
  assert.equal(summarize({ ...lopsided, cpus: [null, null, null, null] }).medianUs, 9);
  assert.equal(summarize({ ...entry, rounds: [[1, 2, 3], [4, 5, 6]], cpus: ['1', '1'] }).medianUs, 3.5);
  assert.equal(summarize({ ...entry, rounds: [[1, 2, 3], [4, 5, 6]], cpus: undefined }).medianUs, 3.5);
});
