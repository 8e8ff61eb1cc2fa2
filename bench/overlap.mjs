// Would a second thread pay? onnx-extrema runs on one thread: it copies a chunk of the JS input
// into its wasm memory, reduces it while it is in cache, then copies the next. A worker sharing
// that memory could reduce chunk i while the main thread copies chunk i + 1. This measures both
// ways on a 21 MiB float32 input, in interleaved rounds (medians, µs per pass over the input):
//   - serial: one thread, private memory (what onnx-extrema does);
//   - overlapped: shared memory, a worker reducing each chunk while the main thread copies the
//     next into the other of two staging buffers (the main thread spins, as a browser's must);
//   - the copies alone, into private and into shared memory, and the kernel alone on a chunk in
//     cache.
// Chunks are 256 KiB of contiguous input (row-major streaming), or tiles of the segmentation
// map's 21 rows of 12 KiB (js/feed.js feedTiles). The kernels (bench/limit/overlap.wat, built
// with wabt's wat2wasm): `plain`, limit-stream's max loop, and `column_mix`, the op mix of the
// float32 column kernel's pass. Node only (worker_threads); V8 is the same in Chromium.
//   node bench/overlap.mjs [--rounds=9]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, isMainThread, workerData } from 'node:worker_threads';
import { optionNumber } from './lib/options.mjs';

const WAT = fileURLToPath(new URL('./limit/overlap.wat', import.meta.url));
const BUILD = fileURLToPath(new URL('./build/', import.meta.url));
const WASM = { shared: `${BUILD}overlap.wasm`, private: `${BUILD}overlap-private.wasm` };
const KERNELS = ['plain', 'column_mix'];
const STAGING = 256 * 1024;
const BUFFERS = [65536, 65536 + STAGING]; // the control words sit below, at 0
const PAGES = 16; // 1 MiB: the control page and both staging buffers
// Control words (Int32): chunks posted, chunks done, quit, kernel, floats in buffer 0 and 1.
const POSTED = 0, DONE = 1, QUIT = 2, KERNEL = 3, FLOATS = 4;

// overlap.wasm imports a shared memory; overlap-private.wasm is the same module over a private
// one (a module declares which it takes).
function build() {
  const fresh = (file) => existsSync(file) && statSync(file).mtimeMs >= statSync(WAT).mtimeMs;
  if (fresh(WASM.shared) && fresh(WASM.private)) return;
  mkdirSync(BUILD, { recursive: true });
  const privateWat = `${BUILD}overlap-private.wat`;
  writeFileSync(privateWat, readFileSync(WAT, 'utf8').replace('(memory 1 65536 shared)', '(memory 1 65536)'));
  for (const [source, out] of [[WAT, WASM.shared], [privateWat, WASM.private]]) {
    const r = spawnSync('wat2wasm', ['--enable-threads', source, '-o', out], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('overlap.mjs: wat2wasm failed (it comes with Debian\'s wabt)');
  }
}

async function kernelsOver(memory, file) {
  const { instance } = await WebAssembly.instantiate(readFileSync(file), { env: { mem: memory } });
  return KERNELS.map((name) => instance.exports[name]);
}

if (!isMainThread) {
  // The worker: reduces the chunks the main thread posts, in order. It spins for up to 5 ms before
  // it sleeps, so a chunk posted soon after the last one is taken without a wake-up's latency (50
  // µs and more, where a chunk takes 10-20).
  const kernels = await kernelsOver(workerData.memory, WASM.shared);
  const control = new Int32Array(workerData.memory.buffer, 0, 8);
  for (let done = 0; ; ) {
    for (let since = performance.now(), spins = 0; Atomics.load(control, POSTED) <= done; spins += 1) {
      if ((spins & 1023) !== 1023) continue;
      if (Atomics.load(control, QUIT)) process.exit(0);
      if (performance.now() - since > 5) {
        Atomics.wait(control, POSTED, done, 1);
        since = performance.now();
      }
    }
    kernels[control[KERNEL]](BUFFERS[done & 1], Atomics.load(control, FLOATS + (done & 1)));
    Atomics.store(control, DONE, (done += 1));
  }
} else {
  await main();
}

async function main() {
  build();
  const rounds = optionNumber('rounds', 9);
  const privateMemory = new WebAssembly.Memory({ initial: PAGES, maximum: PAGES });
  const sharedMemory = new WebAssembly.Memory({ initial: PAGES, maximum: PAGES, shared: true });
  const privateKernels = await kernelsOver(privateMemory, WASM.private);
  const heaps = { private: new Uint8Array(privateMemory.buffer), shared: new Uint8Array(sharedMemory.buffer) };
  const control = new Int32Array(sharedMemory.buffer, 0, 8);
  const worker = new Worker(new URL(import.meta.url), { workerData: { memory: sharedMemory } });
  worker.on('error', (e) => {
    console.error(e);
    process.exit(1);
  });

  const channels = 21, columns = 512 * 512;
  const input = new Float32Array(channels * columns);
  for (let i = 0; i < input.length; i += 1) input[i] = Math.random();
  const bytes = new Uint8Array(input.buffer);
  // Each layout: its number of chunks, and copy(heap, c, to) putting chunk c at `to` (returns its floats).
  const rowBytes = columns * 4, piece = 12 * 1024;
  const layouts = {
    'rows 256 KiB': {
      chunks: Math.ceil(bytes.length / STAGING),
      copy(heap, c, to) {
        const from = c * STAGING, end = Math.min(from + STAGING, bytes.length);
        heap.set(bytes.subarray(from, end), to);
        return (end - from) / 4;
      },
    },
    'tiles 21 x 12 KiB': {
      chunks: Math.ceil(rowBytes / piece),
      copy(heap, c, to) {
        const from = c * piece, width = Math.min(piece, rowBytes - from);
        for (let r = 0; r < channels; r += 1) heap.set(bytes.subarray(r * rowBytes + from, r * rowBytes + from + width), to + r * width);
        return (channels * width) / 4;
      },
    },
  };

  let posted = 0; // chunks posted to the worker so far, over every pass
  const passes = (layout, k) => {
    const floats = layout.copy(heaps.private, 0, BUFFERS[0]); // a chunk, for the kernel alone
    return {
      'copy private': () => {
        for (let c = 0; c < layout.chunks; c += 1) layout.copy(heaps.private, c, BUFFERS[0]);
      },
      'copy shared': () => {
        for (let c = 0; c < layout.chunks; c += 1) layout.copy(heaps.shared, c, BUFFERS[0]);
      },
      'kernel alone': () => {
        for (let c = 0; c < layout.chunks; c += 1) privateKernels[k](BUFFERS[0], floats);
      },
      serial: () => {
        for (let c = 0; c < layout.chunks; c += 1) privateKernels[k](BUFFERS[0], layout.copy(heaps.private, c, BUFFERS[0]));
      },
      overlapped: () => {
        control[KERNEL] = k;
        for (let c = 0; c < layout.chunks; c += 1, posted += 1) {
          while (Atomics.load(control, DONE) < posted - 1); // its buffer's last chunk is done
          const n = layout.copy(heaps.shared, c, BUFFERS[posted & 1]);
          Atomics.store(control, FLOATS + (posted & 1), n);
          Atomics.store(control, POSTED, posted + 1);
          Atomics.notify(control, POSTED);
        }
        while (Atomics.load(control, DONE) < posted);
      },
    };
  };

  console.log(`${os.cpus().length} CPUs, load ${os.loadavg().map((v) => v.toFixed(2)).join(' ')}; node ${process.version}; ${rounds} rounds`);
  console.log(`µs per pass over ${(bytes.length / 2 ** 20).toFixed(0)} MiB of float32 (GB/s), median\n`);
  const header = ['chunks', 'kernel', 'copy private', 'copy shared', 'kernel alone', 'serial', 'overlapped', 'serial / overlapped'];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => ' --- |').join('')}`);
  const cell = (us) => `${us.toFixed(0)} (${(bytes.length / us / 1000).toFixed(1)})`;
  for (const [name, layout] of Object.entries(layouts))
    for (let k = 0; k < KERNELS.length; k += 1) {
      const variants = Object.entries(passes(layout, k));
      const samples = variants.map(() => []);
      for (const [, pass] of variants) for (let i = 0; i < 3; i += 1) pass(); // warm-up
      for (let r = 0; r < rounds; r += 1)
        variants.forEach(([, pass], v) => {
          for (let i = 0; i < 3; i += 1) {
            const t = performance.now();
            pass();
            samples[v].push((performance.now() - t) * 1000);
          }
        });
      const us = Object.fromEntries(variants.map(([label], v) => [label, samples[v].sort((a, b) => a - b)[samples[v].length >> 1]]));
      const row = [name, KERNELS[k], ...['copy private', 'copy shared', 'kernel alone', 'serial', 'overlapped'].map((l) => cell(us[l]))];
      console.log(`| ${row.join(' | ')} | ${(us.serial / us.overlapped).toFixed(2)}x |`);
    }
  Atomics.store(control, QUIT, 1);
  Atomics.notify(control, POSTED);
}
