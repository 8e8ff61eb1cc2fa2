// Errors and recovery: every kind of bad input throws an Error naming the operator and version;
// the very next valid call is right; 10,000 failing calls neither grow nor leak the wasm heap.
import assert from 'node:assert/strict';
import test from 'node:test';
import { argMax, init, reduceMax, runNode } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';
import { assertNodeError, assertTensorEqual, checkAgainstReference, prng, tensor } from './helpers.mjs';
import { referenceNode } from './reference.mjs';
import { randomTensor } from './values.mjs';

await init();

const x = tensor('float32', [1, 9, 3, 4, 2, 8], [2, 3]);
const x3 = tensor('float32', new Array(24).fill(0).map((_, i) => (i * 7) % 11), [2, 3, 4]);
const axes = (...v) => tensor('int64', v);
const withData = (type, data, dims) => ({ type, data, dims });

// [what, op, inputs, attributes, opset]: the reference predicts each one's error kind.
const BAD = [
  ['type bool (no version)', 'ArgMax', [tensor('bool', [1, 0])], {}, 13],
  ['type bfloat16 before 13', 'ArgMax', [tensor('bfloat16', [1, 0])], {}, 12],
  ['type int16 (no ReduceMax)', 'ReduceMax', [tensor('int16', [1, 0])], {}, 20],
  ['type bool before 20', 'ReduceMax', [tensor('bool', [1, 0])], {}, 18],
  ['type int8 before 12', 'ReduceMax', [tensor('int8', [1, 0])], {}, 11],
  ['type int32 (no Hardmax)', 'Hardmax', [tensor('int32', [1, 0])], {}, 13],
  ['type bfloat16 Hardmax 11', 'Hardmax', [tensor('bfloat16', [1, 0])], {}, 11],
  ['axis out of range', 'ArgMax', [x], { axis: 2 }, 13],
  ['axis below range', 'ArgMin', [x], { axis: -3 }, 11],
  ['axis huge', 'ArgMax', [x], { axis: 1e300 }, 13],
  ['axis 2^53', 'ArgMax', [x], { axis: 2 ** 53 }, 1],
  ['axis not an integer', 'ArgMax', [x], { axis: 1.5 }, 13],
  ['axis a string', 'ArgMax', [x], { axis: '1' }, 13],
  ['axis true', 'ArgMax', [x], { axis: true }, 13],
  ['axis NaN', 'Hardmax', [x], { axis: NaN }, 13],
  ['axis Infinity', 'ArgMin', [x], { axis: Infinity }, 12],
  ['axis null', 'ArgMax', [x], { axis: null }, 13],
  ['axis a list', 'Hardmax', [x], { axis: [1] }, 1],
  ['axis an object', 'ArgMax', [x], { axis: {} }, 13],
  ['axis a function', 'ArgMax', [x], { axis: () => 1 }, 13],
  ['axis a symbol', 'ArgMax', [x], { axis: Symbol('axis') }, 13],
  ['Hardmax axis out of range', 'Hardmax', [x3], { axis: 3 }, 11],
  ['ArgMin over an empty axis', 'ArgMin', [withData('float32', new Float32Array(0), [3, 0])], { axis: 1 }, 13],
  ['keepdims 2', 'ArgMax', [x], { keepdims: 2 }, 13],
  ['keepdims a string', 'ReduceMax', [x], { keepdims: 'yes' }, 13],
  ['select_last_index -1', 'ArgMin', [x], { select_last_index: -1 }, 13],
  ['noop_with_empty_axes 0.5', 'ReduceMax', [x], { noop_with_empty_axes: 0.5 }, 18],
  ['data length != dims', 'ArgMax', [withData('float32', new Float32Array(5), [2, 3])], {}, 13],
  ['data longer than dims', 'ReduceMax', [withData('float32', new Float32Array(7), [2, 3])], {}, 13],
  ['negative dims', 'ArgMax', [withData('float32', new Float32Array(0), [-1, 3])], {}, 13],
  ['non-integer dims', 'ReduceMax', [withData('float32', new Float32Array(3), [1.5, 2])], {}, 13],
  ['NaN dims', 'Hardmax', [withData('float32', new Float32Array(3), [NaN, 3])], {}, 13],
  ['string dims entry', 'ArgMax', [withData('float32', new Float32Array(6), ['2', 3])], {}, 13],
  ['dims a string', 'ArgMax', [withData('float32', new Float32Array(6), '2,3')], {}, 13],
  ['dims a number', 'ArgMax', [withData('float32', new Float32Array(6), 6)], {}, 13],
  ['dims null', 'ArgMax', [withData('float32', new Float32Array(6), null)], {}, 13],
  ['unknown attribute', 'ArgMax', [x], { axiss: 1 }, 13],
  ['unknown attribute (another op)', 'ReduceMax', [x], { axis: 1 }, 13],
  ['unknown attribute (Hardmax keepdims)', 'Hardmax', [x], { keepdims: 1 }, 13],
  ['ArgMax axes', 'ArgMax', [x], { axes: [1] }, 13],
  ['select_last_index before 12', 'ArgMax', [x], { select_last_index: 1 }, 11],
  ['select_last_index at opset 1', 'ArgMin', [x], { select_last_index: 0 }, 1],
  ['noop_with_empty_axes before 18', 'ReduceMax', [x], { noop_with_empty_axes: 1 }, 13],
  ['axes attribute from 18 on', 'ReduceMax', [x], { axes: [1] }, 18],
  ['axes attribute at 20', 'ReduceMax', [x], { axes: [0] }, 20],
  ['axes not a list', 'ReduceMax', [x], { axes: 1 }, 13],
  ['axes holding a string', 'ReduceMax', [x], { axes: ['1'] }, 13],
  ['axes holding 1.5', 'ReduceMax', [x], { axes: [1.5] }, 11],
  ['axes out of range', 'ReduceMax', [x], { axes: [2] }, 13],
  ['axes repeated', 'ReduceMax', [x], { axes: [1, -1] }, 12],
  ['axes input out of range', 'ReduceMax', [x, axes(-3)], {}, 18],
  ['axes input repeated', 'ReduceMax', [x3, axes(0, 2, 0)], {}, 20],
  ['axes input int32', 'ReduceMax', [x, tensor('int32', [1])], {}, 18],
  ['axes input 2-D', 'ReduceMax', [x, tensor('int64', [1], [1, 1])], {}, 18],
  ['axes input length != dims', 'ReduceMax', [x, withData('int64', new BigInt64Array(1), [2])], {}, 18],
  ['extra input', 'ArgMax', [x, x], {}, 13],
  ['extra null input', 'Hardmax', [x, null], {}, 13],
  ['axes input before 18', 'ReduceMax', [x, axes(1)], {}, 13],
  ['third input', 'ReduceMax', [x, axes(1), axes(0)], {}, 18],
  ['no inputs', 'ArgMax', [], {}, 13],
  ['missing input', 'ReduceMax', [null, axes(1)], {}, 18],
  ['undefined input', 'Hardmax', [undefined], {}, 13],
  ['inputs not an array', 'ArgMax', x, {}, 13],
  ['inputs null', 'ReduceMax', null, {}, 13],
  ['inputs a string', 'Hardmax', 'x', {}, 13],
  ['attributes null', 'ArgMax', [x], null, 13],
  ['attributes a string', 'ArgMax', [x], 'axis=1', 13],
  ['attributes an array', 'ReduceMax', [x], [1], 13],
  ['attributes a number', 'Hardmax', [x], 5, 11],
  ['data Float64Array for float32', 'ArgMax', [withData('float32', new Float64Array(6), [2, 3])], {}, 13],
  ['data plain Array', 'ArgMax', [withData('float32', [1, 2, 3], [3])], {}, 13],
  ['data Array for int64', 'ReduceMax', [withData('int64', [1n, 2n], [2])], {}, 13],
  ['data Float32Array for float16', 'Hardmax', [withData('float16', new Float32Array(2), [2])], {}, 13],
  ['data Int8Array for bool', 'ReduceMax', [withData('bool', new Int8Array(2), [2])], {}, 20],
  ['data Uint8ClampedArray for uint8', 'ArgMax', [withData('uint8', new Uint8ClampedArray(2), [2])], {}, 13],
  ['data a DataView', 'ArgMax', [withData('int32', new DataView(new ArrayBuffer(8)), [2])], {}, 13],
  ['data undefined', 'ArgMax', [{ type: 'float32', dims: [2] }], {}, 13],
  ['input a number', 'ArgMax', [5], {}, 13],
  ['input a string', 'ReduceMax', ['tensor'], {}, 13],
  ['unknown type', 'ArgMax', [withData('float', new Float32Array(2), [2])], {}, 13],
  ['type string', 'ArgMax', [withData('string', ['a'], [1])], {}, 13],
  ['type upper case', 'ReduceMax', [withData('FLOAT32', new Float32Array(2), [2])], {}, 13],
  ['type a number', 'ArgMax', [withData(1, new Float32Array(2), [2])], {}, 13],
  ['type missing', 'Hardmax', [{ data: new Float32Array(2), dims: [2] }], {}, 13],
  ['unknown operator', 'Argmax', [x], {}, 13],
  ['another operator', 'ReduceMin', [x], {}, 13],
  ['empty operator', '', [x], {}, 13],
  ['operator a number', 42, [x], {}, 13],
  ['opset 0', 'ArgMax', [x], {}, 0],
  ['opset negative', 'ReduceMax', [x], {}, -1],
  ['opset 1.5', 'Hardmax', [x], {}, 1.5],
  ['opset a string', 'ArgMax', [x], {}, '13'],
  ['opset NaN', 'ArgMin', [x], {}, NaN],
  ['opset Infinity', 'ArgMax', [x], {}, Infinity],
  ['opset null', 'ArgMax', [x], {}, null],
  ['opset true', 'ReduceMax', [x], {}, true],
];

// Valid calls used to check that the module still answers right after each failure.
const rng = prng(99);
const GOOD = [
  ['ArgMax', [randomTensor(rng, 'float32', [3, 7])], { axis: 1 }, 13],
  ['ReduceMax', [randomTensor(rng, 'int64', [4, 3, 2]), axes(0, 2)], { keepdims: 0 }, 18],
  ['Hardmax', [randomTensor(rng, 'float16', [2, 3, 4])], { axis: 1 }, 11],
  ['ArgMin', [randomTensor(rng, 'uint64', [5, 4])], { axis: 0, select_last_index: 1 }, 12],
  ['ReduceMax', [randomTensor(rng, 'bfloat16', [6, 5])], { axes: [1] }, 13],
  ['ReduceMax', [randomTensor(rng, 'float32', [2, 3]), axes()], { noop_with_empty_axes: 1 }, 20],
];
const expectedGood = GOOD.map(([op, inputs, attrs, opset]) => referenceNode(op, inputs, attrs, opset).output);

function callGood(k) {
  const [op, inputs, attrs, opset] = GOOD[k % GOOD.length];
  assertTensorEqual(runNode(op, inputs, attrs, opset)[0], expectedGood[k % GOOD.length], `valid call ${k % GOOD.length}`);
}

test('every bad input throws an Error naming the operator, version and problem; the next call is right', () => {
  const kinds = new Set();
  BAD.forEach(([what, op, inputs, attrs, opset], k) => {
    const verdict = checkAgainstReference(runNode, op, inputs, attrs, opset, what);
    assert.equal(verdict.ok, false, `${what} must be invalid for the reference too`);
    kinds.add(verdict.kind);
    callGood(k);
  });
  // The table exercises every error kind the reference predicts.
  assert.equal(kinds.size, 21, [...kinds].join(', '));
});

test('limits beyond the reference: rank above 64, dims above 2^53, outputs too large', () => {
  const rank65 = withData('float32', new Float32Array(2), [...new Array(65).fill(1), 2]);
  assert.throws(() => argMax(rank65), (e) => e instanceof Error && /ArgMax version 13: .*rank 66, above the supported maximum of 64/.test(e.message));
  callGood(0);
  // A huge axis is named as given (it was cast to int64 first and shown as -9.2e18).
  assert.throws(() => argMax(x, { axis: 1e300 }), (e) => /ArgMax version 13: axis 1(\.0+1)?e\+300 is out of range/.test(e.message));
  const huge = withData('float32', new Float32Array(0), [0, 2 ** 60]);
  assert.throws(() => runNode('Hardmax', [huge], {}, 13), (e) => e instanceof Error && /Hardmax version 13: .*dims\[1\] = .*above the supported maximum of 2\^53 - 1/.test(e.message));
  callGood(1);
  // An empty input whose output would hold 2^40 elements: too large for memory, cleanly.
  const wide = withData('float32', new Float32Array(0), [0, 2 ** 40]);
  let error = null;
  try {
    reduceMax(wide, { axes: [0] }, { opset: 13 });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, 'an Error');
  assert.match(error.message, /ReduceMax version 13\b/);
  assert.match(error.message, /memory/);
  callGood(2);
  // A name or list longer than a request carries is quoted cut, marked so: never as if whole.
  const longName = `keepdims${'x'.repeat(70)}`;
  assert.throws(() => argMax(x, { [longName]: 1 }), (e) => /ArgMax version 13: unknown attribute 'keepdimsx+\.\.\.'/.test(e.message));
  assert.throws(() => runNode(`ArgMax${'y'.repeat(70)}`, [x]), (e) => /unknown operator 'ArgMaxy+\.\.\.'/.test(e.message));
  const longList = Array.from({ length: 70 }, (_, i) => i % 2);
  assert.throws(() => reduceMax(x, { axes: longList }, { opset: 13 }), (e) => /ReduceMax version 13: .*\[(\d, )+\.\.\.\]$/.test(e.message));
  callGood(3);
});

test('names in messages show look-alike and invisible characters as JS escapes, the same in the core and in JS', async () => {
  await init();
  const x = tensor('float32', [1, 2], [2]);
  const says = (call, text) => assert.throws(call, (e) => e.message.includes(text), text);
  // The core's names: an operator, an attribute (a Cyrillic a, U+0430, looks like 'axis').
  says(() => runNode('ArgM\u00e4x', [x]), "unknown operator 'ArgM\\u00e4x'");
  says(() => argMax(x, { '\u0430xis': 0 }), "ArgMax version 13: unknown attribute '\\u0430xis' (this version takes axis");
  says(() => argMax(x, { 'axis\u200b': 0 }), "unknown attribute 'axis\\u200b'"); // a zero-width space
  says(() => argMax(x, { 'a\tb': 0 }), "unknown attribute 'a\\u0009b'");
  says(() => argMax(x, { 'a\u{1F600}': 0 }), "unknown attribute 'a\\ud83d\\ude00'"); // as UTF-16 units, as JS holds it
  says(() => runNode('Arg\\Max', [x]), "unknown operator 'Arg\\\\Max'"); // a backslash doubled: no escape reads the same
  // JS's own keys: an option (Cyrillic o) and init()'s.
  says(() => argMax(x, { axis: 0 }, { '\u043eut': new BigInt64Array(1) }), "ArgMax version 13: unknown option '\\u043eut'");
  await assert.rejects(init({ 'wasm\u00a0Url': 'x' }), (e) => e.message.includes("unknown option 'wasm\\u00a0Url'"));
  // Plain names are as they were, and the look-alike is still refused, not read as axis.
  says(() => argMax(x, { axiss: 0 }), "unknown attribute 'axiss'");
  assertTensorEqual(argMax(x, { axis: 0 }), { type: 'int64', data: new BigInt64Array([1n]), dims: [1] });
});

test('numbers in messages read as JavaScript prints them (String(x)): shortest digits, every magnitude', () => {
  const random = prng(2026).next;
  const bits = new Float64Array(1), words = new Uint32Array(bits.buffer);
  const values = [0.1, -0.5, 1.5, 2 / 3, 13.000001, 1e-7, 1.7e-7, 5e-324, 2 ** -1074 * 3, 1e20, 9.3e18, 2 ** 60, 1e21, 1e300, -Number.MAX_VALUE];
  for (let e = -1074; e <= 1023; e += 7) values.push(2 ** e, -(2 ** e) * 3);
  while (values.length < 2000) {
    words[0] = Math.floor(random() * 2 ** 32);
    words[1] = Math.floor(random() * 2 ** 32);
    if (Number.isFinite(bits[0])) values.push(bits[0]);
  }
  for (const v of values) {
    // A non-integer axis is named in the type complaint, an integer one in the range complaint.
    const text = Number.isInteger(v) ? ` ${String(v)} is out of range` : `got the number ${String(v)}`;
    assert.throws(() => argMax(x, { axis: v }), (error) => error.message.includes(text), `axis ${v}`);
  }
});

// The request carries numbers as doubles, so a BigInt past 2^53 reaches the core rounded (2n ** 53n
// + 1n as 9007199254740992), and the core names the double. The message then says what the caller
// gave and what it was read as, wherever it was given: an attribute, a list attribute's entry, a
// dims entry, an int64 axes input, the opset.
test('a BigInt that a double rounds is named beside the number the core read', () => {
  const int64 = (v) => withData('int64', BigInt64Array.from(v), [v.length]);
  const note = (given, read) => ` (${given} was read as ${read}: a double holds integers exactly only up to 2^53)`;
  const cases = [
    [() => argMax(x, { axis: 2n ** 53n + 1n }), 'ArgMax version 13: axis 9007199254740992 is out of range [-2, 1] for an input of rank 2', note('9007199254740993n', '9007199254740992')],
    [() => argMax(x, { axis: -(2n ** 53n) - 1n }), 'ArgMax version 13: axis -9007199254740992 is out of range', note('-9007199254740993n', '-9007199254740992')],
    [() => argMax(x, { axis: 2n ** 63n - 1n }), 'ArgMax version 13: axis 9223372036854776000 is out of range', note('9223372036854775807n', '9223372036854776000')],
    [() => runNode('ArgMin', [x], { axis: 2n ** 70n + 1n }, 13), 'ArgMin version 13: axis 1.1805916207174113e+21 is out of range', note('1180591620717411303425n', '1.1805916207174113e+21')],
    [() => reduceMax(x, { axes: [1n, -(2n ** 63n) + 1n] }, { opset: 13 }), 'ReduceMax version 13: axes entry -9223372036854776000 is out of range', note('-9223372036854775807n', '-9223372036854776000')],
    [() => runNode('ReduceMax', [x, int64([2n ** 62n + 1n])], {}, 18), 'ReduceMax version 18: axes entry 4611686018427388000 is out of range', note('4611686018427387905n', '4611686018427388000')],
    [() => runNode('ArgMax', [withData('float32', new Float32Array(6), [2n, 2n ** 53n + 3n])], {}, 13),
      "ArgMax version 13: input 'data' has dims[1] = 9007199254740996, above the supported maximum of 2^53 - 1", note('9007199254740995n', '9007199254740996')],
    [() => argMax(x, { axis: 0 }, { opset: 2n ** 53n + 1n, out: new Float32Array(1) }), 'ArgMax version 13 (opset 9007199254740992): option \'out\' must be', note('9007199254740993n', '9007199254740992')],
    [() => argMax(x, { axis: -(10n ** 50n) }), 'ArgMax version 13: axis -1e+50 is out of range', note('a BigInt of 51 digits', '-1e+50')],
  ];
  for (const [call, start, end] of cases)
    assert.throws(call, (error) => error instanceof Error && error.message.startsWith(start) && error.message.endsWith(end), start);
  // No word where the double is the BigInt itself (2^60; 2^53 as the opset), or where the core
  // names no number of that text (an unknown attribute beside the BigInt).
  for (const call of [() => runNode('Hardmax', [x], { axis: 2n ** 60n }, 13), () => argMax(x, { axis: 2 }, { opset: 2n ** 53n }), () => runNode('ArgMax', [x], { axis: 2n ** 53n + 1n, bogus: 1 }, 13)])
    assert.throws(call, (error) => error instanceof Error && !error.message.includes('was read as'));
  assert.deepEqual(Array.from(argMax(x, { axis: 1n, keepdims: 0 }).data), [1n, 2n]);
});

test('friendly functions throw the same kind of Errors', () => {
  assertNodeError(() => argMax(x, { axis: 5 }), { op: 'ArgMax', version: 13, kind: 'axis' });
  assertNodeError(() => argMax(x, { axis: 0 }, { opset: 0 }), { op: 'ArgMax', kind: 'opset' });
  assertNodeError(() => reduceMax(x, { axes: 'all' }, { opset: 18 }), { op: 'ReduceMax', version: 18, kind: 'attr-value' });
  assertNodeError(() => reduceMax(x, { axes: [0.5] }, { opset: 20 }), { op: 'ReduceMax', version: 20, kind: 'attr-value' });
  assertNodeError(() => reduceMax(x, { axes: [2 ** 64] }, { opset: 19 }), { op: 'ReduceMax', version: 18, kind: 'attr-value' });
  // BigInt axes outside int64 are errors, not wrapped into it (2^64 would become axis 0).
  for (const axis of [2n ** 64n, -(2n ** 63n) - 1n, 2n ** 64n - 1n])
    assert.throws(() => reduceMax(x, { axes: [axis] }), { message: `ReduceMax version 20: attribute 'axes' must hold int64 integers, but entry 0 is ${axis}n` });
  assertNodeError(() => reduceMax(x, { axes: 'all' }, { opset: 13 }), { op: 'ReduceMax', version: 13, kind: 'attr-value' });
  assertNodeError(() => reduceMax(x, { axes: [1] }, { opset: 'x' }), { op: 'ReduceMax', kind: 'opset' });
  assertNodeError(() => reduceMax(null, { axes: [1] }), { op: 'ReduceMax', version: 20, kind: 'missing-input' });
  assertNodeError(() => reduceMax(5, { axes: [1] }), { op: 'ReduceMax', version: 20, kind: 'not-a-tensor' });
  callGood(3);
});

test('messages read as English: an article before a vowel, a singular for one', () => {
  const says = (fn, message) => assert.throws(fn, { message });
  says(() => argMax(withData('float32', new Int8Array(6), [2, 3])), "ArgMax version 13: input 0 has type 'float32' but its data is an Int8Array; 'float32' data must be a Float32Array");
  says(() => argMax(withData('int32', new Uint32Array(6), [2, 3])), "ArgMax version 13: input 0 has type 'int32' but its data is a Uint32Array; 'int32' data must be an Int32Array");
  says(() => argMax(withData('float32', new Float32Array(1), [2, 3])), "ArgMax version 13: input 'data' has 1 element of data but dims [2, 3] need 6");
  says(() => argMax(withData('float32', new Float32Array(2), [2, 3])), "ArgMax version 13: input 'data' has 2 elements of data but dims [2, 3] need 6");
});

// From version 18 on axes is the ONNX node's second input, so the core's list of attributes leaves
// it out; reduceMax() takes it among its attributes at every opset, and its list says so (a user
// who wrote { axis: 0 } must not read that axes is not taken).
test("reduceMax()'s unknown-attribute errors list axes at every opset; runNode's list the node's attributes", () => {
  const takes = (version, list) => `ReduceMax version ${version}: unknown attribute 'axis' (${list})`;
  assert.throws(() => reduceMax(x, { axis: 0 }), { message: takes(20, 'reduceMax() takes axes, keepdims, noop_with_empty_axes') });
  assert.throws(() => reduceMax(x, { axis: 0, axes: [0] }, { opset: 18 }), { message: takes(18, 'reduceMax() takes axes, keepdims, noop_with_empty_axes') });
  assert.throws(() => reduceMax(x, { axis: 0 }, { opset: 13 }), { message: takes(13, 'this version takes axes, keepdims') });
  assert.throws(() => runNode('ReduceMax', [x], { axis: 0 }, 18), { message: takes(18, 'this version takes keepdims, noop_with_empty_axes') });
  const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`keepdims${i}`, 1]));
  assert.throws(() => reduceMax(x, many), (e) => /^ReduceMax version 20: .*reduceMax\(\) takes axes, keepdims, noop_with_empty_axes/.test(e.message));
  // Errors that list nothing pass through as they are.
  assert.throws(() => reduceMax(x, { axes: [5] }), (e) => e.message.startsWith('ReduceMax version 20: ') && !e.message.includes('takes axes'));
  // The list ends the message: a name holding its words is left as given.
  assert.throws(() => reduceMax(x, { 'this version takes q': 1 }), {
    message: "ReduceMax version 20: unknown attribute 'this version takes q' (reduceMax() takes axes, keepdims, noop_with_empty_axes)",
  });
  // Only the core's errors for this call: not a runNode error from the caller's getter, nor the
  // caller's own error (its class and properties kept).
  const nodeForm = 'this version takes keepdims, noop_with_empty_axes';
  const viaGetter = { type: 'float32', dims: [2, 3], get data() { runNode('ReduceMax', [x], { bogus: 1 }, 18); return x.data; } };
  assert.throws(() => reduceMax(viaGetter, {}), (e) => e.message.endsWith(`(${nodeForm})`));
  class CallersError extends Error {}
  const own = new CallersError('ReduceMax version 99: this version takes my thing');
  own.code = 7;
  const throwing = { type: 'float32', dims: [2, 3], get data() { throw own; } };
  assert.throws(() => reduceMax(throwing, {}), (e) => e === own && e.code === 7);
  callGood(3);
});

test('10,000 failing calls neither grow nor leak the wasm heap', () => {
  const M = currentModule();
  const fail = (k) => {
    const [, op, inputs, attrs, opset] = BAD[k % BAD.length];
    try {
      runNode(op, inputs, attrs, opset);
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      return;
    }
    assert.fail(`${BAD[k % BAD.length][0]} did not throw`);
  };
  // The address a large block gets: it moves if anything stays allocated below the heap's top.
  const PROBE = 8 << 20;
  const probe = () => {
    const p = M._malloc(PROBE);
    assert.ok(p, 'probe allocation');
    M._free(p);
    return p;
  };
  // Rounds of 2,000 failing calls (and a few valid ones), each ended by the same settling
  // sequence so the allocator's free lists are in the same state when probed.
  const round = () => {
    for (let k = 0; k < 2000; k += 1) {
      fail(k);
      if (k % 500 === 0) callGood(k / 500);
    }
    for (let k = 0; k < BAD.length; k += 1) fail(k);
    for (let k = 0; k < GOOD.length; k += 1) callGood(k);
    return probe();
  };
  round(); // warm-up: the staging buffer and the largest message are allocated once
  const before = round();
  const heapBefore = M.HEAPU8.length;
  const probes = [1, 2, 3, 4, 5].map(round); // 10,000 failing calls
  assert.equal(M.HEAPU8.length, heapBefore, 'the heap did not grow');
  assert.deepEqual(probes, probes.map(() => before), 'nothing stayed allocated');
  // The probe can see a leak: 1,000 blocks of 32 bytes left allocated move it.
  const leaked = Array.from({ length: 1000 }, () => M._malloc(32));
  assert.notEqual(probe(), before, 'the probe detects a simulated leak');
  for (const p of leaked) M._free(p);
  assert.equal(probe(), before);
});
