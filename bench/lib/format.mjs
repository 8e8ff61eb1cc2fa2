// Number formats and markdown tables shared by the report and the targets section.

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  if (!n) return NaN;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

export function fmtUs(us) {
  if (!Number.isFinite(us)) return '—';
  if (us >= 10000) return `${(us / 1000).toFixed(1)}k`.replace('.0k', 'k');
  if (us >= 1000) return us.toFixed(0);
  if (us >= 100) return us.toFixed(1);
  if (us >= 1) return us.toFixed(2);
  return us.toFixed(3);
}

export function fmtGBs(gbs) {
  if (!Number.isFinite(gbs)) return '—';
  if (gbs >= 100) return gbs.toFixed(0);
  if (gbs >= 10) return gbs.toFixed(1);
  if (gbs >= 0.1) return gbs.toFixed(2);
  return gbs.toPrecision(2);
}

/** An error's (or a reason's) first line, at most 200 characters: for a report cell or a log line. */
export const reasonLine = (error) => String(error?.message ?? error).split('\n')[0].slice(0, 200);

export const fmtRatio = (r) => (Number.isFinite(r) ? `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×` : '—');

/** GB/s of `bytes` in `us` microseconds. */
export const gbs = (bytes, us) => bytes / (us * 1000);

export function mdTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
