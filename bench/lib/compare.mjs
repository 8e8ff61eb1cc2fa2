// Two runs side by side (bench/compare.mjs): for each case of the first run, onnx-extrema's time
// and its speedup over each onnxruntime-web column in both, so a change of runtime (Node against
// Chromium: --browser) or of commit reads as ratios, the only figures that hold across runs here.
import { OURS, ok } from './columns.mjs';
import { fmtRatio, fmtUs, mdTable } from './format.mjs';

const PEERS = ['ort-web-1t', 'ort-web-2t'];

/** What a run was: its runtime (Node or a browser) and its commit. */
export const runLabel = (run) => `${run.machine.browser ?? `Node ${run.machine.node}`}, ${run.machine.commit}`;

/** The markdown table comparing run `b` with run `a`, over `a`'s cases. */
export function compareRuns(a, b) {
  const speedups = (columns) =>
    PEERS.map((peer) => (ok(columns?.[OURS]) && ok(columns?.[peer]) ? fmtRatio(columns[peer].medianUs / columns[OURS].medianUs) : '—')).join(' / ');
  const us = (columns) => (ok(columns?.[OURS]) ? fmtUs(columns[OURS].medianUs) : '—');
  const rows = a.cases.map(({ case: c, columns }) => {
    const other = b.cases.find((k) => k.case.name === c.name)?.columns;
    return [c.name, c.shape, us(columns), speedups(columns), us(other), speedups(other)];
  });
  const [la, lb] = [runLabel(a), runLabel(b)];
  return mdTable(['case', 'input', `µs (${la})`, `vs ${PEERS.join(' / ')} (${la})`, `µs (${lb})`, `vs ${PEERS.join(' / ')} (${lb})`], rows);
}
