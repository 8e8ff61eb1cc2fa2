'use strict';
// CommonJS entry over the same ES module, so the loaded wasm module (init() state) is never
// duplicated: init() through either entry makes both ready. Node >= 20.19 loads ES modules through
// require() directly, and this entry is that module. Older Node 20 cannot; there this entry starts
// import() at require() time and every export delegates to the ES module once it has loaded (a
// tick later), so only the first synchronous use, before any await, finds it missing.
let esm = null;
try {
  esm = require('./index.mjs');
} catch (error) {
  if (error.code !== 'ERR_REQUIRE_ESM' && error.code !== 'ERR_REQUIRE_ASYNC_MODULE') throw error;
}

if (esm) {
  module.exports = esm;
} else {
  let failure = null;
  const loading = import('./index.mjs').then(
    (m) => {
      esm = m;
      return m;
    },
    (error) => {
      failure = error; // reported by init() and by each use, not as an unhandled rejection
      return null;
    },
  );
  const loaded = (name) => {
    if (failure) throw failure;
    if (!esm) throw new Error(`onnx-extrema: ${name} was used before init() resolved; await init() first`);
    return esm;
  };
  exports.init = (options) =>
    loading.then((m) => {
      if (!m) throw failure;
      return m.init(options);
    });
  // The ES module's exports other than init, which is above (tests/js/package.test.mjs checks the list).
  const functions = ['runNode', 'argMax', 'argMin', 'reduceMax', 'hardmax', 'toFloat16Bits', 'fromFloat16Bits',
    'toBFloat16Bits', 'fromBFloat16Bits', 'toFloat16Array', 'fromFloat16Array', 'toBFloat16Array', 'fromBFloat16Array'];
  for (const name of functions) exports[name] = (...args) => loaded(name)[name](...args);
  Object.defineProperty(exports, 'Tensor', { enumerable: true, get: () => loaded('Tensor').Tensor });
}
