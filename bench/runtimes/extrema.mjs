// onnx-extrema, one runNode call per sample, in the ONNX-node form a model would use (the same
// opset and inputs as the peers' one-node models; ReduceMax's axes tensor is built once, as the
// peers' constant initializer is). `resident`: the input is a typed array on the module's own heap,
// which runNode detects and feeds without copying. `reuseOutput`: every call writes into one output
// array made once ({ out }), as a frame loop would. Both together are the kernel-only figure: no
// copy in, and no new output array, whose allocation and first writes (page faults) are the
// engine's cost, not the kernel's (in Chromium on these VMs 2 us for a 512-byte array, 3 ns a byte
// for large ones).
import { init, runNode, Tensor } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { readBytes } from '../lib/platform.mjs';

const CLASS = {
  float32: Float32Array, float64: Float64Array, int32: Int32Array, uint8: Uint8Array, int8: Int8Array, int64: BigInt64Array,
  float16: Uint16Array, bfloat16: Uint16Array,
};

export async function load({ resident, reuseOutput }) {
  await init();
  const { version } = JSON.parse(new TextDecoder().decode(await readBytes(new URL('../../package.json', import.meta.url))));
  const how = `${resident ? ', input resident in the wasm heap' : ''}${reuseOutput ? ', one output array reused ({ out })' : ''}`;
  return { version, label: `onnx-extrema ${version}${how}` };
}

export function make({ resident, reuseOutput }) {
  let held = 0; // heap pointer of the resident input
  return {
    name: resident ? 'onnx-extrema-resident' : reuseOutput ? 'onnx-extrema-out' : 'onnx-extrema',
    prepare(c, input) {
      let data = input;
      let refresh = () => data;
      if (resident) {
        const M = currentModule();
        // Grow the heap first so later working-memory allocations do not detach the view.
        const slack = M._malloc(c.bytes + (16 << 20));
        held = M._malloc(c.bytes + M.CACHE_LINE_BYTES);
        M._free(slack);
        if (!held) throw new Error('cannot allocate the resident input');
        const at = Math.ceil(held / M.CACHE_LINE_BYTES) * M.CACHE_LINE_BYTES; // on a line, as staged input is
        const view = () => new CLASS[c.type](M.HEAPU8.buffer, at, c.count);
        data = view();
        data.set(input);
        refresh = () => (data.length === c.count ? data : (data = view()));
      }
      const inputs = [new Tensor(c.type, data, c.dims)];
      if (c.op === 'ReduceMax' && c.axes) inputs.push(new Tensor('int64', BigInt64Array.from(c.axes, BigInt), [c.axes.length]));
      const attrs = c.attrs;
      // The output array, of the class and length a first call returns.
      const first = reuseOutput ? runNode(c.op, inputs, attrs, c.opset)[0].data : null;
      const options = first ? { out: new first.constructor(first.length) } : undefined;
      return {
        sync: true,
        call: () => runNode(c.op, inputs, attrs, c.opset, options)[0],
        values: (out) => out.data,
        before: () => (inputs[0] = new Tensor(c.type, refresh(), c.dims)), // re-made only if memory grew
      };
    },
    release() {
      if (held) currentModule()._free(held);
      held = 0;
    },
  };
}
