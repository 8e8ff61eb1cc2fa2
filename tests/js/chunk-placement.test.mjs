// Where a streamed chunk lies in the staging buffer (js/chunk-placement.js): each source buffer's
// chunks go to the cheapest of four 16-byte placements as its timed copies say (each placement
// timed twice first, a new buffer starting where the last settled one went), one chunk in 64
// trying the next in turn; and a call gives the same answers whichever placement its chunks had,
// for every element size and offset, row-major chunks and column tiles alike. The policy's tests run in order: the first sees no buffer
// settled yet.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { PLACEMENT_SLACK_BYTES, chunkPlacement, finelyTicking } from '../../js/chunk-placement.js';
import { STAGING_BYTES, session } from '../../js/session.js';
import { currentModule } from '../../js/module.js';
import { assertTensorEqual, prng, recordCalls } from './helpers.mjs';
import { referenceNode } from './reference.mjs';
import { randomTensor } from './values.mjs';

const STAGING = 1 << 20; // a made-up staging address (a multiple of 64, as the real one is)

// A made-up copy and clock: copying to placement c (at STAGING + (16c + offset) % 64) takes
// costOf(c, n) ms, n counting the copies. Places `chunks` whole chunks of one byte; the
// placements they went to and which copies were timed.
function drive(placement, offset, chunks, costOf) {
  let now = 0, n = 0, reads = 0;
  const clock = () => ((reads += 1), now);
  const write = (at) => {
    const c = (((at - STAGING - offset) % 64) + 64) % 64 / 16;
    now += costOf(c, n);
  };
  const picked = [], timed = [];
  for (n = 0; n < chunks; n += 1) {
    const before = reads;
    const at = placement(clock).place(STAGING, 1, true, write);
    assert.ok(at >= STAGING && at < STAGING + PLACEMENT_SLACK_BYTES);
    picked.push((((at - STAGING - offset) % 64) + 64) % 64 / 16);
    if (reads > before) timed.push(n);
  }
  return { picked, timed };
}
const on = (buffer, offset) => (clock) => chunkPlacement(buffer, offset, clock);

// One call checked against the reference, and the calls of the core's `hook` ('_feed' or
// '_feedTile': an address first) it made.
const fedBy = (M, hook, op, x, attrs, expected, where) =>
  recordCalls(M, hook, () => assertTensorEqual(runNode(op, [x], attrs, 13)[0], expected.output, where));

// Where placed, the chunks met every placement (16-byte steps on the source's offset modulo 64);
// else all of them went to the staging buffer's start. `shifts`: addresses past the start.
function assertPlacements(shifts, placed, byteOffset, where) {
  if (placed) {
    const placements = [0, 16, 32, 48].map((d) => (d + byteOffset) % 64).sort((a, b) => a - b);
    assert.deepEqual([...new Set(shifts)].sort((a, b) => a - b), placements, `${where}: every placement met`);
  } else {
    assert.ok(shifts.every((d) => d === 0), `${where}: not placed, yet fed at ${shifts}`);
  }
}

test('chunk placement: with nothing settled, each placement timed twice, then the cheapest', () => {
  const buffer = new ArrayBuffer(64);
  const cost = [3, 2, 1.5, 2.5]; // placement 2 the cheapest
  const { picked, timed } = drive(on(buffer, 16), 16, 256, (c) => cost[c]);
  assert.deepEqual(picked.slice(0, 8), [0, 1, 2, 3, 0, 1, 2, 3]);
  // chunk n (counted from the buffer's first) explores when n % 64 == 63: placements 0, 1, 2, 3
  assert.deepEqual([63, 127, 191, 255].map((n) => picked[n]), [0, 1, 2, 3]);
  assert.ok(picked.every((c, n) => n < 8 || n % 64 === 63 || c === 2), picked.join(','));
  // timed: the tries, the explorers, and every eighth chunk
  assert.deepEqual(timed, [...Array(256).keys()].filter((n) => n < 8 || n % 64 === 63 || n % 8 === 0));
  // A later call on the same buffer, at another offset: the same placement, on the source's line.
  const at = chunkPlacement(buffer, 48, () => 0).place(STAGING, 1, true, () => {});
  assert.equal(at - STAGING, (2 * 16 + 48) % 64);
});

test('chunk placement: a new buffer starts where the last settled; the others tried one chunk in 8', () => {
  // the test before settled on placement 2; this buffer's cheapest is 0
  const cost = [1, 2, 3, 2.5];
  const { picked } = drive(on(new ArrayBuffer(8), 0), 0, 80, (c) => cost[c]);
  assert.equal(picked[0], 2);
  assert.deepEqual([7, 15, 23, 31, 39, 47].map((n) => picked[n]), [0, 1, 3, 0, 1, 3]);
  assert.ok(picked.slice(0, 48).every((c, n) => n % 8 === 7 || c === 2), picked.join(','));
  assert.ok(picked.slice(48).every((c) => c === 0), picked.join(','));
  // and the next new buffer starts at 0
  assert.equal(drive(on(new ArrayBuffer(8), 0), 0, 1, (c) => cost[c]).picked[0], 0);
});

test('chunk placement: an interrupted copy does not move the chunks; a cost no longer met fades', () => {
  const buffer = new ArrayBuffer(8);
  const cost = [2, 1, 3, 3];
  // starts at 0 (the last settled); placement 1's first try interrupted (50 ms a byte)
  let firstTryOf1 = true;
  const first = drive(on(buffer, 0), 0, 120, (c) => (c === 1 && firstTryOf1 ? ((firstTryOf1 = false), 50) : cost[c]));
  assert.ok(first.picked.slice(56).every((c, n) => (n + 56) % 64 === 63 || c === 1), first.picked.join(','));
  // placement 1 now costs 2.5 (its source gone to memory, say): its least cost grows 2% a
  // sample, so placement 0's 2 is the cheaper after some hundreds of chunks and takes them
  const later = drive(on(buffer, 0), 0, 1000, (c) => (c === 1 ? 2.5 : cost[c]));
  assert.deepEqual(later.picked.slice(-8), [0, 0, 0, 0, 0, 0, 0, 0]);
});

test('chunk placement: a clock that does not move records nothing; no clock, not placed', () => {
  // every copy reads 0 ms: no cost is kept, so nothing settles; the chunks stay put
  const { picked } = drive(on(new ArrayBuffer(8), 0), 0, 40, () => 0);
  assert.equal(new Set(picked).size <= 2, true, picked.join(','));
  // not placed (a coarse clock, rows that may not lie off a line, a source off 16 bytes): the start
  let calls = 0;
  const write = (at) => (calls += 1, assert.equal(at, STAGING));
  assert.equal(chunkPlacement(new ArrayBuffer(8), 32, null).place(STAGING, 4, true, write), STAGING);
  assert.equal(chunkPlacement(new ArrayBuffer(8), 8, () => 0).place(STAGING, 4, true, write), STAGING); // off 16 bytes
  assert.equal(calls, 2);
});

test('chunk placement: only a fine clock times copies', () => {
  let t = 0;
  assert.equal(finelyTicking(() => Math.floor((t += 0.0007) / 0.005) * 0.005), false); // 5 us steps: Chromium's
  assert.equal(finelyTicking(() => (t += 0.0002)), true);
  assert.equal(finelyTicking(() => 42), false); // a clock that never moves: gives up
});

test('chunk placement: the staging block has room for the farthest placement', async () => {
  await init();
  const { staging, stagingBlock } = session();
  assert.equal(staging % 4096, 2048);
  assert.ok(staging >= stagingBlock.address);
  assert.ok(staging + 48 + 15 + STAGING_BYTES <= stagingBlock.address + stagingBlock.bytes, 'a chunk at 63 bytes past the start ends inside the block');
  // wherever the block lands: the start is up to 4095 bytes into it (half a page past a page)
  assert.ok(4095 + 63 + STAGING_BYTES <= stagingBlock.bytes, 'room for the farthest placement from any block');
  assert.notEqual(session().chunkClock, null, "Node's performance.now() times a chunk");
});

test('chunk placement: streamed calls read right at every placement, every element size and offset', async () => {
  await init();
  const M = currentModule();
  const rng = prng(20261201);
  const types = ['float32', 'float64', 'int8', 'float16', 'int64', 'bfloat16', 'uint16'];
  for (const type of types) {
    const bytes = randomTensor(rng, type, [1]).data.BYTES_PER_ELEMENT;
    const perChunk = STAGING_BYTES / bytes;
    // rows of 1040 or 1024: a column plan's chunks are placed where its rows are 2 KiB or more
    // and not a multiple of 512 bytes (1040 elements of 2 bytes and more), else not
    const cols = types.indexOf(type) % 2 === 0 ? 1040 : 1024;
    const columnsPlaced = cols * bytes >= 2048 && (cols * bytes) % 512 !== 0;
    // views at 0, 16 and 48 bytes into their buffers (placed), and one element in (not placed)
    for (const offset of [0, 16 / bytes, 48 / bytes, 1]) {
      // 10 whole chunks and a short one; over the last axis (a row plan) and over axis 0 (a
      // column plan); 6 calls where placed, 60 chunks, so every placement is tried (each axis
      // its own buffer: one the other settled would be tried one chunk in 64 only)
      const rows = Math.ceil((10.5 * perChunk) / cols);
      const op = type === 'uint16' ? 'ArgMax' : rng.pick(['ArgMax', 'ArgMin', 'ReduceMax']);
      const byteOffset = offset * bytes;
      for (const axis of [1, 0]) {
        const whole = randomTensor(rng, type, [rows * cols + offset]).data;
        const x = { type, data: whole.subarray(offset, offset + rows * cols), dims: [rows, cols] };
        const placed = byteOffset % 16 === 0 && (axis === 1 || columnsPlaced);
        const calls = placed ? 6 : 1;
        const attrs = op === 'ReduceMax' ? { axes: [axis] } : { axis };
        const where = `${op} ${type} offset ${offset} axis ${axis}`;
        const expected = referenceNode(op, [x], attrs, 13);
        assert.ok(expected.ok, where);
        const shifts = [];
        for (let call = 0; call < calls; call += 1) {
          const fed = fedBy(M, '_feed', op, x, attrs, expected, `${where}, call ${call}`);
          assert.equal(fed.length, 11, where);
          shifts.push(...fed.map(([at]) => at - session().staging));
        }
        assertPlacements(shifts, placed, byteOffset, where);
      }
    }
  }
});

test('chunk placement: column tiles are placed whole where every row lies alike, and read right', async () => {
  await init();
  const M = currentModule();
  const rng = prng(20261202);
  const reduce = 21; // the tiles' rows: more than L1's ways, as a segmentation map's classes
  for (const type of ['float32', 'float64', 'int8', 'float16', 'uint16']) {
    const bytes = randomTensor(rng, type, [1]).data.BYTES_PER_ELEMENT;
    // rows of 64 KiB (placed, at a source on 16 bytes; five tiles and a part of one) or 4
    // elements more (not placed)
    const rowElements = 65536 / bytes;
    for (const inner of [rowElements, rowElements + 4]) {
      for (const offset of [0, 16 / bytes, 48 / bytes, 1]) {
        const whole = randomTensor(rng, type, [reduce * inner + offset]).data;
        const x = { type, data: whole.subarray(offset, offset + reduce * inner), dims: [1, reduce, inner] };
        const op = rng.pick(['ArgMax', 'ArgMin']);
        const attrs = { axis: 1, keepdims: rng.pick([0, 1]) };
        const where = `${op} ${type} [1,${reduce},${inner}] offset ${offset}`;
        const expected = referenceNode(op, [x], attrs, 13);
        assert.ok(expected.ok, where);
        const placed = inner === rowElements && (offset * bytes) % 16 === 0;
        const shifts = [];
        for (let call = 0; call < (placed ? 10 : 1); call += 1) {
          const tiles = fedBy(M, '_feedTile', op, x, attrs, expected, `${where}, call ${call}`);
          assert.ok(tiles.length >= 5, `${where}: fed as ${tiles.length} column tiles`);
          shifts.push(...tiles.map(([at]) => at - session().staging));
        }
        assertPlacements(shifts, placed, offset * bytes, where);
      }
    }
  }
});

test('chunk placement: parted tiles, outer slices, and a last tile whose rows may not lie off a line', async () => {
  await init();
  const M = currentModule();
  const rng = prng(20261203);
  const { stagingBlock } = session();
  const blockEnd = stagingBlock.address + stagingBlock.bytes;
  const cases = [
    // tiles of 4080 columns in 3 parts (14 + 14 + 12 rows), two outer slices; a last tile of 80
    // columns (320-byte rows: at the start)
    ['ReduceMax', [2, 40, 16400], { axes: [1] }, 4],
    ['ArgMax', [2, 40, 16400], { axis: 1 }, 4],
    ['Hardmax', [2, 40, 16400], { axis: 1 }, 4],
    // tiles of 3120 columns and a last of 2048 (rows 8 KiB apart: at the start)
    ['ArgMin', [1, 21, 8288], { axis: 1, keepdims: 0 }, 16],
  ];
  for (const [op, dims, attrs, calls] of cases) {
    const x = randomTensor(rng, 'float32', dims); // a buffer of its own: on 16 bytes
    const where = `${op} float32 [${dims}]`;
    const expected = referenceNode(op, [x], attrs, 13);
    assert.ok(expected.ok, where);
    const shifts = new Set();
    let parted = false, outer = false, last = false;
    for (let call = 0; call < calls; call += 1) {
      const tiles = fedBy(M, '_feedTile', op, x, attrs, expected, `${where}, call ${call}`);
      const width = Math.max(...tiles.map((t) => t[3]));
      for (const [at, o, , w, r0, rows] of tiles) {
        assert.ok(at + rows * w * 4 <= blockEnd, `${where}: a tile past the staging block`);
        const shift = at - session().staging;
        if (w === width) shifts.add(shift);
        else (last = true), assert.equal(shift, 0, `${where}: the last tile (${w} columns) placed at ${shift}`);
        parted ||= r0 > 0;
        outer ||= o > 0;
      }
    }
    assertPlacements([...shifts], true, 0, where);
    assert.ok(last, `${where}: a last, narrower tile`);
    assert.equal(parted, dims[1] === 40, `${where}: tiles in parts`);
    assert.equal(outer, dims[0] === 2, `${where}: two outer slices`);
  }
});
