// scripts/lib/configure.sh's configure_once, which build.sh, sanitize.sh and fuzz.sh configure
// their CMake build directories through: it configures a directory with no build file (dropping a
// failed configure's cache first, which otherwise left every later build stopping at "loading
// 'build.ninja'"), and leaves a configured one alone. Run in bash with a stand-in configure
// command that records what it saw.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const library = fileURLToPath(new URL('../../scripts/lib/configure.sh', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'ox-configure-once-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

// A build directory under scratch, with `files` (paths relative to it) made first.
function buildDir(name, files) {
  const dir = path.join(scratch, name);
  mkdirSync(dir, { recursive: true });
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), 'from before\n');
  }
  return dir;
}

// Runs configure_once on `dir` with a stand-in configure: it notes in dir/ran whether the old
// cache was still there, then writes `writes` (a build file, or nothing) and exits with `exit`.
// Returns the shell's exit status.
function configureOnce(dir, { writes = 'build.ninja', exit = 0 } = {}) {
  const stand_in = `if [ -e "$1/CMakeCache.txt" ]; then echo stale-cache; else echo clean; fi > "$1/ran"; ` +
    `${writes ? `touch "$1/${writes}"; ` : ''}exit ${exit}`;
  try {
    execFileSync('bash', ['-c', `set -euo pipefail; source "$0"; configure_once "$1" bash -c '${stand_in}' _ "$1"`, library, dir], { stdio: 'pipe' });
    return 0;
  } catch (error) {
    if (typeof error.status !== 'number') throw error;
    return error.status;
  }
}

const ran = (dir) => (existsSync(path.join(dir, 'ran')) ? readFileSync(path.join(dir, 'ran'), 'utf8').trim() : 'not run');

test('a directory that does not exist yet is configured', () => {
  const dir = path.join(scratch, 'new');
  mkdirSync(dir); // (cmake -B makes it; the stand-in writes into it)
  assert.equal(configureOnce(dir), 0);
  assert.equal(ran(dir), 'clean');
  assert.ok(existsSync(path.join(dir, 'build.ninja')));
});

test('a failed configure (a cache, no build file) is configured again, its cache dropped first', () => {
  const dir = buildDir('failed', ['CMakeCache.txt', 'CMakeFiles/CMakeError.log']);
  assert.equal(configureOnce(dir), 0);
  assert.equal(ran(dir), 'clean');
  assert.ok(!existsSync(path.join(dir, 'CMakeFiles/CMakeError.log')), 'the failed configure\'s CMakeFiles are dropped');
});

test('a configured directory (Ninja or Makefiles) is left alone', () => {
  for (const buildFile of ['build.ninja', 'Makefile']) {
    const dir = buildDir(`configured-${buildFile}`, ['CMakeCache.txt', buildFile]);
    assert.equal(configureOnce(dir), 0);
    assert.equal(ran(dir), 'not run', buildFile);
    assert.equal(readFileSync(path.join(dir, 'CMakeCache.txt'), 'utf8'), 'from before\n', `${buildFile}: the cache is kept`);
  }
});

test('a configure that fails fails the script, and the next run configures again', () => {
  const dir = buildDir('fails', []);
  assert.equal(configureOnce(dir, { writes: 'CMakeCache.txt', exit: 3 }), 3); // (set -e stops build.sh here)
  assert.equal(configureOnce(dir), 0);
  assert.equal(ran(dir), 'clean');
  assert.ok(existsSync(path.join(dir, 'build.ninja')));
});
