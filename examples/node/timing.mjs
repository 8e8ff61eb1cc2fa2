// Small helpers to time a function and to print a comparison line.

// V8 first runs wasm code compiled by its baseline compiler and swaps in optimized code, compiled
// in the background, once a function is hot: on a 2-core machine that took most of a second, and
// calls before it were 2-5x slower (a [4, 32000] ArgMax 65-140 µs instead of 25). So the first
// timing warms up for 1.5 s and later ones (other kernels) for 0.3 s, and the medians show the
// speed of a running application.
let firstTiming = true;

/**
 * Median time per call in microseconds: `fn` runs in batches of at least ~2 ms (so one sample is
 * not just timer noise for a fast call), after a warm-up that lets the JIT settle (above).
 */
export function timeMicros(fn, samples = 15) {
  const now = () => Number(process.hrtime.bigint()) / 1000;
  const warmUpMs = firstTiming ? 1500 : 300;
  firstTiming = false;
  let batch = 1;
  for (let start = now(); now() - start < warmUpMs * 1000; ) {
    const t0 = now();
    for (let i = 0; i < batch; i += 1) fn();
    if (now() - t0 < 2000) batch *= 2;
  }
  const times = [];
  for (let r = 0; r < samples; r += 1) {
    const t0 = now();
    for (let i = 0; i < batch; i += 1) fn();
    times.push((now() - t0) / batch);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

export function formatMicros(us) {
  return us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(1)} µs`;
}

/** One line: what was computed, whether it matches the plain-JS loop, and both timings. */
export function report(name, same, oursMicros, plainMicros) {
  const verdict = same ? 'matches the plain JS loop' : 'DIFFERS from the plain JS loop';
  const speed = `${formatMicros(oursMicros)} vs ${formatMicros(plainMicros)} (${(plainMicros / oursMicros).toFixed(1)}x)`;
  console.log(`  ${verdict}; onnx-extrema ${speed}`);
  if (!same) process.exitCode = 1;
}
