// ort.Tensor interop under tsc --strict: onnxruntime-common's tensors go in, and outputs go back
// through `new ort.Tensor(out.type, out.data, out.dims)`; a general ort.Tensor (as session.run()
// returns) is taken too. typings.test.mjs type-checks and runs it.
import * as ort from 'onnxruntime-common';
import { argMax, hardmax, init, reduceMax } from 'onnx-extrema';

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`ort.mts: ${what}`);
}

await init();
const scores = new ort.Tensor('float32', new Float32Array([0.2, 0.7, 0.1, 0.9, 0.05, 0.05]), [2, 3]);
const best = argMax(scores, { axis: 1, keepdims: 0 });
const bestOrt: ort.TypedTensor<'int64'> = new ort.Tensor(best.type, best.data, best.dims);
check(bestOrt.type === 'int64' && bestOrt.data[0] === 1n && bestOrt.data[1] === 0n, 'argMax -> ort.Tensor');

const top = reduceMax(scores, { axes: [1] });
const topOrt: ort.TypedTensor<'float32'> = new ort.Tensor(top.type, top.data, top.dims);
check(topOrt.dims.length === 2 && topOrt.dims[1] === 1, 'reduceMax -> ort.Tensor');

const half = new ort.Tensor('float16', new Uint16Array([0x3c00, 0x4000, 0x3800]), [3]);
const halfHot = hardmax(half);
const halfOrt: ort.TypedTensor<'float16'> = new ort.Tensor(halfHot.type, halfHot.data, halfHot.dims);
// Where the runtime has a Float16Array (Node 24+), ort.Tensor turns float16 bits into one, and
// the output keeps that class: 1.0 is then the value 1, not the bits 0x3c00.
const one = halfOrt.data instanceof Uint16Array ? 0x3c00 : 1;
check(halfOrt.data[1] === one && halfOrt.data[0] === 0, 'hardmax float16 -> ort.Tensor');

// What session.run() gives: ort.Tensor, whose type is a union; checked at run time.
const fromSession: ort.Tensor = scores;
check(argMax(fromSession).type === 'int64', 'argMax of ort.Tensor');

export function misuses(): void {
  const flags = new ort.Tensor('bool', new Uint8Array([1, 0]), [2]);
  // @ts-expect-error ArgMax takes no bool
  argMax(flags);
  const ints = new ort.Tensor('int32', new Int32Array([1, 0]), [2]);
  // @ts-expect-error Hardmax takes floats only
  hardmax(ints);
}
