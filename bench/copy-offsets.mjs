// How fast a chunk is copied into wasm memory (TypedArray.prototype.set, the engine's staging copy)
// by where the destination lies against the source modulo 4 KiB. On the AMD Zen 3 hosts of this
// project memmove ran over 10x slower with the destination 8-24 bytes past the source (1.7-2.7
// against 25-30 GB/s); js/session.js places its staging buffer half a page past a page boundary,
// clear of the offsets large typed arrays start at (16 past a page in Node). Run it on a new host
// to see whether that still holds:
//   node bench/copy-offsets.mjs [--mib=8] [--rounds=5]
import { median } from './lib/format.mjs';
import { optionNumber } from './lib/options.mjs';

const SOURCE_BYTES = optionNumber('mib', 8) << 20;
const ROUNDS = optionNumber('rounds', 5);
const CHUNK = 256 << 10; // js/session.js: STAGING_BYTES
const PAGE = 4096;

const heap = new Uint8Array(new WebAssembly.Memory({ initial: 64 }).buffer); // page-aligned, as a module's heap is
// Where a buffer starts modulo 4 KiB is hidden from JS (16 bytes past a page in Node, glibc's
// mmap'd blocks), so the source is read from two places: the buffer's start + 4 KiB, and 16 bytes
// before that, which in Node lies on a page boundary (its row's offsets are then the
// destination's distance past the source).
const buffer = new Uint8Array(new ArrayBuffer(SOURCE_BYTES + 2 * PAGE));
for (let i = 0; i < buffer.length; i += 64) buffer[i] = i & 255;

const deltas = [0, 8, 16, 24, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 3072, 4032, 4080, 4088];
const copy = (source, to) => {
  const t0 = performance.now();
  for (let at = 0; at < SOURCE_BYTES; at += CHUNK) heap.set(source.subarray(at, at + CHUNK), to);
  return performance.now() - t0;
};

for (const shift of [0, 16]) {
  const source = buffer.subarray(PAGE - shift, PAGE - shift + SOURCE_BYTES);
  const ms = new Map(deltas.map((d) => [d, []]));
  for (let r = 0; r < ROUNDS; r += 1)
    for (const d of deltas) {
      const to = 1 << 20 | d; // the destination d bytes past a page boundary
      copy(source, to);
      ms.get(d).push(copy(source, to));
    }
  const line = deltas.map((d) => `${d}: ${(SOURCE_BYTES / median(ms.get(d)) / 1e6).toFixed(1)}`).join('  ');
  console.log(`source at the buffer's start + 4096${shift ? ` - ${shift}` : ''}; GB/s by the destination's offset mod 4096: ${line}`);
}
