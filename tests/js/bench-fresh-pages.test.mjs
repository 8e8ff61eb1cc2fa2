// The benchmark's fresh-page probe (bench/lib/fresh-pages.mjs): what it measures and what the
// report says of it, for a quiet host, a slow one, and a run recorded before the probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SLOW_FRESH_PAGE_US, freshPageMicros, freshPagesSentence } from '../../bench/lib/fresh-pages.mjs';

test('fresh pages: the probe reads a positive, finite µs per page', () => {
  const us = freshPageMicros({ bytes: 256 * 1024, repeats: 3 });
  assert.ok(Number.isFinite(us) && us > 0, `read ${us}`);
});

test('fresh pages: the report names start, end and the cases, and says when the host was slow', () => {
  const quiet = freshPagesSentence({ start: 0.25, end: 0.3 }, [0.2, 0.4]);
  assert.match(quiet, /start 0\.25, end 0\.3, after each case 0\.2–0\.4\./);
  assert.doesNotMatch(quiet, /slowed/);
  const slow = freshPagesSentence({ start: 0.25, end: 0.3 }, [0.2, SLOW_FRESH_PAGE_US + 10]);
  assert.match(slow, /slowed new memory/);
  assert.match(slow, /`onnx-extrema-out` did not/);
  assert.match(freshPagesSentence({ start: 12, end: 0.3 }, []), /end 0\.3\. Over 2 µs/); // no cases: no range
  assert.match(freshPagesSentence({ start: 1, end: 1 }, [0.5, 0.5]), /after each case 0\.5\./);
});

test('fresh pages: a run recorded without the probe says nothing of it', () => {
  assert.equal(freshPagesSentence(undefined, [undefined, undefined]), '');
  assert.doesNotMatch(freshPagesSentence({ start: 1, end: 1 }, [undefined]), /after each case/);
});
