// What a fresh page of memory costs on this host, in µs a 4 KiB page: an array of 2 MiB made
// and filled, the median of a few. A call that returns a new output pays it for every page the
// output spans, so the plain `onnx-extrema` column of a case with a large output reads the host
// as much as the library: on the Zen 5 host it was about 0.25 µs a page in one hour and about
// 12 µs in the next (its VM hands freed memory back through free page reporting; docs/speed.md,
// the sixty-ninth session), when a 2 MiB output cost 6 ms. `onnx-extrema-out` does not pay it.
// The run records it per case, as it does the load average.

const PAGE_BYTES = 4096;

// Above this the report says the plain column's large outputs were slowed (the quiet figure is
// about a tenth of it).
export const SLOW_FRESH_PAGE_US = 2;

/** Median µs per fresh 4 KiB page of `bytes` allocated and written, over `repeats` arrays. */
export function freshPageMicros({ bytes = 2 * 1024 * 1024, repeats = 5 } = {}) {
  const pages = bytes / PAGE_BYTES;
  const perPage = [];
  for (let r = 0; r < repeats; r += 1) {
    const t0 = performance.now();
    new Float64Array(bytes / 8).fill(r + 1);
    perPage.push(((performance.now() - t0) * 1000) / pages);
  }
  perPage.sort((a, b) => a - b);
  return Number(perPage[repeats >> 1].toFixed(3));
}

/**
 * The report's sentence on fresh pages, or '' for a run recorded without them (before the probe).
 * @param {{ start: number, end: number }} pages the run's probes at its start and end
 * @param {number[]} perCase each case's probe, taken after the case
 */
export function freshPagesSentence(pages, perCase) {
  if (!pages) return '';
  const cases = perCase.filter((v) => typeof v === 'number');
  const all = [pages.start, ...cases, pages.end].filter((v) => typeof v === 'number');
  const worst = Math.max(...all);
  const [low, high] = [Math.min(...cases), Math.max(...cases)];
  const range = cases.length === 0 ? '' : `, after each case ${low === high ? low : `${low}–${high}`}`;
  const verdict =
    worst > SLOW_FRESH_PAGE_US
      ? ` Over ${SLOW_FRESH_PAGE_US} µs the host slowed new memory: the plain \`onnx-extrema\` column's large outputs paid it, \`onnx-extrema-out\` did not.`
      : '';
  return ` Fresh pages (a new 2 MiB array filled, µs per 4 KiB page): start ${pages.start}, end ${pages.end}${range}.${verdict}`;
}
