// The bench's watch over its runtimes (bench/lib/supervised.mjs), with made-up runtimes: one that
// does not answer is ended and started again for the next case; one that answers with an error
// is not; one that crashed is started again; one that never starts is ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { supervise } from '../../bench/lib/supervised.mjs';

const LIMIT_MS = 150;

// A made-up runtime: answers { echo: cmd } at once, never answers 'stall', rejects 'fail';
// counts its ends. `never`: how many starts, the first ones, never become ready (Infinity: none does);
// `hangs`: which starts (0 the first) never become ready.
function maker({ never = 0, hangs = [] } = {}) {
  const made = [];
  const start = (name) => {
    const runtime = {
      name,
      ends: 0,
      crashed: false,
      ready: made.length < never || hangs.includes(made.length) ? new Promise(() => {}) : Promise.resolve({ label: name }),
      ask(msg) {
        if (msg.cmd === 'stall') return new Promise(() => {});
        if (msg.cmd === 'fail') return Promise.reject(new Error(`${name}: no such case`));
        return Promise.resolve({ echo: msg.cmd, by: made.indexOf(runtime) });
      },
      end() {
        runtime.ends += 1;
        return Promise.resolve();
      },
      gone: () => runtime.crashed,
    };
    made.push(runtime);
    return runtime;
  };
  return { start, made };
}

test('supervised: a runtime that does not answer is ended, and started again before the next case', async () => {
  const { start, made } = maker();
  const r = supervise(start, 'limit', LIMIT_MS);
  assert.deepEqual(await r.ready, { label: 'limit' });
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 0 });
  assert.equal(await r.restartIfEnded(), false);

  const t0 = Date.now();
  await assert.rejects(r.ask({ cmd: 'stall' }), /^Error: limit: no answer to 'stall' in 0\.15 s; ended$/);
  assert.ok(Date.now() - t0 >= LIMIT_MS - 5);
  assert.equal(made[0].ends, 1);
  assert.equal(r.ended, true);
  // The rest of that case: at once, naming why.
  await assert.rejects(r.ask({ cmd: 'batch' }), /^Error: limit: ended \(limit: no answer to 'stall'/);
  assert.equal(made.length, 1);

  assert.equal(await r.restartIfEnded(), true);
  assert.equal(made.length, 2);
  assert.equal(r.ended, false);
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 1 });
  assert.equal(made[1].ends, 0);
});

test('supervised: an answer that is an error leaves the runtime as it is', async () => {
  const { start, made } = maker();
  const r = supervise(start, 'tfjs-wasm', LIMIT_MS);
  await r.ready;
  await assert.rejects(r.ask({ cmd: 'fail' }), /^Error: tfjs-wasm: no such case$/);
  assert.equal(r.ended, false);
  assert.equal(made[0].ends, 0);
  assert.equal(await r.restartIfEnded(), false);
  assert.deepEqual(await r.ask({ cmd: 'batch' }), { echo: 'batch', by: 0 });
});

test('supervised: a runtime that crashed is started again', async () => {
  const { start, made } = maker();
  const r = supervise(start, 'ort-web-1t', LIMIT_MS);
  await r.ready;
  made[0].crashed = true;
  assert.equal(r.ended, true);
  assert.equal(await r.restartIfEnded(), true);
  assert.equal(made[0].ends, 1); // (whatever it left behind is ended)
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 1 });
});

test('supervised: a runtime whose first start never comes is ended and started once more at once', async () => {
  const { start, made } = maker({ never: 1 });
  const told = [];
  const r = supervise(start, 'onnx-extrema', LIMIT_MS, { onStartAgain: (reason) => told.push(reason) });
  assert.deepEqual(await r.ready, { label: 'onnx-extrema' });
  assert.deepEqual(told, ['onnx-extrema: no answer to its start in 0.15 s; ended']);
  assert.equal(made.length, 2);
  assert.equal(made[0].ends, 1);
  assert.equal(made[1].ends, 0);
  assert.equal(r.ended, false);
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 1 });
});

test('supervised: a runtime that never starts is ended after its two first tries, and so is each new try', async () => {
  const { start, made } = maker({ never: Infinity });
  const r = supervise(start, 'onnx-extrema', LIMIT_MS);
  const t0 = Date.now();
  await assert.rejects(
    r.ready,
    /^Error: onnx-extrema: no answer to its start in 0\.15 s; ended; before it, onnx-extrema: no answer to its start in 0\.15 s; ended$/,
  );
  assert.ok(Date.now() - t0 >= 2 * LIMIT_MS - 10);
  assert.equal(made.length, 2);
  assert.deepEqual(made.map((m) => m.ends), [1, 1]);
  await assert.rejects(r.ask({ cmd: 'setup' }), /^Error: onnx-extrema: ended \(onnx-extrema: no answer to its start/);
  await assert.rejects(r.restartIfEnded(), /no answer to its start/);
  assert.equal(made.length, 3);
  assert.equal(made[2].ends, 1);
  assert.equal(r.ended, true);
});

test('supervised: renew() ends the runtime and starts a fresh one, whatever its state', async () => {
  const { start, made } = maker();
  const r = supervise(start, 'onnx-extrema', LIMIT_MS);
  await r.ready;
  await r.renew();
  assert.equal(made.length, 2);
  assert.equal(r.made, 2);
  assert.deepEqual(made.map((m) => m.ends), [1, 0]);
  assert.equal(r.ended, false);
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 1 });
  // An ended one too: its handle is ended once, not again.
  await assert.rejects(r.ask({ cmd: 'stall' }), /no answer to 'stall'/);
  await r.renew();
  assert.deepEqual(made.map((m) => m.ends), [1, 1, 0]);
  assert.deepEqual(await r.ask({ cmd: 'batch' }), { echo: 'batch', by: 2 });
});

test('supervised: a renew() whose fresh start never comes tries once more; if that fails too, the runtime is left ended', async () => {
  const { start, made } = maker({ hangs: [1, 3, 4] });
  const told = [];
  const r = supervise(start, 'onnx-extrema', LIMIT_MS, { onStartAgain: (reason) => told.push(reason) });
  await r.ready;
  await r.renew(); // start 1 hangs, start 2 answers
  assert.deepEqual(told, ['onnx-extrema: no answer to its start in 0.15 s; ended']);
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 2 });
  await assert.rejects(r.renew(), /^Error: onnx-extrema: no answer to its start in 0\.15 s; ended; before it, onnx-extrema: no answer/);
  assert.equal(r.ended, true);
  assert.deepEqual(made.map((m) => m.ends), [1, 1, 1, 1, 1]);
  await assert.rejects(r.ask({ cmd: 'batch' }), /^Error: onnx-extrema: ended/);
  assert.equal(await r.restartIfEnded(), true); // the next case starts it again
  assert.deepEqual(await r.ask({ cmd: 'setup' }), { echo: 'setup', by: 5 });
});
