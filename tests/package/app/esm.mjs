// Runs in the app that installed the packed tarball: `import` by package name.
import * as ox from 'onnx-extrema';
import { runChecks } from './checks.mjs';

let beforeInit = 'no error';
try {
  ox.argMax(new ox.Tensor('float32', new Float32Array([1, 2]), [2]));
} catch (error) {
  beforeInit = `${error.constructor.name}: ${error.message}`;
}
await ox.init();
const wasm = import.meta.resolve('onnx-extrema/ox.wasm');
console.log(JSON.stringify({ exports: Object.keys(ox).sort(), beforeInit, wasm, ...runChecks(ox) }));
