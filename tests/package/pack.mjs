// Packs the package as `npm pack` would publish it and installs the tarball into a new, empty app
// directory, the way a user gets it: `npm install <tarball>` (offline: the package has no
// dependencies), no build, no Emscripten. Used by tests/js/package.test.mjs and the browser tests.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const root = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

async function npm(args, cwd, env = {}) {
  try {
    return (await run('npm', args, { cwd, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false', ...env } })).stdout;
  } catch (error) {
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${error.stderr || error.message}`);
  }
}

/** `npm pack` of the worktree into a new temporary directory: { tarball, files, size, unpackedSize, dir }. */
export async function pack() {
  const dir = await mkdtemp(path.join(tmpdir(), 'ox-pack-'));
  const [info] = JSON.parse(await npm(['pack', '--json', '--pack-destination', dir, '--loglevel=error'], root));
  return {
    dir,
    tarball: path.join(dir, info.filename),
    files: info.files.map((f) => f.path).sort(),
    size: info.size,
    unpackedSize: info.unpackedSize,
  };
}

const TOOLCHAIN = ['emcc', 'em++', 'emcmake', 'cmake', 'make', 'ninja', 'cc', 'c++', 'gcc', 'g++', 'clang', 'clang++', 'node-gyp'];

/**
 * A new app directory with only a package.json, and the tarball installed in it: { app, toolchainUsed }.
 * During the install the compilers and build tools on PATH are shims that record their use and
 * fail; toolchainUsed lists any that ran (none should: the built wasm ships in the package).
 */
export async function installInNewApp(tarball) {
  const app = await mkdtemp(path.join(tmpdir(), 'ox-app-'));
  await writeFile(path.join(app, 'package.json'), JSON.stringify({ name: 'ox-test-app', private: true, version: '1.0.0' }));
  const shims = await mkdtemp(path.join(tmpdir(), 'ox-shims-'));
  const log = path.join(shims, 'used.log');
  for (const tool of TOOLCHAIN) {
    const shim = path.join(shims, tool);
    await writeFile(shim, `#!/bin/sh\necho ${tool} >> '${log}'\nexit 97\n`);
    await chmod(shim, 0o755);
  }
  try {
    await npm(['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], app, { PATH: `${shims}${path.delimiter}${process.env.PATH}` });
    const used = await readFile(log, 'utf8').catch(() => '');
    return { app, toolchainUsed: used.split('\n').filter(Boolean) };
  } catch (error) {
    await rm(app, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(shims, { recursive: true, force: true });
  }
}
