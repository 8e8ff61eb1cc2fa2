// run.mjs --starts=N: each case's rounds spread over N fresh starts of every runtime (a new
// process, or a new page), so a case's median is read over N of them instead of one, and each
// start's median shows whether a reading is one page's. Stop 106 saw one Firefox page read the
// float16 and bfloat16 logits (one kernel) at 4.44 and 2.65 µs; on the Zen 5 host of the 107th
// session the pages of a run agreed and whole runs moved instead, and each fresh Firefox start
// (a whole browser) loaded the host: so a check, 1 by default (docs/speed.md).

import { reasonLine } from './format.mjs';

/** The start (0 to starts - 1) that round `round` of `rounds` runs in: equal runs of rounds. */
export function startOfRound(round, rounds, starts) {
  return Math.floor((round * starts) / rounds);
}

/** Whether round `round` begins a fresh start (never the first round: the case's own setup). */
export function beginsFreshStart(round, rounds, starts) {
  return round > 0 && startOfRound(round, rounds, starts) !== startOfRound(round - 1, rounds, starts);
}

/** Throws unless `starts` is a whole number from 1 to `rounds` (each start runs a round or more). */
export function checkStarts(starts, rounds) {
  if (!(Number.isInteger(starts) && starts >= 1 && starts <= rounds))
    throw new Error(`--starts=${starts}: a whole number from 1 to the rounds (${rounds})`);
}

/**
 * A column's entry after a fresh start's setup: `reply` is the new runtime's report for the
 * column (undefined when its setup failed, `error` saying why). The rounds so far are kept; a
 * column that no longer sets up, or whose output now differs from the reference, says so.
 * @returns {object} the entry to keep (the same object, or an error entry)
 */
export function afterFreshSetup(entry, reply, error) {
  if (entry.status !== 'ok') return entry;
  if (!reply || reply.status !== 'ok') {
    const why = reply ? `${reply.status} (${reply.reason})` : reasonLine(error);
    return { status: 'error', reason: reasonLine(`at a fresh start: ${why}`) };
  }
  if (entry.check === null && reply.check !== null) entry.check = reply.check; // (a mismatch stays)
  entry.perSample = reply.perSample;
  return entry;
}
