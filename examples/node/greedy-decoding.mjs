// Greedy decoding: the next token of each sequence is the argmax of its vocabulary logits.
import { argMax, Tensor } from 'onnx-extrema';
import { vocabularyLogits } from './data.mjs';
import { report, timeMicros } from './timing.mjs';

export function greedyDecoding() {
  const batch = 4;
  const vocabulary = 32000;
  const logits = new Tensor('float32', vocabularyLogits(batch, vocabulary), [batch, vocabulary]);

  // axis -1: over the vocabulary; keepdims 0: one token id per sequence. Output is int64.
  const next = argMax(logits, { axis: -1, keepdims: 0 });
  console.log(`Greedy next tokens for ${batch} sequences over ${vocabulary} logits: [${next.data.join(', ')}] (dims [${next.dims}])`);

  const plain = () => {
    const ids = [];
    for (let b = 0; b < batch; b += 1) {
      let best = 0;
      for (let v = 1; v < vocabulary; v += 1) if (logits.data[b * vocabulary + v] > logits.data[b * vocabulary + best]) best = v;
      ids.push(BigInt(best));
    }
    return ids;
  };
  const same = plain().every((id, b) => id === next.data[b]);
  report('greedy', same, timeMicros(() => argMax(logits, { axis: -1, keepdims: 0 })), timeMicros(plain));
}
