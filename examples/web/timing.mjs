// Timing in the browser. Browsers coarsen performance.now() (to 100 µs in a page that is not
// cross-origin isolated), so a fast function is repeated until one sample lasts a few
// milliseconds, and the median of several samples is kept.

/** Median time in milliseconds of one call of `fn`. */
export function medianMillis(fn, samples = 11, minSampleMillis = 4) {
  fn(); // warm-up: the first call compiles and allocates
  let repeats = 1;
  while (repeats < 1 << 16) {
    const start = performance.now();
    for (let r = 0; r < repeats; r += 1) fn();
    if (performance.now() - start >= minSampleMillis) break;
    repeats *= 2;
  }
  const times = [];
  for (let s = 0; s < samples; s += 1) {
    const start = performance.now();
    for (let r = 0; r < repeats; r += 1) fn();
    times.push((performance.now() - start) / repeats);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

export function formatMillis(ms) {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`;
}

/** "2.3× faster" / "1.8× slower": how onnx-extrema compares with a loop taking `otherMillis`. */
export function formatSpeedup(oursMillis, otherMillis) {
  const ratio = otherMillis / oursMillis;
  return ratio >= 1 ? `${ratio.toFixed(1)}× faster` : `${(1 / ratio).toFixed(1)}× slower`;
}

/** Lets the browser paint (e.g. a status line) before the next long synchronous step. */
export const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
