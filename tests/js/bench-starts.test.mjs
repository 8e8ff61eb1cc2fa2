// `npm run bench -- --starts=N` (bench/lib/starts.mjs): a case's rounds spread over N fresh
// starts of every runtime, each start's median reported. The split of rounds, a column that fails
// at a fresh start, the per-start medians, and a short Node run end to end. (The browser runs
// of tests/js/bench-browser.test.mjs take --starts=2 too: a fresh page in each browser.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterFreshSetup, beginsFreshStart, checkStarts, startOfRound } from '../../bench/lib/starts.mjs';
import { summarize } from '../../bench/lib/report.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('starts: rounds split into runs of equal length, a fresh start at each boundary but the first round', () => {
  const split = (rounds, starts) => Array.from({ length: rounds }, (_, r) => startOfRound(r, rounds, starts));
  assert.deepEqual(split(8, 1), [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual(split(8, 2), [0, 0, 0, 0, 1, 1, 1, 1]);
  assert.deepEqual(split(8, 3), [0, 0, 0, 1, 1, 1, 2, 2]);
  assert.deepEqual(split(8, 8), [0, 1, 2, 3, 4, 5, 6, 7]);
  const fresh = (rounds, starts) => Array.from({ length: rounds }, (_, r) => r).filter((r) => beginsFreshStart(r, rounds, starts));
  assert.deepEqual(fresh(8, 1), []);
  assert.deepEqual(fresh(8, 3), [3, 6]);
  assert.deepEqual(fresh(2, 2), [1]);
});

test('starts: only a whole number from 1 to the rounds', () => {
  checkStarts(1, 8);
  checkStarts(8, 8);
  for (const bad of [0, 9, 1.5, NaN, -1]) assert.throws(() => checkStarts(bad, 8), /^Error: --starts=.*: a whole number from 1 to the rounds \(8\)$/);
});

test('starts: a fresh setup keeps the rounds, or says why the column stopped', () => {
  const entry = () => ({ status: 'ok', check: null, rounds: [[1, 2]], starts: [0], perSample: 4 });
  const kept = entry();
  assert.equal(afterFreshSetup(kept, { status: 'ok', check: null, perSample: 8 }), kept);
  assert.deepEqual(kept.rounds, [[1, 2]]);
  assert.equal(kept.perSample, 8);

  const differs = entry();
  afterFreshSetup(differs, { status: 'ok', check: 'index 3: 7 != 2', perSample: 4 });
  assert.equal(differs.check, 'index 3: 7 != 2', 'a fresh page whose output differs is reported');

  assert.deepEqual(afterFreshSetup(entry(), { status: 'n/a', reason: 'error: out of memory' }), {
    status: 'error',
    reason: 'at a fresh start: n/a (error: out of memory)',
  });
  assert.deepEqual(afterFreshSetup(entry(), undefined, new Error('onnx-extrema: no answer to its start in 60 s; ended\nstack')), {
    status: 'error',
    reason: 'at a fresh start: onnx-extrema: no answer to its start in 60 s; ended',
  });
  const failed = { status: 'error', reason: 'earlier' };
  assert.equal(afterFreshSetup(failed, { status: 'ok', check: null }), failed, 'a column already failed stays so');
});

test('starts: the summary gives each start\'s median, the pooled median across them', () => {
  const s = summarize({ status: 'ok', check: null, rounds: [[1, 1, 2], [1, 2, 2], [5, 5, 6], [6, 6, 6]], starts: [0, 0, 1, 1] });
  assert.deepEqual(s.startMedians, [1.5, 6]);
  assert.equal(s.medianUs, 3.5);
  assert.equal(summarize({ status: 'ok', check: null, rounds: [[1], [2]], starts: [0, 0] }).startMedians, undefined);
});

test('bench --starts=2 in Node: the second round in fresh processes, outputs checked again, each start reported', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'ox-bench-starts-'));
  try {
    const args = ['bench/run.mjs', '--quick', '--rounds=2', '--starts=2', '--warmup-ms=20', '--budget-ms=10', '--cases=tiny',
      '--runtimes=onnx-extrema,onnx-extrema-out,onnx-extrema-resident', `--out=${out}`];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const run = JSON.parse(readFileSync(path.join(out, 'latest.json'), 'utf8'));
    assert.equal(run.starts, 2);
    assert.deepEqual(run.made, { 'onnx-extrema': 2, 'onnx-extrema-out': 2, 'onnx-extrema-resident': 2 }, 'a fresh process each');
    const [c] = run.cases;
    for (const column of ['onnx-extrema', 'onnx-extrema-out', 'onnx-extrema-resident']) {
      assert.equal(c.columns[column].status, 'ok', `${column}: ${JSON.stringify(c.columns[column])}`);
      assert.equal(c.columns[column].check, null);
      assert.deepEqual(c.starts[column], [0, 1]);
      assert.equal(c.columns[column].startMedians.length, 2);
    }
    const md = readFileSync(path.join(out, 'latest.md'), 'utf8');
    assert.match(md, /2 rounds, order rotated each round, over 2 starts of every runtime/);
    assert.match(md, /## Each start's median \(µs\): the case read in 2 fresh processes of each runtime/);
    assert.throws(() => {
      const bad = spawnSync(process.execPath, ['bench/run.mjs', '--rounds=2', '--starts=3'], { cwd: root, encoding: 'utf8' });
      if (bad.status !== 0) throw new Error(bad.stderr);
    }, /--starts=3: a whole number from 1 to the rounds \(2\)/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
