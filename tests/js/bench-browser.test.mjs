// `npm run bench -- --browser`: the bench's runtimes in pages of headless Chromium (bench/browser/),
// and `--browser=firefox` and `--browser=webkit` in headless Firefox and WebKit, whose pages answer
// over HTTP (post-host.mjs).
// A short run of onnx-extrema's two columns (no peer, so nothing to install) goes end to end: the
// pages load the package and the bench's modules from the static server, answer the controller,
// check their outputs against the reference, and the report names the browser. With --starts=2 the
// second round runs in fresh pages (bench/lib/starts.mjs), which set up and check again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

const BROWSERS = [
  { flag: '--browser', name: 'Chromium', stem: 'browser-latest' },
  { flag: '--browser=firefox', name: 'Firefox', stem: 'firefox-latest' },
  { flag: '--browser=webkit', name: 'WebKitGTK', stem: 'webkit-latest' },
];

for (const { flag, name, stem } of BROWSERS)
  test(`bench ${flag}: a case timed in ${name} pages, outputs checked, results written`, () => {
    const out = mkdtempSync(path.join(tmpdir(), 'ox-bench-browser-'));
    try {
      const args = ['bench/run.mjs', flag, '--quick', '--rounds=2', '--starts=2', '--warmup-ms=20', '--budget-ms=10',
        '--cases=tiny,reducemax_rows.int32', '--runtimes=onnx-extrema,onnx-extrema-resident', `--out=${out}`];
      const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 240_000 });
      assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
      const run = JSON.parse(readFileSync(path.join(out, `${stem}.json`), 'utf8'));
      assert.match(run.machine.browser, new RegExp(`^${name} \\d+`));
      assert.equal(run.machine.crossOriginIsolated, true, 'the pages are cross-origin isolated (ort-web-2t needs it)');
      assert.deepEqual(run.cases.map((c) => c.case.name), ['tiny', 'reducemax_rows.int32']);
      assert.deepEqual(run.made, { 'onnx-extrema': 3, 'onnx-extrema-resident': 3 }, 'a fresh page for each case\'s second round');
      for (const c of run.cases)
        for (const column of ['onnx-extrema', 'onnx-extrema-resident']) {
          const s = c.columns[column];
          assert.equal(s.status, 'ok', `${c.case.name} / ${column}: ${JSON.stringify(s)}`);
          assert.equal(s.check, null, `${c.case.name} / ${column}: output differs from the reference`);
          assert.equal(s.outputLength, c.case.outDims.reduce((a, b) => a * b, 1), `${c.case.name} / ${column}: another case's output`);
          assert.ok(s.medianUs > 0 && Number.isFinite(s.medianUs));
          assert.deepEqual(c.starts[column], [0, 1], `${c.case.name} / ${column}: a round in each page`);
          assert.equal(s.startMedians.length, 2);
        }
      const md = readFileSync(path.join(out, `${stem}.md`), 'utf8');
      assert.match(md, new RegExp(`runtimes in pages of ${name} \\d+`));
      assert.match(md, /## Each start's median \(µs\): the case read in 2 fresh pages of each runtime/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
