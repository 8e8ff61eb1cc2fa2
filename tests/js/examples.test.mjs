// `npm start`'s examples (examples/node/main.mjs) run to the end on the built wasm, and every one of
// them agrees with its plain-JS loop (each prints "matches" or "DIFFERS" and sets the exit code).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

test('npm start: every example runs and matches its plain JS loop', () => {
  const run = spawnSync(process.execPath, ['examples/node/main.mjs'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, `exit ${run.status}\n${run.stdout}\n${run.stderr}`);
  assert.equal(run.stderr, '');
  const verdicts = run.stdout.split('\n').filter((line) => /matches the plain JS loop|DIFFERS/.test(line));
  assert.equal(verdicts.length, 6, run.stdout);
  for (const line of verdicts) assert.match(line, /matches the plain JS loop; onnx-extrema [\d.]+ (µs|ms) vs [\d.]+ (µs|ms)/);
  assert.match(run.stdout, /\[0\.9, 0\.9, 0\.1\] -> \[1, 0, 0\]/); // a tie goes to the first maximum
  assert.match(run.stdout, /from a wasmTensor \(read in place\): the same maxima; [\d.]+ (µs|ms) a call/);
});
