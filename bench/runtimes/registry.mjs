// Every runtime the bench can run, by process name: its module, options, the columns it gives and
// the packages of bench/package.json it imports (run.mjs installs them when a run needs them);
// `threads` when it runs more than one (not pinned to one CPU a round: lib/cpu-pinning.mjs).
const ORT = ['onnxruntime-web'];
const TFJS = ['@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-wasm'];

export const RUNTIMES = {
  'onnx-extrema': { module: './extrema.mjs', options: { resident: false, reuseOutput: false }, columns: ['onnx-extrema'] },
  'onnx-extrema-out': { module: './extrema.mjs', options: { resident: false, reuseOutput: true }, columns: ['onnx-extrema-out'] },
  'onnx-extrema-resident': { module: './extrema.mjs', options: { resident: true, reuseOutput: true }, columns: ['onnx-extrema-resident'] },
  'ort-web-1t': { module: './ort-web.mjs', options: { threads: 1 }, columns: ['ort-web-1t'], peer: true, packages: ORT },
  'ort-web-2t': { module: './ort-web.mjs', options: { threads: 2 }, threads: 2, columns: ['ort-web-2t'], peer: true, packages: ORT },
  'tfjs-wasm': { module: './tfjs-wasm.mjs', options: { resident: false }, columns: ['tfjs-wasm'], peer: true, packages: TFJS },
  'tfjs-wasm-resident': { module: './tfjs-wasm.mjs', options: { resident: true }, columns: ['tfjs-wasm-resident'], residentPeer: true, packages: TFJS },
  limit: { module: './limit.mjs', options: {}, columns: ['limit-max', 'limit-stream', 'limit-copy-in', 'limit-copy-chunks'], limit: true },
};
