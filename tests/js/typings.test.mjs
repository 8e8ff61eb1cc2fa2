// The typings (js/index.d.cts, re-exported by js/index.d.ts) against the runtime: tsc --strict on
// files that use every export (tests/package/typings/), those files run as JS, and the declared
// exports compared with the runtime's, both ways, for the ES module and the CommonJS entry.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { root } from '../package/pack.mjs';
import { NOT_NODE } from './helpers.mjs';

const run = promisify(execFile);
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const typings = path.join(root, 'tests/package/typings');
let work; // a temporary directory whose node_modules links to this package and onnxruntime-common

before(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'ox-typings-'));
  await mkdir(path.join(work, 'node_modules'));
  await symlink(root, path.join(work, 'node_modules/onnx-extrema'), 'dir');
  await symlink(path.join(root, 'node_modules/onnxruntime-common'), path.join(work, 'node_modules/onnxruntime-common'), 'dir');
});

after(() => rm(work, { recursive: true, force: true }));

async function compile(args, cwd = typings) {
  try {
    await run(process.execPath, [tsc, ...args], { cwd, timeout: 120_000 });
  } catch (error) {
    assert.fail(`tsc ${args.join(' ')} failed:\n${error.stdout}${error.stderr}`);
  }
}

async function node(file) {
  try {
    await run(process.execPath, [file], { cwd: work, timeout: 60_000 });
  } catch (error) {
    assert.fail(`node ${path.basename(file)} failed:\n${error.stderr}`);
  }
}

test('every export type-checks under --strict: module node16, nodenext and bundler; ort interop; Float16Array; wasmModule under the DOM lib', async () => {
  await compile(['-p', 'tsconfig.json']);
  await compile(['-p', 'tsconfig.json', '--module', 'nodenext']);
  await compile(['-p', 'tsconfig.bundler.json']);
  await compile(['-p', 'tsconfig.ort.json']);
  await compile(['-p', 'tsconfig.float16.json']);
  await compile(['-p', 'tsconfig.dom.json']);
});

// (Run by Node: in Deno the package name resolves only as a declared npm dependency.)
test('the type-checked files run, so the declared types are what the runtime returns', { skip: NOT_NODE }, async () => {
  const out = path.join(work, 'out');
  await compile(['-p', 'tsconfig.json', '--noEmit', 'false', '--outDir', out]);
  await compile(['-p', 'tsconfig.ort.json', '--noEmit', 'false', '--outDir', out]);
  for (const file of ['usage.mjs', 'usage.cjs', 'ort.mjs']) await node(path.join(out, file));
});

// tsc fails on this file unless the declared value exports are exactly `names`, each of its kind.
function exportCheck(importLine, names, classes) {
  const union = names.map((n) => JSON.stringify(n)).join(' | ');
  const kinds = names.map((n) =>
    classes.includes(n)
      ? `const kind_${n}: abstract new (...args: never[]) => unknown = ox.${n};`
      : `const kind_${n}: (...args: never[]) => unknown = ox.${n};\n// @ts-expect-error ${n} is a function, not a class\nnew ox.${n}();`,
  );
  return `${importLine}
type Runtime = ${union};
type Declared = keyof typeof ox;
type NotDeclared = Exclude<Runtime, Declared>;
type NotAtRuntime = Exclude<Declared, Runtime>;
export const notDeclared: [NotDeclared] extends [never] ? true : NotDeclared = true;
export const notAtRuntime: [NotAtRuntime] extends [never] ? true : NotAtRuntime = true;
${kinds.join('\n')}
export function unused(): void {
  void [${names.map((n) => `kind_${n}`).join(', ')}];
}
`;
}

const isClass = (v) => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));

test('every runtime export is declared and every declared export exists at run time (ESM and CommonJS)', async () => {
  const esm = await import(pathToFileURL(path.join(root, 'js/index.mjs')));
  const cjs = createRequire(import.meta.url)(path.join(root, 'js/index.cjs'));
  assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort());
  for (const [entry, mod] of [['esm', esm], ['cjs', cjs]]) {
    const names = Object.keys(mod).sort();
    for (const n of names) assert.equal(typeof mod[n], 'function', `${entry} export ${n} is a ${typeof mod[n]}`);
    const classes = names.filter((n) => isClass(mod[n]));
    assert.deepEqual(classes, ['Tensor']);
    const file = entry === 'esm' ? 'exports.mts' : 'exports.cts';
    const importLine = entry === 'esm' ? "import * as ox from 'onnx-extrema';" : "import ox = require('onnx-extrema');";
    await writeFile(path.join(work, file), exportCheck(importLine, names, classes));
  }
  await writeFile(path.join(work, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'node16', target: 'es2022', lib: ['es2022'], types: [] },
    files: ['exports.mts', 'exports.cts'],
  }));
  await compile(['-p', 'tsconfig.json'], work);
});
