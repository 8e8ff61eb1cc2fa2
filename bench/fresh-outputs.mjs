// What a loop of plain calls (a new output each call) pays for its outputs' fresh pages, with
// glibc's defaults and with glibc told to keep freed memory for reuse (GLIBC_TUNABLES below), the
// same loop into one reused output ({ out }) beside it. On hosts that hand memory glibc gives back
// to the hypervisor, each new 4 KiB page then costs 10-20 µs to touch again (bench/lib/fresh-pages.mjs),
// and glibc gives back the freed outputs as soon as the garbage collector frees several together.
//   node bench/fresh-outputs.mjs [--repeats=3] [--cases=hardmax,map,rows7]
// Each case runs in a process of its own, the two settings alternating, `repeats` processes each;
// prints the mean, median and 90th percentile µs of a call (the first sixth of the calls left out
// as warm-up). Linux with glibc only (GLIBC_TUNABLES means nothing elsewhere).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Keep up to 256 MiB freed for reuse rather than give it back; map only blocks over 32 MiB (each
// mapped fresh, and unmapped when freed). trim_threshold alone is worse than neither: setting either
// stops glibc raising the mmap threshold as it goes, and one left at 128 KiB maps every output fresh.
export const KEEP_FREED_MEMORY = 'glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432';

const CASES = {
  hardmax: { op: 'Hardmax', type: 'float32', dims: [4096, 1024], attrs: { axis: -1 }, calls: 150 }, // 16 MiB out
  map: { op: 'ArgMax', type: 'float32', dims: [1, 21, 512, 512], attrs: { axis: 1, keepdims: 0 }, calls: 150 }, // 2 MiB out
  rows7: { op: 'ArgMax', type: 'int8', dims: [131072, 7], attrs: { axis: 1 }, calls: 600 }, // 1 MiB out
};

const option = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

function stats(micros) {
  const s = micros.slice(Math.floor(micros.length / 6)).sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return { mean, median: s[s.length >> 1], p90: s[Math.floor(s.length * 0.9)] };
}

async function child(name) {
  const { init, runNode, Tensor } = await import('../js/index.mjs');
  const { makeInput } = await import('./lib/data.mjs');
  const { freshPageMicros } = await import('./lib/fresh-pages.mjs');
  await init();
  const c = CASES[name];
  const count = c.dims.reduce((a, b) => a * b, 1);
  const x = new Tensor(c.type, makeInput({ name, type: c.type, count }), c.dims);
  const time = (options) => {
    const micros = [];
    for (let i = 0; i < c.calls; i += 1) {
      const t0 = process.hrtime.bigint();
      runNode(c.op, [x], c.attrs, 13, options);
      micros.push(Number(process.hrtime.bigint() - t0) / 1e3);
    }
    return stats(micros);
  };
  const freshPage = freshPageMicros();
  const plain = time(undefined);
  const out = time({ out: runNode(c.op, [x], c.attrs, 13)[0].data.slice() });
  process.stdout.write(JSON.stringify({ freshPage, plain, out }));
}

function parent() {
  const repeats = Number(option('repeats', 3));
  const names = option('cases', Object.keys(CASES).join(',')).split(',');
  const self = fileURLToPath(import.meta.url);
  const f = (v) => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(0)} µs`);
  console.log(`kept: GLIBC_TUNABLES=${KEEP_FREED_MEMORY}`);
  for (const name of names) {
    if (!CASES[name]) throw new Error(`unknown case '${name}'; cases: ${Object.keys(CASES).join(', ')}`);
    for (let r = 0; r < repeats; r += 1) {
      for (const kept of [false, true]) {
        const env = { ...process.env };
        if (kept) env.GLIBC_TUNABLES = KEEP_FREED_MEMORY;
        else delete env.GLIBC_TUNABLES;
        const run = spawnSync(process.execPath, [self, `--child=${name}`], { env, encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`fresh-outputs.mjs: the ${name} process failed:\n${run.stderr}`);
        const { freshPage, plain, out } = JSON.parse(run.stdout);
        console.log(
          `${name.padEnd(8)} ${kept ? 'kept   ' : 'default'}  fresh page ${freshPage.toFixed(2)} µs  ` +
            `plain: mean ${f(plain.mean)}, median ${f(plain.median)}, p90 ${f(plain.p90)}  ` +
            `{ out }: mean ${f(out.mean)}, median ${f(out.median)}`,
        );
      }
    }
  }
}

// (Run, not imported: the tests import KEEP_FREED_MEMORY.)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const childCase = option('child', undefined);
  if (childCase) await child(childCase);
  else parent();
}
