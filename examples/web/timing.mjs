// Timing in the browser. Browsers coarsen performance.now() (to 100 µs in a page that is not
// cross-origin isolated), so a fast function is repeated until one sample lasts a few
// milliseconds. The methods' samples are interleaved, so a busy moment on the machine slows
// every method alike, and each method's median is kept.

// How many calls make one sample last at least `minSampleMillis`. Each count is tried three times
// and the fastest decides: on a busy machine one interrupted try of a single call lasted the whole
// span, and samples of one 5 µs call each then read 0 on the 100 µs clock (a median of 0).
function repeatsFor(fn, minSampleMillis) {
  let repeats = 1;
  while (repeats < 1 << 16) {
    let fastest = Infinity;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const start = performance.now();
      for (let r = 0; r < repeats; r += 1) fn();
      fastest = Math.min(fastest, performance.now() - start);
    }
    if (fastest >= minSampleMillis) break;
    repeats *= 2;
  }
  return repeats;
}

// V8 first runs code from its baseline compilers and swaps in optimized code, compiled in the
// background, once a function is hot. In headless Chromium on a 2-core machine a single warm-up
// call left the page's first greedy timing at 10.2 µs where a re-run measured 5.4-6.3 µs, so the
// page's first timing warms its methods up for a second and later ones for 0.2 s.
export const WARM_UP_MILLIS = { first: 1000, later: 200 };
let firstTiming = true;

function warmUp(fns, millis) {
  const end = performance.now() + millis;
  do for (const fn of fns) fn();
  while (performance.now() < end);
}

/**
 * Median time in milliseconds of one call of each function: { name: fn } -> { name: millis }.
 */
export function medianMillis(methods, samples = 11, minSampleMillis = 4) {
  const entries = Object.entries(methods);
  warmUp(entries.map(([, fn]) => fn), firstTiming ? WARM_UP_MILLIS.first : WARM_UP_MILLIS.later);
  firstTiming = false;
  const repeats = entries.map(([, fn]) => repeatsFor(fn, minSampleMillis));
  const times = entries.map(() => []);
  for (let s = 0; s < samples; s += 1)
    entries.forEach(([, fn], m) => {
      const start = performance.now();
      for (let r = 0; r < repeats[m]; r += 1) fn();
      times[m].push((performance.now() - start) / repeats[m]);
    });
  return Object.fromEntries(entries.map(([name], m) => [name, times[m].sort((a, b) => a - b)[samples >> 1]]));
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
