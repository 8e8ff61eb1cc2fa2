// onnx-extrema, one runNode call per sample, in the ONNX-node form a model would use (the same
// opset and inputs as the peers' one-node models; ReduceMax's axes tensor is built once, as the
// peers' constant initializer is). `resident`: the input is a wasmTensor (allocated in the module's
// memory, which operators read in place), filled once. `reuseOutput`: every call writes into one
// output array made once ({ out }), as a frame loop would. Both together are the kernel-only
// figure: no copy in, and no new output array, whose allocation and first writes (page faults)
// are the engine's cost, not the kernel's (in Chromium on these VMs 2 us for a 512-byte array,
// 3 ns a byte for large ones).
import { init, runNode, Tensor, wasmTensor } from '../../js/index.mjs';
import { readBytes } from '../lib/platform.mjs';

export async function load({ resident, reuseOutput }) {
  await init();
  const { version } = JSON.parse(new TextDecoder().decode(await readBytes(new URL('../../package.json', import.meta.url))));
  const how = `${resident ? ', input resident in the wasm heap' : ''}${reuseOutput ? ', one output array reused ({ out })' : ''}`;
  return { version, label: `onnx-extrema ${version}${how}` };
}

export function make({ resident, reuseOutput }) {
  let held = null; // the resident input
  return {
    name: resident ? 'onnx-extrema-resident' : reuseOutput ? 'onnx-extrema-out' : 'onnx-extrema',
    prepare(c, input) {
      let x = new Tensor(c.type, input, c.dims);
      if (resident) {
        held = wasmTensor(c.type, c.dims);
        held.data.set(input);
        x = held;
      }
      const inputs = [x];
      if (c.op === 'ReduceMax' && c.axes) inputs.push(new Tensor('int64', BigInt64Array.from(c.axes, BigInt), [c.axes.length]));
      const attrs = c.attrs;
      // The output array, of the class and length a first call returns.
      const first = reuseOutput ? runNode(c.op, inputs, attrs, c.opset)[0].data : null;
      const options = first ? { out: new first.constructor(first.length) } : undefined;
      return {
        sync: true,
        call: () => runNode(c.op, inputs, attrs, c.opset, options)[0],
        values: (out) => out.data,
      };
    },
    release() {
      held?.dispose();
      held = null;
    },
  };
}
