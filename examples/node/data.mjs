// Built-in, deterministic example data (nothing is downloaded): a small seeded generator and
// the tensors the examples use.

/** Mulberry32: a tiny seeded PRNG so every run shows the same numbers. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Next-token logits for a batch of sequences: mostly noise, a few strong candidates per row. */
export function vocabularyLogits(batch, vocabulary, seed = 1) {
  const next = random(seed);
  const logits = new Float32Array(batch * vocabulary);
  for (let i = 0; i < logits.length; i += 1) logits[i] = (next() - 0.5) * 8;
  for (let b = 0; b < batch; b += 1)
    for (let k = 0; k < 3; k += 1) logits[b * vocabulary + Math.floor(next() * vocabulary)] = 12 + next() * 6;
  return logits;
}

/**
 * Per-class score maps [1, classes, height, width] for a segmentation mask: each class is
 * strongest inside its own disc on the image, so the argmax over classes draws the discs.
 */
export function classScoreMaps(classes, height, width, seed = 2) {
  const next = random(seed);
  const centres = Array.from({ length: classes }, () => [next() * width, next() * height, 6 + next() * (width / 4)]);
  const scores = new Float32Array(classes * height * width);
  for (let c = 0; c < classes; c += 1) {
    const [cx, cy, radius] = centres[c];
    for (let y = 0; y < height; y += 1)
      for (let x = 0; x < width; x += 1) {
        const distance = Math.hypot(x - cx, y - cy) / radius;
        scores[(c * height + y) * width + x] = (c === 0 ? 0.5 : 1 - distance) + next() * 0.05;
      }
  }
  return scores;
}

/** Feature maps [batch, channels, height, width] as a CNN's last conv layer might produce. */
export function featureMaps(batch, channels, height, width, seed = 3) {
  const next = random(seed);
  const x = new Float32Array(batch * channels * height * width);
  for (let i = 0; i < x.length; i += 1) x[i] = Math.max(0, next() * 4 - 2); // after a ReLU
  return x;
}
