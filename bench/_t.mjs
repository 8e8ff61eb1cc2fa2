import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { setThreadsCount, getThreadsCount } from '@tensorflow/tfjs-backend-wasm';
const t0=performance.now();
await tf.setBackend('wasm'); await tf.ready();
console.log(tf.getBackend(), performance.now()-t0, typeof getThreadsCount==='function' ? getThreadsCount() : '?', tf.env().getBool('WASM_HAS_SIMD_SUPPORT'), tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT'));
const x = tf.tensor(new Float32Array([1,5,3,4,2,6]), [2,3]);
console.log(tf.argMax(x,-1).dataSync(), tf.max(x,[1]).dataSync(), tf.cast(tf.oneHot(tf.argMax(x,-1),3),'float32').dataSync());
