// Where a streamed chunk lies in the staging buffer (js/chunk-placement.js): each buffer's chunks
// are copied to the cheapest of four 16-byte placements as their timed copies say, each tried
// first, one chunk in 16 trying the next in turn; a call gives the same answers whichever
// placement its chunks had, for every element size and offset.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { chunkPlacement, finelyTicking } from '../../js/chunk-placement.js';
import { STAGING_BYTES, session } from '../../js/session.js';
import { currentModule } from '../../js/module.js';
import { checkAgainstReference, prng, recordCalls } from './helpers.mjs';
import { randomTensor } from './values.mjs';

// Feeds a placement `chunks` chunks whose timed copies cost `costOf(c, k)` ns a byte (k: the
// count of timed ones before): the placements picked, and which chunks were timed.
function drive(p, chunks, costOf) {
  const picked = [];
  const timed = [];
  for (let n = 0; n < chunks; n += 1) {
    const c = p.pick();
    picked.push(c);
    if (p.timed()) p.record(c, costOf(c, timed.push(n) - 1) / 1e6, 1);
  }
  return { picked, timed };
}

test('chunk placement: each placement tried, then the cheapest, one chunk in 64 trying the next in turn', () => {
  const buffer = new ArrayBuffer(64);
  const p = chunkPlacement(buffer, 4, true);
  const cost = [3, 2, 1.5, 2.5]; // placement 2 the cheapest
  const { picked, timed } = drive(p, 256, (c) => cost[c]);
  assert.deepEqual(picked.slice(0, 4), [0, 1, 2, 3]);
  // chunk n (counted from the buffer's first) explores when n % 64 == 63: placements 0, 1, 2, 3
  assert.deepEqual([63, 127, 191, 255].map((n) => picked[n]), [0, 1, 2, 3]);
  assert.ok(picked.every((c, n) => n < 4 || n % 64 === 63 || c === 2), picked.join(','));
  // timed: the tries, the explorers, and every eighth chunk
  const expected = [...Array(256).keys()].filter((n) => n < 4 || n % 64 === 63 || n % 8 === 0);
  assert.deepEqual(timed, expected);
  assert.deepEqual([0, 1, 2, 3].map((c) => p.shift(c)), [4, 20, 36, 52]); // plus the view's offset
  // A later call on the same buffer, at another offset: the same placement, on the source's line.
  const again = chunkPlacement(buffer, 8, true);
  assert.equal(again.pick(), 2);
  assert.equal(again.shift(2), 40);
});

test('chunk placement: an interrupted copy does not move the chunks; a cost no longer met fades', () => {
  const p = chunkPlacement(new ArrayBuffer(8), 0, true);
  const cost = [2, 1, 3, 3];
  // placement 1's first timing after the tries interrupted (50 ns a byte): still the cheapest
  const first = drive(p, 60, (c, k) => (c === 1 && k > 4 && k < 8 ? 50 : cost[c]));
  assert.ok(first.picked.slice(4).every((c) => c === 1), first.picked.join(','));
  // placement 1 now costs 2.5 (its source gone to memory, say): its least cost grows 2% a
  // sample, so placement 0's 2 is the cheaper after some hundreds of chunks and takes them
  const later = drive(p, 1000, (c) => (c === 1 ? 2.5 : cost[c]));
  assert.deepEqual(later.picked.slice(-8), [0, 0, 0, 0, 0, 0, 0, 0]);
});

test('chunk placement: not placed (a coarse clock, a column plan, a source off 16 bytes), no timing', () => {
  const p = chunkPlacement(new ArrayBuffer(8), 32, false);
  assert.equal(p.pick(), -1);
  assert.equal(p.timed(), false);
  assert.equal(p.shift(-1), 0);
  let t = 0;
  assert.equal(finelyTicking(() => Math.floor((t += 0.0007) / 0.005) * 0.005), false); // 5 us steps: a browser's
  assert.equal(finelyTicking(() => (t += 0.0002)), true);
  assert.equal(finelyTicking(() => 42), false); // a clock that never moves: gives up
});

test('chunk placement: streamed calls read right at every placement, every element size and offset', async () => {
  await init();
  const M = currentModule();
  assert.equal(session().timesChunks, true, 'Node\'s performance.now() times a chunk');
  const rng = prng(20261201);
  for (const type of ['float32', 'float64', 'int8', 'float16', 'int64', 'bfloat16', 'uint16']) {
    const bytes = randomTensor(rng, type, [1]).data.BYTES_PER_ELEMENT;
    const perChunk = STAGING_BYTES / bytes;
    // views at 0, 16 and 48 bytes into their buffers (placed), and one element in (not placed)
    for (const offset of [0, 16 / bytes, 48 / bytes, 1]) {
      // 9 whole chunks and a short one; rows of 512 over the last axis (a row plan) and over axis 0
      // (a column plan: not placed)
      const cols = 512, rows = Math.ceil((9.5 * perChunk) / cols);
      const whole = randomTensor(rng, type, [rows * cols + offset]).data;
      const x = { type, data: whole.subarray(offset, offset + rows * cols), dims: [rows, cols] };
      const op = type === 'uint16' ? 'ArgMax' : rng.pick(['ArgMax', 'ArgMin', 'ReduceMax']);
      for (const axis of [1, 0]) {
        const attrs = op === 'ReduceMax' ? { axes: [axis] } : { axis };
        const where = `${op} ${type} offset ${offset} axis ${axis}`;
        const fed = recordCalls(M, '_feed', () => checkAgainstReference(runNode, op, [x], attrs, 13, where));
        assert.ok(fed.length >= 10, where);
        const shifts = fed.map(([at]) => at - session().staging);
        const byteOffset = offset * bytes;
        if (axis === 1 && byteOffset % 16 === 0) {
          // this buffer's first call: its first 4 chunks at the four placements, then among them
          const placements = [0, 16, 32, 48].map((d) => (d + byteOffset) % 64);
          assert.deepEqual(shifts.slice(0, 4), placements, where);
          assert.ok(shifts.every((d) => placements.includes(d)), `${where}: ${shifts}`);
        } else {
          assert.ok(shifts.every((d) => d === 0), `${where}: not placed, yet fed at ${shifts}`);
        }
      }
    }
  }
});
