// Two bench results side by side: onnx-extrema's µs and its speedup over onnxruntime-web (one and
// two threads) in each, case by case (lib/compare.mjs).
//   node bench/compare.mjs bench/results/latest.json bench/results/browser-latest.json
import { readFileSync } from 'node:fs';
import { compareRuns } from './lib/compare.mjs';

const files = process.argv.slice(2);
if (files.length !== 2) {
  console.error('usage: node bench/compare.mjs A.json B.json (results of npm run bench, e.g. bench/results/latest.json)');
  process.exit(2);
}
const [a, b] = files.map((f) => JSON.parse(readFileSync(f, 'utf8')));
console.log(compareRuns(a, b));
