// Size budget of what a browser downloads: dist/ox.wasm at most 100 KiB gzipped (level 9, node:zlib).
// Prints the sizes of the wasm and its JS glue so changes are visible in every run.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import test from 'node:test';
import { gzipSync } from 'node:zlib';

const BUDGET = 100 * 1024;
const dist = new URL('../../dist/', import.meta.url);

test(`dist/ox.wasm is at most ${BUDGET / 1024} KiB gzipped`, async () => {
  const sizes = {};
  for (const file of ['ox.wasm', 'ox.mjs']) {
    const bytes = await readFile(new URL(file, dist));
    sizes[file] = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  }
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const [file, { raw, gzip }] of Object.entries(sizes)) console.log(`${file}: ${raw} bytes (${kib(raw)}), gzip -9 ${gzip} bytes (${kib(gzip)})`);
  assert.ok(sizes['ox.wasm'].gzip <= BUDGET, `dist/ox.wasm is ${kib(sizes['ox.wasm'].gzip)} gzipped, over the ${kib(BUDGET)} budget`);
});
