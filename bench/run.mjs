// `npm run bench` (from the repository root): onnx-extrema against onnxruntime-web and
// tfjs-backend-wasm, with this runtime's streaming limits for scale.
//   --quick        3 rounds, short batches
//   --rounds=N     rounds (default 8)
//   --cases=a,b    only these cases (names as printed)
//   --set=sweep    the sweep of kernel families x sizes x types (lib/cases.mjs) instead of the
//                  issue's cases; its report adds every case sorted by the speedup over each peer
//   --runtimes=a,b only these processes (onnx-extrema, onnx-extrema-out, onnx-extrema-resident,
//                  ort-web-1t, ort-web-2t, tfjs-wasm, tfjs-wasm-resident, limit)
//   --budget-ms=N  time per batch (default 150, quick 40)
//   --warmup-ms=N  calls before a case's first sample, per column (default 1500, quick 250)
//   --browser      the runtimes in pages of headless Chromium instead of Node processes
//                  (browser/host.mjs); results in browser-latest.*
//   --browser=firefox  the same in headless Firefox (browser/post-host.mjs); results in
//                  firefox-latest.*
//   --browser=webkit   the same in WebKit (WebKitGTK's MiniBrowser on Xvfb: browser/post-host.mjs);
//                  results in webkit-latest.*
//   --starts=N     each case's rounds over N fresh starts of every runtime (a new process or
//                  page, set up and warmed up again): the median read over N of them (default 1)
//   --apart        every case timed on its own: a float16/bfloat16 case too, which otherwise is
//                  timed round by round with its float32 case (lib/case-groups.mjs)
//   --out=DIR      where the results go (default bench/results/)
// Each runtime runs in its own process (a page with --browser); for each case (or group of cases
// timed together) the controller asks them in turn for a batch of samples, several rounds with the
// order rotated, so machine noise falls on all alike; on Linux each one-thread runtime's process
// runs round r on CPU r mod N (lib/cpu-pinning.mjs: this project's VMs do not give their vCPUs
// equal speed). Cells are medians. Results: bench/results/latest.json and latest.md.
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeShape, findCases } from './lib/cases.mjs';
import { timingGroups } from './lib/case-groups.mjs';
import { fmtUs, reasonLine } from './lib/format.mjs';
import { cpuPinning } from './lib/cpu-pinning.mjs';
import { freshPageMicros } from './lib/fresh-pages.mjs';
import { afterFreshSetup, beginsFreshStart, checkStarts, startOfRound } from './lib/starts.mjs';
import { markdown, summarize } from './lib/report.mjs';
import { supervise } from './lib/supervised.mjs';
import { RUNTIMES } from './runtimes/registry.mjs';
import { openBrowser } from './browser/host.mjs';
import { openFirefoxBench, openWebKitBench } from './browser/post-host.mjs';

// --browser[=NAME]: how to open the runtimes' pages, and the stem of the results' files.
const BROWSERS = {
  chromium: { open: openBrowser, stem: 'browser-latest' },
  firefox: { open: openFirefoxBench, stem: 'firefox-latest' },
  webkit: { open: openWebKitBench, stem: 'webkit-latest' },
};

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const rootDir = fileURLToPath(new URL('..', import.meta.url));

// The limit loops are plain wasm loops with no JS on their path: they run optimized within their
// first calls, so they keep the quick warm-up whatever the run asks.
const QUICK_WARMUP_MS = 250;
const warmupOf = (name, opts) => (RUNTIMES[name].limit ? Math.min(opts.warmupMs, QUICK_WARMUP_MS) : opts.warmupMs);

function parseArgs(argv) {
  const opts = { quick: false, rounds: undefined, cases: null, set: 'main', runtimes: null, budgetMs: undefined, warmupMs: undefined, browser: false, out: null, starts: 1, apart: false };
  for (const a of argv) {
    const [k, v] = a.split('=');
    if (k === '--quick') opts.quick = true;
    else if (k === '--rounds') opts.rounds = Number(v);
    else if (k === '--cases') opts.cases = v.split(',').filter(Boolean);
    else if (k === '--set') opts.set = v;
    else if (k === '--runtimes') opts.runtimes = v.split(',').filter(Boolean);
    else if (k === '--budget-ms') opts.budgetMs = Number(v);
    else if (k === '--warmup-ms') opts.warmupMs = Number(v);
    else if (k === '--browser') opts.browser = v ?? 'chromium';
    else if (k === '--out') opts.out = v;
    else if (k === '--starts') opts.starts = Number(v);
    else if (k === '--apart') opts.apart = true;
    else throw new Error(`unknown option ${a} (see the top of bench/run.mjs)`);
  }
  opts.rounds ??= opts.quick ? 3 : 8;
  opts.budgetMs ??= opts.quick ? 40 : 150;
  // V8 swaps optimized code in at a time that varies from run to run (bench/README.md).
  opts.warmupMs ??= opts.quick ? QUICK_WARMUP_MS : 1500;
  opts.minSamples = opts.quick ? 3 : 5;
  if (!(opts.rounds >= 1)) throw new Error('--rounds must be >= 1');
  checkStarts(opts.starts, opts.rounds);
  if (opts.browser !== false && !Object.hasOwn(BROWSERS, opts.browser))
    throw new Error(`--browser=${opts.browser}: the browsers are ${Object.keys(BROWSERS).join(', ')}`);
  return opts;
}

// Installs bench/'s own dependencies and builds what is missing, for the runtimes of this run.
function ensurePrerequisites(names) {
  const need = names.flatMap((n) => RUNTIMES[n].packages ?? []);
  if (need.some((p) => !existsSync(new URL(`./node_modules/${p}/package.json`, import.meta.url)))) {
    console.log('bench: installing bench/ dependencies (npm)');
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: benchDir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm install in bench/ failed');
  }
  const dist = ['../dist/ox.mjs', '../dist/ox.wasm'].map((f) => new URL(f, import.meta.url));
  if (!dist.every(existsSync)) {
    console.log('bench: building the wasm module (scripts/build.sh wasm)');
    rmSync(dist[0], { force: true }); // the link writes both files: make it run
    const r = spawnSync('bash', ['scripts/build.sh', 'wasm'], { cwd: rootDir, stdio: 'inherit' });
    if (r.status !== 0 || !dist.every(existsSync)) throw new Error('the wasm build failed');
  }
  if (names.some((n) => RUNTIMES[n].limit) && !existsSync(new URL('./build/limit.wasm', import.meta.url))) {
    console.log('bench: building the streaming-limit module (bench/limit/build.sh)');
    const r = spawnSync('bash', ['limit/build.sh'], { cwd: benchDir, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('the limit module build failed');
  }
}

// A runtime that takes longer than this to start or to answer a message (a case's setup takes
// seconds; a batch, its budget) is ended and started again for the next case (lib/supervised.mjs).
const ANSWER_TIMEOUT_MS = 180_000;

// A child process and a promise-per-request channel to it.
function startProcess(name) {
  const child = fork(fileURLToPath(new URL('./runtimes/worker.mjs', import.meta.url)), [name], {
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 1;
  const pending = new Map();
  let readyResolve, readyReject;
  const ready = new Promise((res, rej) => ((readyResolve = res), (readyReject = rej)));
  child.on('message', (msg) => {
    if ('ready' in msg) return msg.ready ? readyResolve(msg.info) : readyReject(new Error(`${name}: ${msg.error}`));
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(`${name}: ${msg.error}`));
    else p.resolve(msg.reply);
  });
  let exited = null;
  child.on('exit', (code, signal) => {
    const error = new Error(`${name} exited (code ${code}${signal ? `, ${signal}` : ''})`);
    exited = error;
    readyReject(error);
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  });
  const ask = (msg) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(exited);
      const id = nextId++;
      pending.set(id, { resolve, reject });
      child.send({ ...msg, id });
    });
  const exit = new Promise((resolve) => child.once('exit', resolve));
  const end = () => {
    if (!exited) child.kill('SIGKILL');
    return exit;
  };
  return { name, child, ready, ask, end, gone: () => exited !== null };
}

function machineInfo() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: rootDir }).toString().trim();
    if (execFileSync('git', ['status', '--porcelain', '--', 'js', 'src', 'bindings'], { cwd: rootDir }).toString().trim()) commit += '+changes';
  } catch {}
  return {
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    memGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
    node: process.versions.node,
    v8: process.versions.v8,
    commit,
  };
}

const load = () => os.loadavg().map((v) => Number(v.toFixed(2)));

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const cases = findCases(opts.cases, opts.set);
  const names = opts.runtimes ?? Object.keys(RUNTIMES);
  for (const n of names) if (!RUNTIMES[n]) throw new Error(`unknown runtime '${n}'; runtimes: ${Object.keys(RUNTIMES).join(', ')}`);
  ensurePrerequisites(names);

  const run = {
    startedAt: new Date().toISOString(),
    machine: machineInfo(),
    set: opts.set,
    rounds: opts.rounds,
    starts: opts.starts,
    budgetMs: opts.budgetMs,
    warmupMs: opts.warmupMs,
    load: { start: load() },
    pages: { start: freshPageMicros() },
    runtimes: {},
    kinds: {
      peers: names.filter((n) => RUNTIMES[n].peer),
      residentPeers: names.filter((n) => RUNTIMES[n].residentPeer),
      limits: names.filter((n) => RUNTIMES[n].limit).flatMap((n) => RUNTIMES[n].columns),
    },
    cases: [],
  };
  const pinning = opts.browser ? null : cpuPinning();
  run.pinning = pinning ? `one-thread runtimes round r on CPU r mod ${pinning.cpus} (taskset); their cells are the mean of each CPU's median` : 'none';
  console.log(`bench: ${cases.length} cases × ${names.length} ${opts.browser ? 'pages' : 'processes'}, ${opts.rounds} rounds; load ${run.load.start.join(' ')}; fresh pages ${run.pages.start} µs`);

  const browser = opts.browser ? await BROWSERS[opts.browser].open() : null;
  let procs = [];
  try {
    // (inside the try: a page that fails to open still closes the browser)
    const start = browser ? (n) => browser.startRuntime(n) : startProcess;
    const startAgain = (n) => (reason) => console.log(`  ${n}: did not start (${reasonLine(reason)}); starting it again`);
    procs = names.map((n) => supervise(start, n, ANSWER_TIMEOUT_MS, { onStartAgain: startAgain(n) }));
    const infos = await Promise.all(procs.map((p) => p.ready));
    procs.forEach((p, i) => (run.runtimes[p.name] = infos[i].label ?? p.name));
    if (browser) {
      run.machine.browser = infos[0].browser;
      // Without it onnxruntime-web falls back to one thread and performance.now() ticks in 100 us.
      run.machine.crossOriginIsolated = infos.every((info) => info.crossOriginIsolated);
    }
    const columns = procs.flatMap((p) => RUNTIMES[p.name].columns.map((column) => ({ proc: p, column })));
    run.columns = columns.map(({ column }) => column);

    for (const group of timingGroups(cases, opts.apart)) {
      const t0 = Date.now();
      for (const p of procs) {
        await p.restartIfEnded().then(
          (restarted) => restarted && console.log(`  ${p.name}: started again`),
          (error) => console.log(`  ${p.name}: could not start again: ${String(error?.message ?? error).split('\n')[0]}`),
        );
      }
      // case name -> column -> entry. A runtime that fails (an exception, a crashed process) is
      // marked for this case; the others go on.
      const entries = new Map(group.map((c) => [c.name, {}]));
      const failed = (c, column, error) => {
        entries.get(c.name)[column] = { status: 'error', reason: reasonLine(error) };
        console.log(`  ${group.length > 1 ? `${c.name} ` : ''}${column}: ${entries.get(c.name)[column].reason}`);
      };
      const setUp = (c, some) => Promise.allSettled(some.map((p) => p.ask({ cmd: 'setup', case: c.name, warmupMs: warmupOf(p.name, opts) })));
      for (const c of group) {
        const reports = await setUp(c, procs);
        procs.forEach((p, i) => {
          if (reports[i].status === 'fulfilled') Object.assign(entries.get(c.name), reports[i].value);
          else for (const column of RUNTIMES[p.name].columns) failed(c, column, reports[i].reason);
        });
        for (const e of Object.values(entries.get(c.name))) if (e.status === 'ok') (e.rounds = []), (e.cpus = []), (e.starts = []);
      }
      const timedIn = (p, c) => RUNTIMES[p.name].columns.some((column) => entries.get(c.name)[column]?.status === 'ok');
      // --starts: each runtime with a column still timed is ended and started afresh (one after
      // another, so the starts do not crowd the two cores), then set up again.
      // (no teardown first: renew() ends the process or page, which frees all it held)
      const startAfresh = async () => {
        const timed = procs.filter((p) => group.some((c) => timedIn(p, c)));
        const renewed = [];
        for (const p of timed) renewed.push(await p.renew().then(() => null, (error) => error));
        for (const c of group) {
          const again = await setUp(c, timed);
          timed.forEach((p, i) => {
            for (const column of RUNTIMES[p.name].columns) {
              const entry = entries.get(c.name)[column];
              if (!entry) continue;
              const fulfilled = !renewed[i] && again[i].status === 'fulfilled';
              const kept = afterFreshSetup(entry, fulfilled ? again[i].value[column] : undefined, renewed[i] ?? again[i].reason);
              if (kept !== entry) (entries.get(c.name)[column] = kept), console.log(`  ${c.name} ${column}: ${kept.reason}`);
            }
          });
        }
      };
      // Each column's cases side by side (lib/case-groups.mjs), the order rotated each round.
      const live = columns.flatMap(({ proc, column }) => group.filter((c) => entries.get(c.name)[column]?.status === 'ok').map((c) => ({ proc, column, c })));
      for (let r = 0; r < opts.rounds; r += 1) {
        if (beginsFreshStart(r, opts.rounds, opts.starts)) await startAfresh();
        const order = live.map((_, i) => live[(i + r) % live.length]);
        for (const { proc, column, c } of order) {
          const entry = entries.get(c.name)[column];
          if (entry.status !== 'ok') continue;
          const threads = RUNTIMES[proc.name].threads ?? 1;
          const pinned = pinning !== null && proc.pid !== undefined && pinning.pin(proc.pid, r, threads);
          try {
            const { samples, perSample } = await proc.ask({ cmd: 'batch', case: c.name, column, budgetMs: opts.budgetMs, minSamples: opts.minSamples });
            entry.rounds.push(samples);
            entry.cpus.push(pinned && threads === 1 ? pinning.cpuList(r) : null);
            entry.starts.push(startOfRound(r, opts.rounds, opts.starts));
            entry.perSample = perSample; // the group may have grown (serve.mjs: batch)
          } catch (error) {
            failed(c, column, error);
          }
        }
      }
      await Promise.allSettled(procs.map((p) => p.ask({ cmd: 'teardown' })));
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      for (const c of group) {
        const caseEntries = entries.get(c.name);
        const summary = Object.fromEntries(Object.entries(caseEntries).map(([n, e]) => [n, summarize(e)]));
        const perColumn = (key) => Object.fromEntries(Object.entries(caseEntries).map(([n, e]) => [n, e[key] ?? null]));
        const timedWith = group.filter((other) => other !== c).map((other) => other.name);
        run.cases.push({ case: { ...c, shape: describeShape(c) }, ...(timedWith.length ? { timedWith } : {}), columns: summary, load: load(), pages: freshPageMicros(), samples: perColumn('rounds'), cpus: perColumn('cpus'), starts: perColumn('starts') });
        const line = Object.entries(summary)
          .map(([n, s]) => `${n} ${s.status === 'ok' ? `${fmtUs(s.medianUs)}${s.check && s.check !== 'not checked (limit)' ? ' ✗' : ''}` : s.status}`)
          .join(', ');
        const when = c === group[0] ? `${seconds}s` : '  "';
        console.log(`${c.name.padEnd(26)} ${when.padStart(6)}  µs: ${line}`);
      }
    }
    // The report lists the cases in the run's order, a group's wherever it was timed.
    run.cases.sort((a, b) => cases.findIndex((c) => c.name === a.case.name) - cases.findIndex((c) => c.name === b.case.name));
  } finally {
    await Promise.allSettled(procs.map((p) => p.ask({ cmd: 'exit' })));
    await browser?.close();
  }
  run.made = Object.fromEntries(procs.map((p) => [p.name, p.made])); // (--starts: fresh ones)
  run.load.end = load();
  run.pages.end = freshPageMicros();
  run.endedAt = new Date().toISOString();

  const md = markdown(run);
  const dir = opts.out ? path.resolve(opts.out) : fileURLToPath(new URL('./results/', import.meta.url));
  const stem = path.join(dir, opts.browser ? BROWSERS[opts.browser].stem : 'latest');
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${stem}.json`, JSON.stringify(run, null, 1));
  writeFileSync(`${stem}.md`, md);
  console.log(`\n${md}`);
  console.log(`written: ${stem}.md, ${stem}.json`);
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
