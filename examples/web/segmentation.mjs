// A segmentation mask: each pixel's class is the argmax over the class axis (axis 1) of
// [1, classes, height, width] score maps. onnx-extrema does it in one call; two plain JS loops
// compute the same mask for comparison.
import { argMax, Tensor } from 'onnx-extrema';
import { blobScoreMaps } from './data.mjs';
import { medianMillis } from './timing.mjs';

export const [CLASSES, HEIGHT, WIDTH] = [21, 256, 256];

/** The loop most people write first: for each pixel, scan its classes (H*W floats apart). */
export function maskByPixel(scores, classes, pixels, mask = new Uint8Array(pixels)) {
  for (let p = 0; p < pixels; p += 1) {
    let best = 0;
    for (let c = 1; c < classes; c += 1) if (scores[c * pixels + p] > scores[best * pixels + p]) best = c;
    mask[p] = best;
  }
  return mask;
}

/** The cache-friendly loop: walk the score maps in memory order, keeping a running best per pixel. */
export function maskByClass(scores, classes, pixels, mask = new Uint8Array(pixels), best = new Float32Array(pixels)) {
  mask.fill(0);
  best.set(scores.subarray(0, pixels));
  for (let c = 1; c < classes; c += 1)
    for (let p = 0, offset = c * pixels; p < pixels; p += 1)
      if (scores[offset + p] > best[p]) {
        best[p] = scores[offset + p];
        mask[p] = c;
      }
  return mask;
}

function countDifferences(a, b) {
  let differ = 0;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) differ += 1;
  return differ;
}

export function segment() {
  const scores = new Tensor('float32', blobScoreMaps(CLASSES, HEIGHT, WIDTH), [1, CLASSES, HEIGHT, WIDTH]);

  // The one call: the index of the highest score along axis 1; keepdims 0 drops that axis.
  const result = argMax(scores, { axis: 1, keepdims: 0 }); // int64 (BigInt64Array), dims [1, 256, 256]
  // Class ids as bytes for drawing, read as the low 32 bits of each int64 (little-endian) through an
  // Int32Array view: no BigInt per pixel (Uint8Array.from(result.data, Number) took 37-75 ms for
  // 512x512 in Node, this 0.6 ms).
  const low = new Int32Array(result.data.buffer, result.data.byteOffset, 2 * result.data.length);
  const mask = new Uint8Array(result.data.length);
  for (let p = 0; p < mask.length; p += 1) mask[p] = low[2 * p];

  const pixels = HEIGHT * WIDTH;
  const byPixel = maskByPixel(scores.data, CLASSES, pixels);
  const byClass = maskByClass(scores.data, CLASSES, pixels);

  // Timed as a frame loop runs: each way writes into output arrays made once (onnx-extrema's
  // { out }), so no call pays for a new array.
  const frame = { indices: new BigInt64Array(pixels), mask: new Uint8Array(pixels), best: new Float32Array(pixels) };

  return {
    scores,
    dims: result.dims,
    mask,
    differences: { byPixel: countDifferences(mask, byPixel), byClass: countDifferences(mask, byClass) },
    timings: medianMillis({
      ours: () => argMax(scores, { axis: 1, keepdims: 0 }, { out: frame.indices }),
      byPixel: () => maskByPixel(scores.data, CLASSES, pixels, frame.mask),
      byClass: () => maskByClass(scores.data, CLASSES, pixels, frame.mask, frame.best),
    }),
  };
}
