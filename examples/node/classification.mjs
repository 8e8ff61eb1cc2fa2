// Top-1 classification: the class of each image is the argmax of its 1000 scores.
import { argMax, Tensor } from 'onnx-extrema';
import { random } from './data.mjs';
import { report, timeMicros } from './timing.mjs';

export function classification() {
  const [images, classes] = [64, 1000];
  const next = random(7);
  const scores = new Float32Array(images * classes).map(() => next() * 10 - 5);

  const top1 = argMax(new Tensor('float32', scores, [images, classes]), { axis: 1, keepdims: 0 });
  console.log(`Top-1 classes of ${images} images (first 8): [${Array.from(top1.data.subarray(0, 8)).join(', ')}]`);

  const plain = () => {
    const out = new Array(images);
    for (let i = 0; i < images; i += 1) {
      let best = 0;
      for (let c = 1; c < classes; c += 1) if (scores[i * classes + c] > scores[i * classes + best]) best = c;
      out[i] = BigInt(best);
    }
    return out;
  };
  const x = new Tensor('float32', scores, [images, classes]);
  report('top-1', plain().every((c, i) => c === top1.data[i]), timeMicros(() => argMax(x, { axis: 1, keepdims: 0 })), timeMicros(plain));
}
