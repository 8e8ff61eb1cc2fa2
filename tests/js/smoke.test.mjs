import assert from 'node:assert/strict';
import test from 'node:test';
import { init, argMax, Tensor } from '../../js/index.mjs';

test('argMax over logits returns the int64 index', async () => {
  await init();
  const out = argMax(new Tensor('float32', new Float32Array([0.1, 2.5, -1, 2.4]), [1, 4]), { axis: -1, keepdims: 0 });
  assert.equal(out.type, 'int64');
  assert.deepEqual(out.dims, [1]);
  assert.deepEqual(Array.from(out.data), [1n]);
});
