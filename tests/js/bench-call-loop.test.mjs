// bench/call-loop.mjs: one case's call looped in a page of each browser, reported as the mean µs
// a call and the µs a call in each half second (bench/lib/call-loop.mjs: the line's format).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { callLoopQuery, callLoopSummary } from '../../bench/lib/call-loop.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('callLoopQuery: the case, the seconds and only the flags given', () => {
  const query = callLoopQuery(['node', 'x', '--out', '--afterAll', '--other'], { caseName: 'argmax_cls', seconds: 2 });
  assert.equal(query.toString(), 'case=argmax_cls&seconds=2&out=&afterAll=');
  assert.equal(callLoopQuery([]).toString(), 'case=tiny&seconds=4');
});

test('callLoopSummary: the mean of the whole loop, then each window of the trace', () => {
  const query = callLoopQuery(['--resident', '--out']);
  assert.equal(callLoopSummary(query, { calls: 2_000_000, seconds: 3, trace: [1.234, 1.6, 1.45] }),
    'tiny resident into { out }: 2000000 calls in 3.00 s, 1.500 µs a call; by half second: 1.23 1.60 1.45');
  assert.equal(callLoopSummary(callLoopQuery([]), { calls: 4, seconds: 1e-5 }), 'tiny: 4 calls in 0.00 s, 2.500 µs a call');
});

// A line per page: the case and how it was called, a mean, and a trace of two windows or more
// (a loop of 1.2 s has two whole half seconds) whose values are µs a call, as the mean is.
const LINE = /^argmax_cls into \{ out \}: (\d+) calls in ([\d.]+) s, ([\d.]+) µs a call; by half second: ([\d. ]+)$/;
for (const browser of ['chromium', 'firefox', 'webkit'])
  test(`bench/call-loop.mjs --browser=${browser}: a page per --pages, each line a mean and its trace`, () => {
    const args = ['bench/call-loop.mjs', `--browser=${browser}`, '--case=argmax_cls', '--out', '--seconds=1.2', '--pages=2'];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 240_000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, 2, r.stdout);
    for (const line of lines) {
      const m = LINE.exec(line);
      assert.ok(m, `unexpected line: ${line}`);
      const [calls, seconds, mean] = [Number(m[1]), Number(m[2]), Number(m[3])];
      const trace = m[4].split(' ').map(Number);
      assert.ok(calls > 0 && seconds >= 1.2 && mean > 0, line);
      assert.ok(trace.length >= 2 && trace.every((us) => us > 0 && us < 100 * mean), line);
    }
  });

test('bench/call-loop.mjs: an unknown browser is named, with the ones there are', () => {
  const r = spawnSync(process.execPath, ['bench/call-loop.mjs', '--browser=lynx'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--browser must be one of chromium, firefox, webkit, got 'lynx'/);
});
