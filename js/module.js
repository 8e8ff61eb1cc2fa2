// The one loaded wasm module, shared by every entry point (ESM and CommonJS both import this file).
let instance = null;

export function setModule(M) {
  instance = M;
}

export function currentModule() {
  return instance;
}

/**
 * The module's integer constant `name` (embind's: WIRE_VERSION, MAX_RANK, ...) as an int32. embind
 * hands its constants over as doubles, and JavaScriptCore's JIT keeps a double one (V8 makes it a
 * small integer): readArguments' new Array(Math.min(n, MAX_INPUTS_LISTED)) then left its optimized
 * code on every call (a DFG exit JSC does not count), so it ran in the Baseline tier for good, and
 * WebKit's [1,10] ArgMax took 1.92 us in the bench instead of 1.45 (bench/jsc-tiers.mjs shows it).
 */
export const moduleInteger = (M, name) => M[name] | 0;
