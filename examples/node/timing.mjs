// Small helpers to time a function and to print a comparison line.

/** Median time in microseconds of `fn` over a few runs (after a warm-up). */
export function timeMicros(fn, runs = 15) {
  fn();
  const times = [];
  for (let r = 0; r < runs; r += 1) {
    const start = process.hrtime.bigint();
    fn();
    times.push(Number(process.hrtime.bigint() - start) / 1000);
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
