// A page's Float16Array polyfill on globalThis (browsers without a native one: its instances are
// Proxies of a Uint16Array, no typed arrays) is not taken as float16 data: float16 takes a
// Uint16Array of bits as everywhere, and anything else, the polyfill's instances too, is the
// labelled Error. (Taken by its kind, which a Proxy has none of, it let any data that is no typed
// array through to the typed-array getters: a bare TypeError.) Its own process: the package reads
// globalThis.Float16Array once, when it loads.
import assert from 'node:assert/strict';
import test from 'node:test';

class PolyfillFloat16Array {
  constructor(n) {
    return new Proxy(new Uint16Array(n), {});
  }
}
globalThis.Float16Array = PolyfillFloat16Array;
const { argMax, hardmax, init, reduceMax, Tensor } = await import('../../js/index.mjs');
await init();

test('a Float16Array polyfill on globalThis: float16 data is a Uint16Array, anything else a labelled Error', () => {
  const bits = Uint16Array.from([0x3c00, 0x4200, 0x4000]); // 1, 3, 2
  assert.deepEqual(Array.from(argMax({ type: 'float16', data: bits, dims: [3] }).data), [1n]);
  const onlyBits = /^ArgMax version 13: input 0 has type 'float16' but its data is (an Array|null|an object|a Float32Array); 'float16' data must be a Uint16Array$/;
  const wrong = { 'an Array': [1, 2, 3], null: null, 'a polyfill instance': new PolyfillFloat16Array(3), 'a Float32Array': new Float32Array(3) };
  for (const [what, data] of Object.entries(wrong))
    assert.throws(() => argMax({ type: 'float16', data, dims: [3] }), (e) => e instanceof Error && onlyBits.test(e.message), what);
  assert.throws(() => new Tensor('float16', [1, 2], [2]), (e) => e instanceof Error && /^Tensor: /.test(e.message));
  assert.throws(() => reduceMax({ type: 'float16', data: bits, dims: [3] }, {}, { out: new PolyfillFloat16Array(1) }),
    (e) => e instanceof Error && /^ReduceMax version 20: option 'out' must be a typed array/.test(e.message));
  assert.deepEqual(Array.from(hardmax({ type: 'float16', data: bits, dims: [3] }).data), [0, 0x3c00, 0]);
});
