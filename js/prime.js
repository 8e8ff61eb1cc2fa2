// Primes the paths every call shares once the module is ready. V8 compiles a wasm function, and
// parses a JS one, at its first call: the first operator call after init() paid about 4 ms
// (Node 20) for the engine, the plan and the execution, which every later call shares. A few
// tiny float32 calls here pay it inside init() instead (about 5 ms), and the first real call
// takes about 0.5 ms (docs/speed.md: Warm-up). A kernel the tiny calls do not reach still compiles at
// its own first call.
import { argMax, hardmax, reduceMax } from './ops.js';
import { Tensor } from './tensor.js';

export function prime() {
  try {
    const rows = new Tensor('float32', Float32Array.from({ length: 80 }, (_, i) => (i * 37) % 11), [2, 40]);
    const maps = new Tensor('float32', Float32Array.from({ length: 96 }, (_, i) => (i * 13) % 7), [1, 3, 4, 8]);
    argMax(rows, { axis: -1 });
    argMax(maps, { axis: 1 });
    reduceMax(rows, { axes: [-1] });
    hardmax(rows);
  } catch {
    // Priming only moves work earlier: whatever failed here fails again, with its message, at the
    // call that meets it.
  }
}
