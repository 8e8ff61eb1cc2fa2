// @tensorflow/tfjs-backend-wasm (SIMD, one thread). One sample: tf.tensor(data) (the copy into
// wasm memory) + op + dataSync() + dispose; `resident` builds the tf.Tensor once, outside the
// timing. Ops: argMax, argMin, max; Hardmax = cast(oneHot(argMax(x, -1)), 'float32') (the wasm
// OneHot kernel writes int32 whatever dtype is asked for). tfjs has float32 and int32 only.
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { IN_NODE } from '../lib/platform.mjs';

export async function load({ resident }) {
  if (!IN_NODE) {
    // In a page, tfjs fetches its .wasm relative to the page unless told; and on a cross-origin
    // isolated page (which onnxruntime-web's threads need) it would pick its threaded build:
    // keep it on one thread, as it runs in Node.
    setWasmPaths(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).href);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  }
  await tf.setBackend('wasm');
  await tf.ready();
  const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT') ? 'SIMD' : 'no SIMD';
  const threads = tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT') ? 'threaded' : '1 thread';
  return { version: tf.version_core, label: `@tensorflow/tfjs-backend-wasm ${tf.version_core} (${simd}, ${threads})${resident ? ', tf.Tensor built once' : ''}` };
}

function opOf(c) {
  const axis = c.attrs.axis ?? 0;
  switch (c.op) {
    case 'ArgMax':
      return (x) => tf.argMax(x, axis);
    case 'ArgMin':
      return (x) => tf.argMin(x, axis);
    case 'ReduceMax':
      return (x) => tf.max(x, c.axes ?? undefined, c.attrs.keepdims !== 0);
    case 'Hardmax':
      return axis === -1 || axis === c.dims.length - 1
        ? (x) => tf.tidy(() => tf.cast(tf.oneHot(tf.argMax(x, -1), c.dims[c.dims.length - 1]), 'float32'))
        : null;
    default:
      return null;
  }
}

export function make({ resident }) {
  let held = null;
  return {
    name: resident ? 'tfjs-wasm-resident' : 'tfjs-wasm',
    prepare(c, input) {
      if (c.type !== 'float32' && c.type !== 'int32') return { unavailable: `tfjs has no ${c.type}` };
      const op = opOf(c);
      if (!op) return { unavailable: `no tfjs op for ${c.op} here` };
      if (resident) {
        held = tf.tensor(input, c.dims, c.type);
        const x = held;
        return {
          sync: true,
          call: () => {
            const y = op(x);
            const out = y.dataSync();
            y.dispose();
            return out;
          },
          values: (out) => out,
        };
      }
      return {
        sync: true,
        call: () => {
          const x = tf.tensor(input, c.dims, c.type);
          const y = op(x);
          const out = y.dataSync();
          x.dispose();
          y.dispose();
          return out;
        },
        values: (out) => out,
      };
    },
    release() {
      if (held) held.dispose();
      held = null;
    },
  };
}
