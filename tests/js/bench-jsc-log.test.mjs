// bench/lib/jsc-log.mjs: JavaScriptCore's compilation log read into tiers and exits per function.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { declaredNames, highestTier, readJscLog, recompiled } from '../../bench/lib/jsc-log.mjs';

// Lines as WebKitGTK 2.50's JavaScriptCore prints them (JSC_reportCompileTimes, JSC_verboseOSR), shortened.
const LOG = [
  'Optimized readArguments#BHrky5:[0x7fac5964c560->0x7fac594eba00, LLIntFunctionCall, 650 (StrictMode)] using Baseline with Baseline into 8704 bytes in 0.095000 ms.',
  'readArguments#BHrky5:[0x7fac5964c560->0x7fac594eba00, BaselineFunctionCall, 650 (StrictMode)]: Optimizing after warm-up.',
  ...Array.from({ length: 4 }, () => [
    'Optimized readArguments#BHrky5:[0x7fac5964c560->0x7fac594eba00, BaselineFunctionCall, 650 (DidTryToEnterInLoop) (StrictMode)] using DFG with DFG into 3584 bytes in 1.708000 ms.',
    'Generated JIT code for DFG OSR exit #5 (D@365, bc#268, Uncountable) from readArguments#BHrky5:[0x7fac596983a0->0x7fac5964c560->0x7fac594eba00, DFGFunctionCall, 650 (DidTryToEnterInLoop) (StrictMode)], with operands = arg4:*arg4: [0x7fac1843a300, 0x7fac1843a680) 896 bytes:',
  ]).flat(),
  'Optimized response#DOGFbC:[0x1->0x2, BaselineFunctionCall, 90 (StrictMode)] using DFG with DFG into 900 bytes in 0.5 ms.',
  'Optimized response#DOGFbC:[0x1->0x2, DFGFunctionCall, 90 (StrictMode)] using FTL with FTL into 1200 bytes in 3.1 ms (DFG: 1.0, B3: 2.1).',
  'Generated JIT code for FTL OSR exit #2 (D@12, bc#7, BadType) from response#DOGFbC:[0x1->0x2, FTLFunctionCall, 90 (StrictMode)], with operands = ...',
  'Optimized runNode#C417iD:[0x3->0x4, LLIntFunctionCall, 40 (StrictMode)] using Baseline with Baseline into 100 bytes in 0.1 ms.',
  'Optimized runNode#CYfHNd:[0x5->0x6, LLIntFunctionCall, 44 (StrictMode)] using Baseline with Baseline into 100 bytes in 0.1 ms.',
  'some other line of the browser',
].join('\n');

test('readJscLog counts each tier\'s compiles and the exit sites by kind, per function', () => {
  const functions = readJscLog(LOG);
  const read = functions.get('readArguments#BHrky5');
  assert.deepEqual(read.compiles, { Baseline: 1, DFG: 4 });
  assert.deepEqual(read.exits, { Uncountable: 4 });
  assert.equal(highestTier(read), 'DFG');
  assert.equal(recompiled(read), true);
  const response = functions.get('response#DOGFbC');
  assert.deepEqual(response.compiles, { DFG: 1, FTL: 1 });
  assert.deepEqual(response.exits, { BadType: 1 });
  assert.equal(highestTier(response), 'FTL');
  assert.equal(recompiled(response), false);
  // Two functions of one name are two entries.
  assert.equal(functions.get('runNode#C417iD').name, 'runNode');
  assert.equal(functions.get('runNode#CYfHNd').name, 'runNode');
  assert.equal(highestTier(functions.get('runNode#CYfHNd')), 'Baseline');
  assert.equal(functions.size, 4);
});

test('highestTier says LLInt of a function no tier compiled', () => {
  assert.equal(highestTier({ name: 'f', compiles: {}, exits: {} }), 'LLInt');
});

test('declaredNames finds declarations, named arrows and methods, not keywords', () => {
  const names = declaredNames(`
export function runNode(opType, inputs) {
  if (x) return 1;
  for (const k of y) {}
}
const single = (opType) => (x) => x;
export const lengthOf = (array) => lengthGetter.call(array);
const plain = value => value;
class RequestWriter {
  constructor(M) {
  }
  get count() {
    return 0;
  }
  put(v) {
    this.words[this.at++] = v;
  }
}
`);
  assert.deepEqual([...names].sort(), ['constructor', 'count', 'lengthOf', 'plain', 'put', 'runNode', 'single']);
});
