// The bench times a float16/bfloat16 case round by round together with its float32 case
// (bench/lib/case-groups.mjs), so a vCPU slowed while one of them ran falls on both. The groups,
// a runtime holding two cases at once (bench/runtimes/serve.mjs), and a short Node run end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { findCases } from '../../bench/lib/cases.mjs';
import { timingGroups } from '../../bench/lib/case-groups.mjs';
import { serveRuntime } from '../../bench/runtimes/serve.mjs';
import { currentModule } from '../../js/module.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const namesOf = (groups) => groups.map((g) => g.map((c) => c.name));

test('case groups: each float32 case with its 16-bit variants, the others alone', () => {
  const groups = namesOf(timingGroups(findCases(null)));
  assert.deepEqual(groups[0], ['argmax_vocab_32k', 'argmax_vocab_32k.float16', 'argmax_vocab_32k.bfloat16']);
  assert.deepEqual(groups.find((g) => g[0] === 'reducemax_rows'), ['reducemax_rows', 'reducemax_rows.float16', 'reducemax_rows.bfloat16']);
  for (const type of ['int32', 'uint8', 'float64']) assert.ok(groups.some((g) => g.length === 1 && g[0] === `reducemax_rows.${type}`), type);
  assert.equal(groups.flat().length, findCases(null).length, 'every case once');

  // The float32 case leads its group wherever the run lists it; a 16-bit case without it is alone.
  const some = findCases(['tiny', 'argmax_vocab_32k.bfloat16', 'reducemax_rows.float16', 'argmax_vocab_32k']);
  assert.deepEqual(namesOf(timingGroups(some)), [['tiny'], ['argmax_vocab_32k', 'argmax_vocab_32k.bfloat16'], ['reducemax_rows.float16']]);
  assert.deepEqual(namesOf(timingGroups(some, true)), some.map((c) => [c.name]), '--apart: every case alone');
});

test('a runtime holds two cases at once, batches each by name, and tears both down', async () => {
  const runtime = await serveRuntime('onnx-extrema-resident');
  const setup = (name) => runtime.handle({ cmd: 'setup', case: name, warmupMs: 20 });
  const batch = (name) => runtime.handle({ cmd: 'batch', case: name, column: 'onnx-extrema-resident', budgetMs: 10, minSamples: 3 });
  const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
  try {
    for (const name of ['tiny', 'reducemax_rows']) {
      const report = await setup(name);
      assert.equal(report['onnx-extrema-resident'].status, 'ok', name);
      assert.equal(report['onnx-extrema-resident'].check, null, `${name}: output differs from the reference`);
    }
    // 10 elements against 4M: each batch times its own case, whichever was set up last.
    const tinyUs = median((await batch('tiny')).samples);
    const rowsUs = median((await batch('reducemax_rows')).samples);
    assert.ok(rowsUs > 50 * tinyUs, `tiny ${tinyUs} µs, reducemax_rows ${rowsUs} µs`);
    assert.ok(median((await batch('tiny')).samples) < rowsUs / 50, 'tiny again after the other');
    await assert.rejects(batch('argmax_cls'), /batch: onnx-extrema-resident is not set up for argmax_cls/);
  } finally {
    await runtime.handle({ cmd: 'teardown' });
  }
  await assert.rejects(batch('tiny'), /not set up for tiny/, 'teardown releases every case');
  // Each case's resident input (16 MiB for the rows) is freed at teardown, not only the last one
  // set up: the module's memory does not grow over more rounds of two cases.
  const cycle = async () => {
    for (const name of ['reducemax_rows', 'tiny']) await setup(name);
    await runtime.handle({ cmd: 'teardown' });
  };
  await cycle();
  const heapBytes = currentModule().HEAPU8.length;
  for (let r = 0; r < 3; r += 1) await cycle();
  assert.equal(currentModule().HEAPU8.length, heapBytes, 'the heap did not grow');
});

test('bench in Node: a 16-bit case and its float32 case timed round by round together', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'ox-bench-groups-'));
  try {
    const cases = ['argmax_vocab_32k.float16', 'tiny', 'argmax_vocab_32k'];
    const args = ['bench/run.mjs', '--quick', '--rounds=2', '--starts=2', '--warmup-ms=20', '--budget-ms=10', `--cases=${cases}`,
      '--runtimes=onnx-extrema,onnx-extrema-resident', `--out=${out}`];
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const run = JSON.parse(readFileSync(path.join(out, 'latest.json'), 'utf8'));
    assert.deepEqual(run.cases.map((c) => c.case.name), cases, 'reported in the order asked');
    // The first start, then one fresh start for each timing's second round: the group's, tiny's.
    assert.deepEqual(run.made, { 'onnx-extrema': 3, 'onnx-extrema-resident': 3 });
    const byName = Object.fromEntries(run.cases.map((c) => [c.case.name, c]));
    assert.deepEqual(byName['argmax_vocab_32k'].timedWith, ['argmax_vocab_32k.float16']);
    assert.deepEqual(byName['argmax_vocab_32k.float16'].timedWith, ['argmax_vocab_32k']);
    assert.equal(byName.tiny.timedWith, undefined);
    for (const c of run.cases)
      for (const column of ['onnx-extrema', 'onnx-extrema-resident']) {
        const s = c.columns[column];
        assert.equal(s.status, 'ok', `${c.case.name} / ${column}: ${JSON.stringify(s)}`);
        assert.equal(s.check, null, `${c.case.name} / ${column}: output differs from the reference`);
        assert.deepEqual(c.starts[column], [0, 1], `${c.case.name} / ${column}: a round in each start`);
      }
    const md = readFileSync(path.join(out, 'latest.md'), 'utf8');
    assert.match(md, /timed round by round together: argmax_vocab_32k \+ argmax_vocab_32k\.float16;/);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
