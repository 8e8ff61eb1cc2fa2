// Every runtime the bench can run, by process name: its module, options and the columns it gives.
export const RUNTIMES = {
  'onnx-extrema': { module: './extrema.mjs', options: { resident: false }, columns: ['onnx-extrema'] },
  'onnx-extrema-resident': { module: './extrema.mjs', options: { resident: true }, columns: ['onnx-extrema-resident'] },
  'ort-web-1t': { module: './ort-web.mjs', options: { threads: 1 }, columns: ['ort-web-1t'], peer: true },
  'ort-web-2t': { module: './ort-web.mjs', options: { threads: 2 }, columns: ['ort-web-2t'], peer: true },
  'tfjs-wasm': { module: './tfjs-wasm.mjs', options: { resident: false }, columns: ['tfjs-wasm'], peer: true },
  'tfjs-wasm-resident': { module: './tfjs-wasm.mjs', options: { resident: true }, columns: ['tfjs-wasm-resident'], residentPeer: true },
  limit: { module: './limit.mjs', options: {}, columns: ['limit-max', 'limit-stream', 'limit-copy-in', 'limit-copy-chunks'], limit: true },
};
