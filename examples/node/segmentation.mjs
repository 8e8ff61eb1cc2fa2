// A segmentation mask: each pixel's class is the argmax over the class axis of [1, C, H, W]
// score maps. The reduced axis is strided here (H*W apart), the case that is slow elsewhere.
import { argMax, Tensor } from 'onnx-extrema';
import { classScoreMaps } from './data.mjs';
import { report, timeMicros } from './timing.mjs';

const SHADES = ' .:-=+*#%@ABCDEFGHIJKLMNOP';

export function segmentation() {
  const [classes, height, width] = [21, 256, 256];
  const scores = new Tensor('float32', classScoreMaps(classes, height, width), [1, classes, height, width]);

  const mask = argMax(scores, { axis: 1, keepdims: 0 }); // dims [1, 256, 256], one class id per pixel
  console.log(`Segmentation mask of ${width}x${height} pixels over ${classes} classes (dims [${mask.dims}]), downsampled:`);
  for (let y = 0; y < height; y += 16) {
    let line = '    ';
    for (let x = 0; x < width; x += 8) line += SHADES[Number(mask.data[y * width + x]) % SHADES.length];
    console.log(line);
  }

  // Timed as a frame loop runs: both ways write into an output array made once ({ out } here).
  const indices = new BigInt64Array(height * width);
  const classIds = new Int32Array(height * width);
  const plain = (out = classIds) => {
    for (let p = 0; p < height * width; p += 1) {
      let best = 0;
      for (let c = 1; c < classes; c += 1) if (scores.data[c * height * width + p] > scores.data[best * height * width + p]) best = c;
      out[p] = best;
    }
    return out;
  };
  const same = plain().every((c, p) => BigInt(c) === mask.data[p]);
  report('segmentation', same, timeMicros(() => argMax(scores, { axis: 1, keepdims: 0 }, { out: indices })), timeMicros(() => plain()));
}
