// Deterministic class-score maps for the demo (generated here, nothing is downloaded). They stand
// in for the output of a segmentation model such as DeepLab: [1, classes, height, width] float32,
// one score map per class. Class 0 (background) has a flat score; every other class is a soft,
// slightly wavy elliptical blob, so the argmax over classes draws regions with curved borders.
import { random } from '../node/data.mjs'; // the same seeded generator as the Node examples

export const BACKGROUND_SCORE = 0.25;

export function blobScoreMaps(classes, height, width, seed = 4) {
  const next = random(seed);
  const plane = height * width;
  const scores = new Float32Array(classes * plane);
  scores.fill(BACKGROUND_SCORE, 0, plane);
  for (let c = 1; c < classes; c += 1) {
    const cx = (0.08 + 0.84 * next()) * width;
    const cy = (0.08 + 0.84 * next()) * height;
    const rx = (0.07 + 0.12 * next()) * width;
    const ry = (0.07 + 0.12 * next()) * height;
    const angle = next() * Math.PI;
    const peak = 0.8 + 0.4 * next();
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const [phaseX, phaseY] = [next() * 2 * Math.PI, next() * 2 * Math.PI];
    for (let y = 0; y < height; y += 1)
      for (let x = 0; x < width; x += 1) {
        const u = ((x - cx) * cos + (y - cy) * sin) / rx; // distance along the blob's own axes
        const v = (-(x - cx) * sin + (y - cy) * cos) / ry;
        const wave = 0.06 * Math.sin(0.09 * x + phaseX) * Math.sin(0.11 * y + phaseY);
        scores[c * plane + y * width + x] = peak * Math.exp(-(u * u + v * v)) + wave;
      }
  }
  return scores;
}
