// The float16/bfloat16 conversion helpers (js/float16.js) on logits-sized arrays: ns per value,
// medians of interleaved rounds, beside the runtime's own typed-array conversion into a new array
// of the same class (new Uint16Array(values) / new Float32Array(bits): no float16 at all) for scale.
// Each helper runs in a process of its own, as an application uses one format.
//   node bench/float16-helpers.mjs [--count=32000] [--ab=/tmp/old]   (--ab: another checkout, side by side)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { optionNumber, optionText } from './lib/options.mjs';

const HELPERS = ['toFloat16Array', 'fromFloat16Array', 'toBFloat16Array', 'fromBFloat16Array'];

if (process.argv[2] === '--child') {
  // child: ROOT HELPER COUNT -> prints "helperNs copyNs"
  const [, , , root, helper, count] = process.argv;
  const api = await import(`${root}/js/index.mjs`);
  const n = Number(count);
  const values = new Float32Array(n);
  let seed = 7;
  for (let i = 0; i < n; i += 1) values[i] = (((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5) * 40; // logits-like
  const encodes = helper.startsWith('to');
  const input = encodes ? values : helper === 'fromFloat16Array' ? api.toFloat16Array(values) : api.toBFloat16Array(values);
  const convert = () => api[helper](input);
  const copy = encodes ? () => new Uint16Array(values) : () => new Float32Array(input);
  const time = (f) => {
    const reps = Math.max(1, Math.round(2e6 / n));
    const t = performance.now();
    for (let i = 0; i < reps; i += 1) f();
    return ((performance.now() - t) * 1e6) / reps / n;
  };
  for (let i = 0; i < 20; i += 1) convert(), copy();
  const a = [], b = [];
  for (let r = 0; r < 15; r += 1) a.push(time(convert)), b.push(time(copy));
  const median = (s) => s.sort((x, y) => x - y)[s.length >> 1];
  console.log(median(a), median(b));
} else {
  const count = optionNumber('count', 32000);
  const other = optionText('ab', null);
  const here = fileURLToPath(new URL('..', import.meta.url));
  const run = (root, helper) => {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', root, helper, String(count)], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`float16-helpers.mjs: ${helper} in ${root} failed: ${r.stderr}`);
    return r.stdout.trim().split(' ').map(Number);
  };
  console.log(`${count} values; ns per value, median of 15 rounds`);
  console.log(['helper', 'this checkout', 'typed-array conversion', ...(other ? [other, 'other / this'] : [])].join(' | '));
  for (const helper of HELPERS) {
    const [ns, copyNs] = run(here, helper);
    const cells = [helper, ns.toFixed(2), copyNs.toFixed(2)];
    if (other) {
      const [otherNs] = run(other, helper);
      cells.push(otherNs.toFixed(2), `${(otherNs / ns).toFixed(1)}x`);
    }
    console.log(cells.join(' | '));
  }
}
