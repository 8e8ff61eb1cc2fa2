// What a fresh page of memory costs on this host, in µs a 4 KiB page: an array of 2 MiB made
// and filled, the median of a few. A call that returns a new output pays it for every page the
// output spans, so the plain `onnx-extrema` column of a case with a large output reads the host
// as much as the library: on the Zen 5 host it was about 0.25 µs a page in one hour and about
// 12 µs in the next (its VM hands freed memory back through free page reporting; docs/speed.md,
// the sixty-ninth session), when a 2 MiB output cost 6 ms. `onnx-extrema-out` does not pay it.
// The run records it per case, as it does the load average.

import { median } from './format.mjs';

const PAGE_BYTES = 4096;

// Above this the report says the plain column's large outputs were slowed (the quiet figure is
// about an eighth of it).
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
  return Number(median(perPage).toFixed(3));
}

/**
 * The report's sentence on fresh pages, or '' for a run recorded without them (before the probe).
 * The verdict reads the probes taken after the cases (the start's and end's where there are none):
 * a slow start alone says nothing of what the cases paid. `inBrowser`: the runtimes ran in a
 * browser's pages, whose allocator is not the Node controller's that took the probes.
 * @param {{ start?: number, end?: number } | undefined} pages the run's probes at its start and end
 * @param {(number | undefined)[]} perCase each case's probe, taken after the case
 * @param {boolean} [inBrowser]
 */
export function freshPagesSentence(pages, perCase, inBrowser = false) {
  if (!pages) return '';
  const isProbe = (v) => typeof v === 'number' && Number.isFinite(v);
  const cases = perCase.filter(isProbe);
  const ends = [pages.start, pages.end].filter(isProbe);
  const judged = cases.length > 0 ? cases : ends;
  const slow = judged.filter((v) => v > SLOW_FRESH_PAGE_US).length;
  const [low, high] = [Math.min(...cases), Math.max(...cases)];
  const range = cases.length === 0 ? '' : `, after each case ${low === high ? low : `${low}–${high}`}`;
  const where = inBrowser ? ' (probed in the Node controller, not in the pages)' : '';
  const which = cases.length > 0 ? `after ${slow} of ${cases.length} cases` : 'at the run\'s start or end';
  const verdict =
    slow > 0
      ? ` Over ${SLOW_FRESH_PAGE_US} µs ${which}: the host slowed new memory, which the plain \`onnx-extrema\` column's large outputs paid and \`onnx-extrema-out\` did not.`
      : '';
  const at = (v) => (isProbe(v) ? v : '—');
  return ` Fresh pages${where} (a new 2 MiB array filled, µs per 4 KiB page): start ${at(pages.start)}, end ${at(pages.end)}${range}.${verdict}`;
}
