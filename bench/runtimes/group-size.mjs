// How many calls a bench sample times (serve.mjs): enough that the group takes a sample's length
// on the runtime's clock, whatever the clock's tick and whoever else runs on the machine.

/** The most calls a group takes: a bound on every group, whatever the clock read. */
export const MAX_GROUP = 1 << 20;

/**
 * Calls per sample for a call that `timeGroup(k)` times (µs per call over a group of k calls),
 * so that a sample takes about `sampleUs`; at most MAX_GROUP.
 * Groups double until one takes >= 1 ms, each read as the shorter of two groups: a single group
 * preempted for a millisecond (eight browser pages on two cores) ended the doubling at a group
 * of one call, whose five estimates then read 0 on a 20 us clock (a WebKit page's), and a
 * median of 0 made the group infinite: that page's next batch never ended.
 */
// µs per call of a group of k calls, read as the shorter of two groups: one preempted group
// passes for long enough on a loaded host.
const shorterOfTwo = async (timeGroup, k) => Math.min(await timeGroup(k), await timeGroup(k));

export async function callsPerSample(timeGroup, sampleUs) {
  const shorter = (k) => shorterOfTwo(timeGroup, k);
  let est;
  let k = 1;
  for (;;) {
    est = await shorter(k);
    if (est * k >= 1000 || k >= MAX_GROUP) break;
    k *= 2;
  }
  const groups = [est];
  while (groups.length < 5) groups.push(await timeGroup(k)); // the median resists a preemption
  est = groups.sort((a, b) => a - b)[2];
  // A median below the clock's reach (0) takes the most calls, never an infinite group.
  const calls = est > 0 ? Math.round(sampleUs / est) : MAX_GROUP;
  return { calls: Math.min(MAX_GROUP, Math.max(1, calls)), estimateUs: est };
}

/**
 * `calls`, doubled (at most MAX_GROUP) until a group of them takes at least half of `sampleUs`:
 * a batch's check of an estimate that a pause inflated (a GC, V8 swapping code in), which would
 * leave the samples too short for a coarse clock (a Chromium run's samples of a [1,10] call read
 * 0 us).
 */
export async function grownGroup(timeGroup, calls, sampleUs) {
  while (calls < MAX_GROUP && (await shorterOfTwo(timeGroup, calls)) * calls < sampleUs / 2) calls = Math.min(MAX_GROUP, calls * 2);
  return calls;
}
