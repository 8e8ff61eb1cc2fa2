// Which tier JavaScriptCore (WebKit's engine, Safari's) runs the call path's functions in, and
// whether their optimized code keeps being thrown away: the check that found readArguments stuck
// in the Baseline tier (9e1713d), which no timing shows by itself. One bench case's call runs in a
// loop in a WebKitGTK page (bench/browser/call-loop.mjs) with JavaScriptCore's compilation log on.
//   node bench/jsc-tiers.mjs [--case=tiny] [--seconds=4] [--resident] [--out] [--afterAll] [--all] [--perf]
// --afterAll calls every bench case a few times first, as the bench's pages have before a case.
// Prints the calls' µs and, for each function declared in js/, the highest tier that compiled it,
// its compiles by tier and the OSR exits they were compiled for (--all: every function the page
// ran). A function the DFG compiled 3 times or more is flagged: its optimized code was thrown away
// again and again, and it ran in a lower tier meanwhile.
// --perf: instead of the log, a profile of the page's web process by `perf` (Linux; perf_event_paranoid
// at most 2), JavaScriptCore writing its JIT code's names (JITDump) for `perf inject --jit`: the
// top symbols by self time, JS functions as "JSC-FTL: name#hash", wasm as "JSC-WasmOMG".
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ISOLATION } from './browser/host.mjs';
import { callLoopQuery, callLoopSummary } from './lib/call-loop.mjs';
import { RECOMPILED_TIMES, declaredNames, highestTier, readJscLog, recompiled } from './lib/jsc-log.mjs';
import { optionNumber, optionText } from './lib/options.mjs';
import { startStaticServer } from '../scripts/static-server.mjs';
import { openInWebKit } from '../scripts/webkit.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const caseName = optionText('case', 'tiny');
const seconds = optionNumber('seconds', 4);
const PERF = process.argv.includes('--perf');
const PERF_WARMUP_S = 1; // the profile starts this long after the loop, once the call path has reached its tiers
const LOG_KEPT = 512 << 20;

const query = callLoopQuery(process.argv, { caseName, seconds });

const work = mkdtempSync(path.join(tmpdir(), 'onnx-extrema-jsc-'));
const env = PERF ? { JSC_useJITDump: '1', JSC_jitDumpDirectory: work } : { JSC_reportCompileTimes: '1', JSC_verboseOSR: '1' };
let log = '';
const onOutput = (chunk) => {
  if (log.length < LOG_KEPT) log += chunk;
};

let reported, started;
const report = new Promise((resolve) => (reported = resolve));
const loopStarts = new Promise((resolve) => (started = resolve));
const onReport = (key, text) => {
  if (key === 'call-loop-starts') started();
  else reported(JSON.parse(text));
  return '{}';
};
const server = await startStaticServer({ root, headers: ISOLATION, onReport });
try {
  const page = await openInWebKit(`${server.origin}/bench/browser/call-loop.html?${query}`, { env, onOutput });
  try {
    const profiled = PERF ? loopStarts.then(() => profileWebProcess(work, seconds - PERF_WARMUP_S)) : null;
    profiled?.catch(() => {}); // (awaited below, after the page's report)
    const result = await page.until(report, (seconds + 120) * 1000, 'the call loop');
    if (result.error) throw new Error(`the page: ${result.error}`);
    console.log(callLoopSummary(query, result));
    if (profiled) console.log(await profiled);
    else printTiers(readJscLog(log));
  } finally {
    await page.close();
  }
} finally {
  await server.close();
  rmSync(work, { recursive: true, force: true });
}

function printTiers(functions) {
  const ours = new Set();
  for (const file of readdirSync(path.join(root, 'js')).filter((f) => f.endsWith('.js')))
    for (const name of declaredNames(readFileSync(path.join(root, 'js', file), 'utf8'))) ours.add(name);
  const shown = [...functions.entries()].filter(([, f]) => process.argv.includes('--all') || ours.has(f.name));
  shown.sort(([, a], [, b]) => (b.compiles.DFG ?? 0) - (a.compiles.DFG ?? 0) || a.name.localeCompare(b.name));
  console.log('| function | highest tier | compiles | OSR exits compiled for | |\n| --- | --- | --- | --- | --- |');
  for (const [key, f] of shown) {
    const compiles = Object.entries(f.compiles).map(([tier, n]) => `${tier} ${n}`).join(', ');
    const exits = Object.entries(f.exits).map(([kind, n]) => `${kind} ${n}`).join(', ') || '—';
    console.log(`| ${key} | ${highestTier(f)} | ${compiles} | ${exits} | ${recompiled(f) ? 'recompiled again and again' : ''} |`);
  }
  const flagged = shown.filter(([, f]) => recompiled(f)).length;
  console.log(`\n${shown.length} functions${process.argv.includes('--all') ? '' : ' of js/'} compiled; ${flagged} recompiled by the DFG ${RECOMPILED_TIMES} times or more.`);
}

// `perf record` of the busiest WebKit web process (the page's) for `duration` s after the loop's warm-up,
// its JIT code named by JSC's JITDump files in `dir`; resolves to the top of `perf report`.
async function profileWebProcess(dir, duration) {
  if (!(duration > 0)) throw new Error(`--perf needs --seconds above ${PERF_WARMUP_S} (the warm-up)`);
  await new Promise((resolve) => setTimeout(resolve, PERF_WARMUP_S * 1000));
  const busiest = execFileSync('ps', ['-eo', 'pid=,pcpu=,comm='], { encoding: 'utf8' })
    .split('\n').map((line) => line.trim().split(/\s+/)).filter((p) => p[2]?.startsWith('WebKitWebProces'))
    .sort((a, b) => Number(b[1]) - Number(a[1]))[0];
  if (!busiest) throw new Error('no WebKitWebProcess is running');
  const data = path.join(dir, 'perf.data');
  const record = spawn('perf', ['record', '-k', '1', '-F', '1999', '-p', busiest[0], '-o', data, '--', 'sleep', String(duration)], { stdio: 'ignore' });
  const code = await new Promise((resolve, reject) => record.once('error', reject).once('exit', resolve));
  if (code !== 0) throw new Error(`perf record ended with code ${code} (is perf installed, and /proc/sys/kernel/perf_event_paranoid at most 2?)`);
  await new Promise((resolve) => setTimeout(resolve, 500)); // (JSC flushes its dump as it compiles)
  const injected = path.join(dir, 'perf.jit.data');
  execFileSync('perf', ['inject', '--jit', '-i', data, '-o', injected], { stdio: 'ignore' });
  const text = execFileSync('perf', ['report', '-i', injected, '--stdio', '--no-children', '--sort', 'sym', '-g', 'none'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return text.split('\n').filter((line) => line.trim() && !line.startsWith('#')).slice(0, 30).join('\n');
}
