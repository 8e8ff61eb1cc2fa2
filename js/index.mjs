// onnx-extrema: ONNX ArgMax, ArgMin, ReduceMax and Hardmax, every version and type, in wasm SIMD.
export { init } from './loader.js';
export { runNode } from './engine.js';
export { argMax, argMin, reduceMax, hardmax } from './ops.js';
export { Tensor } from './tensor.js';
export { wasmTensor } from './wasm-tensor.js';
export {
  toFloat16Bits,
  fromFloat16Bits,
  toBFloat16Bits,
  fromBFloat16Bits,
  toFloat16Array,
  fromFloat16Array,
  toBFloat16Array,
  fromBFloat16Array,
} from './float16.js';
