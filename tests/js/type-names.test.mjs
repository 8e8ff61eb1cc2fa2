// The module is built without RTTI, so embind names a type by its address, through the link's
// wrapped siprintf (bindings/type_name_format.cc); those names appear in embind's own errors.
import assert from 'node:assert/strict';
import test from 'node:test';
import { init } from '../../js/index.mjs';
import { currentModule } from '../../js/module.js';

const nameOf = (M, address) => {
  const at = M.___getTypeName(address);
  let text = '';
  for (let i = at; M.HEAPU8[i] !== 0; i += 1) text += String.fromCharCode(M.HEAPU8[i]);
  M._free(at);
  return text;
};

test('embind names a type by its address in hex', async () => {
  await init();
  const M = currentModule();
  for (const address of [0, 1, 0x10, 0x4d2abc, 0xdeadbeef, 0xffffffff]) assert.equal(nameOf(M, address), `0x${address.toString(16)}`);
});
