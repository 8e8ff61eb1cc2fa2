// The benchmark's fresh-page probe (bench/lib/fresh-pages.mjs): what it measures and what the
// report says of it, for a quiet host, a slow one, and a run recorded before the probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SLOW_FRESH_PAGE_US, freshPageMicros, freshPagesSentence } from '../../bench/lib/fresh-pages.mjs';
import { markdown } from '../../bench/lib/report.mjs';

const SLOW = SLOW_FRESH_PAGE_US + 10;
const QUIET = SLOW_FRESH_PAGE_US / 8;

test('fresh pages: the probe reads a positive, finite µs per page', () => {
  const us = freshPageMicros({ bytes: 256 * 1024, repeats: 3 });
  assert.ok(Number.isFinite(us) && us > 0, `read ${us}`);
});

test('fresh pages: the sentence names start, end and the cases, and judges by the cases', () => {
  const quiet = freshPagesSentence({ start: 0.25, end: 0.3 }, [0.2, 0.4]);
  assert.match(quiet, /start 0\.25, end 0\.3, after each case 0\.2–0\.4\./);
  assert.doesNotMatch(quiet, /slowed/);
  const slow = freshPagesSentence({ start: 0.25, end: 0.3 }, [0.2, SLOW, SLOW]);
  assert.match(slow, new RegExp(`Over ${SLOW_FRESH_PAGE_US} µs after 2 of 3 cases: the host slowed new memory`));
  assert.match(slow, /`onnx-extrema-out` did not/);
  // A slow start alone says nothing of the cases.
  assert.doesNotMatch(freshPagesSentence({ start: SLOW, end: QUIET }, [QUIET, QUIET]), /slowed/);
  // With no case probed, the start and end are all there is.
  assert.match(freshPagesSentence({ start: SLOW, end: QUIET }, []), /end 0\.25\. Over .* at the run's start or end/);
  assert.match(freshPagesSentence({ start: 1, end: 1 }, [0.5, 0.5]), /after each case 0\.5\./);
  assert.match(freshPagesSentence({ start: 1, end: 1 }, [], true), /Fresh pages \(probed in the Node controller, not in the pages\)/);
});

test('fresh pages: a run recorded without the probe says nothing of it; a missing end reads as a dash', () => {
  assert.equal(freshPagesSentence(undefined, [undefined, undefined]), '');
  assert.doesNotMatch(freshPagesSentence({ start: 1, end: 1 }, [undefined]), /after each case/);
  assert.match(freshPagesSentence({ start: 1 }, [NaN]), /start 1, end —\./);
});

test('fresh pages: the report carries the run\'s probes, the cases\' in the range', () => {
  const run = {
    startedAt: 'a', endedAt: 'b', rounds: 1, set: 'main',
    machine: { cpu: 'cpu', cores: 2, memGiB: 1, os: 'os', node: '20', commit: 'c' },
    load: { start: [0, 0, 0], end: [0, 0, 0] },
    pages: { start: 0.3, end: 0.4 },
    runtimes: {}, kinds: { peers: [], residentPeers: [], limits: [] }, columns: [],
    cases: [{ case: { name: 'tiny', listed: true, op: 'ArgMax', type: 'float32', dims: [1, 10], bytes: 40, outBytes: 8 }, columns: {}, pages: SLOW }],
  };
  const md = markdown(run);
  assert.match(md, new RegExp(`start 0\\.3, end 0\\.4, after each case ${SLOW}\\. Over .* after 1 of 1 cases`));
});
