// The CommonJS side of usage.mts: require() by package name, under tsc --strict with
// "module": "node16" (where index.d.cts is what makes this compile). typings.test.mjs also runs it.
import ox = require('onnx-extrema');

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`usage.cts: ${what}`);
}

async function main(): Promise<void> {
  const options: ox.InitOptions = {};
  await ox.init(options);
  const scores = new ox.Tensor('int32', new Int32Array([4, 9, 9, 1]), [4]);
  const last: ox.Tensor<'int64', BigInt64Array> = ox.argMax(scores, { select_last_index: 1 });
  check(last.data instanceof BigInt64Array && last.data[0] === 2n, 'argMax');
  const top: ox.Tensor<'int32', Int32Array> = ox.reduceMax(scores, { keepdims: 0 });
  check(top.data instanceof Int32Array && top.data[0] === 9 && top.dims.length === 0, 'reduceMax');
  const bits: Uint16Array = ox.toFloat16Array([0.1]);
  check(bits[0] === 0x2e66 && ox.fromFloat16Bits(0x2e66) === 0.0999755859375, 'float16 helpers');
  const outputs: ox.Tensor[] = ox.runNode('Hardmax', [new ox.Tensor('float64', new Float64Array([1, 2]), [1, 2])], { axis: 1 }, 11);
  const hot = outputs[0];
  check(hot?.type === 'float64' && hot.data[0] === 0 && hot.data[1] === 1, 'runNode');
  const resident: ox.WasmTensor<'uint8'> = ox.wasmTensor('uint8', [3]);
  resident.data.set([7, 9, 9]);
  check(ox.argMax(resident, { select_last_index: 1 }).data[0] === 2n, 'wasmTensor');
  resident.dispose();
  // @ts-expect-error Hardmax takes floats only
  if (outputs.length > 1) ox.hardmax(scores);
}

void main(); // a rejection is unhandled: node exits with code 1
