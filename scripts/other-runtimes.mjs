// The JS suite under Deno and Bun (the README says the package runs there), each from the npm
// registry (the `deno` and `bun` packages), each test file in a process of its own as `node
// --test` runs them: a file may set globals (a Float16Array stand-in) or grow the wasm memory
// before the assertions of another would see it. Left out: the files that drive browsers or test
// the bench, which exercise those, not the runtime running the file. Tests that start Node child
// processes skip themselves outside Node (helpers.mjs: NOT_NODE).
//
//   node scripts/other-runtimes.mjs [deno|bun ...] [--files=a.test.mjs,b.test.mjs]
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const RUNTIMES = {
  deno: { pkg: 'deno@2', bin: 'deno', args: (file) => ['test', '-A', '--no-check', file] }, // --no-check: the suite is JS
  bun: { pkg: 'bun@1', bin: 'bun', args: (file) => ['test', '--timeout', '600000', `./${file}`] },
};
const BROWSERS_OR_BENCH = /^(bench-.*|browser|firefox|webkit|demo)\.test\.mjs$/;

const args = process.argv.slice(2);
const chosen = args.filter((a) => !a.startsWith('--'));
const filesArg = args.find((a) => a.startsWith('--files='));
const files = filesArg
  ? filesArg.slice('--files='.length).split(',').map((f) => `tests/js/${f}`)
  : readdirSync(path.join(root, 'tests/js')).filter((f) => f.endsWith('.test.mjs') && !BROWSERS_OR_BENCH.test(f)).sort().map((f) => `tests/js/${f}`);

// The runtime's binary, installed into npm's cache once (npx per file would resolve it each time).
function binaryOf({ pkg, bin }) {
  return execFileSync('npm', ['exec', '--yes', `--package=${pkg}`, '--', 'sh', '-c', `command -v ${bin}`], { cwd: root, encoding: 'utf8' }).trim();
}

let failed = 0;
for (const name of chosen.length ? chosen : Object.keys(RUNTIMES)) {
  const runtime = RUNTIMES[name];
  if (!runtime) throw new Error(`unknown runtime '${name}': ${Object.keys(RUNTIMES).join(', ')}`);
  const binary = binaryOf(runtime);
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0];
  console.log(`== ${name} (${version}): ${files.length} test files, one process each`);
  const start = Date.now();
  for (const file of files) {
    const t = Date.now();
    const run = spawnSync(binary, runtime.args(file), { cwd: root, encoding: 'utf8', timeout: 1_200_000, env: { ...process.env, NO_COLOR: '1' } });
    const ok = run.status === 0;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${file} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    if (!ok) {
      failed += 1;
      process.stdout.write(`${run.stdout}\n${run.stderr}\n${run.error ? `${run.error.message}\n` : ''}`);
    }
  }
  console.log(`== ${name}: ${((Date.now() - start) / 1000).toFixed(0)} s`);
}
if (failed) {
  console.error(`${failed} test file run(s) failed`);
  process.exit(1);
}
