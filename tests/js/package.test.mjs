// The package as users get it: `npm pack`, then `npm install <tarball>` into an empty app, then
// `import` and `require` by package name there (helpers and app scripts: tests/package/).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { installInNewApp, pack, root } from '../package/pack.mjs';

const run = promisify(execFile);
const here = (p) => path.join(root, 'tests/package', p);
const WASM_MAGIC = '0061736d';

let packed;
let app;
let installed; // the installed package's directory
let toolchainUsed;

before(async () => {
  packed = await pack();
  ({ app, toolchainUsed } = await installInNewApp(packed.tarball));
  installed = path.join(app, 'node_modules/onnx-extrema');
  for (const f of ['app/esm.mjs', 'app/cjs.cjs', 'app/shared.mjs', 'checks.mjs', 'typings/usage.mts', 'typings/usage.cts'])
    await copyFile(here(f), path.join(app, path.basename(f)));
  console.log(`npm pack: ${packed.files.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked (Node ${process.version})`);
});

after(async () => {
  await rm(packed.dir, { recursive: true, force: true });
  await rm(app, { recursive: true, force: true });
});

/** Runs a script in the app with node (plus flags) and parses the JSON line it prints. */
async function inApp(script, { flags = [], args = [] } = {}) {
  let stdout;
  try {
    ({ stdout } = await run(process.execPath, [...flags, script, ...args], { cwd: app, timeout: 60_000 }));
  } catch (error) {
    assert.fail(`node ${[...flags, script, ...args].join(' ')} failed (${error.code ?? error.signal}):\n${error.stderr}`);
  }
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

const noFailures = (result, what) => {
  assert.deepEqual(result.failures, [], `${what}: operator checks failed`);
  assert.ok(result.checks >= 18, `${what}: only ${result.checks} checks ran`);
};

test('npm pack ships the wasm, its glue, the JS and the typings, and nothing else', async () => {
  const jsFiles = (await readdir(path.join(root, 'js'))).map((f) => `js/${f}`);
  const required = ['package.json', 'dist/ox.mjs', 'dist/ox.wasm', 'js/index.mjs', 'js/index.cjs', 'js/index.d.ts', 'js/index.d.cts', 'js/loader.js'];
  for (const f of [...required, ...jsFiles]) assert.ok(packed.files.includes(f), `${f} is not in the tarball`);
  const allowed = /^(package\.json|(README|LICENSE|CHANGELOG)(\.md|\.txt)?|dist\/ox\.(mjs|wasm)|js\/[\w.-]+\.(js|mjs|cjs|d\.ts|d\.cts))$/;
  const unexpected = packed.files.filter((f) => !allowed.test(f) || (f.startsWith('js/') && !jsFiles.includes(f)));
  assert.deepEqual(unexpected, [], 'files in the tarball that users do not need');
  assert.equal((await readFile(path.join(installed, 'dist/ox.wasm'))).subarray(0, 4).toString('hex'), WASM_MAGIC);
});

test('every relative import in the shipped JS and typings names a shipped file', async () => {
  const reference = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bnew URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g;
  const missing = [];
  for (const file of packed.files.filter((f) => /\.(js|mjs|cjs|d\.ts|d\.cts)$/.test(f))) {
    const text = await readFile(path.join(installed, file), 'utf8');
    for (const [, spec] of text.matchAll(reference)) {
      let target = path.posix.join(path.posix.dirname(file), spec);
      if (file.endsWith('.d.ts') || file.endsWith('.d.cts')) target = target.replace(/\.cjs$/, '.d.cts').replace(/\.m?js$/, '.d.ts');
      if (!packed.files.includes(target)) missing.push(`${file} -> ${spec}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('package.json: exports map (types first), subpaths; the install builds nothing', async () => {
  const pkg = JSON.parse(await readFile(path.join(installed, 'package.json'), 'utf8'));
  const main = pkg.exports['.'];
  assert.equal(Object.keys(main)[0], 'types', 'TypeScript reads conditions in order: "types" must come first');
  assert.deepEqual(Object.keys(main).slice(1), ['import', 'require', 'default']);
  assert.deepEqual(main.types, { import: './js/index.d.ts', require: './js/index.d.cts', default: './js/index.d.ts' });
  assert.equal(main.import, './js/index.mjs');
  assert.equal(main.require, './js/index.cjs');
  assert.equal(main.default, './js/index.mjs');
  assert.equal(pkg.exports['./package.json'], './package.json');
  assert.equal(pkg.exports['./ox.wasm'], './dist/ox.wasm');
  const targetsOf = (v) => (typeof v === 'string' ? [v.slice(2)] : Object.values(v).flatMap(targetsOf));
  const targets = targetsOf(pkg.exports);
  for (const t of [...targets, pkg.main.slice(2), pkg.types.slice(2)]) assert.ok(packed.files.includes(t), `${t} is named in package.json but not shipped`);
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.sideEffects, false, 'importing the package does nothing by itself, so bundlers may drop unused parts');
  assert.deepEqual(pkg.dependencies ?? {}, {}, 'the package needs no dependencies');
  assert.deepEqual(toolchainUsed, [], 'npm install ran a compiler or build tool');
  for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
    assert.equal(pkg.scripts?.[hook], undefined, `a "${hook}" script would run (or try to build) on install`);
});

test('import by package name in the installed app', async () => {
  const result = await inApp('esm.mjs');
  noFailures(result, 'import');
  assert.match(result.beforeInit, /^Error: .*before init\(\) resolved; await init\(\) first/);
  assert.equal(result.wasm, pathToFileURL(path.join(installed, 'dist/ox.wasm')).href);
  const source = await import(pathToFileURL(path.join(root, 'js/index.mjs')));
  assert.deepEqual(result.exports, Object.keys(source).sort(), 'the installed entry exports what js/index.mjs does');
});

for (const [mode, flags] of [['require(esm), Node >= 20.19', []], ['the import() fallback, older Node 20', ['--no-experimental-require-module']]]) {
  test(`require by package name in the installed app: ${mode}`, async () => {
    const esm = await inApp('esm.mjs');
    const result = await inApp('cjs.cjs', { flags });
    noFailures(result, 'require');
    assert.deepEqual(result.exports, esm.exports, 'CommonJS and ES module entries export the same names');
    assert.equal(result.version, JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).version);
    // (Bun refuses the same path with its own code.)
    assert.equal(result.internal, 'Bun' in globalThis ? 'MODULE_NOT_FOUND' : 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'internal files stay private');
    assert.equal((await readFile(result.wasm)).subarray(0, 4).toString('hex'), WASM_MAGIC);
  });

  test(`one core behind both entries: ${mode}`, async () => {
    for (const order of ['esm-first', 'cjs-first']) {
      const result = await inApp('shared.mjs', { flags, args: [order] });
      noFailures(result, order);
      assert.equal(result.max, 8, `${order}: the entry whose init() was not called works`);
      assert.equal(result.sameTensorClass, true, `${order}: one Tensor class`);
      assert.equal(result.outputIsEsmTensor, true, `${order}: outputs are instances of that class`);
      if (flags.length === 0) assert.equal(result.sameFunctions, true, `${order}: require() gives the ES module itself`);
    }
  });
}

test('the shipped typings resolve by package name from an ES module and a CommonJS file (tsc --strict, node16)', async () => {
  await writeFile(path.join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'node16', target: 'es2022', lib: ['es2022'], types: [] },
    files: ['usage.mts', 'usage.cts'],
  }));
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  try {
    await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app, timeout: 60_000 });
  } catch (error) {
    assert.fail(`tsc failed in the app:\n${error.stdout}${error.stderr}`);
  }
});
