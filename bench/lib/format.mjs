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

/** A share (0.8) in whole percent ('80%'). */
export const fmtPercent = (share) => (Number.isFinite(share) ? `${Math.round(100 * share)}%` : '—');

/**
 * `value` as `format` prints it, unless that print reads as meeting `goal` while the value misses
 * it (2.996x prints '3.00×' under a 3x goal, 9.996 GB/s '10.00', 1.5004 µs '1.50' under a 1.5
 * µs limit): then to one more decimal, rounded away from the goal ('2.996×', '9.996', '1.501'). A
 * report row that counts a miss never shows the goal's own figure. `goal` is in the printed
 * number's units (80 for '80%'); `scale` turns the value into them (100 for a share).
 */
export function fmtAgainst(value, goal, format, { lowerIsBetter = false, scale = 1 } = {}) {
  const text = format(value);
  const meets = (v) => (lowerIsBetter ? v <= goal : v >= goal);
  const shown = /\d+(?:\.(\d+))?/.exec(text);
  if (!shown || !Number.isFinite(value) || meets(scale * value) || !meets(Number(shown[0]))) return text;
  const decimals = (shown[1]?.length ?? 0) + 1;
  const away = (lowerIsBetter ? Math.ceil : Math.floor)(scale * value * 10 ** decimals) / 10 ** decimals;
  return text.replace(shown[0], away.toFixed(decimals));
}

/** GB/s of `bytes` in `us` microseconds. */
export const gbs = (bytes, us) => bytes / (us * 1000);

export function mdTable(header, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}
