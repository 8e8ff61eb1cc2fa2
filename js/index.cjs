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
      Object.setPrototypeOf(TensorStandIn.prototype, m.Tensor.prototype);
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
  const functions = ['runNode', 'argMax', 'argMin', 'reduceMax', 'hardmax', 'wasmTensor', 'toFloat16Bits', 'fromFloat16Bits',
    'toBFloat16Bits', 'fromBFloat16Bits', 'toFloat16Array', 'fromFloat16Array', 'toBFloat16Array', 'fromBFloat16Array'];
  for (const name of functions) exports[name] = (...args) => loaded(name)[name](...args);
  // `Tensor` is the ES module's class once it has loaded; before, a stand-in, so that
  // `const { Tensor } = require('onnx-extrema')` at the top of a file works: constructed (after
  // init()) it makes the ES module's Tensor itself (a subclass's instance for a subclass), its
  // prototype joins that class's on load, and instanceof it accepts the ES module's tensors (the
  // outputs). What it cannot be is that class: a method put on its prototype reaches no output.
  class TensorStandIn {
    constructor(...args) {
      const Tensor = loaded('Tensor').Tensor;
      return Reflect.construct(Tensor, args, new.target === TensorStandIn ? Tensor : new.target);
    }

    static [Symbol.hasInstance](value) {
      if (this !== TensorStandIn) return Function.prototype[Symbol.hasInstance].call(this, value); // a subclass's own
      return esm !== null && value instanceof esm.Tensor;
    }
  }
  Object.defineProperty(TensorStandIn, 'name', { value: 'Tensor' });
  Object.defineProperty(exports, 'Tensor', { enumerable: true, get: () => (esm ? esm.Tensor : TensorStandIn) });
}
