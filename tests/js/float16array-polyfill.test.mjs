// A global Float16Array that is no typed-array class of 2-byte elements (a page's polyfill, in a
// browser without a native one: its instances are Proxies of a Uint16Array; or a subclass of
// another width) is not taken as float16 data: float16 takes a Uint16Array of bits as everywhere,
// and anything else, the polyfill's instances too, is the labelled Error. (Taken by its kind, which
// a Proxy has none of, it let any data that is no typed array through to the typed-array getters:
// a bare TypeError.) Its own process: the package reads globalThis.Float16Array once, when it loads.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import test from 'node:test';
import { NOT_NODE } from './helpers.mjs';

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

test('a global Float16Array of another element width (a Uint8Array subclass) is not taken as float16 data either', { skip: NOT_NODE }, () => {
  // In a child process: the package reads the global once, when it loads. (Taken, it copied the
  // wrong bytes: a RangeError naming nothing, or argMax reading twice the bytes the array holds.)
  const entry = new URL('../../js/index.mjs', import.meta.url).href;
  const script = `
    globalThis.Float16Array = class Float16Array extends Uint8Array {};
    const ox = await import(${JSON.stringify(entry)});
    await ox.init();
    const bits = ox.toFloat16Array([1, 3, 2, 1.5]);
    const messages = [];
    for (const f of [() => ox.reduceMax({ type: 'float16', data: new Float16Array(4), dims: [4] }, { axes: [0] }),
                     () => ox.hardmax({ type: 'float16', data: bits, dims: [4] }, { axis: 0 }, { out: new Float16Array(4) })])
      try { f(); messages.push('no error'); } catch (e) { messages.push(e.constructor.name + ': ' + e.message); }
    messages.push(String(ox.argMax({ type: 'float16', data: bits, dims: [4] }).data[0]));
    console.log(JSON.stringify(messages));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30000 });
  assert.equal(child.status, 0, child.stderr);
  const [data, out, answer] = JSON.parse(child.stdout.trim().split('\n').pop());
  assert.match(data, /^Error: ReduceMax version 20: input 0 has type 'float16' but its data is a Uint8Array; 'float16' data must be a Uint16Array$/);
  assert.match(out, /^Error: Hardmax version 13: option 'out' must be a Uint16Array of 4 elements/);
  assert.equal(answer, '1');
});
