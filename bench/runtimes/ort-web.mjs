// onnxruntime-web (wasm execution provider), one `await session.run` per sample on a one-node
// model written in JS (lib/onnx-model.mjs). The input is an ort.Tensor over a JS typed array, so
// each call includes ort's copy into its wasm memory and of the output back out.
import * as ort from 'onnxruntime-web';
import { oneNodeModel } from '../lib/onnx-model.mjs';

const TYPES = new Set(['float32', 'float64', 'int32', 'uint8', 'int8', 'int64', 'float16']); // no bfloat16 tensor type in ort's JS API

// float16 outputs come back as a Float16Array where the runtime has one (Chromium 135+): its bits,
// as the reference gives them.
const halfBits = (data) =>
  typeof Float16Array === 'function' && data instanceof Float16Array ? new Uint16Array(data.buffer, data.byteOffset, data.length) : data;

export async function load({ threads }) {
  ort.env.wasm.numThreads = threads;
  ort.env.logLevel = 'error';
  return { version: ort.env.versions.web, label: `onnxruntime-web ${ort.env.versions.web}, wasm EP, numThreads ${threads}` };
}

export function make({ threads }) {
  let session = null;
  return {
    name: `ort-web-${threads}t`,
    async prepare(c, input) {
      if (!TYPES.has(c.type)) return { unavailable: `no ${c.type} tensor type in onnxruntime-web` };
      const model = oneNodeModel({
        op: c.op, opset: c.opset, type: c.type, dims: c.dims, outType: c.outType, outDims: c.outDims,
        attributes: c.attrs, axesInput: c.op === 'ReduceMax' ? c.axes ?? undefined : undefined,
      });
      try {
        session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
      } catch (error) {
        return { unavailable: `session: ${String(error.message).split('\n')[0].slice(0, 120)}` };
      }
      const feeds = { x: new ort.Tensor(c.type, input, c.dims) };
      const s = session;
      return {
        sync: false,
        call: () => s.run(feeds),
        values: (out) => halfBits(out.y.data),
      };
    },
    async release() {
      if (session) await session.release();
      session = null;
    },
  };
}
