// bench/fresh-outputs.mjs: the glibc setting the README recommends is one glibc reads as written,
// and a case's process times plain calls and calls into { out }.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { KEEP_FREED_MEMORY } from '../../bench/fresh-outputs.mjs';

const SCRIPT = fileURLToPath(new URL('../../bench/fresh-outputs.mjs', import.meta.url));
const LOADER = ['/lib64/ld-linux-x86-64.so.2', '/lib/ld-linux-aarch64.so.1'].find((path) => existsSync(path));

test('fresh outputs: glibc reads the recommended setting as both thresholds', { skip: LOADER ? false : 'no glibc loader here' }, () => {
  const listed = execFileSync(LOADER, ['--list-tunables'], { env: { GLIBC_TUNABLES: KEEP_FREED_MEMORY }, encoding: 'utf8' });
  const value = (name) => Number(listed.match(new RegExp(`glibc\\.malloc\\.${name}: (0x[0-9a-f]+)`))?.[1]);
  assert.equal(value('trim_threshold'), 256 * 2 ** 20);
  assert.equal(value('mmap_threshold'), 32 * 2 ** 20);
});

test('fresh outputs: a case process reports positive times for plain calls and { out }', () => {
  const report = JSON.parse(execFileSync(process.execPath, [SCRIPT, '--child=argmax_rows7.large.int8'], { encoding: 'utf8' }));
  for (const column of [report.plain, report.out])
    for (const key of ['mean', 'median', 'p90']) assert.ok(Number.isFinite(column[key]) && column[key] > 0, `${key}: ${column[key]}`);
  assert.ok(report.plain.median <= report.plain.p90);
});
