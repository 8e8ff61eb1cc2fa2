// Turns the measured samples into tables: the speed issue's targets read off the run, µs per
// call (median) with GB/s, onnx-extrema's speedup over each peer, the limits of the runtime, and
// how much the per-round medians moved.

import { OURS, OUT_REUSED, RESIDENT, ok } from './columns.mjs';
import { fmtGBs, fmtRatio, fmtUs, gbs, mdTable, median } from './format.mjs';
import { freshPagesSentence } from './fresh-pages.mjs';
import { copyFloorUs } from './limits.mjs';
import { sweepSection } from './sweep.mjs';
import { goalOver, targetsSection } from './targets.mjs';

// The median of each label's samples: round r's samples under `labels[r]` (a CPU list, a start),
// rounds without a label or a sample left out; labels in the order they first come.
function mediansByLabel(rounds, labels) {
  const byLabel = new Map();
  rounds.forEach((samples, r) => {
    const label = labels?.[r];
    if (label === undefined || label === null || !samples.length) return;
    if (!byLabel.has(label)) byLabel.set(label, []);
    byLabel.get(label).push(...samples);
  });
  return new Map([...byLabel].map(([label, samples]) => [label, median(samples)]));
}

/**
 * Summary of one column in one case: median, per-round medians (and per-start ones, run.mjs
 * --starts), check result. Rounds pinned to different CPUs (`entry.cpus[r]`, lib/cpu-pinning.mjs)
 * give the mean of each CPU's median, as a process is as likely to run on either: the median of
 * all samples would fall between the two CPUs' clusters, wherever the split of samples put it.
 */
export function summarize(entry) {
  if (!entry || entry.status !== 'ok') return { status: entry?.status ?? 'missing', reason: entry?.reason };
  const all = entry.rounds.flat();
  const rounds = entry.rounds.filter((r) => r.length).map(median);
  const cpuMedians = Object.fromEntries(mediansByLabel(entry.rounds, entry.cpus));
  const startMedians = [...mediansByLabel(entry.rounds, entry.starts).values()];
  const perCpu = Object.values(cpuMedians);
  return {
    status: 'ok',
    medianUs: perCpu.length > 1 ? perCpu.reduce((a, b) => a + b, 0) / perCpu.length : median(all),
    ...(perCpu.length > 1 ? { cpuMedians } : {}),
    ...(startMedians.length > 1 ? { startMedians } : {}),
    roundMin: Math.min(...rounds),
    roundMax: Math.max(...rounds),
    samples: all.length,
    callsPerSample: entry.perSample,
    check: entry.check,
    outputLength: entry.outputLength,
  };
}

// Which cases ran round by round together (run.mjs, lib/case-groups.mjs), for the run's header.
function togetherNote(run) {
  const groups = new Set(run.cases.filter((e) => e.timedWith).map((e) => [e.case.name, ...e.timedWith].sort().join(' + ')));
  return groups.size ? `; timed round by round together: ${[...groups].join('; ')}` : '';
}

/**
 * @param {object} run { startedAt, machine, load: {start, end}, cases: [{ case, columns: {name: summary} }], columnKinds }
 * @returns {string} markdown
 */
export function markdown(run) {
  const { kinds } = run;
  const peers = kinds.peers;
  const present = new Set(run.columns);
  const oursAll = [OURS, OUT_REUSED, RESIDENT].filter((n) => present.has(n));
  const shown = [...oursAll, ...peers, ...kinds.residentPeers];
  const cell = (s, bytes) => {
    if (!s || s.status !== 'ok') return s?.status === 'n/a' ? 'n/a' : s?.status === 'error' ? 'error' : '—';
    const mark = s.check && s.check !== 'not checked (limit)' ? ' ✗' : '';
    return `${fmtUs(s.medianUs)} (${fmtGBs(gbs(bytes, s.medianUs))})${mark}`;
  };
  const bestPeer = (cols) => {
    let best = null;
    for (const p of peers) if (ok(cols[p]) && (!best || cols[p].medianUs < cols[best].medianUs)) best = p;
    return best;
  };

  const speedRows = run.cases.map(({ case: c, columns }) => {
    const best = bestPeer(columns);
    return [c.name, c.shape, ...shown.map((n) => cell(columns[n], c.bytes)), best ?? '—'];
  });
  const ratioRows = run.cases.map(({ case: c, columns }) => {
    const o = columns[OURS];
    const ratio = (p) => (ok(o) && ok(columns[p]) ? fmtRatio(columns[p].medianUs / o.medianUs) : 'n/a');
    const best = bestPeer(columns);
    return [c.name, ...peers.map(ratio), ...kinds.residentPeers.map(ratio), best ? `${ratio(best)} (${best})` : 'n/a'];
  });
  const limitCols = kinds.limits;
  const limitRows = run.cases.map(({ case: c, columns }) => [
    c.name,
    c.shape,
    ...[...oursAll, ...limitCols].map((n) =>
      ok(columns[n]) ? fmtGBs(gbs(c.bytes, columns[n].medianUs)) : columns[n]?.status === 'n/a' ? 'n/a' : '—',
    ),
  ]);
  const floors = run.cases.map(({ columns }) => copyFloorUs(columns));
  const floorRows = run.cases.map(({ case: c, columns }, k) => {
    const over = (n) => (ok(columns[n]) && Number.isFinite(floors[k]) ? fmtRatio(columns[n].medianUs / floors[k]) : 'n/a');
    return [c.name, fmtUs(floors[k]), ...oursAll.map(over), ...peers.map(over)];
  });
  const hasFloor = floors.some(Number.isFinite);
  const spreadCols = [...shown, ...limitCols];
  const spreadRows = run.cases.map(({ case: c, columns }) => [
    c.name,
    ...spreadCols.map((n) => (ok(columns[n]) ? `${fmtUs(columns[n].roundMin)}–${fmtUs(columns[n].roundMax)}` : 'n/a')),
  ]);
  // --starts: each start's median of onnx-extrema's columns (the page-to-page spread).
  const startRows = run.cases.map(({ case: c, columns }) => [
    c.name,
    ...oursAll.map((n) => (ok(columns[n]) && columns[n].startMedians ? columns[n].startMedians.map(fmtUs).join(', ') : 'n/a')),
  ]);
  const problems = [];
  for (const { case: c, columns } of run.cases)
    for (const [n, s] of Object.entries(columns)) {
      if (s.status === 'ok' && s.check && s.check !== 'not checked (limit)') problems.push(`- ✗ ${c.name} / ${n}: output differs from the reference: ${s.check}`);
      else if (s.status === 'error' || (s.status === 'n/a' && s.reason && !/^(no |tfjs has no)/.test(s.reason)))
        problems.push(`- ${c.name} / ${n}: ${s.status} (${s.reason})`);
    }

  const m = run.machine;
  return [
    `# onnx-extrema benchmark`,
    '',
    `Run ${run.startedAt} → ${run.endedAt}; ${run.rounds} rounds, order rotated each round${run.starts > 1 ? `, over ${run.starts} starts of every runtime` : ''}${togetherNote(run)}; onnx-extrema ${m.commit}.`,
    `Machine: ${m.cpu} × ${m.cores}, ${m.memGiB} GiB, ${m.os}; Node ${m.node}${m.browser ? `; runtimes in pages of ${m.browser}${m.crossOriginIsolated ? ', cross-origin isolated' : ', NOT cross-origin isolated (one thread for ort, 100 µs timers)'}` : ''}. Load average (1/5/15 min): start ${run.load.start.join(' / ')}, end ${run.load.end.join(' / ')}.${freshPagesSentence(run.pages, run.cases.map((c) => c.pages), Boolean(m.browser))}${run.pinning && run.pinning !== 'none' ? ` Pinned: ${run.pinning}.` : ''}`,
    `Runtimes: ${Object.entries(run.runtimes).map(([k, v]) => `${k} = ${v}`).join('; ')}.`,
    '',
    run.set === 'sweep' ? sweepSection(run, goalOver) : targetsSection(run),
    '',
    '## µs per call, median (GB/s = input bytes / time)',
    '',
    'One call: input given as a JS typed array, copy into wasm memory and the output back out included.',
    '`onnx-extrema-out`: the same call writing into one output array made once (`{ out }`, as a frame loop would); `onnx-extrema-resident`: input already in the module\'s heap, output into one array made once (kernel only); `tfjs-wasm-resident`: tf.Tensor built once.',
    '',
    mdTable(['case', 'input', ...shown, 'best peer'], speedRows),
    '',
    '## onnx-extrema speedup (peer median / onnx-extrema median; > 1 = onnx-extrema faster)',
    '',
    mdTable(['case', ...peers.map((p) => `vs ${p}`), ...kinds.residentPeers.map((p) => `vs ${p}`), 'vs best peer'], ratioRows),
    '',
    '## Against the limits of the same runtime (GB/s, input bytes read as float32 by the limit loops)',
    '',
    '`limit-max`: NaN-propagating SIMD max over data already in the heap; `limit-stream`: 256 KiB chunks copied from the JS array into a staging buffer, each maxed while in cache; `limit-copy-in`: HEAPU8.set of the whole input; `limit-copy-chunks`: the same copy in 256 KiB chunks into a staging buffer, no work on them.',
    '',
    mdTable(['case', 'input', ...oursAll, ...limitCols], limitRows),
    '',
    ...(hasFloor
      ? [
          '## The copy floor (each runtime\'s time / the cheaper of limit-copy-in and limit-copy-chunks)',
          '',
          'Wasm reads only its own memory, so every runtime given a JS typed array copies the input in at least once. A peer\'s figure here is the most any such single-thread runtime could beat it by (with a free kernel and output); onnx-extrema\'s is how many copies its whole call costs.',
          '',
          mdTable(['case', 'floor µs', ...oursAll, ...peers], floorRows),
          '',
        ]
      : []),
    '## Spread: min–max of the per-round medians (µs)',
    '',
    mdTable(['case', ...spreadCols], spreadRows),
    '',
    ...(run.starts > 1
      ? [`## Each start's median (µs): the case read in ${run.starts} fresh ${run.machine.browser ? 'pages' : 'processes'} of each runtime`, '', mdTable(['case', ...oursAll], startRows), '']
      : []),
    problems.length ? `## Checks\n\n${problems.join('\n')}` : '## Checks\n\nEvery output matched the plain-JS reference.',
    '',
  ].join('\n');
}
