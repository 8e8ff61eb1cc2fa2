// Watching the wasm heap for leaks from JS (test-only: uses the module's exported malloc/free).
// A leak makes fresh allocations climb, but only once the free holes below the big free region
// are used up; fillHoles() uses them up first (leaving that region, so working buffers still fit
// and the heap need not grow), after which probe() moves as soon as anything leaks.
import { currentModule } from '../../../js/module.js';

/** Heap size and where a fresh 1 MiB and a fresh 24-byte block land. */
export function probe() {
  const M = currentModule();
  const large = M._malloc(1 << 20);
  M._free(large);
  const small = M._malloc(24);
  M._free(small);
  return { heap: M.HEAPU8.buffer.byteLength, large, small };
}

/** Fills every free hole below the big free region; returns a function that frees the fillers. */
export function fillHoles() {
  const M = currentModule();
  const boundary = probe().large; // start of the free region a 1 MiB block comes from
  const blocks = [];
  for (const size of [64 << 10, 4 << 10, 512, 64, 16]) {
    for (let n = 0; n < 200000; n += 1) {
      const p = M._malloc(size);
      if (!p) break;
      if (p >= boundary) {
        M._free(p);
        break;
      }
      blocks.push(p);
    }
  }
  return () => blocks.forEach((p) => M._free(p));
}
