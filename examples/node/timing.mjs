// Small helpers to time a function and to print a comparison line.

/**
 * Median time per call in microseconds: `fn` runs in batches of at least ~2 ms (so one sample is
 * not just timer noise for a fast call), after a warm-up that lets the JIT settle.
 */
export function timeMicros(fn, samples = 15) {
  const now = () => Number(process.hrtime.bigint()) / 1000;
  let batch = 1;
  for (let start = now(); now() - start < 50; ) {
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
