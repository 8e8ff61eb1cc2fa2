// The input into wasm memory: whole into the staging buffer when it fits (or where it already is
// in the heap), else streamed through it: row-major chunks, column tiles or gathered windows, as
// the core's plan asks, each reduced while in cache.
import { chunkPlacement } from './chunk-placement.js';
import { bufferOf, byteOffsetOf, bytesOf, plainView } from './dtypes.js';
import { STAGING_BYTES, check, heap, heapViewFor, inHeap, typedArraySet } from './session.js';

// Where the core can read the whole input at once: its own address when it already is in wasm
// memory (kept as input.address, which the rest of the call reads it by), the staging buffer
// (copied there) when it fits, else 0: it is streamed after prepare.
export function inputAddress(s, input) {
  if (!input) return 0;
  const { staging } = s;
  const data = input.data;
  // (the offset first: the buffer's getter is slower, and a heap view never starts at address 0)
  const offset = byteOffsetOf(data);
  if (offset !== 0 && inHeap(s, data)) return (input.address = offset);
  if (input.length * input.info.bytes > STAGING_BYTES) return 0;
  const views = heap(s);
  const view = heapViewFor(views, input.cls, input.info);
  if (view) typedArraySet.call(view, data, staging / input.info.bytes);
  else views.HEAPU8.set(bytesOf(data), staging);
  return staging;
}

// How the input is copied into the staging buffer: through the heap view of its own class
// (`target(views)`), or as bytes (classes without one, e.g. Float16Array); unit = source entries
// per element. The source is a view of the data's memory of this module's making, whose
// subarray() runs no code of the caller's (a subclass's species).
function stagingSource(input) {
  return input.cls === input.info.array
    ? { target: (views) => views.byCode[input.info.code], source: plainView(input.data, input.cls), unit: 1 }
    : { target: (views) => views.HEAPU8, source: bytesOf(input.data), unit: input.info.bytes };
}

// Whether the rows of a column plan's chunk or tile, `strideBytes` apart in the staging buffer,
// may lie off a line (chunk-placement.js): rows of 2 KiB or more, so that a chunk off a line reads
// at most one line more a row (a 64-byte column group spans two), and not a multiple of 512 bytes
// apart, where few L1 sets hold every row and the lines a sweep keeps thrash. Against chunks at
// the start, into { out }, 4 processes: ArgMax over axis 1 of float32 [8,256,3136] 1.21-1.25x,
// float16 1.07-1.18x, ReduceMax over axis 1 of [64,64,1000] 1.21-1.25x, [8,256,784] 1.04-1.12x;
// the rows left out lost when placed: ReduceMax over axis 0 of [2048,96] (384 bytes) 0.87-0.92x,
// [2048,512] (2 KiB) 0.86-0.93x, uint8 [4096,1024] and int32 [4096,256] (1 KiB) 0.87-0.92x.
const rowStridePlaceable = (strideBytes) => strideBytes >= 2048 && strideBytes % 512 !== 0;

// Where an input's streamed chunks go (chunk-placement.js): placed where `placeable` and the
// session's clock can time a copy, else at the staging buffer's start.
const placementOf = (s, input, placeable) =>
  chunkPlacement(bufferOf(input.data), byteOffsetOf(input.data), placeable ? s.chunkClock : null);

// Streams the input through the staging buffer: copy a chunk, reduce it while it is in cache.
// `drain` (windowed state) reads the outputs each chunk made final.
function feedInput(s, input, drain) {
  const { M, staging } = s;
  const size = input.info.bytes;
  const n = input.length;
  const per = Math.floor(STAGING_BYTES / size); // elements per chunk
  if (input.address !== 0) { // already in wasm memory: no copy; in chunks when windowed
    const step = drain ? per : n;
    const offset = input.address;
    for (let at = 0; at < n; at += step) {
      check(M, M._feed(offset + at * size, Math.min(step, n - at)));
      if (drain) drain();
    }
    return;
  }
  const { target, source, unit } = stagingSource(input);
  const inner = heap(s).HEAPF64[s.step + 2]; // the plan's step: outer, reduce, inner
  // Placed: a row plan's chunks, and a column plan's where its rows may lie off a line.
  const placement = placementOf(s, input, inner === 1 || rowStridePlaceable(inner * size));
  for (let at = 0; at < n; at += per) {
    const take = Math.min(per, n - at);
    const view = target(heap(s));
    const part = source.subarray(at * unit, (at + take) * unit);
    const to = placement.place(staging, take * size, take === per, (address) => view.set(part, address / view.BYTES_PER_ELEMENT));
    check(M, M._feed(to, take));
    if (drain) drain();
  }
}

// A wide column plan (ArgMax over the channels of [1, 21, 512, 512]) streams as column tiles, so
// the running state of a tile's columns stays in cache while all its rows pass over it: for each
// outer slice, left to right, columns [c, c + width) of every reduced row are copied into the
// staging buffer packed row after row (reduce x w), then reduced. Where the rows of a tile do not
// all fit (150 classes), they go in parts of `partRows` rows, each part a feed. The core picks the
// width and the parts (src/exec/execution.h: column_tile_width, column_tile_part_rows) and checks
// the order. `drain` as in feedInput.
function feedTiles(s, input, width, partRows, drain) {
  const { M, staging } = s;
  const words = heap(s).HEAPF64;
  const h = s.step;
  const outer = words[h], reduce = words[h + 1], inner = words[h + 2];
  if (input.address !== 0) return feedTilesInPlace(s, input, width, drain, outer, reduce, inner);
  const { target, source, unit } = stagingSource(input);
  const size = input.info.bytes;
  const placement = placementOf(s, input, tilesPlaceable(inner * size, width * size));
  const unplaced = placementOf(s, input, false); // a last, narrower tile whose rows may not lie off a line
  const rowStep = inner * unit;
  for (let o = 0; o < outer; o += 1) {
    for (let c = 0; c < inner; c += width) {
      const w = Math.min(width, inner - c);
      const length = w * unit;
      for (let r0 = 0; r0 < reduce; r0 += partRows) {
        const rows = Math.min(partRows, reduce - r0);
        const view = target(heap(s));
        const first = ((o * reduce + r0) * inner + c) * unit;
        const write = (address) => {
          for (let r = 0, from = first, to = address / view.BYTES_PER_ELEMENT; r < rows; r += 1, from += rowStep, to += length)
            view.set(source.subarray(from, from + length), to);
        };
        const where = rowStridePlaceable(w * size) ? placement : unplaced;
        const at = where.place(staging, rows * w * size, rows === partRows && w === width, write);
        check(M, M._feedTile(at, o, c, w, r0, rows, w));
      }
      if (drain) drain();
    }
  }
}

// Whether column tiles are placed (chunk-placement.js): where every row of every tile starts at
// the source's offset modulo 64, and so does each row in the staging buffer (rows inner elements
// apart, tiles width elements apart and wide: a last, narrower tile then ends where the rows do),
// and the tiles' rows may lie off a line (rowStridePlaceable; a last, narrower tile is checked on
// its own in feedTiles).
const tilesPlaceable = (rowBytes, widthBytes) => rowBytes % 64 === 0 && widthBytes % 64 === 0 && rowStridePlaceable(widthBytes);

// feedTiles of an input already in wasm memory (a wasmTensor): each tile's rows are read where
// they lie, `inner` elements apart, all of them in one feed; nothing is copied.
function feedTilesInPlace(s, input, width, drain, outer, reduce, inner) {
  const { M } = s;
  const size = input.info.bytes;
  const address = input.address;
  for (let o = 0; o < outer; o += 1) {
    for (let c = 0; c < inner; c += width) {
      const w = Math.min(width, inner - c);
      check(M, M._feedTile(address + (o * reduce * inner + c) * size, o, c, w, 0, reduce, inner));
      if (drain) drain();
    }
  }
}

// A windowed plan with prefix axes (ReduceMax over axes [0, 2] of [2, N, 2]) folds several blocks
// of the input into the same outputs: the core asks for its input gathered, a window of outputs
// at a time (src/exec/execution.h: GatherWindow). Each feed packs, from every block (at the input
// offsets the core listed), `runs` runs of `length` elements `stride` apart, block after block.
function feedGathered(s, input, blocks, drain) {
  const { M, staging } = s;
  const g = s.gather;
  const { target, source, unit } = stagingSource(input);
  const offsets = heap(s).HEAPF64[g + 1] / 8;
  for (let fed = 0, total = input.length; fed < total; ) {
    const words = heap(s).HEAPF64;
    const offset = words[g + 2], runs = words[g + 3], length = words[g + 4], stride = words[g + 5];
    if (!(runs > 0 && length > 0)) throw new Error('onnx-extrema: an empty gathered window (internal error)'); // never loop in place
    const view = target(heap(s));
    const size = length * unit;
    let to = staging / view.BYTES_PER_ELEMENT;
    for (let b = 0; b < blocks; b += 1) {
      for (let r = 0, from = (words[offsets + b] + offset) * unit; r < runs; r += 1, from += stride * unit, to += size)
        view.set(source.subarray(from, from + size), to);
    }
    check(M, M._feedGathered(staging));
    fed += blocks * runs * length;
    if (drain) drain();
  }
}

// Streams the input gathered or as column tiles where the core asks for that, else in row-major
// chunks.
export function streamInput(s, input, drain) {
  const words = heap(s).HEAPF64;
  const tileWidth = words[s.tileWidth];
  const blocks = words[s.gather];
  if (blocks > 0) feedGathered(s, input, blocks, drain);
  else if (tileWidth > 0) feedTiles(s, input, tileWidth, words[s.tileWidth + 1], drain);
  else feedInput(s, input, drain);
}
