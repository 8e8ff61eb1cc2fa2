// ONNX's own backend node tests (tests/cases/onnx-backend-node.json, written by
// scripts/generate-onnx-backend-cases.py from onnx 1.12) and the newer ones by hand
// (tests/cases/onnx-newer-node.json): each case through runNode at its opset, compared exactly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { assertTensorEqual } from './helpers.mjs';
import { TYPES, referenceNode } from './reference.mjs';

const load = (name) => JSON.parse(readFileSync(new URL(`../cases/${name}`, import.meta.url), 'utf8'));
const backend = load('onnx-backend-node.json');
const newer = load('onnx-newer-node.json');

const number = (v) => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v);

/** A fixture tensor { type, dims, data: JSON values } as the package takes it. */
function fromFixture(t) {
  const Array_ = TYPES[t.type].array;
  const big = Array_ === BigInt64Array || Array_ === BigUint64Array;
  return { type: t.type, dims: t.dims, data: Array_.from(t.data, (v) => (big ? BigInt(v) : number(v))) };
}

const opsetOf = (c) => c.opset_import.find((o) => o.domain === '' || o.domain === 'ai.onnx').version;

function runCase(c, opset = opsetOf(c), transform = (inputs, attributes) => [inputs, attributes]) {
  for (const [k, set] of c.data_sets.entries()) {
    const [inputs, attributes] = transform(set.inputs.map(fromFixture), { ...c.attributes });
    const outputs = runNode(c.op_type, inputs, attributes, opset);
    assert.equal(outputs.length, set.outputs.length);
    const expected = fromFixture(set.outputs[0]);
    assertTensorEqual(outputs[0], expected, `${c.name} data set ${k}`);
    // The reference must agree with ONNX too, or the differential tests would test against a lie.
    const ref = referenceNode(c.op_type, inputs, attributes, opset);
    assert.ok(ref.ok, `reference rejects ${c.name}: ${ref.kind}`);
    assertTensorEqual(ref.output, expected, `reference on ${c.name}`);
  }
}

test('the generated fixture holds the 47 cases of onnx 1.12', () => {
  assert.equal(backend.cases.length, 47);
  const ops = new Set(backend.cases.map((c) => c.op_type));
  assert.deepEqual([...ops].sort(), ['ArgMax', 'ArgMin', 'Hardmax', 'ReduceMax']);
});

test('onnx 1.12 backend node tests', async (t) => {
  await init();
  for (const c of backend.cases) await t.test(c.name, () => runCase(c));
});

test('onnx backend node tests newer than 1.12 (ReduceMax 18 and 20)', async (t) => {
  await init();
  assert.equal(newer.cases.length, 10);
  for (const c of newer.cases) await t.test(c.name, () => runCase(c));
});

// The onnx 1.12 ReduceMax cases again at opsets 18 and 20, with `axes` moved to an input.
test('onnx 1.12 ReduceMax cases with axes as an input (opsets 18, 20)', async (t) => {
  await init();
  const axesAsInput = (inputs, attributes) => {
    const { axes, ...rest } = attributes;
    const axesTensor = axes === undefined ? [] : [{ type: 'int64', dims: [axes.length], data: BigInt64Array.from(axes, BigInt) }];
    return [[...inputs, ...axesTensor], rest];
  };
  const cases = backend.cases.filter((c) => c.op_type === 'ReduceMax');
  assert.equal(cases.length, 8);
  for (const c of cases)
    for (const opset of [18, 20]) await t.test(`${c.name} at opset ${opset}`, () => runCase(c, opset, axesAsInput));
});
