// Greedy decoding: a language model's next token is the argmax of its logits over the vocabulary.
import { argMax, Tensor } from 'onnx-extrema';
import { vocabularyLogits } from '../node/data.mjs'; // the logits the Node example uses
import { medianMillis } from './timing.mjs';

export const VOCABULARY = 32000;

/** The plain loop: the first index of the largest logit. */
export function nextTokenByLoop(logits) {
  let best = 0;
  for (let v = 1; v < logits.length; v += 1) if (logits[v] > logits[best]) best = v;
  return best;
}

export function greedyNextToken() {
  const logits = new Tensor('float32', vocabularyLogits(1, VOCABULARY), [1, VOCABULARY]);

  // axis -1: over the vocabulary; keepdims 0: one token id per sequence (int64, so a BigInt).
  const token = Number(argMax(logits, { axis: -1, keepdims: 0 }).data[0]);
  const loopToken = nextTokenByLoop(logits.data);

  return {
    token,
    logit: logits.data[token],
    agree: token === loopToken,
    timings: medianMillis({
      ours: () => argMax(logits, { axis: -1, keepdims: 0 }),
      loop: () => nextTokenByLoop(logits.data),
    }),
  };
}
