// Global max pooling: ReduceMax over the spatial axes of [N, C, H, W] feature maps. The same call
// works for every opset: from ReduceMax 18 on, onnx-extrema passes `axes` as the node's input.
import { reduceMax, Tensor, wasmTensor } from 'onnx-extrema';
import { featureMaps } from './data.mjs';
import { formatMicros, report, timeMicros } from './timing.mjs';

export function globalMaxPool() {
  const [n, c, h, w] = [8, 256, 14, 14];
  const x = new Tensor('float32', featureMaps(n, c, h, w), [n, c, h, w]);

  const pooled = reduceMax(x, { axes: [2, 3], keepdims: 1 }); // dims [8, 256, 1, 1]
  const pooled13 = reduceMax(x, { axes: [2, 3], keepdims: 1 }, { opset: 13 }); // axes as an attribute
  console.log(`Global max pooling of [${x.dims}] -> [${pooled.dims}]; first channels: ${Array.from(pooled.data.subarray(0, 4), (v) => v.toFixed(3)).join(', ')}`);
  console.log(`  opset 13 and opset 20 agree: ${pooled.data.every((v, i) => v === pooled13.data[i])}`);

  const plain = () => {
    const out = new Float32Array(n * c);
    for (let m = 0; m < n * c; m += 1) {
      let best = -Infinity;
      for (let p = 0; p < h * w; p += 1) best = Math.max(best, x.data[m * h * w + p]);
      out[m] = best;
    }
    return out;
  };
  report('pool', plain().every((v, i) => v === pooled.data[i]), timeMicros(() => reduceMax(x, { axes: [2, 3], keepdims: 1 })), timeMicros(plain));

  // The same maps in a wasmTensor, allocated in the module's memory: read where they are, not
  // copied in first (worth it where the data is written there once, or read by several calls).
  const resident = wasmTensor('float32', x.dims);
  resident.data.set(x.data);
  const fromResident = reduceMax(resident, { axes: [2, 3], keepdims: 1 });
  const same = fromResident.data.every((v, i) => v === pooled.data[i]);
  const micros = timeMicros(() => reduceMax(resident, { axes: [2, 3], keepdims: 1 }));
  console.log(`  from a wasmTensor (read in place): ${same ? 'the same maxima' : 'DIFFERENT maxima'}; ${formatMicros(micros)} a call`);
  if (!same) process.exitCode = 1;
  resident.dispose();
}
