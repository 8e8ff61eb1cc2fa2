// What a loop of plain calls (a new output each call) pays for its outputs' fresh pages, with
// glibc's defaults and with glibc told to keep freed memory for reuse (GLIBC_TUNABLES below), the
// same loop into one reused output ({ out }) beside it. On hosts that hand memory glibc gives back
// to the hypervisor, each new 4 KiB page then costs 10-20 µs to touch again (bench/lib/fresh-pages.mjs),
// and glibc gives back the freed outputs as soon as the garbage collector frees several together.
//   node bench/fresh-outputs.mjs [--repeats=3] [--cases=hardmax_last,argmax_seg,argmax_rows7.large.int8]
// Each case runs in a process of its own, the two settings alternating, `repeats` processes each;
// prints the mean, median and 90th percentile µs of a call (the first sixth of the calls left out
// as warm-up). Linux with glibc only (GLIBC_TUNABLES means nothing elsewhere).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { findCases } from './lib/cases.mjs';
import { fmtUs, median } from './lib/format.mjs';
import { optionNumber, optionText } from './lib/options.mjs';

// Keep up to 256 MiB freed for reuse rather than give it back; map only blocks over 32 MiB (each
// mapped fresh, and unmapped when freed). trim_threshold alone is worse than neither: setting either
// stops glibc raising the mmap threshold as it goes, and one left at 128 KiB maps every output fresh.
export const KEEP_FREED_MEMORY = 'glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432';

// Bench cases (bench/lib/cases.mjs, either set) with large outputs: Hardmax's 16 MiB, the map's
// 2 MiB of indices, 1 MiB of indices over rows of 7. Not ReduceMax, whose axes are an input.
const DEFAULT_CASES = 'hardmax_last,argmax_seg,argmax_rows7.large.int8';
// Calls a loop: enough to span several garbage collections.
const callsFor = (c) => (c.bytes >= 8 * 2 ** 20 ? 150 : 600);

function stats(micros) {
  const s = micros.slice(Math.floor(micros.length / 6)).sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, median: median(s), p90: s[Math.floor(s.length * 0.9)] };
}

async function child(name) {
  const { init, runNode, Tensor } = await import('../js/index.mjs');
  const { makeInput } = await import('./lib/data.mjs');
  const { freshPageMicros } = await import('./lib/fresh-pages.mjs');
  await init();
  const [c] = findCases([name]);
  const x = new Tensor(c.type, makeInput(c), c.dims);
  const time = (options) => {
    const micros = [];
    for (let i = 0; i < callsFor(c); i += 1) {
      const t0 = process.hrtime.bigint();
      runNode(c.op, [x], c.attrs, c.opset, options);
      micros.push(Number(process.hrtime.bigint() - t0) / 1e3);
    }
    return stats(micros);
  };
  const freshPage = freshPageMicros();
  const plain = time(undefined);
  const out = time({ out: runNode(c.op, [x], c.attrs, c.opset)[0].data.slice() });
  process.stdout.write(JSON.stringify({ freshPage, plain, out }));
}

function parent() {
  const repeats = optionNumber('repeats', 3);
  const cases = findCases(optionText('cases', DEFAULT_CASES).split(','));
  const self = fileURLToPath(import.meta.url);
  const us = (v) => `${fmtUs(v)} µs`;
  console.log(`kept: GLIBC_TUNABLES=${KEEP_FREED_MEMORY}`);
  for (const c of cases) {
    if (c.op === 'ReduceMax') throw new Error(`fresh-outputs.mjs: ${c.name} is a ReduceMax case, whose axes input this loop does not give`);
    for (let r = 0; r < repeats; r += 1) {
      for (const kept of [false, true]) {
        const env = { ...process.env };
        if (kept) env.GLIBC_TUNABLES = KEEP_FREED_MEMORY;
        else delete env.GLIBC_TUNABLES;
        const run = spawnSync(process.execPath, [self, `--child=${c.name}`], { env, encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`fresh-outputs.mjs: the ${c.name} process failed:\n${run.stderr}`);
        const { freshPage, plain, out } = JSON.parse(run.stdout);
        console.log(
          `${c.name.padEnd(24)} ${kept ? 'kept   ' : 'default'}  fresh page ${freshPage.toFixed(2)} µs  ` +
            `plain: mean ${us(plain.mean)}, median ${us(plain.median)}, p90 ${us(plain.p90)}  ` +
            `{ out }: mean ${us(out.mean)}, median ${us(out.median)}`,
        );
      }
    }
  }
}

// (Run, not imported: the tests import KEEP_FREED_MEMORY.)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const childCase = optionText('child', undefined);
  if (childCase) await child(childCase);
  else parent();
}
