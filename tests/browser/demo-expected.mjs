// What the web demo (examples/web/) must compute, by plain loops in Node over the same generated
// data: the segmentation mask and the greedy next token. tests/js/demo.test.mjs (Chromium) and
// tests/browser/page-suite.mjs (Firefox, WebKit) check the page against it.
import { vocabularyLogits } from '../../examples/node/data.mjs';
import { blobScoreMaps } from '../../examples/web/data.mjs';

export const [CLASSES, HEIGHT, WIDTH, VOCABULARY] = [21, 256, 256, 32000];

/** For each pixel, the first class with the highest score. */
export function expectedMask() {
  const scores = blobScoreMaps(CLASSES, HEIGHT, WIDTH);
  const pixels = HEIGHT * WIDTH;
  const mask = new Array(pixels);
  for (let p = 0; p < pixels; p += 1) {
    let best = 0;
    for (let c = 1; c < CLASSES; c += 1) if (scores[c * pixels + p] > scores[best * pixels + p]) best = c;
    mask[p] = best;
  }
  return mask;
}

/** The first index of the highest logit. */
export function expectedToken() {
  const logits = vocabularyLogits(1, VOCABULARY);
  let best = 0;
  for (let v = 1; v < VOCABULARY; v += 1) if (logits[v] > logits[best]) best = v;
  return best;
}

/** null when `actual` equals `expected` pixel for pixel, else how many differ and the first. */
export function firstDifference(actual, expected) {
  const count = expected.reduce((n, e, i) => n + (actual[i] !== e ? 1 : 0), 0);
  const i = expected.findIndex((e, k) => actual[k] !== e);
  return count === 0 ? null : `${count} pixels differ; first at (${i % WIDTH}, ${Math.floor(i / WIDTH)}): got ${actual[i]}, expected ${expected[i]}`;
}
