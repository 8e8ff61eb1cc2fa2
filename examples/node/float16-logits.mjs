// float16 logits (as fp16 models produce them): float16 tensors are Uint16Array bits. The
// helpers convert exactly (round to nearest even); onnx-extrema compares the bits directly,
// without widening the tensor to float32.
import { argMax, fromFloat16Array, toFloat16Array, Tensor } from 'onnx-extrema';
import { vocabularyLogits } from './data.mjs';
import { report, timeMicros } from './timing.mjs';

export function float16Logits() {
  const vocabulary = 32000;
  const bits = toFloat16Array(vocabularyLogits(1, vocabulary, 5)); // Uint16Array of float16 bits
  const logits = new Tensor('float16', bits, [1, vocabulary]);

  const next = argMax(logits, { axis: -1, keepdims: 0 });
  const values = fromFloat16Array(bits); // exact: every float16 is a float32
  console.log(`float16 logits over ${vocabulary} tokens: next token ${next.data[0]} (logit ${values[Number(next.data[0])]})`);

  const plain = () => {
    let best = 0;
    for (let v = 1; v < vocabulary; v += 1) if (values[v] > values[best]) best = v;
    return BigInt(best);
  };
  report('float16', plain() === next.data[0], timeMicros(() => argMax(logits, { axis: -1, keepdims: 0 })), timeMicros(plain));
}
