// Hostile input through the public API (index.mjs exports). Every call must either throw an Error
// naming the operator and version (when they are known) or return the reference's answer; the
// caller's own exceptions (throwing getters, Proxy traps) may come through unchanged. The module
// must keep answering right afterwards, its memory must not creep, and a request the wasm heap
// cannot hold must be an Error, not an abort.
import assert from 'node:assert/strict';
import test from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';

import * as api from '../../js/index.mjs';
import { currentModule } from '../../js/module.js'; // test-only: the wasm heap, to fill it
import { KNOWN, TRAP, hostileCalls } from './reliability/hostile.mjs';
import { fillHoles, probe } from './reliability/heap.mjs';
import { difference, expected } from './reliability/reference.mjs';
import { randomCall, rng, verify } from './reliability/workload.mjs';

await api.init();
// A full collection: V8's gc() (Node, Deno), Bun.gc(true) in Bun, which has no V8 flags.
const gc = 'Bun' in globalThis ? () => globalThis.Bun.gc(true) : (v8.setFlagsFromString('--expose-gc'), vm.runInNewContext('gc'));

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const x23 = () => ({ type: 'float32', data: new Float32Array([1, 3, 2, 4, 0, 5]), dims: [2, 3] });

function labelled(error, label) {
  return error instanceof Error && typeof error.message === 'string' &&
    new RegExp(`^${escape(label)}(:| \\(opset| )`).test(error.message) && !/internal error/.test(error.message);
}

/** Null if the call behaved as its kind demands, else what went wrong. */
function judge(call) {
  let result;
  let error;
  let threw = false;
  try {
    result = call.run(api);
  } catch (e) {
    error = e;
    threw = true;
  }
  const show = () => `${error?.constructor?.name}: ${String(error?.message ?? error).slice(0, 160)}`;
  switch (call.kind) {
    case 'value':
      if (threw) return { problem: `threw ${show()}`, error };
      return difference(Array.isArray(result) ? result[0] : result, call.want) && { problem: difference(result[0], call.want) };
    case 'error':
      if (!threw) return { problem: 'returned instead of throwing' };
      return labelled(error, call.label) ? null : { problem: `bad error ${show()} (want '${call.label}: ...')`, error };
    case 'caller':
      if (!threw) return { problem: 'returned instead of throwing' };
      return error === TRAP || labelled(error, call.label) ? null : { problem: `bad error ${show()}`, error };
    default:
      return threw && error instanceof Error ? null : { problem: `no Error: ${threw ? show() : 'returned'}` };
  }
}

const r = rng(20261121);
const pool = Array.from({ length: 3000 }, (_, i) => randomCall(r, i % 100 === 0 ? 'large' : 'small'));
function canary(n = 1) {
  for (let i = 0; i < n; i += 1) {
    const d = verify(api, pool[r.int(0, pool.length - 1)]);
    assert.equal(d, null, `the module answered wrong after hostile calls: ${d}`);
  }
}

const catalog = hostileCalls();
const knownSeen = new Map();

test(`hostile catalog: ${catalog.length} calls throw a labelled Error or return the right answer`, () => {
  assert.ok(catalog.length > 5000);
  const failures = [];
  catalog.forEach((call, k) => {
    const verdict = judge(call);
    if (verdict) {
      const known = KNOWN.find((issue) => issue.explains(call, verdict.error));
      if (known) knownSeen.set(known.id, [...(knownSeen.get(known.id) ?? []), call.name]);
      else failures.push(`${call.name}: ${verdict.problem}`);
    }
    if (k % 250 === 0) canary();
  });
  canary(500);
  assert.deepEqual(failures.slice(0, 20), [], `${failures.length} hostile calls misbehaved`);
});

test('known bugs still present (reported, fixed elsewhere)', { todo: KNOWN.length > 0 && KNOWN.map((k) => k.id).join('; ') }, () => {
  assert.deepEqual([...knownSeen.entries()].map(([id, names]) => `${id}: ${names.length} calls, e.g. ${names[0]}`), []);
});

// ---- hand-written cases ------------------------------------------------------------------------

function mustThrow(fn, pattern) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `expected an Error, got ${error === undefined ? 'a result' : String(error)}`);
  if (pattern) assert.match(error.message, pattern);
  return error;
}

function mustEqual(got, op, since, x, attrs) {
  const d = difference(Array.isArray(got) ? got[0] : got, expected(op, since, x, attrs));
  assert.equal(d, null, d ?? '');
}

test('dims that are huge, non-integer, BigInt, nested, sparse or strings are labelled errors', () => {
  const data = new Float32Array(6);
  // (BigInt dims such as [2n, 3n] are valid: ONNX protobuf readers give int64 dims.)
  const bad = [[65536, 65536, 65536], [2 ** 53, 0], [2n, 4n], [[2], [3]], ['2', '3'], [, 6], [NaN, 6], [-2, -3],
    [1.5, 4], [Infinity, 0], new BigInt64Array([7n]), { length: 1, 0: 6 }, '6', 6, new Array(65).fill(1), new Array(100000).fill(1)];
  for (const dims of bad)
    for (const op of ['ArgMax', 'ArgMin', 'ReduceMax', 'Hardmax'])
      mustThrow(() => api.runNode(op, [{ type: 'float32', data, dims }]), new RegExp(`^${op} version \\d+: input`));
  canary(50);
});

test('valid tensor-likes in unusual forms give the right answer', () => {
  const base = x23();
  const check = (x, attrs = { axis: 1 }) => {
    mustEqual(api.argMax(x, attrs), 'ArgMax', 13, { type: 'float32', data: Float32Array.from(x.data), dims: Array.from(x.dims ?? [x.data.length], Number) }, attrs);
  };
  check(Object.freeze({ ...base, dims: Object.freeze([2, 3]) }));
  class OrtLike {
    #d = base.data;
    get type() { return 'float32'; }
    get data() { return this.#d; }
    get dims() { return [2, 3]; }
  }
  check(new OrtLike());
  class Sub extends api.Tensor {}
  check(new Sub('float32', base.data, [2, 3]));
  const big = new Float32Array(20);
  big.set(base.data, 5);
  check({ type: 'float32', data: new Float32Array(big.buffer, 20, 6), dims: [2, 3] }); // a view at an offset
  class Scores extends Float32Array {}
  check({ type: 'float32', data: new Scores(big.buffer, 20, 6), dims: [2, 3] }); // a subclass view at an offset (read through a plain view)
  const otherRealm = vm.runInNewContext('new Float32Array(6)'); // from a vm context (an iframe, a worker's realm): not instanceof here
  otherRealm.set(base.data);
  check({ type: 'float32', data: otherRealm, dims: [2, 3] });
  const shared = new Float32Array(new SharedArrayBuffer(24));
  shared.set(base.data);
  check({ type: 'float32', data: shared, dims: [2, 3] });
  const resizable = new Float32Array(new ArrayBuffer(24, { maxByteLength: 64 }));
  resizable.set(base.data);
  check({ type: 'float32', data: resizable, dims: [2, 3] });
  check({ ...base, dims: new Int32Array([2, 3]) });
  check({ type: 'float32', data: base.data }, { axis: 0 }); // dims default to [length]
  check(base, { axis: 1n, keepdims: 1n, select_last_index: false, unused: undefined });
  // Undefined values are absent, so any number of them fits the request's 8 attributes.
  check(base, { axis: 1, ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`unset${i}`, undefined])) });
  check(base, Object.assign(Object.create({ bogus: 1 }), { axis: -1 })); // inherited names no operator knows are not attributes
  mustEqual(api.runNode('ArgMax', [base], { axis: 1 }, 13n), 'ArgMax', 13, base, { axis: 1 });
  mustEqual(api.runNode('ArgMax', [base], { axis: 1 }, 1e300), 'ArgMax', 13, base, { axis: 1 });
  mustEqual(api.runNode('ReduceMax', [base], {}, 2 ** 53 + 2), 'ReduceMax', 20, base, {});
  // Empty tensors whose other dims are huge (a 0 anywhere makes the tensor empty).
  const huge = [...new Array(20).fill(2 ** 53 - 1), 0];
  const out = api.argMax({ type: 'float32', data: new Float32Array(0), dims: huge }, { axis: 0 });
  assert.deepEqual(out.dims, [1, ...huge.slice(1)]);
  assert.equal(out.data.length, 0);
  const lowest = api.reduceMax({ type: 'float32', data: new Float32Array(0), dims: [65536, 0] }, { axes: [1] });
  assert.equal(lowest.data.length, 65536);
  assert.ok(lowest.data.every((v) => v === -Infinity));
  canary(50);
});

test('a sparse inputs Array of any length is an Error after reading only the entries a request carries', () => {
  // Every entry was read: 7 s for a length of 10^8, minutes for 2^32 - 1.
  const huge = new Array(2 ** 32 - 1);
  huge[0] = x23();
  mustThrow(() => api.runNode('ArgMax', huge, { axis: 1 }, 13), /^ArgMax version 13: takes 1 input, got 4294967295/);
  const sparse = new Array(100000);
  sparse[0] = x23();
  let reads = 0;
  const counted = new Proxy(sparse, { get: (t, k) => (typeof k === 'string' && /^\d+$/.test(k) && (reads += 1), Reflect.get(t, k)) });
  mustThrow(() => api.runNode('ArgMax', counted, { axis: 1 }, 13), /^ArgMax version 13: takes 1 input, got 100000/);
  assert.ok(reads <= currentModule().MAX_INPUTS_LISTED, `${reads} entries read`);
  // The same for reduceMax's axes, which it makes an int64 tensor of from opset 18 on (the array
  // of 2^32 - 1 entries was allocated first: a RangeError). (A new sparse array, not huge.slice(1):
  // V8 slices a sparse array index by index, about 2 minutes for this one.)
  mustThrow(() => api.reduceMax(x23(), { axes: new Array(2 ** 32 - 2) }), /^ReduceMax version 20: attribute 'axes' has 4294967294 entries, more than any tensor has axes/);
  mustThrow(() => api.reduceMax(x23(), { axes: new Array(60000) }), /^ReduceMax version 20: attribute 'axes' must hold integers, but entry 0 is undefined/);
  canary(5);
});

test('absurd opsets and axes are labelled errors', () => {
  for (const opset of [0, -1, 1.5, NaN, Infinity, -Infinity, '13', 13.000001, 0n, -13n, true, null, {}, [13], Symbol('o')])
    for (const op of ['ArgMax', 'ArgMin', 'ReduceMax', 'Hardmax'])
      mustThrow(() => api.runNode(op, [x23()], {}, opset), new RegExp(`^${op}: opset must be a positive integer`));
  for (const axis of [2, -3, 2 ** 31, -(2 ** 31), 2 ** 53, -(2 ** 53), 1e300, -1e300, 2n ** 70n, 0.5, NaN, Infinity, '1', true, [1], {}])
    for (const op of ['ArgMax', 'ArgMin', 'Hardmax'])
      mustThrow(() => api.runNode(op, [x23()], { axis }), new RegExp(`^${op} version 13: attribute 'axis'|^${op} version 13: axis`));
  for (const axes of [[2], [-3], [0, 0], [0, -2], [2 ** 53], [1e300], [0.5], [NaN], ['0'], new Array(1e5).fill(0)])
    for (const opset of [13, 20])
      mustThrow(() => api.reduceMax(x23(), { axes }, { opset }), /^ReduceMax version (13|20): /);
  mustThrow(() => api.runNode('ArgMax', []), /^ArgMax version 13: missing required input/);
  mustThrow(() => api.runNode('ArgMax', new Array(1000).fill(x23())), /^ArgMax version 13: takes 1 input, got 1000/);
  mustThrow(() => api.runNode('ArgMax', [x23()], Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`a${i}`, 1]))), /^ArgMax version 13: unknown attribute/);
  mustThrow(() => api.runNode('A'.repeat(1e6), [x23()]), /^onnx-extrema: unknown operator 'AAAA/);
  canary(50);
});

test('a Proxy posing as a BigInt64Array cannot hand the core a NaN axis (was: memory access out of bounds)', () => {
  // Before the fix in src/ops/resolve.cc, NaN passed the range check and indexed memory far away.
  // Now the JS side refuses a Proxy as data (it is no typed array), and the core would still
  // refuse the NaN (covered natively and by wire_fuzz).
  const lies = (values, length) =>
    new Proxy(new BigInt64Array(values.length), {
      get(target, key) {
        if (key === 'length') return length ?? values.length;
        if (typeof key === 'string' && /^\d+$/.test(key)) return values[Number(key)];
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  for (const values of [['nope'], [undefined], [{}], [1.5], [0.5, 1], [1, NaN]])
    mustThrow(() => api.runNode('ReduceMax', [x23(), { type: 'int64', data: lies(values), dims: [values.length] }]), /^ReduceMax version 20: input 1 has type 'int64' but its data is an object/);
  mustThrow(() => api.runNode('ReduceMax', [x23(), { type: 'int64', data: lies([Symbol.iterator]), dims: [1] }])); // JS cannot even convert it
  mustThrow(() => api.runNode('ReduceMax', [x23(), { type: 'int64', data: lies([], 1), dims: [1] }]), /^ReduceMax version 20: input 1 has type 'int64' but its data is an object/);
  canary(50);
});

test('Proxies that lie about data, and getters that call back into the API, end in an Error and harm nothing', () => {
  const x = x23();
  const liar = (overrides) =>
    new Proxy(new Float32Array([1, 3, 2, 4, 0, 5]), {
      get(target, key) {
        if (Object.hasOwn(overrides, key)) return overrides[key];
        const v = Reflect.get(target, key);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
  for (const overrides of [{ length: 1000 }, { length: 3 }, { length: 6.5 }, { length: -1 }, { byteLength: 1e6 }, { byteLength: 2 }, { byteOffset: 4 }, { buffer: new ArrayBuffer(0) }]) {
    for (const op of ['ArgMax', 'ReduceMax', 'Hardmax']) {
      let answer;
      try {
        answer = api.runNode(op, [{ type: 'float32', data: liar(overrides), dims: [Number(overrides.length ?? 6) >= 0 ? overrides.length ?? 6 : 6] }])[0];
      } catch (e) {
        assert.ok(e instanceof Error, `${op} with ${JSON.stringify(overrides)} threw ${e}`);
      }
      if (answer) assert.ok(answer.data.length >= 0);
      canary();
    }
  }
  // Re-entrancy: the API called from a getter or a data constructor in the middle of a call.
  const inner = () => api.argMax(x, { axis: 1 });
  const reentrant = [
    () => api.argMax({ type: 'float32', data: x.data, get dims() { inner(); return [2, 3]; } }),
    () => api.argMax(x, { axis: 0, get keepdims() { inner(); return 0; } }),
    () => api.reduceMax(x, { get axes() { inner(); return [1]; } }),
    () => api.hardmax({ type: 'float32', get data() { inner(); return x.data; }, dims: [2, 3] }),
    () => {
      const data = new Float32Array([1, 9, 3]);
      data.constructor = function Out(n) { inner(); return new Float32Array(n); };
      return api.reduceMax({ type: 'float32', data, dims: [3] }, { keepdims: 0 });
    },
  ];
  for (const run of reentrant) {
    try {
      run();
    } catch (e) {
      assert.ok(e instanceof Error, `re-entrant call threw ${e}`);
    }
    canary(5);
    mustEqual(inner(), 'ArgMax', 13, x, { axis: 1 });
  }
  // Re-entry while the request is being written or the output claimed: a dims element or a list
  // attribute read through a Proxy or an accessor, a getter of option 'out'. That inner call
  // would overwrite the outer one's request and staging buffer: an int32 call inside a float32
  // one's dims made the float32 call answer [1, 2] instead of [0, 1] (the int32 request's head
  // and the float32 one's tail). The inner call is refused with an Error saying so; an outer
  // call whose getter catches that Error answers right.
  const negative = new Float32Array([-1, -9, -3, -7, -2, -8]); // ArgMax over axis 1: [0, 1]
  const other = { type: 'int32', data: new Int32Array([5, 1, 2, 3, 4, 0]), dims: [2, 3] };
  const innerOther = () => api.runNode('ArgMax', [other], { axis: 1, keepdims: 0 }, 13);
  const proxyDims = (onRead) => new Proxy([2, 3], { get: (t, k) => (k === '1' && onRead(), Reflect.get(t, k)) });
  const accessorDims = (onRead) => Object.defineProperty([2, 3], 1, { get: () => (onRead(), 3) });
  const busy = /was called while another onnx-extrema call was running/;
  for (const makeDims of [proxyDims, accessorDims]) {
    assert.throws(() => api.runNode('ArgMax', [{ type: 'float32', data: negative, dims: makeDims(innerOther) }], { axis: 1, keepdims: 0 }, 13), busy);
    canary(5);
    let refused = 0;
    const swallow = () => {
      try {
        innerOther();
      } catch (e) {
        if (busy.test(e.message)) refused += 1;
      }
    };
    const [answer] = api.runNode('ArgMax', [{ type: 'float32', data: negative, dims: makeDims(swallow) }], { axis: 1, keepdims: 0 }, 13);
    assert.deepEqual(Array.from(answer.data), [0n, 1n]);
    assert.ok(refused > 0);
  }
  const axes = new Proxy([1], { get: (t, k) => (k === '0' && innerOther(), Reflect.get(t, k)) });
  assert.throws(() => api.runNode('ReduceMax', [x], { axes, keepdims: 0 }, 13), busy);
  // An inner call with bad arguments too is refused for being inside another call, with its
  // operator and version (its own checks would have named no version: 'ReduceMax: attribute ...').
  const innerBad = [
    [() => api.reduceMax(x, { axes: [1.5] }), /^onnx-extrema: ReduceMax \(newest version\) was called while another/],
    [() => api.argMax(x, {}, { opSet: 11 }), /^onnx-extrema: ArgMax \(newest version\) was called while another/],
    [() => api.hardmax(x, {}, { opset: 11, out: 5 }), /^onnx-extrema: Hardmax \(opset 11\) was called while another/],
  ];
  for (const [inner, expected] of innerBad) {
    let message;
    const trap = proxyDims(() => {
      try {
        inner();
      } catch (e) {
        message = e.message;
      }
    });
    assert.deepEqual(Array.from(api.runNode('ArgMax', [{ type: 'float32', data: negative, dims: trap }], { axis: 1, keepdims: 0 }, 13)[0].data), [0n, 1n]);
    assert.match(message, expected);
  }
  canary(5);
  // A subclass's getters on option 'out' are never run (its memory is read through the
  // intrinsic getters), so they cannot re-enter.
  let ranGetter = false;
  class Tracked extends BigInt64Array {
    get length() {
      ranGetter = true;
      innerOther();
      return super.length;
    }
  }
  const tracked = new Tracked(2);
  const claimed = api.argMax({ type: 'float32', data: negative, dims: [2, 3] }, { axis: 1, keepdims: 0 }, { out: tracked });
  assert.equal(claimed.data, tracked);
  assert.deepEqual(Array.from(BigInt64Array.prototype.values.call(tracked)), [0n, 1n]);
  assert.equal(ranGetter, false);
  canary(5);
  mustEqual(innerOther(), 'ArgMax', 13, other, { axis: 1, keepdims: 0 });
  // A list attribute's length and entries are read once (a Proxy answering differently each
  // time: a count read again claimed entries never written, 'malformed request (internal
  // error)'; an entry read again as a Symbol threw a TypeError naming nothing).
  let lengthReads = 0;
  const shifty = new Proxy([1], { get: (t, k) => (k === 'length' ? ((lengthReads += 1), lengthReads === 1 ? 1 : 3) : Reflect.get(t, k)) });
  mustEqual(api.runNode('ReduceMax', [x], { axes: shifty, keepdims: 0 }, 13), 'ReduceMax', 13, x, { axes: [1], keepdims: 0 });
  let entryReads = 0;
  const flipping = new Proxy([1], { get: (t, k) => (k === '0' ? ((entryReads += 1), entryReads === 1 ? 1 : Symbol('s')) : Reflect.get(t, k)) });
  mustEqual(api.runNode('ReduceMax', [x], { axes: flipping, keepdims: 0 }, 13), 'ReduceMax', 13, x, { axes: [1], keepdims: 0 });
  // The friendly reduceMax reads each attribute once too, at any opset (it read `axes` twice).
  for (const opset of [13, 18]) {
    let axesReads = 0;
    const counted = { get axes() { axesReads += 1; return [1]; }, keepdims: 0 };
    assert.deepEqual(Array.from(api.reduceMax(x, counted, { opset }).data), [3, 5]);
    assert.equal(axesReads, 1, `opset ${opset}`);
  }
  canary(5);
  // A getter that resizes the data's buffer while the call runs.
  const rab = new ArrayBuffer(24, { maxByteLength: 48 });
  const tracking = new Float32Array(rab);
  tracking.set(x.data);
  try {
    api.argMax({ type: 'float32', data: tracking, get dims() { rab.resize(4); return [2, 3]; } });
  } catch (e) {
    assert.ok(e instanceof Error);
  }
  canary(50);
});

// ---- memory ------------------------------------------------------------------------------------

function memoryState() {
  gc();
  return { ...probe(), rss: process.memoryUsage().rss };
}

function hostileRound() {
  for (const call of catalog) {
    try {
      call.run(api);
    } catch {
      // judged in the catalog test; here only the memory matters
    }
  }
  for (const call of pool) assert.equal(verify(api, call), null);
}

test("a typed array's own getters, methods and prototype never decide what a call reads", () => {
  // An earlier call leaves 100 at index 5 of the staging buffer: a call that trusted a lying
  // length read it (ArgMax answered 5 over four values).
  const stale = () => api.runNode('ArgMax', [{ type: 'float32', data: new Float32Array([0, 0, 0, 0, 0, 100, 0, 0]), dims: [1, 8] }], { axis: 1 }, 13);
  const lying = (values, overrides) => {
    const data = Float32Array.from(values);
    for (const [key, get] of Object.entries(overrides)) Object.defineProperty(data, key, { get });
    return data;
  };
  for (const overrides of [{ length: () => 8 }, { byteLength: () => 32 }, { byteOffset: () => 16 }, { buffer: () => new ArrayBuffer(64) }]) {
    stale();
    const x = { type: 'float32', data: lying([4, 3, 2, 1], overrides), dims: [1, 8] };
    mustThrow(() => api.runNode('ArgMax', [x], { axis: 1 }, 13), /^ArgMax version 13: input 'data' has 4 elements of data but dims \[1, 8\] need 8/);
    stale();
    mustEqual(api.runNode('ArgMax', [{ ...x, dims: [1, 4] }], { axis: 1 }, 13), 'ArgMax', 13, { type: 'float32', data: new Float32Array([4, 3, 2, 1]), dims: [1, 4] }, { axis: 1 });
  }
  // A prototype swapped for another class's: the data is what its memory holds, not what it claims.
  const swapped = Object.setPrototypeOf(new Float32Array([1, 3, 2]), Uint16Array.prototype);
  mustThrow(() => api.argMax({ type: 'float16', data: swapped, dims: [3] }), /^ArgMax version 13: input 0 has type 'float16' but its data is a Float32Array/);
  mustEqual(api.argMax({ type: 'float32', data: swapped, dims: [3] }), 'ArgMax', 13, { type: 'float32', data: new Float32Array([1, 3, 2]), dims: [3] }, {});
  // A streamed input (past the staging buffer) and an output whose own methods, subarray and
  // species would run the caller's code: none runs, and the answer is right.
  let ran = 0;
  const count = (name) => () => (ran += 1, () => { throw new Error(`${name} ran`); });
  const big = new Float32Array(300000).map((_, i) => Math.sin(i));
  Object.defineProperty(big, 'subarray', { get: count('subarray') });
  Object.defineProperty(big, 'constructor', { get: count('constructor') });
  const out = new BigInt64Array(3);
  for (const name of ['set', 'fill', 'subarray', 'constructor']) Object.defineProperty(out, name, { get: count(`out.${name}`) });
  const dims = [3, 100000];
  const answer = api.argMax({ type: 'float32', data: big, dims }, { axis: 1, keepdims: 0 }, { out });
  assert.equal(answer.data, out);
  assert.equal(ran, 0);
  const plain = new Float32Array(big);
  mustEqual(api.argMax({ type: 'float32', data: plain, dims }, { axis: 1, keepdims: 0 }), 'ArgMax', 13, { type: 'float32', data: plain, dims }, { axis: 1, keepdims: 0 });
  assert.deepEqual(Array.from(BigInt64Array.prototype.values.call(out)), Array.from(api.argMax({ type: 'float32', data: plain, dims }, { axis: 1, keepdims: 0 }).data));
  // A buffer resized by a getter reached while the request is written: an Error, never the
  // bytes an earlier call left.
  for (const shrinkTo of [16, 8, 0]) {
    stale();
    const rab = new ArrayBuffer(32, { maxByteLength: 64 });
    const tracking = new Float32Array(rab);
    tracking.set([1, 2, 3, 4, 5, 6, 7, 8]);
    const resizing = new Proxy([1, 8], { get: (t, k) => (k === '1' && rab.resize(shrinkTo), Reflect.get(t, k)) });
    mustThrow(() => api.runNode('ArgMax', [{ type: 'float32', data: tracking, dims: resizing }], { axis: 1 }, 13), /^ArgMax version 13: input 0's data changed size/);
  }
  canary(20);
});

test('data, dims, axes or an output that cannot be read (a buffer detached, transferred or of wasm memory that grew; a resizable one shrunk) is a labelled Error', () => {
  const detached = (array) => (structuredClone(array.buffer, { transfer: [array.buffer] }), array);
  const gone = /whose buffer is detached/;
  // Before the call: a detached array reads as empty, and copying from it threw a TypeError that
  // named nothing ('Cannot perform %TypedArray%.prototype.set on a detached ArrayBuffer').
  for (const dims of [[3], [0]]) {
    mustThrow(() => api.argMax({ type: 'float32', data: detached(new Float32Array([1, 2, 3])), dims }), /^ArgMax version 13: input 0 has as data a Float32Array whose buffer is detached/);
    mustThrow(() => api.reduceMax({ type: 'float32', data: detached(new Float32Array([1, 2, 3])), dims }), gone);
  }
  mustThrow(() => new api.Tensor('float32', detached(new Float32Array(2)), [0]), /^Tensor: the tensor has as data a Float32Array whose buffer is detached/);
  // dims or axes as a detached typed array: it reads as an empty list, which had the input taken
  // as a scalar and ReduceMax reduce over every axis (or, with noop_with_empty_axes, none).
  mustThrow(() => api.runNode('ReduceMax', [x23()], { axes: detached(new Int32Array([1])) }, 13), /^ReduceMax version 13: attribute 'axes' is an Int32Array whose buffer is detached/);
  mustThrow(() => api.reduceMax(x23(), { axes: detached(new Int32Array([1])) }, { opset: 13 }), /^ReduceMax version 13: attribute 'axes' is an Int32Array whose buffer is detached/);
  mustThrow(() => api.reduceMax(x23(), { axes: detached(new BigInt64Array([1n])), noop_with_empty_axes: 1 }), /^ReduceMax version 20: attribute 'axes' is a BigInt64Array whose buffer is detached/);
  mustThrow(() => api.argMax({ type: 'float32', data: new Float32Array([5]), dims: detached(new Int32Array([1])) }), /^ArgMax version 13: input 0 has dims an Int32Array whose buffer is detached/);
  mustThrow(() => api.runNode('ReduceMax', [x23(), { type: 'int64', data: new BigInt64Array([1n]), dims: detached(new Int32Array([1])) }], {}, 18), /^ReduceMax version 18: input 1 has dims an Int32Array whose buffer is detached/);
  mustThrow(() => new api.Tensor('float32', new Float32Array([5]), detached(new Int32Array([1]))), /^Tensor: dims is an Int32Array whose buffer is detached/);
  mustThrow(() => new api.Tensor('float32', [5], detached(new Int32Array([1]))), /^Tensor: dims is an Int32Array whose buffer is detached/);
  // ... detached by a getter while the call reads its arguments.
  const axesDetachedLate = new Int32Array([1]);
  const dimsDetachingAxes = new Proxy([2, 3], { get: (t, k) => (k === '1' && axesDetachedLate.length && detached(axesDetachedLate), Reflect.get(t, k)) });
  mustThrow(() => api.runNode('ReduceMax', [{ ...x23(), dims: dimsDetachingAxes }], { axes: axesDetachedLate }, 13), /^ReduceMax version 13: attribute 'axes' is an Int32Array whose buffer is detached/);
  // A fixed-length view of a resizable buffer shrunk below its end reads as empty too: copying from
  // it threw a TypeError naming nothing, and as axes it read as none (every axis reduced).
  const shrunk = (cls, n) => {
    const rab = new ArrayBuffer(8 + n * cls.BYTES_PER_ELEMENT, { maxByteLength: 1024 });
    const view = new cls(rab, 8, n);
    rab.resize(4);
    return view;
  };
  for (const dims of [[4], [0]])
    mustThrow(() => api.argMax({ type: 'float64', data: shrunk(Float64Array, 4), dims }), /^ArgMax version 13: input 0 has as data a Float64Array out of the bounds of its resizable buffer/);
  mustThrow(() => api.reduceMax(x23(), { axes: shrunk(Int32Array, 1) }), /^ReduceMax version 20: attribute 'axes' is an Int32Array out of the bounds of its resizable buffer/);
  mustThrow(() => api.runNode('ReduceMax', [x23()], { axes: shrunk(Int32Array, 1) }, 13), /^ReduceMax version 13: attribute 'axes' is an Int32Array out of the bounds/);
  mustThrow(() => api.argMax(x23(), { axis: 1, keepdims: 0 }, { out: shrunk(BigInt64Array, 2) }), /^ArgMax version 13: option 'out' is a BigInt64Array out of the bounds/);
  // An empty typed array that is not detached is an empty list as before.
  assert.deepEqual(Array.from(api.runNode('ReduceMax', [x23()], { axes: new Int32Array(0), keepdims: 0 }, 13)[0].data), [5]);
  assert.deepEqual(api.runNode('ReduceMax', [{ type: 'float32', data: new Float32Array([7]), dims: new Int32Array(0) }], {}, 13)[0].dims, []);
  // During the call: a dims getter transfers the buffer (a large input, streamed) ...
  const big = new Float32Array(300000);
  mustThrow(() => api.argMax({ type: 'float32', data: big, get dims() { detached(big); return [300000]; } }), /^ArgMax version 13: .*detached/);
  const late = new Float32Array(300000);
  const transferring = new Proxy([300000], { get: (t, k) => (k === '0' && late.buffer.byteLength && detached(late), Reflect.get(t, k)) });
  mustThrow(() => api.argMax({ type: 'float32', data: late, dims: transferring }), /^ArgMax version 13: input 0's data changed size/);
  const lateEmpty = new Float32Array(0); // still reads as empty once detached
  let once = true;
  const transferringEmpty = new Proxy([0, 3], { get: (t, k) => (k === '0' && once && ((once = false), detached(lateEmpty)), Reflect.get(t, k)) });
  mustThrow(() => api.reduceMax({ type: 'float32', data: lateEmpty, dims: transferringEmpty }, { axes: [1] }, { opset: 13 }), /^ReduceMax version 13: input 0's data changed size/);
  // ... or the axes input's buffer, whose values the request carries (they read as NaN: 'axes entry NaN').
  const axesData = new BigInt64Array([1n]);
  const axesDims = new Proxy([1], { get: (t, k) => (k === '0' && axesData.buffer.byteLength && detached(axesData), Reflect.get(t, k)) });
  mustThrow(() => api.runNode('ReduceMax', [x23(), { type: 'int64', data: axesData, dims: axesDims }], {}, 18), /^ReduceMax version 18: input 1's data changed size/);
  // ... or grows the wasm memory under an input that is a view of it (resident).
  const M = currentModule();
  const at = M._malloc(16);
  try {
    const resident = new Float32Array(M.HEAPU8.buffer, at, 4);
    resident.set([1, 7, 3, 2]);
    const growing = { type: 'float32', data: resident, get dims() { M._free(M._malloc(M.HEAPU8.length)); return [4]; } };
    mustThrow(() => api.argMax(growing), /^ArgMax version 13: .*detached/);
    const again = new Float32Array(M.HEAPU8.buffer, at, 4);
    again.set([1, 7, 3, 2]);
    assert.deepEqual(Array.from(api.argMax({ type: 'float32', data: again, dims: [4] }).data), [1n]);
  } finally {
    M._free(at);
  }
  // ... or grows the wasm memory while the request is written (a getter among the dims or a list
  // attribute): the words went to a detached view, and the core read the call before's (a stale
  // answer, or 'malformed request (internal error)').
  const growHeap = () => M._free(M._malloc(M.HEAPU8.length));
  api.runNode('ReduceMax', [x23()], { axes: [0], keepdims: 0 }, 13); // the request a lost write left in place
  const growingAxes = [1];
  Object.defineProperty(growingAxes, 0, { get() { growHeap(); return 1; } });
  mustThrow(() => api.runNode('ReduceMax', [x23()], { axes: growingAxes, keepdims: 0 }, 13), /^ReduceMax version 13: the wasm memory grew while the call read its dims or attributes/);
  const growingDims = [2, 3];
  Object.defineProperty(growingDims, 1, { get() { growHeap(); return 3; } });
  mustThrow(() => api.argMax({ ...x23(), dims: growingDims }, { axis: 1 }), /^ArgMax version 13: the wasm memory grew while the call read/);
  assert.deepEqual(Array.from(api.runNode('ReduceMax', [x23()], { axes: [1], keepdims: 0 }, 13)[0].data), [3, 5]);
  // Option 'out', for an output of one element and of none.
  mustThrow(() => api.argMax(x23(), { axis: 1, keepdims: 0 }, { out: detached(new BigInt64Array(2)) }), /^ArgMax version 13: option 'out' .*whose buffer is detached/);
  const empty = { type: 'float32', data: new Float32Array(0), dims: [0, 3] };
  mustThrow(() => api.argMax(empty, { axis: 1 }, { out: detached(new BigInt64Array(1)) }), /^ArgMax version 13: option 'out' .*whose buffer is detached/);
  const emptyOut = new BigInt64Array(0); // right for the empty output until a dims getter transfers it
  let first = true;
  const dimsTransferringOut = new Proxy([0, 3], { get: (t, k) => (k === '0' && first && ((first = false), detached(emptyOut)), Reflect.get(t, k)) });
  mustThrow(() => api.argMax({ ...empty, dims: dimsTransferringOut }, { axis: 1 }, { out: emptyOut }), /^ArgMax version 13: option 'out' .*whose buffer is detached/);
  canary(20);
});

test('lists that hold no list of numbers, and a Map or Set of any realm as attributes or options, are Errors that name them', () => {
  // A Proxy of an Array answers any length: one that is no count had the request malformed (an
  // Error naming nothing), a RangeError or a TypeError thrown, or, read as no entries, the axes
  // empty (every axis reduced).
  const lying = (length, entries = [2]) => new Proxy(entries, { get: (t, k) => (k === 'length' ? length : Reflect.get(t, k)) });
  const data = () => ({ type: 'float32', data: new Float32Array([1, 2]), dims: [2] });
  for (const [length, text] of [['abc', 'the string "abc"'], [-1, '-1'], [NaN, 'NaN'], [2.5, '2.5'], [undefined, 'undefined'], [2n, '2n'], [{}, 'an object']]) {
    const shown = text.replace(/[.()]/g, '\\$&');
    mustThrow(() => api.argMax({ ...data(), dims: lying(length) }), new RegExp(`^ArgMax version 13: input 0 has dims whose length is ${shown}, not a count of entries`));
    mustThrow(() => api.reduceMax(data(), { axes: lying(length, [0]) }, { opset: 13 }), new RegExp(`^ReduceMax version 13: attribute 'axes' is a list whose length is ${shown}, not a count`));
    mustThrow(() => api.reduceMax(data(), { axes: lying(length, [0]), keepdims: 0 }), new RegExp(`^ReduceMax version 20: attribute 'axes' is a list whose length is ${shown}, not a count`));
    mustThrow(() => api.runNode('ArgMax', lying(length, [data()])), new RegExp(`^ArgMax version 13: inputs is an array whose length is ${shown}, not a count`));
    mustThrow(() => new api.Tensor('float32', new Float32Array(2), lying(length)), new RegExp(`^Tensor: dims is a list whose length is ${shown}, not a count`));
  }
  // A DataView is no list in any realm (another realm's had the request malformed).
  const foreignView = vm.runInNewContext('new DataView(new ArrayBuffer(8))');
  mustThrow(() => api.argMax({ ...data(), dims: foreignView }), /^ArgMax version 13: input 0 has dims a DataView; dims must be an array/);
  mustThrow(() => api.reduceMax(data(), { axes: foreignView }, { opset: 13 }), /^ReduceMax version 13: attribute 'axes' must be a list of integers/);
  mustThrow(() => api.reduceMax(data(), { axes: foreignView }), /^ReduceMax version 20: attribute 'axes' must be a list of integers, got a DataView/);
  // A dims entry that is no number is named as it is (the core, given NaN for it, could say only NaN).
  for (const [entry, text] of [['3', 'the string "3"'], [null, 'null'], [undefined, 'undefined'], [{}, 'an object']])
    mustThrow(() => api.argMax({ type: 'float32', data: new Float32Array(6), dims: [2, entry] }), new RegExp(`^ArgMax version 13: input 0 has dims\\[1\\] = ${text}, which is not a non-negative integer`));
  // A Set, like a Map, holds its entries as no properties: as attributes it is an Error, not "none".
  mustThrow(() => api.argMax(x23(), new Set(['axis'])), /^ArgMax version 13: attributes must be an object, got a Set/);
  // ... of any realm (another realm's Map was taken as no attributes: ArgMax ran on axis 0), and
  // as options too (a Map's opset entry was no option: the newest version ran).
  const ForeignMap = vm.runInNewContext('Map');
  const ForeignSet = vm.runInNewContext('Set');
  mustThrow(() => api.argMax(x23(), new ForeignMap([['axis', 1]])), /^ArgMax version 13: attributes must be an object, got a Map/);
  mustThrow(() => api.reduceMax(x23(), new ForeignSet()), /^ReduceMax version 20: attributes must be an object, got a Set/);
  mustThrow(() => api.hardmax(x23(), {}, new Map([['opset', 11]])), /^Hardmax version 13: options must be an object such as \{ opset, out \}, got a Map/);
  mustThrow(() => api.runNode('ArgMax', [x23()], { axis: 1 }, 11, new ForeignSet()), /^ArgMax version 11: options must be an object.*got a Set/);
  // Objects of another realm and class instances are attributes as a literal is.
  assert.deepEqual(Array.from(api.argMax(x23(), vm.runInNewContext('({ axis: 1, keepdims: 0 })')).data), [1n, 2n]);
  assert.deepEqual(Array.from(api.argMax(x23(), new (class { axis = 1; keepdims = 0; })()).data), [1n, 2n]);
  canary(5);
});

// An attributes object that is not a plain one has the operators' attribute names read as
// properties too, as a tensor-like's are: they were run with the defaults (ArgMax over axis 0).
test('attributes given by getters of a class, inherited from defaults or non-enumerable are read, each once', () => {
  const argMaxRows = (attributes) => Array.from(api.argMax(x23(), attributes).data);
  let reads = 0;
  class Attributes {
    get axis() {
      reads += 1;
      return 1;
    }
    get keepdims() {
      return 0;
    }
  }
  assert.deepEqual(argMaxRows(new Attributes()), [1n, 2n]);
  assert.equal(reads, 1);
  assert.deepEqual(argMaxRows(Object.create({ axis: 1, keepdims: 0 })), [1n, 2n]);
  assert.deepEqual(argMaxRows(Object.assign(Object.create({ axis: 0 }), { axis: 1, keepdims: 0 })), [1n, 2n]); // own wins
  const hidden = Object.defineProperties(Object.create(null), { axis: { value: 1 }, keepdims: { value: 0 } });
  assert.deepEqual(argMaxRows(hidden), [1n, 2n]);
  assert.deepEqual(Array.from(api.argMax(x23(), Object.create({ axis: 1 }), { opset: 11 }).dims), [2, 1]);
  // reduceMax() moves axes to the node's input from version 18: read the same way there.
  for (const opset of [13, 18, 20]) {
    const y = api.reduceMax(x23(), Object.create({ axes: [1], keepdims: 0 }), { opset });
    assert.deepEqual(y.dims, [2], `ReduceMax at opset ${opset}`);
  }
  const y = api.runNode('ReduceMax', [x23()], Object.create({ axes: [1], keepdims: 0 }), 13)[0];
  assert.deepEqual(y.dims, [2]);
  // A name the version does not take is an Error as an own one is.
  mustThrow(() => api.argMax(x23(), new (class { get axes() { return [1]; } })()), /^ArgMax version 13: unknown attribute 'axes'/);
  mustThrow(() => api.argMax(x23(), Object.create({ axis: 5 })), /^ArgMax version 13: axis 5 is out of range/);
  // Read once even where reading it makes an own enumerable getter non-enumerable (it was read
  // again as a non-enumerable property: "given twice", and reduceMax() took the second value).
  const selfHiding = () => {
    const object = Object.create({ marker: 1 });
    Object.defineProperty(object, 'keepdims', {
      enumerable: true,
      configurable: true,
      get() {
        reads += 1;
        Object.defineProperty(object, 'keepdims', { value: 1, enumerable: false });
        return 0;
      },
    });
    object.axis = 1;
    return object;
  };
  reads = 0;
  assert.deepEqual(Array.from(api.argMax(x23(), selfHiding()).dims), [2]);
  assert.deepEqual(api.reduceMax(x23(), Object.assign(selfHiding(), { axis: undefined, axes: [1] })).dims, [2]);
  assert.equal(reads, 2);
  // An own '__proto__' key (JSON.parse makes one) stays a key the call names, through reduceMax() too.
  for (const opset of [13, 18])
    for (const prototype of [Object.prototype, null])
      mustThrow(() => api.reduceMax(x23(), Object.setPrototypeOf(JSON.parse('{"__proto__": 1, "keepdims": 0}'), prototype), { opset }), /unknown attribute '__proto__'/);
  // A polluted Object.prototype is no attribute source for a class's object, as for a literal's.
  Object.prototype.keepdims = 0; // eslint-disable-line no-extend-native
  try {
    assert.deepEqual(Array.from(api.argMax(x23(), new (class { get axis() { return 1; } })()).dims), [2, 1]);
    assert.deepEqual(Array.from(api.argMax(x23(), { axis: 1 }).dims), [2, 1]);
    assert.deepEqual(Array.from(api.argMax(x23(), new (class { get axis() { return 1; } get keepdims() { return 0; } })()).dims), [2]);
  } finally {
    delete Object.prototype.keepdims;
  }
  canary(5);
});

test('memory does not creep: wasm heap size and allocator state stable, RSS roughly stable', () => {
  hostileRound();
  hostileRound(); // warm-up: working buffers reach their steady capacity
  const release = fillHoles();
  let before;
  let after;
  try {
    hostileRound();
    before = memoryState();
    for (let round = 0; round < 2; round += 1) hostileRound();
    after = memoryState();
  } finally {
    release();
  }
  assert.equal(after.heap, before.heap, 'the wasm heap grew');
  assert.equal(after.large, before.large, 'a fresh 1 MiB block moved: something leaks in the wasm heap');
  assert.equal(after.small, before.small, 'a fresh small block moved: something leaks in the wasm heap');
  assert.ok(after.rss - before.rss < 48e6, `RSS grew by ${((after.rss - before.rss) / 1e6).toFixed(1)} MB`);
});

// ---- allocation failure (last: it leaves the wasm memory grown to its 4 GiB maximum) -----------

test('a request the wasm heap cannot hold is an Error, and the module works afterwards', () => {
  // (An empty ReduceMax input needs no wasm memory at all: its lowest values are written straight
  // into the JS output, however large; so requests that cannot fit are made below by filling the
  // heap, which every call with working state then fails to get.)
  // Fill the heap to its maximum with blocks nothing touches (virtual memory only), so that valid
  // calls needing a few MiB of working state find no memory: malloc returns null inside the core.
  const M = currentModule();
  const blocks = [];
  for (const size of [256 << 20, 16 << 20, 1 << 20, 64 << 10])
    for (let p = M._malloc(size); p; p = M._malloc(size)) blocks.push(p);
  try {
    const empty = { type: 'float32', data: new Float32Array(0), dims: [1 << 20, 0] };
    const lowest = api.reduceMax(empty, { axes: [1] }); // needs no wasm memory: still answers
    assert.deepEqual(lowest.dims, [1 << 20, 1]);
    assert.ok(lowest.data.every((v) => v === -Infinity));
    const rows = { type: 'int8', data: new Int8Array(1 << 19).fill(3), dims: [1 << 19, 1] };
    mustThrow(() => api.argMax(rows, { axis: 1 }), /^ArgMax version 13: out of memory/);
    mustThrow(() => api.hardmax({ type: 'float32', data: new Float32Array(1 << 20), dims: [1 << 20, 1] }, { axis: 1 }), /^Hardmax version 13: out of memory/);
    canary(20); // small calls still run on the memory the module already holds
  } finally {
    for (const p of blocks) M._free(p);
  }
  const rows = { type: 'int8', data: new Int8Array(1 << 19).fill(3), dims: [1 << 19, 1] };
  const out = api.argMax(rows, { axis: 1 });
  assert.equal(out.data.length, 1 << 19);
  assert.ok(out.data.every((v) => v === 0n));
  canary(500);
});
