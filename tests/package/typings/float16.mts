// Where the lib declares Float16Array (ES2025), a real Float16Array is float16 data, and the
// output keeps its class in the types as it does at run time. Type-checked only (Node 20 has no
// Float16Array); tests/browser checks the run-time side in Chromium.
import { Tensor, reduceMax, argMax } from 'onnx-extrema';

export function float16Array(values: Float16Array): Float16Array {
  const x = new Tensor('float16', values, [values.length]);
  const index: BigInt64Array = argMax(x).data;
  void index;
  return reduceMax(x).data;
}
