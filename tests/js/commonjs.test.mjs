// The CommonJS entry, in child processes: with require(esm) (Node >= 20.19's default) and with it
// turned off (--no-experimental-require-module), which takes index.cjs's delegating fallback.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import test from 'node:test';
import { NOT_NODE } from './helpers.mjs';

const entry = fileURLToPath(new URL('../../js/index.cjs', import.meta.url));

const script = `
const ox = require(${JSON.stringify(entry)});
const { argMax, Tensor } = require(${JSON.stringify(entry)}); // destructured at the top, as a file would
const out = {};
try { ox.argMax({ type: 'float32', data: new Float32Array([1, 2]), dims: [2] }); out.before = 'no error'; }
catch (e) { out.before = (e instanceof Error) + ' ' + e.message; }
try { new Tensor('float32', new Float32Array([1, 2])); out.tensorBefore = 'no error'; }
catch (e) { out.tensorBefore = (e instanceof Error) + ' ' + e.message; }
ox.init().then(() => {
  const t = new Tensor('float32', new Float32Array([1, 3]), [2]);
  const y = argMax(t);
  class Scores extends Tensor {}
  const s = new Scores('float32', new Float32Array([2, 1]), [2]);
  out.destructured = [t instanceof Tensor, t instanceof ox.Tensor, y instanceof Tensor, String(y.data[0]), t.size,
    s instanceof Scores, s instanceof Tensor, s.size, y instanceof Scores, Tensor.name, Object.getPrototypeOf(t) === ox.Tensor.prototype];
  const x = new ox.Tensor('float32', new Float32Array([1, 3, 2, 0]), [2, 2]);
  out.argMax = Array.from(ox.argMax(x, { axis: 1, keepdims: 0 }).data, String);
  out.reduceMax = Array.from(ox.reduceMax(x, { axes: [0] }, { opset: 18 }).data);
  out.runNode = ox.runNode('Hardmax', [x], {}, 11)[0].data.join(',');
  out.half = ox.toFloat16Bits(1);
  try { ox.argMin(x, { axis: 9 }); } catch (e) { out.error = e.message; }
  console.log(JSON.stringify(out));
}, (e) => { console.log(JSON.stringify({ initFailed: String(e) })); });
`;

for (const flags of [[], ['--no-experimental-require-module']]) {
  // (Node's flag that turns require(esm) off: only Node has it.)
  test(`require('onnx-extrema') ${flags.length ? 'without require(esm)' : 'with require(esm)'}`, { skip: flags.length > 0 && NOT_NODE }, () => {
    const child = spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', timeout: 20000 });
    assert.equal(child.status, 0, child.stderr);
    const out = JSON.parse(child.stdout.trim().split('\n').pop());
    assert.match(out.before, /^true .*before init\(\) resolved/);
    // A Tensor needs no wasm: made at once where require() gives the ES module itself; in the
    // fallback only the first tick, before the ES module has loaded, finds it missing.
    if (flags.length === 0) assert.equal(out.tensorBefore, 'no error');
    else assert.match(out.tensorBefore, /^true onnx-extrema: Tensor was used before init\(\) resolved/);
    assert.deepEqual(out.destructured, [true, true, true, '1', 2, true, true, 2, false, 'Tensor', true]);
    assert.deepEqual(out.argMax, ['1', '0']);
    assert.deepEqual(out.reduceMax, [2, 3]);
    assert.equal(out.runNode, '0,1,1,0');
    assert.equal(out.half, 0x3c00);
    assert.match(out.error, /ArgMin version 13\b.*out of range/);
  });
}
