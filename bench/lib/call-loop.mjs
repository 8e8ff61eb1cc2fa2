// The query and the summary line of bench/browser/call-loop.html, shared by its two openers:
// bench/call-loop.mjs (any browser) and bench/jsc-tiers.mjs (WebKit, with JavaScriptCore's log).

const FLAGS = ['resident', 'out', 'afterAll'];

/** The page's query from command-line arguments: --case (tiny), --seconds (4) and the flags above. */
export function callLoopQuery(argv, { caseName = 'tiny', seconds = 4 } = {}) {
  const query = new URLSearchParams({ case: caseName, seconds: String(seconds) });
  for (const flag of FLAGS) if (argv.includes(`--${flag}`)) query.set(flag, '');
  return query;
}

/**
 * One line on the page's report `{ calls, seconds, trace }`: the case and how it was called, the
 * mean µs a call, and the µs a call in each half second of the loop (the page's trace).
 */
export function callLoopSummary(query, { calls, seconds, trace = [] }) {
  const how = `${query.has('resident') ? ' resident' : ''}${query.has('out') ? ' into { out }' : ''}${query.has('afterAll') ? ' after every case' : ''}`;
  const mean = `${query.get('case')}${how}: ${calls} calls in ${seconds.toFixed(2)} s, ${((seconds / calls) * 1e6).toFixed(3)} µs a call`;
  return trace.length ? `${mean}; by half second: ${trace.map((us) => us.toFixed(2)).join(' ')}` : mean;
}
