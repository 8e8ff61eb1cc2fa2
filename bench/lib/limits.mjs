// The copy floor: wasm reads only its own memory, so any runtime given a JS typed array copies
// the input in at least once; the cheaper of the two measured copies bounds every call from
// below, and peer / floor bounds any such runtime's speedup over that peer (a free kernel and
// output would reach it).

import { ok } from './columns.mjs';

const COPIES = ['limit-copy-in', 'limit-copy-chunks'];

/** The copy floor of a case in µs (NaN when the run has no copy limit), from its column summaries. */
export function copyFloorUs(columns) {
  const copies = COPIES.filter((n) => ok(columns[n])).map((n) => columns[n].medianUs);
  return copies.length ? Math.min(...copies) : NaN;
}
