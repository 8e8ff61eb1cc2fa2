// The semantics api.md fixes, one by one, with hand-worked expected values.
import assert from 'node:assert/strict';
import test from 'node:test';
import { argMax, argMin, hardmax, init, reduceMax, runNode } from '../../js/index.mjs';
import { assertNodeError, assertTensorEqual, tensor, valuesOf } from './helpers.mjs';
import { TYPES, referenceNode, versionsOf } from './reference.mjs';

await init();

const FLOAT_TYPES = ['float32', 'float64', 'float16', 'bfloat16'];
const run = (op, x, attrs = {}, opset) => runNode(op, [x], attrs, opset)[0];
const indices = (t) => Array.from(t.data, Number);
const isNaNResult = (t) => valuesOf(t).map((v) => Number.isNaN(v));
const oneAt = (n, ...positions) => Array.from({ length: n }, (_, i) => (positions.includes(i) ? 1 : 0));

test('NaN wins ArgMax, ArgMin and Hardmax; ReduceMax returns NaN (first, middle, last)', () => {
  const base = [1, 5, -2, 5, 0, 4, 3];
  for (const type of FLOAT_TYPES) {
    for (const at of [0, 3, 6]) {
      const values = [...base];
      values[at] = NaN;
      const x = tensor(type, values);
      for (const select_last_index of [0, 1]) {
        assert.deepEqual(indices(argMax(x, { select_last_index })), [at], `${type} argMax NaN at ${at}`);
        assert.deepEqual(indices(argMin(x, { select_last_index })), [at], `${type} argMin NaN at ${at}`);
      }
      assert.deepEqual(valuesOf(hardmax(x)), oneAt(7, at), `${type} hardmax NaN at ${at}`);
      assert.deepEqual(isNaNResult(reduceMax(x)), [true], `${type} reduceMax NaN at ${at}`);
    }
    const twoNaNs = tensor(type, [1, 5, NaN, 5, 0, NaN, 3]);
    assert.deepEqual(indices(argMax(twoNaNs)), [2]);
    assert.deepEqual(indices(argMax(twoNaNs, { select_last_index: 1 })), [5], `${type} last NaN`);
    assert.deepEqual(indices(argMin(twoNaNs)), [2]);
    assert.deepEqual(indices(argMin(twoNaNs, { select_last_index: true })), [5], `${type} last NaN`);
    assert.deepEqual(valuesOf(hardmax(twoNaNs)), oneAt(7, 2));
    // NaN also beats +Infinity and -Infinity.
    const infinities = tensor(type, [Infinity, -Infinity, NaN, Infinity]);
    assert.deepEqual(indices(argMax(infinities)), [2]);
    assert.deepEqual(indices(argMin(infinities)), [2]);
    assert.deepEqual(isNaNResult(reduceMax(infinities)), [true]);
  }
});

// 1000-wide rows (row layout: reduced axis innermost) and columns (reduced axis outermost).
test('1000-wide rows and columns with NaN at 300', () => {
  const width = 1000;
  const rows = 4;
  const row = (r) => {
    const v = Array.from({ length: width }, (_, i) => ((i * 37 + r * 11) % 200) - 100);
    v[700] = 1000; // the unique maximum
    v[900] = -1000; // the unique minimum
    if (r === 1 || r === 3) v[300] = NaN;
    if (r === 3) v[999] = NaN;
    return v;
  };
  const expectedMax = [700, 300, 700, 300];
  const expectedMaxLast = [700, 300, 700, 999];
  const expectedMin = [900, 300, 900, 300];
  for (const type of FLOAT_TYPES) {
    const byRow = tensor(type, Array.from({ length: rows }, (_, r) => row(r)).flat(), [rows, width]);
    assert.deepEqual(indices(argMax(byRow, { axis: 1, keepdims: 0 })), expectedMax, `${type} rows`);
    assert.deepEqual(indices(argMax(byRow, { axis: -1, keepdims: 0, select_last_index: 1 })), expectedMaxLast);
    assert.deepEqual(indices(argMin(byRow, { axis: 1, keepdims: 0 })), expectedMin);
    const maxima = valuesOf(reduceMax(byRow, { axes: [1], keepdims: 0 }));
    assert.deepEqual(maxima.map((v) => (Number.isNaN(v) ? 'NaN' : v)), [1000, 'NaN', 1000, 'NaN']);
    const marks = valuesOf(hardmax(byRow));
    assert.deepEqual([0, 1, 2, 3].map((r) => marks.indexOf(1, r * width) - r * width), expectedMax);
    assert.equal(marks.reduce((s, v) => s + v, 0), rows);
    // The transpose: [width, rows], reduce axis 0.
    const columns = [];
    for (let i = 0; i < width; i += 1) for (let r = 0; r < rows; r += 1) columns.push(row(r)[i]);
    const byColumn = tensor(type, columns, [width, rows]);
    assert.deepEqual(indices(argMax(byColumn, { axis: 0, keepdims: 0 })), expectedMax, `${type} columns`);
    assert.deepEqual(indices(argMax(byColumn, { axis: 0, keepdims: 0, select_last_index: 1 })), expectedMaxLast);
    assert.deepEqual(indices(argMin(byColumn, { axis: 0, keepdims: 0 })), expectedMin);
    const columnMaxima = valuesOf(reduceMax(byColumn, { axes: [0], keepdims: 0 }));
    assert.deepEqual(columnMaxima.map((v) => (Number.isNaN(v) ? 'NaN' : v)), [1000, 'NaN', 1000, 'NaN']);
    const columnMarks = valuesOf(hardmax(byColumn, { axis: 0 }));
    assert.deepEqual([0, 1, 2, 3].map((r) => columnMarks.findIndex((v, i) => v === 1 && i % rows === r)), expectedMax.map((k, r) => k * rows + r));
  }
});

test('ties: the first index, the last with select_last_index; Hardmax marks the first', () => {
  for (const type of ['float32', 'float16', 'bfloat16', 'int8', 'uint16', 'int32', 'int64', 'uint64']) {
    const x = tensor(type, [3, 7, 7, 1, 7, 1]);
    assert.deepEqual(indices(argMax(x)), [1], type);
    assert.deepEqual(indices(argMax(x, { select_last_index: 1 })), [4], type);
    assert.deepEqual(indices(argMin(x)), [3], type);
    assert.deepEqual(indices(argMin(x, { select_last_index: 1 })), [5], type);
    if (type.includes('float')) assert.deepEqual(valuesOf(hardmax(x)), oneAt(6, 1), type);
  }
  // Opsets before 12 have no select_last_index: ties go to the first index.
  const x = tensor('float32', [7, 7], [1, 2]);
  assert.deepEqual(indices(argMax(x, { axis: 1 }, { opset: 11 })), [0]);
  assert.deepEqual(indices(argMax(x, { axis: 1 }, { opset: 1 })), [0]);
});

test('-0 and +0 tie', () => {
  for (const type of FLOAT_TYPES) {
    const minusFirst = tensor(type, [-0, 0, -1]);
    const plusFirst = tensor(type, [0, -0, -1]);
    for (const x of [minusFirst, plusFirst]) {
      assert.deepEqual(indices(argMax(x)), [0], type);
      assert.deepEqual(indices(argMax(x, { select_last_index: 1 })), [1], type);
      assert.deepEqual(valuesOf(hardmax(x)), [1, 0, 0], type);
      const m = valuesOf(reduceMax(x))[0];
      assert.ok(m === 0, `${type} reduceMax of ±0 is ${m}`); // either sign: api.md fixes none
    }
    const positives = tensor(type, [1, -0, 1, 0]);
    assert.deepEqual(indices(argMin(positives)), [1]);
    assert.deepEqual(indices(argMin(positives, { select_last_index: 1 })), [3]);
    // A zero of one sign keeps its sign.
    assert.ok(Object.is(valuesOf(reduceMax(tensor(type, [-0, -0, -5])))[0], -0), `${type} max(-0, -0)`);
    assert.ok(Object.is(valuesOf(reduceMax(tensor(type, [0, -3])))[0], 0), `${type} max(+0, -3)`);
  }
});

const LOWEST = {
  float32: -Infinity, float64: -Infinity, float16: 0xfc00, bfloat16: 0xff80, int8: -128, uint8: 0,
  int32: -2147483648, uint32: 0, int64: -(2n ** 63n), uint64: 0n, bool: 0,
};

test('ReduceMax over an empty set gives the lowest value of the type', () => {
  for (const [type, lowest] of Object.entries(LOWEST)) {
    const x = { type, data: new TYPES[type].array(0), dims: [2, 0, 3] };
    const y = runNode('ReduceMax', [x, tensor('int64', [1])], {}, 20)[0];
    assert.deepEqual(y.dims, [2, 1, 3], type);
    assert.equal(y.data.constructor, TYPES[type].array);
    assert.deepEqual(Array.from(y.data), new Array(6).fill(lowest), type);
    const flat = reduceMax(x, { axes: [1], keepdims: 0 });
    assert.deepEqual([flat.dims, Array.from(flat.data)], [[2, 3], new Array(6).fill(lowest)], type);
    const all = reduceMax(x, { keepdims: 0 });
    assert.deepEqual([all.dims, Array.from(all.data)], [[], [lowest]], type);
  }
  // Before opset 18 too.
  const y = reduceMax({ type: 'float32', data: new Float32Array(0), dims: [0, 2] }, { axes: [0] }, { opset: 13 });
  assert.deepEqual([y.dims, Array.from(y.data)], [[1, 2], [-Infinity, -Infinity]]);
});

test('ArgMax/ArgMin over an empty axis is an error; a zero elsewhere gives an empty output', () => {
  const x = { type: 'float32', data: new Float32Array(0), dims: [2, 0, 3] };
  for (const op of ['ArgMax', 'ArgMin'])
    for (const version of versionsOf(op)) {
      assertNodeError(() => run(op, x, { axis: 1 }, version), { op, version, kind: 'empty-axis' });
      assertNodeError(() => run(op, x, { axis: -2 }, version), { op, version, kind: 'empty-axis' });
      const y = run(op, x, { axis: 2 }, version);
      assert.deepEqual([y.type, y.dims, y.data.constructor, y.data.length], ['int64', [2, 0, 1], BigInt64Array, 0]);
      const z = run(op, x, { axis: 0, keepdims: 0 }, version);
      assert.deepEqual([z.dims, z.data.length], [[0, 3], 0]);
    }
});

test('a zero in a kept dimension gives an empty output of the right shape', () => {
  const x = { type: 'float16', data: new Uint16Array(0), dims: [0, 5] };
  assert.deepEqual(argMax(x, { axis: 1 }).dims, [0, 1]);
  assert.deepEqual(argMin(x, { axis: 1, keepdims: 0 }).dims, [0]);
  const r = reduceMax(x, { axes: [1] });
  assert.deepEqual([r.dims, r.data.constructor, r.data.length], [[0, 1], Uint16Array, 0]);
  assert.deepEqual(reduceMax(x, { axes: [-1], keepdims: 0 }).dims, [0]);
  for (const opset of [1, 11, 13]) {
    const h = hardmax(x, {}, { opset });
    assert.deepEqual([h.dims, h.data.length], [[0, 5], 0]);
    const h2 = hardmax({ type: 'float32', data: new Float32Array(0), dims: [4, 0] }, { axis: 1 }, { opset });
    assert.deepEqual([h2.dims, h2.data.length], [[4, 0], 0]);
  }
});

test('rank 0: ReduceMax returns the value; ArgMax, ArgMin and Hardmax say the axis is out of range', () => {
  const x = tensor('float32', [-3.5], []);
  for (const version of versionsOf('ReduceMax')) {
    for (const keepdims of [0, 1]) {
      const y = run('ReduceMax', x, { keepdims }, version);
      assert.deepEqual([y.dims, Array.from(y.data)], [[], [-3.5]], `version ${version}`);
    }
    if (version < 18) assertNodeError(() => run('ReduceMax', x, { axes: [0] }, version), { op: 'ReduceMax', version, kind: 'axis' });
    else {
      assertNodeError(() => runNode('ReduceMax', [x, tensor('int64', [0])], {}, version), { op: 'ReduceMax', version, kind: 'axis' });
      assert.deepEqual(Array.from(runNode('ReduceMax', [x], { noop_with_empty_axes: 1 }, version)[0].data), [-3.5]);
    }
  }
  for (const op of ['ArgMax', 'ArgMin', 'Hardmax'])
    for (const version of versionsOf(op)) {
      assertNodeError(() => run(op, x, {}, version), { op, version, kind: 'axis' });
      assertNodeError(() => run(op, x, { axis: -1 }, version), { op, version, kind: 'axis' });
    }
});

test('int64 and uint64 compare exactly (2^63 - 1, -2^63, 2^53 + 1, above 2^63)', () => {
  const near = tensor('int64', [2n ** 53n, 2n ** 53n + 1n, 2n ** 53n]);
  assert.deepEqual(indices(argMax(near)), [1]);
  assert.deepEqual(indices(argMin(near, { select_last_index: 1 })), [2]);
  assert.deepEqual(Array.from(reduceMax(near).data), [2n ** 53n + 1n]);
  const negative = tensor('int64', [-(2n ** 53n), -(2n ** 53n) - 1n, -(2n ** 53n)]);
  assert.deepEqual(indices(argMin(negative)), [1]);
  assert.deepEqual(Array.from(reduceMax(negative).data), [-(2n ** 53n)]);
  const extremes = tensor('int64', [0n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 63n - 2n]);
  assert.deepEqual(indices(argMax(extremes)), [1]);
  assert.deepEqual(indices(argMin(extremes)), [2]);
  assert.deepEqual(Array.from(reduceMax(extremes).data), [2n ** 63n - 1n]);
  assert.deepEqual(Array.from(reduceMax(tensor('int64', [-(2n ** 63n)])).data), [-(2n ** 63n)]);
  // Columns: [3, 2], reduced along axis 0.
  const columns = tensor('int64', [2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, 2n ** 53n, 2n ** 63n - 1n, -(2n ** 63n) + 1n], [3, 2]);
  assert.deepEqual(indices(argMax(columns, { axis: 0, keepdims: 0 })), [0, 1]);
  assert.deepEqual(indices(argMax(columns, { axis: 0, keepdims: 0, select_last_index: 1 })), [2, 1]);
  assert.deepEqual(indices(argMin(columns, { axis: 0, keepdims: 0 })), [1, 0]);
  assert.deepEqual(Array.from(reduceMax(columns, { axes: [0], keepdims: 0 }).data), [2n ** 63n - 1n, 2n ** 53n]);

  const unsigned = tensor('uint64', [5n, 2n ** 63n, 2n ** 63n + 1n, 2n ** 64n - 1n, 2n ** 63n - 1n, 1n]);
  assert.deepEqual(indices(argMax(unsigned)), [3]);
  assert.deepEqual(indices(argMin(unsigned)), [5]);
  assert.deepEqual(Array.from(reduceMax(unsigned).data), [2n ** 64n - 1n]);
  const above = tensor('uint64', [2n ** 63n, 7n, 2n ** 63n + 1n, 2n ** 63n], [2, 2]);
  assert.deepEqual(indices(argMax(above, { axis: 1, keepdims: 0 })), [0, 0]);
  assert.deepEqual(indices(argMin(above, { axis: 1, keepdims: 0 })), [1, 1]);
  assert.deepEqual(Array.from(reduceMax(above, { axes: [0], keepdims: 0 }).data), [2n ** 63n + 1n, 2n ** 63n]);
  assert.equal(reduceMax(above).data.constructor, BigUint64Array);
});

test('ReduceMax 18 and 20: axes omitted or empty, noop_with_empty_axes 0 and 1', () => {
  const x = tensor('float32', [5, 1, 20, 2, 30, 1, 40, 2], [2, 2, 2]);
  const empty = tensor('int64', [], [0]);
  for (const version of [18, 20]) {
    for (const second of [[], [null], [empty]]) {
      const what = `version ${version}, axes ${second.length ? (second[0] ? 'empty' : 'null') : 'omitted'}`;
      for (const noop of [0, false, undefined]) {
        const attrs = noop === undefined ? {} : { noop_with_empty_axes: noop };
        const all = runNode('ReduceMax', [x, ...second], attrs, version)[0];
        assert.deepEqual([all.dims, Array.from(all.data)], [[1, 1, 1], [40]], what);
        const flat = runNode('ReduceMax', [x, ...second], { ...attrs, keepdims: 0 }, version)[0];
        assert.deepEqual([flat.dims, Array.from(flat.data)], [[], [40]], what);
      }
      for (const noop of [1, true]) {
        const same = runNode('ReduceMax', [x, ...second], { noop_with_empty_axes: noop, keepdims: 0 }, version)[0];
        assert.deepEqual([same.dims, Array.from(same.data)], [[2, 2, 2], Array.from(x.data)], what);
        assert.notEqual(same.data, x.data, 'the output does not alias the input');
      }
    }
    // With axes given, noop_with_empty_axes changes nothing.
    const y = runNode('ReduceMax', [x, tensor('int64', [0])], { noop_with_empty_axes: 1, keepdims: 0 }, version)[0];
    assert.deepEqual([y.dims, Array.from(y.data)], [[2, 2], [30, 1, 40, 2]]);
  }
});

test('repeated axes are an error', () => {
  const x = tensor('float32', new Array(24).fill(1), [2, 3, 4]);
  for (const version of [1, 11, 12, 13]) {
    assertNodeError(() => run('ReduceMax', x, { axes: [1, 1] }, version), { op: 'ReduceMax', version, kind: 'repeated-axis' });
    assertNodeError(() => run('ReduceMax', x, { axes: [0, 2, -3] }, version), { op: 'ReduceMax', version, kind: 'repeated-axis' });
  }
  for (const version of [18, 20]) {
    assertNodeError(() => runNode('ReduceMax', [x, tensor('int64', [2, -1])], {}, version), { op: 'ReduceMax', version, kind: 'repeated-axis' });
    assertNodeError(() => reduceMax(x, { axes: [-2, 1] }, { opset: version }), { op: 'ReduceMax', version, kind: 'repeated-axis' });
  }
});

test('friendly functions agree with runNode and the reference at every opset', () => {
  const x = tensor('float32', [3, 9, -1, 9, 0, 2, 8, 8, 7, 1, 6, 5, 4, 4, 2, 0, -6, 11, 10, 3, 1, 1, 0, 2], [2, 3, 4]);
  for (const opset of [1, 11, 12, 13, 17, 18, 19, 20, undefined]) {
    for (const [axes, keepdims] of [[[1], 0], [[0, 2], 1], [[-1], 1], [undefined, 0], [[], 1]]) {
      const friendly = reduceMax(x, { axes, keepdims }, { opset });
      const byInput = opset === undefined || opset >= 18;
      const node = byInput
        ? runNode('ReduceMax', axes === undefined ? [x] : [x, tensor('int64', axes)], { keepdims }, opset)[0]
        : runNode('ReduceMax', [x], axes === undefined ? { keepdims } : { axes, keepdims }, opset)[0];
      assertTensorEqual(friendly, node, `opset ${opset} axes ${axes}`);
      const ref = referenceNode('ReduceMax', [x], axes === undefined ? { keepdims } : { axes, keepdims }, byInput ? 13 : opset);
      assertTensorEqual(friendly, ref.output, `opset ${opset} axes ${axes} vs reference`);
    }
    // Typed-array and BigInt axes work in every opset too.
    assertTensorEqual(reduceMax(x, { axes: new Int32Array([2]) }, { opset }), reduceMax(x, { axes: [2] }, { opset }));
    assertTensorEqual(reduceMax(x, { axes: [1n] }, { opset }), reduceMax(x, { axes: [1] }, { opset }));
    assertTensorEqual(reduceMax(x, undefined, { opset }), reduceMax(x, {}, { opset }));
    for (const [friendly, op] of [[argMax, 'ArgMax'], [argMin, 'ArgMin'], [hardmax, 'Hardmax']]) {
      const attrs = op === 'Hardmax' ? { axis: 1 } : { axis: 1, keepdims: 0 };
      assertTensorEqual(friendly(x, attrs, { opset }), runNode(op, [x], attrs, opset)[0], `${op} opset ${opset}`);
      assertTensorEqual(friendly(x, attrs, { opset }), referenceNode(op, [x], attrs, opset).output, `${op} opset ${opset}`);
    }
  }
  // noop_with_empty_axes passes through the friendly form.
  assertTensorEqual(reduceMax(x, { axes: [], noop_with_empty_axes: 1 }, { opset: 18 }), { ...x, data: Float32Array.from(x.data) });
  // Hardmax before 13 coerces to 2-D: on this input axis 1 differs between 11 and 13.
  assert.notDeepEqual(valuesOf(hardmax(x, { axis: 1 }, { opset: 11 })), valuesOf(hardmax(x, { axis: 1 }, { opset: 13 })));
  assert.deepEqual(valuesOf(hardmax(x, {}, { opset: 11 })), oneAt(24, 1, 17));
  assert.deepEqual(valuesOf(hardmax(x, {}, { opset: 1 })), oneAt(24, 1, 17));
});

test('reduceMax reuses its axes tensor only while the entries are the same values', () => {
  const x = tensor('float32', [3, 9, -1, 9, 0, 2, 8, 8, 7, 1, 6, 5, 4, 4, 2, 0, -6, 11, 10, 3, 1, 1, 0, 2], [2, 3, 4]);
  const want = (axes) => referenceNode('ReduceMax', [x], { axes, keepdims: 0 }, 13).output;
  // One array changed in place between calls, then equal values in other forms, then a bad entry.
  const axes = [1];
  for (const change of [() => {}, () => (axes[0] = 2), () => axes.push(0), () => (axes[1] = -3), () => axes.pop()]) {
    change();
    assertTensorEqual(reduceMax(x, { axes, keepdims: 0 }), want([...axes]), `axes [${axes}]`);
  }
  for (const same of [[2], [2n], new Int32Array([2]), [-1]])
    assertTensorEqual(reduceMax(x, { axes: same, keepdims: 0 }), want([Number(same[0])]), `axes ${same.constructor.name} [${same}]`);
  assert.throws(() => reduceMax(x, { axes: [2, 0.5] }), /^Error: ReduceMax version 20: attribute 'axes' must hold integers, but entry 1 is 0.5/);
  assertTensorEqual(reduceMax(x, { axes: [2], keepdims: 0 }), want([2]), 'after the error');
});

test('outputs: int64 as BigInt64Array, 16-bit floats as Uint16Array bits, the input class otherwise', () => {
  for (const type of Object.keys(TYPES)) {
    const x = tensor(type, [0, 1, 1, 0], [2, 2]);
    if (type !== 'bool') {
      const a = argMax(x, { axis: 1 });
      assert.deepEqual([a.type, a.data.constructor, a.dims], ['int64', BigInt64Array, [2, 1]], type);
    }
    if (type !== 'int16' && type !== 'uint16') {
      const r = runNode('ReduceMax', [x], {}, 20)[0];
      assert.deepEqual([r.type, r.data.constructor], [type, x.data.constructor], type);
      assert.equal(r.data[0], x.data[1], `${type} keeps the bits of the maximum`);
    }
    if (type.includes('float')) {
      const h = hardmax(x);
      assert.deepEqual([h.type, h.data.constructor], [type, x.data.constructor]);
      const one = { float16: 0x3c00, bfloat16: 0x3f80 }[type] ?? 1;
      assert.deepEqual(Array.from(h.data), [0, one, one, 0], type);
    }
  }
});
