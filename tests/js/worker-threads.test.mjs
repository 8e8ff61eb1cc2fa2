// Node worker_threads, as a server offloading inference would use them: each worker loads its own
// module (init() in the worker), the workers run at the same time as each other and as the main
// thread, and every answer, sent back with its buffer transferred, matches the reference. An
// error inside a worker is the labelled Error, and the worker's next call still works.
import assert from 'node:assert/strict';
import test from 'node:test';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { init, runNode } from '../../js/index.mjs';
import { assertTensorEqual, prng, seedFromEnvironment } from './helpers.mjs';
import { referenceNode } from './reference.mjs';
import { randomTensor } from './values.mjs';

// One call's answer, in a form that can be posted: { output } or { error }.
function answerOf({ op, inputs, attributes, opset }) {
  try {
    const [y] = runNode(op, inputs, attributes, opset);
    return { output: { type: y.type, data: y.data, dims: y.dims } };
  } catch (error) {
    return { error: { isError: error instanceof Error, message: error.message } };
  }
}

// Answers the calls it is sent, the outputs' data transferred.
async function workerMain() {
  await init();
  parentPort.on('message', (calls) => {
    const answers = calls.map(answerOf);
    parentPort.postMessage(answers, answers.flatMap((a) => (a.output ? [a.output.data.buffer] : [])));
  });
}

const TYPES = ['float32', 'float16', 'bfloat16', 'int64', 'uint8', 'float64', 'int32'];

// Calls of every operator over shapes small (one crossing into wasm) and large (streamed through
// the staging buffer, 256 KiB), valid ones, and a few the reference says must fail.
function makeCalls(rng, count) {
  const calls = [];
  for (let i = 0; i < count; i += 1) {
    const type = rng.pick(TYPES);
    const op = rng.pick(['ArgMax', 'ArgMin', 'ReduceMax', 'Hardmax']);
    const large = rng.chance(0.3);
    const dims = large ? [rng.range(2, 9), rng.range(20000, 40000)] : [rng.range(1, 5), rng.range(1, 40)];
    const x = randomTensor(rng, type, dims);
    const axis = rng.chance(0.1) ? 5 : rng.range(-2, 1); // 5: out of range, an Error
    if (op === 'ReduceMax') calls.push({ op, inputs: [x, { type: 'int64', data: new BigInt64Array([BigInt(axis)]), dims: [1] }], attributes: { keepdims: rng.int(2) }, opset: 18 });
    else if (op === 'Hardmax') calls.push({ op, inputs: [x], attributes: { axis }, opset: 13 });
    else calls.push({ op, inputs: [x], attributes: { axis, keepdims: rng.int(2), select_last_index: rng.int(2) }, opset: 13 });
  }
  return calls;
}

function checkAnswers(calls, answers, where) {
  assert.equal(answers.length, calls.length);
  calls.forEach(({ op, inputs, attributes, opset }, k) => {
    const expected = referenceNode(op, inputs, attributes, opset);
    const at = `${where}, call ${k}: ${op} ${inputs[0].type} [${inputs[0].dims}] ${JSON.stringify(attributes)}`;
    if (!expected.ok) {
      assert.ok(answers[k].error, `${at}: expected an Error (${expected.kind})`);
      assert.ok(answers[k].error.isError, at);
      assert.match(answers[k].error.message, new RegExp(`^${op} version ${expected.version}\\b`), at);
      return;
    }
    assert.ok(answers[k].output, `${at}: ${answers[k].error?.message}`);
    assertTensorEqual(answers[k].output, expected.output, at);
  });
}

const ask = (worker, calls) =>
  new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(calls); // the inputs are cloned: the main thread keeps its own
  });

if (isMainThread) {
  const seed = seedFromEnvironment(Date.now() % 100000);
  test(`two worker threads and the main thread at once, each its own module (seed ${seed})`, { timeout: 120000 }, async () => {
    await init();
    const rng = prng(seed);
    const workers = [0, 1].map(() => new Worker(new URL(import.meta.url), { workerData: { worker: true } }));
    try {
      for (let round = 0; round < 3; round += 1) {
        const batches = [makeCalls(rng, 24), makeCalls(rng, 24)];
        const pending = workers.map((w, i) => ask(w, batches[i]));
        // The main thread's own calls run while the workers work.
        const mine = makeCalls(rng, 12);
        checkAnswers(mine, mine.map(answerOf), `main thread, round ${round}`);
        const answers = await Promise.all(pending);
        answers.forEach((a, i) => checkAnswers(batches[i], a, `worker ${i}, round ${round}`));
      }
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  });
} else if (workerData?.worker) {
  await workerMain();
}
