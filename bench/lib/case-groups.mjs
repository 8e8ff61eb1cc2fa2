// Which cases run.mjs times together, round by round. The float16/bfloat16 target reads a 16-bit
// case's GB/s as a share of its float32 case's: timed one after the other, minutes apart, a
// neighbour slowing one vCPU while only one of them ran moved that share (67% against 83% in the
// 110th session). Timed together, each round of the pair runs on the same CPU within seconds, so
// such a slowdown falls on both.
import { HALF_TYPES, baseOf } from './targets.mjs';

/**
 * The run's cases in groups, in the run's order: each float32 case with the 16-bit variants of it
 * that the run holds, at the place of the first of them; every other case alone.
 * @param {object[]} cases - the run's cases (lib/cases.mjs)
 * @param {boolean} apart - every case alone (run.mjs --apart)
 * @returns {object[][]}
 */
export function timingGroups(cases, apart = false) {
  if (apart) return cases.map((c) => [c]);
  const names = new Set(cases.map((c) => c.name));
  const isHalf = (c) => HALF_TYPES.includes(c.type) && baseOf(c.name) !== c.name && names.has(baseOf(c.name));
  const keyOf = (c) => (isHalf(c) ? baseOf(c.name) : c.name);
  const groups = new Map();
  for (const c of cases) {
    const key = keyOf(c);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(c);
  }
  // (the float32 case first: its rounds open the group's)
  return [...groups.values()].map((group) => group.sort((a, b) => isHalf(a) - isHalf(b)));
}
