// Reads JavaScriptCore's compilation log (its JSC_reportCompileTimes and JSC_verboseOSR lines, on
// the browser's stderr) into what each function went through: how many times each tier compiled
// it, and the OSR exits its optimized code was compiled for. A function the DFG compiles again and
// again is one whose optimized code keeps being thrown away (an exit JSC does not count, say), and
// which runs in a lower tier meanwhile: 9e1713d found readArguments so, 12 DFG compiles in 4 s.

// "Optimized readArguments#BHrky5:[0x..., BaselineFunctionCall, 650 (StrictMode)] using FTL with FTL into ..."
const OPTIMIZED = /^Optimized ([^\s#:]+)#(\w+):\[[^\]]*\] using (\w+) with/;
// "Generated JIT code for DFG OSR exit #5 (D@365, bc#268, Uncountable) from readArguments#BHrky5:[..."
const EXIT = /OSR exit #\d+ \(([^)]*)\) from ([^\s#:]+)#(\w+)/;

/**
 * @param {string} text the log
 * @returns {Map<string, { name: string, compiles: Record<string, number>, exits: Record<string, number> }>}
 *   keyed by name#hash (two functions of one name have two hashes); compiles by tier (Baseline,
 *   DFG, FTL), exits by kind (BadType, Uncountable, ...; each exit site once per compile).
 */
export function readJscLog(text) {
  const functions = new Map();
  const entry = (name, hash) => {
    const key = `${name}#${hash}`;
    if (!functions.has(key)) functions.set(key, { name, compiles: {}, exits: {} });
    return functions.get(key);
  };
  for (const line of text.split('\n')) {
    const optimized = OPTIMIZED.exec(line);
    if (optimized) {
      const f = entry(optimized[1], optimized[2]);
      f.compiles[optimized[3]] = (f.compiles[optimized[3]] ?? 0) + 1;
      continue;
    }
    const exit = EXIT.exec(line);
    if (exit) {
      const kind = exit[1].split(',').at(-1).trim();
      const f = entry(exit[2], exit[3]);
      f.exits[kind] = (f.exits[kind] ?? 0) + 1;
    }
  }
  return functions;
}

/** The highest tier that compiled `f` (FTL above DFG above Baseline), or 'LLInt' (interpreted only). */
export function highestTier(f) {
  return ['FTL', 'DFG', 'Baseline'].find((tier) => f.compiles[tier] > 0) ?? 'LLInt';
}

/** How many DFG compiles of one function say its optimized code was thrown away again and again. */
export const RECOMPILED_TIMES = 3;
/** Whether `f`'s optimized code was thrown away again and again: compiled by the DFG `times` times or more. */
export const recompiled = (f, times = RECOMPILED_TIMES) => (f.compiles.DFG ?? 0) >= times;

/** The names of the functions declared in JavaScript `source`: declarations, arrow functions bound to a name, methods. */
export function declaredNames(source) {
  const names = new Set();
  const patterns = [
    /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/g,
    /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>/g,
    /^\s+(?:static\s+|get\s+|set\s+|async\s+)*([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{/gm,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) names.add(match[1]);
  for (const keyword of ['if', 'for', 'while', 'switch', 'catch', 'function']) names.delete(keyword);
  return names;
}
