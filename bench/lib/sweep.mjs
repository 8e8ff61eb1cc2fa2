// The sweep's section of a report (`--set=sweep`): every case sorted by onnx-extrema's speedup
// over each peer, thinnest margin first, so a layout or type where a peer comes close stands out.
import { OURS, ok } from './columns.mjs';
import { fmtGBs, fmtRatio, fmtUs, gbs, mdTable } from './format.mjs';

/** @param {object} run a run of the sweep set; @param {(peer: string) => number} goalOver the speedup the issue asks over a peer */
export function sweepSection(run, goalOver) {
  const parts = ['## The sweep: every case by its speedup over each peer, thinnest first', ''];
  for (const peer of run.kinds.peers) {
    const rows = run.cases
      .filter(({ columns }) => ok(columns[OURS]) && ok(columns[peer]))
      .map(({ case: c, columns }) => ({ c, ours: columns[OURS].medianUs, theirs: columns[peer].medianUs }))
      .sort((a, b) => a.theirs / a.ours - b.theirs / b.ours);
    const goal = goalOver(peer);
    const below = rows.filter((r) => r.theirs / r.ours < goal).length;
    parts.push(
      `### vs ${peer}: ${rows.length} cases, ${below} below ${goal}×`,
      '',
      mdTable(
        ['case', 'input', 'onnx-extrema µs (GB/s)', `${peer} µs`, 'speedup'],
        rows.map(({ c, ours, theirs }) => [c.name, c.shape, `${fmtUs(ours)} (${fmtGBs(gbs(c.bytes, ours))})`, fmtUs(theirs), fmtRatio(theirs / ours)]),
      ),
      '',
    );
  }
  return parts.join('\n');
}
