'use strict';
// CommonJS entry over the same ES module, so init() state is never duplicated. Node >= 20.19
// loads ES modules through require() directly; on older Node 20 this entry's init() imports the ES
// module and every other export delegates to it once it is loaded.
let esm = null;
try {
  esm = require('./index.mjs');
} catch (error) {
  if (error.code !== 'ERR_REQUIRE_ESM' && error.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
}

if (esm) {
  module.exports = esm;
} else {
  let loading = null;
  const load = () => (loading ??= import('./index.mjs').then((m) => (esm = m)));
  const loaded = (name) => {
    if (!esm) throw new Error(`onnx-extrema: ${name} was used before init() resolved; await init() first`);
    return esm;
  };
  exports.init = (options) => load().then((m) => m.init(options));
  const names = ['runNode', 'argMax', 'argMin', 'reduceMax', 'hardmax', 'toFloat16Bits', 'fromFloat16Bits',
    'toBFloat16Bits', 'fromBFloat16Bits', 'toFloat16Array', 'fromFloat16Array', 'toBFloat16Array', 'fromBFloat16Array'];
  for (const name of names) exports[name] = (...args) => loaded(name)[name](...args);
  Object.defineProperty(exports, 'Tensor', { enumerable: true, get: () => loaded('Tensor').Tensor });
}
