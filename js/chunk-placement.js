// Where in the staging buffer a streamed chunk is copied to. memmove (TypedArray.prototype.set)
// copies fastest when the destination lies at the source's offset modulo 64: on the Zen 5 host of
// 2026-12-01, 16 MiB in 256 KiB chunks took 315 us so against 474 us 48 bytes off, and ReduceMax
// over float32 [4096,1024] rows 1.23x less time end to end, all axes of [4096,4096] 1.38x. (From
// a cold source, read from memory, the four placements copy alike; in cache too: it is the copy
// from L3 that cares.) JS cannot see an array's address: Node's large arrays start 16 bytes past a
// page (glibc's mmap'd blocks), an array from glibc's heap anywhere 16-byte aligned, a browser's
// mostly on a page. So each source buffer keeps a cost per placement, from timed copies, and its
// chunks go to the cheapest. A new buffer starts where the last settled buffer's chunks went
// (arrays of one allocator tend to sit alike: a caller passing a new array each call gets the
// placement from its first chunk), and until each placement has SAMPLES costs it tries one in
// TRY_EVERY chunks there (every chunk, with nothing settled yet); then one chunk in EXPLORE_EVERY
// tries the next placement in turn. A cost is the least ns per byte seen, grown 2% at each of its
// own samples (an interruption or the staging buffer's first page faults only slow a copy; a cost
// that is no longer met fades). Timed: the tries and one chunk in TIME_EVERY (two clock reads,
// about 0.11 us in Node, of a 5 us copy). Not placed, a chunk goes to the staging buffer's start,
// on a line, as before: with a clock too coarse to time a copy (Chromium's 5 us); for a source
// off 16 bytes (placed with it, the kernel's 16-byte loads would straddle lines); and for a column
// plan's chunk or tile whose rows lie under 2 KiB or a multiple of 512 bytes apart in the staging
// buffer (off a line a 64-byte column group spans two lines of every row, and such rows share few
// L1 sets: feed.js, rowStridePlaceable; docs/internals.md), or, a tile, whose rows do not all lie
// alike modulo 64 in the source (feed.js, tilesPlaceable). A column tile is placed as a whole,
// each row at its source row's offset modulo 64: the [1,21,512,512] map's tiles copied 1.13x
// faster so. Only where a chunk lies changes, never what is read.

export const PLACEMENT_SLACK_BYTES = 64; // the staging buffer's room beyond STAGING_BYTES
const CANDIDATES = 4; // the source's address modulo 64: 0, 16, 32 or 48 (arrays are 16-byte aligned)
const SAMPLES = 2; // per placement before the cheapest is chosen from them alone
const TRY_EVERY = 8;
const EXPLORE_EVERY = 64; // (one chunk in 16 cost a 16-chunk call about 3%)
const TIME_EVERY = 8;
const FADE = 1.02;

// ArrayBuffer (or SharedArrayBuffer) -> its placements' costs and samples, the cheapest (-1: none
// yet), and its count of chunks placed.
const entries = new WeakMap();
let lastSettled = -1; // the placement the last buffer settled on

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

// The placement to try next (fewest samples first), or -1 when each has SAMPLES.
function untried(entry) {
  let c = -1;
  for (let k = 0; k < CANDIDATES; k += 1) if (entry.samples[k] < SAMPLES && (c < 0 || entry.samples[k] < entry.samples[c])) c = k;
  return c;
}

/**
 * The chunks of a streamed call whose source is `byteOffset` bytes into `buffer`. `clock`: a
 * fine clock (ms) to time copies by, or null where chunks are not placed (see above); a source
 * off 16 bytes is not placed either.
 * `place(staging, bytes, whole, write)` picks where in the staging buffer at `staging` the next
 * chunk of `bytes` bytes goes, has `write(to)` copy it there (a row-major chunk: one copy; a
 * column tile: a copy per row) and returns that address; `whole`: a full chunk (a short last one
 * is not timed: its fixed costs weigh more a byte).
 */
export function chunkPlacement(buffer, byteOffset, clock) {
  let entry;
  if (clock !== null && byteOffset % 16 === 0) {
    entry = entries.get(buffer);
    if (entry === undefined)
      entries.set(buffer, (entry = { nsPerByte: new Array(CANDIDATES).fill(Infinity), samples: new Array(CANDIDATES).fill(0), cheapest: lastSettled, placed: 0 }));
  }
  // The placement of the next chunk, and whether its copy is timed.
  const choose = () => {
    const n = entry.placed++;
    const next = entry.cheapest < 0 || n % TRY_EVERY === TRY_EVERY - 1 ? untried(entry) : -1;
    if (next >= 0) return { c: next, timed: true };
    if (n % EXPLORE_EVERY === EXPLORE_EVERY - 1) return { c: Math.floor(n / EXPLORE_EVERY) % CANDIDATES, timed: true };
    return { c: entry.cheapest, timed: n % TIME_EVERY === 0 };
  };
  const record = (c, ms, bytes) => {
    if (!(ms > 0 && ms < Infinity)) return; // a clock that did not move (or a patched one): no cost
    const sample = (ms * 1e6) / bytes;
    entry.nsPerByte[c] = Math.min(sample, entry.nsPerByte[c] * FADE);
    entry.samples[c] += 1;
    if (untried(entry) >= 0) return; // (kept here, not found at each chunk's pick)
    let cheapest = 0;
    for (let k = 1; k < CANDIDATES; k += 1) if (entry.nsPerByte[k] < entry.nsPerByte[cheapest]) cheapest = k;
    entry.cheapest = lastSettled = cheapest;
  };
  return {
    place(staging, bytes, whole, write) {
      const pick = entry === undefined ? null : choose();
      const to = pick === null ? staging : staging + ((pick.c * 16 + byteOffset) % 64);
      const timed = pick !== null && pick.timed && whole;
      const start = timed ? clock() : 0;
      write(to);
      if (timed) record(pick.c, clock() - start, bytes);
      return to;
    },
  };
}

// The clock to time copies by: performance.now, bound now (a clock the caller patches in later
// never runs inside a call), where it ticks finely enough; else null, and chunks are not placed.
export function chunkClock() {
  const performance = globalThis.performance;
  const now = typeof performance?.now === 'function' ? performance.now.bind(performance) : null;
  return now !== null && finelyTicking(now) ? now : null;
}
