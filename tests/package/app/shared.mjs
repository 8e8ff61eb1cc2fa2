// One core behind both entries: init() through the ES module only, then the CommonJS entry works
// (argv[2] === 'cjs-first' does it the other way round). Prints what is shared.
import { createRequire } from 'node:module';
import { runChecks } from './checks.mjs';

const cjsFirst = process.argv[2] === 'cjs-first';
const cjs = createRequire(import.meta.url)('onnx-extrema');
if (cjsFirst) await cjs.init();
const esm = await import('onnx-extrema');
if (!cjsFirst) await esm.init();
const used = cjsFirst ? esm : cjs; // the entry whose init() was never called
const out = used.reduceMax(new (cjsFirst ? cjs : esm).Tensor('int32', new Int32Array([3, 8, 1]), [3]));
console.log(JSON.stringify({
  sameFunctions: cjs.argMax === esm.argMax && cjs.init === esm.init,
  sameTensorClass: cjs.Tensor === esm.Tensor,
  outputIsEsmTensor: out instanceof esm.Tensor,
  max: Number(out.data[0]),
  ...runChecks(used),
}));
