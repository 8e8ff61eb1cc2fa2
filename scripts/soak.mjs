#!/usr/bin/env node
// The full soak: `node scripts/soak.mjs [calls=1000000] [seed=1]` (build the wasm first:
// `bash scripts/build.sh wasm`). Prints calls/s, wasm heap size and RSS at every 10%, exits 1 if
// any answer was wrong or the heap moved after the first 10%.
import * as api from '../js/index.mjs';
import { soak } from '../tests/js/reliability/soak.mjs';

const calls = Number(process.argv[2] ?? 1_000_000);
const seed = Number(process.argv[3] ?? 1);
await api.init();
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
console.log(`soak: ${calls} calls, seed ${seed}`);
const result = soak(api, {
  calls,
  seed,
  report: (s) =>
    console.log(`${String(s.done).padStart(9)} calls  ${s.seconds.toFixed(1).padStart(6)} s  ${Math.round(s.callsPerSecond).toString().padStart(7)} calls/s` +
      `  wasm heap ${mb(s.heap)} MiB  probe ${s.large}/${s.small}  rss ${mb(s.rss)} MiB`),
});
const kinds = [...result.byKind.entries()].sort();
console.log(`${kinds.length} (operator, type) pairs, ${Math.min(...kinds.map(([, n]) => n))} to ${Math.max(...kinds.map(([, n]) => n))} calls each`);
console.log(`total ${result.seconds.toFixed(1)} s, ${Math.round(calls / result.seconds)} calls/s; heap steady from 10%: ${result.steady}; failures: ${result.failures.length}`);
for (const f of result.failures) console.log(`  ${f}`);
process.exit(result.failures.length === 0 && result.steady ? 0 : 1);
