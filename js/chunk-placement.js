// Where in the staging buffer a streamed chunk is copied to. memmove (TypedArray.prototype.set)
// copies fastest when the destination lies at the source's offset modulo 64: on the Zen 5 host of
// 2026-12-01, 16 MiB in 256 KiB chunks took 315 us so against 474 us 48 bytes off, and ReduceMax
// over float32 [4096,1024] rows 1.25x less time end to end, all axes of [4096,4096] 1.3-1.4x. (From
// a cold source, read from memory, the four placements copy alike; in cache too: it is the copy
// from L3 that cares.) JS cannot see an array's address: Node's large arrays start 16 bytes past a
// page (glibc's mmap'd blocks), an array from glibc's heap anywhere 16-byte aligned, a browser's
// mostly on a page. So each buffer keeps a cost per placement, from timed copies, and its chunks
// go to the cheapest, but for one in EXPLORE_EVERY, which tries the next placement in turn. A
// cost is the least ns per byte seen, grown 2% at each of its own samples (an interruption only
// slows a copy; a cost that is no longer met fades). Timed: a placement's first chunks, the
// explorers and one chunk in TIME_EVERY (two clock reads cost about 0.11 us in Node, of a 5 us
// copy). Where a chunk is not placed it goes to the staging buffer's start, on a line, as before:
// with a clock too coarse to time a copy (browsers give 5-100 us), for a column plan (rows a
// multiple of 4 KiB apart fall in one L1 set, and a 64-byte column group off a line spans two
// lines of every row: docs/internals.md), and for a source off 16 bytes (placed with it, the
// kernel's 16-byte loads would straddle lines). Only where a chunk lies changes, never what is read.

export const PLACEMENT_SLACK_BYTES = 64; // the staging buffer's room beyond STAGING_BYTES
const CANDIDATES = 4; // the source's address modulo 64: 0, 16, 32 or 48 (arrays are 16-byte aligned)
const EXPLORE_EVERY = 64; // (one chunk in 16 cost a 16-chunk call about 3%)
const TIME_EVERY = 8;
const FADE = 1.02;

// ArrayBuffer (or SharedArrayBuffer) -> its placements' costs (NaN: not timed yet) and its count
// of chunks placed.
const costs = new WeakMap();

// Whether `now` (ms) ticks finely enough to time a chunk's copy of a few microseconds: its
// smallest step over three changes at most 1 us. At most 1000 reads (tens of microseconds): a
// clock that has not moved by then is too coarse anyway.
export function finelyTicking(now) {
  let smallest = Infinity;
  for (let changes = 0, reads = 0; changes < 3 && reads < 1000; ) {
    const a = now();
    let b = now();
    reads += 2;
    while (b === a && reads < 1000) (b = now()), (reads += 1);
    if (b > a) (smallest = Math.min(smallest, b - a)), (changes += 1);
  }
  return smallest <= 0.001;
}

/**
 * The placement of the chunks of a streamed call whose source is `byteOffset` bytes into
 * `buffer` (`placeable`: see above). Per chunk: `pick()` names the placement (0-3, or -1: not
 * placed), `shift(c)` puts it that many bytes past the staging buffer's start (a multiple of 16
 * plus the view's offset, itself a multiple of 16; -1: 0), and where `timed()` says so (for the
 * chunk just picked), `record(c, ms, bytes)` takes its copy's time.
 */
export function chunkPlacement(buffer, byteOffset, placeable) {
  let entry = placeable ? costs.get(buffer) : undefined;
  if (placeable && entry === undefined)
    costs.set(buffer, (entry = { nsPerByte: new Array(CANDIDATES).fill(NaN), placed: 0, cheapest: -1 }));
  let timing = false;
  return {
    pick() {
      if (entry === undefined) return -1;
      const n = entry.placed++;
      const untried = entry.cheapest < 0 ? entry.nsPerByte.findIndex(Number.isNaN) : -1;
      const exploring = n % EXPLORE_EVERY === EXPLORE_EVERY - 1;
      timing = untried >= 0 || exploring || n % TIME_EVERY === 0;
      if (untried >= 0) return untried;
      if (exploring) return Math.floor(n / EXPLORE_EVERY) % CANDIDATES;
      return entry.cheapest;
    },
    timed: () => timing,
    shift: (c) => (c < 0 ? 0 : (c * 16 + byteOffset) % 64),
    record(c, ms, bytes) {
      const sample = (ms * 1e6) / bytes;
      const cost = entry.nsPerByte;
      cost[c] = Number.isNaN(cost[c]) ? sample : Math.min(sample, cost[c] * FADE);
      if (cost.some(Number.isNaN)) return; // (kept here, not found at each chunk's pick)
      let cheapest = 0;
      for (let k = 1; k < CANDIDATES; k += 1) if (cost[k] < cost[cheapest]) cheapest = k;
      entry.cheapest = cheapest;
    },
  };
}
