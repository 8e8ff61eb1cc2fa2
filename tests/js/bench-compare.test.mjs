// bench/compare.mjs: two runs side by side, case by case, as onnx-extrema's time and its speedup
// over onnxruntime-web's two columns in each; a case or a column one run lacks shows a dash.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { compareRuns } from '../../bench/lib/compare.mjs';

const timed = (us) => ({ status: 'ok', medianUs: us });
const run = (machine, cases) => ({
  machine: { node: '20.20.2', commit: 'abc1234', ...machine },
  cases: Object.entries(cases).map(([name, columns]) => ({ case: { name, shape: `${name}-shape` }, columns })),
});

test('compare: both runs per case, labelled by runtime and commit, dashes where a run has no figure', () => {
  const node = run({}, {
    rows: { 'onnx-extrema': timed(100), 'ort-web-1t': timed(300), 'ort-web-2t': timed(250) },
    tiny: { 'onnx-extrema': timed(1), 'ort-web-1t': timed(14), 'ort-web-2t': { status: 'n/a' } },
  });
  const chromium = run({ browser: 'Chromium 156.0', commit: 'def5678' }, {
    rows: { 'onnx-extrema': timed(200), 'ort-web-1t': timed(500), 'ort-web-2t': timed(300) },
  });
  const lines = compareRuns(node, chromium).split('\n');
  assert.match(lines[0], /µs \(Node 20\.20\.2, abc1234\).*µs \(Chromium 156\.0, def5678\)/);
  assert.equal(lines[2], '| rows | rows-shape | 100.0 | 3.00× / 2.50× | 200.0 | 2.50× / 1.50× |');
  assert.equal(lines[3], '| tiny | tiny-shape | 1.00 | 14× / — | — | — / — |');
  assert.equal(lines.length, 4);
});
