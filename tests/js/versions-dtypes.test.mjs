// Every operator x version x dtype: the right answer, or an Error naming the operator, the version
// and (for a type outside the list) the version that first accepts it.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init, runNode } from '../../js/index.mjs';
import { checkAgainstReference, prng } from './helpers.mjs';
import { OPS, OP_NAMES, TYPE_NAMES, versionsOf } from './reference.mjs';
import { POOLS, randomTensor } from './values.mjs';

const int64 = (values) => ({ type: 'int64', data: BigInt64Array.from(values, BigInt), dims: [values.length] });

// Attribute sets per op and version, with the inputs they need besides x.
function callsFor(op, version) {
  if (op === 'ArgMax' || op === 'ArgMin') {
    const calls = [{ attrs: { axis: 1 } }, { attrs: { axis: -1, keepdims: 0 } }, { attrs: {} }];
    if (version >= 12) calls.push({ attrs: { axis: 0, select_last_index: 1 } }, { attrs: { axis: 2, select_last_index: 1, keepdims: 0 } });
    return calls;
  }
  if (op === 'Hardmax') return [{ attrs: {} }, { attrs: { axis: 0 } }, { attrs: { axis: -1 } }, { attrs: { axis: 2 } }];
  const axesLists = [[0, 2], [1], [-1], undefined];
  return axesLists.flatMap((axes) =>
    [0, 1].map((keepdims) =>
      version >= 18
        ? { attrs: { keepdims }, extra: axes === undefined ? [] : [int64(axes)] }
        : { attrs: axes === undefined ? { keepdims } : { axes, keepdims } },
    ),
  );
}

const withoutNaN = (type) => POOLS[type].filter((v) => !(typeof v === 'number' && v !== v) && !(type.endsWith('float16') && (v & 0x7fff) > (type === 'float16' ? 0x7c00 : 0x7f80)));

test('every op x version x dtype: the answer or an Error naming the version', async (t) => {
  await init();
  let accepted = 0;
  let rejected = 0;
  for (const op of OP_NAMES) {
    for (const version of versionsOf(op)) {
      await t.test(`${op} version ${version}`, () => {
        const rng = prng(version * 31 + op.length);
        for (const type of TYPE_NAMES) {
          const inputs = [randomTensor(rng, type, [3, 4, 5]), randomTensor(rng, type, [3, 4, 5], withoutNaN(type))];
          for (const x of inputs) {
            for (const { attrs, extra = [] } of callsFor(op, version)) {
              const where = `${op} ${version} ${type} ${JSON.stringify(attrs)}`;
              const verdict = checkAgainstReference(runNode, op, [x, ...extra], attrs, version, where);
              if (verdict.ok) accepted += 1;
              else {
                assert.equal(verdict.kind, 'type', `only the type may be wrong here (${where})`);
                rejected += 1;
              }
            }
          }
        }
      });
    }
  }
  // 4 ops, 16 versions, 13 types: both outcomes must actually have happened.
  assert.ok(accepted > 500 && rejected > 200, `accepted ${accepted}, rejected ${rejected}`);
});

test('type errors name the first version that accepts the type, or say none does', async () => {
  await init();
  const x = (type) => randomTensor(prng(1), type, [2, 2]);
  const message = (op, type, opset, attrs = {}) => {
    try {
      runNode(op, [x(type)], attrs, opset);
    } catch (e) {
      return e.message;
    }
    return 'no error';
  };
  assert.match(message('ReduceMax', 'bool', 18), /ReduceMax version 18\b.*type bool.*version 20\b/);
  assert.match(message('ReduceMax', 'bool', 13), /ReduceMax version 13\b.*type bool.*version 20\b/);
  assert.match(message('ReduceMax', 'int8', 11), /ReduceMax version 11\b.*type int8.*version 12\b/);
  assert.match(message('ReduceMax', 'uint8', 1), /ReduceMax version 1\b.*type uint8.*version 12\b/);
  assert.match(message('ReduceMax', 'bfloat16', 12), /ReduceMax version 12\b.*type bfloat16.*version 13\b/);
  assert.match(message('ReduceMax', 'int16', 20), /ReduceMax version 20\b.*type int16.*no version/);
  assert.match(message('ReduceMax', 'uint16', 13), /ReduceMax version 13\b.*type uint16.*no version/);
  assert.match(message('ArgMax', 'bfloat16', 12), /ArgMax version 12\b.*type bfloat16.*version 13\b/);
  assert.match(message('ArgMin', 'bfloat16', 11), /ArgMin version 11\b.*type bfloat16.*version 13\b/);
  assert.match(message('ArgMin', 'bool', 13), /ArgMin version 13\b.*type bool.*no version/);
  assert.match(message('Hardmax', 'bfloat16', 11), /Hardmax version 11\b.*type bfloat16.*version 13\b/);
  assert.match(message('Hardmax', 'int32', 13), /Hardmax version 13\b.*type int32.*no version/);
  // The opset is named when it differs from the version it resolved to.
  assert.match(message('ArgMax', 'bfloat16', 12.0), /ArgMax version 12\b/);
  assert.match(message('ReduceMax', 'bool', 19), /ReduceMax version 18 \(opset 19\)/);
  assert.match(message('Hardmax', 'int8', undefined), /Hardmax version 13\b/);
});

test('the version table the reference holds covers the versions api.md lists', () => {
  assert.deepEqual(versionsOf('ArgMax'), [1, 11, 12, 13]);
  assert.deepEqual(versionsOf('ArgMin'), [1, 11, 12, 13]);
  assert.deepEqual(versionsOf('ReduceMax'), [1, 11, 12, 13, 18, 20]);
  assert.deepEqual(versionsOf('Hardmax'), [1, 11, 13]);
  assert.equal(Object.keys(OPS).length, 4);
});
