// `npm start`: onnx-extrema on built-in data. Each example computes a real use of an operator,
// checks it against a plain JS loop and prints both timings.
import { init } from 'onnx-extrema';
import { classification } from './classification.mjs';
import { float16Logits } from './float16-logits.mjs';
import { globalMaxPool } from './global-max-pool.mjs';
import { greedyDecoding } from './greedy-decoding.mjs';
import { oneHot } from './one-hot.mjs';
import { segmentation } from './segmentation.mjs';

await init(); // loads the wasm module once; every operator is synchronous after this

for (const example of [greedyDecoding, classification, segmentation, globalMaxPool, oneHot, float16Logits]) {
  example();
  console.log();
}
