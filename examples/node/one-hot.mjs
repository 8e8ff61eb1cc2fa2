// One-hot decisions: Hardmax marks the first maximum of each row with 1 and the rest with 0,
// in the input's own type.
import { hardmax, Tensor } from 'onnx-extrema';
import { report, timeMicros } from './timing.mjs';

export function oneHot() {
  const scores = new Tensor('float32', new Float32Array([0.1, 0.7, 0.2, 0.9, 0.9, 0.1, 0.3, 0.3, 0.8]), [3, 3]);
  const decisions = hardmax(scores, { axis: -1 });
  console.log('One-hot decisions (Hardmax, axis -1) for 3 rows of 3 scores; ties go to the first maximum:');
  for (let r = 0; r < 3; r += 1) console.log(`    [${Array.from(scores.data.subarray(r * 3, r * 3 + 3)).map((v) => v.toFixed(1)).join(', ')}] -> [${decisions.data.subarray(r * 3, r * 3 + 3).join(', ')}]`);

  const plain = () => {
    const out = new Float32Array(9);
    for (let r = 0; r < 3; r += 1) {
      let best = 0;
      for (let k = 1; k < 3; k += 1) if (scores.data[r * 3 + k] > scores.data[r * 3 + best]) best = k;
      out[r * 3 + best] = 1;
    }
    return out;
  };
  report('one-hot', plain().every((v, i) => v === decisions.data[i]), timeMicros(() => hardmax(scores, { axis: -1 })), timeMicros(plain));
}
