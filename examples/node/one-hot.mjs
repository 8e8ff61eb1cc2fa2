// One-hot decisions: Hardmax marks the first maximum of each row with 1 and the rest with 0,
// in the input's own type.
import { hardmax, Tensor } from 'onnx-extrema';
import { random } from './data.mjs';
import { report, timeMicros } from './timing.mjs';

// The plain-JS loop the package is checked and timed against: first maximum of each row gets 1.
function plainHardmax(data, rows, columns, out = new Float32Array(rows * columns)) {
  out.fill(0);
  for (let r = 0; r < rows; r += 1) {
    let best = 0;
    for (let k = 1; k < columns; k += 1) if (data[r * columns + k] > data[r * columns + best]) best = k;
    out[r * columns + best] = 1;
  }
  return out;
}

export function oneHot() {
  const scores = new Tensor('float32', new Float32Array([0.1, 0.7, 0.2, 0.9, 0.9, 0.1, 0.3, 0.3, 0.8]), [3, 3]);
  const decisions = hardmax(scores, { axis: -1 });
  console.log('One-hot decisions (Hardmax, axis -1) for 3 rows of 3 scores; ties go to the first maximum:');
  for (let r = 0; r < 3; r += 1) console.log(`    [${Array.from(scores.data.subarray(r * 3, r * 3 + 3)).map((v) => v.toFixed(1)).join(', ')}] -> [${decisions.data.subarray(r * 3, r * 3 + 3).join(', ')}]`);
  const small = plainHardmax(scores.data, 3, 3);

  // Nine numbers take a JS loop no time at all; the timing uses a batch: 256 rows of 1000 scores.
  const next = random(5);
  const batch = new Tensor('float32', Float32Array.from({ length: 256 * 1000 }, () => next()), [256, 1000]);
  const batchDecisions = hardmax(batch, { axis: -1 }).data;
  const same = small.every((v, i) => v === decisions.data[i]) &&
    plainHardmax(batch.data, 256, 1000).every((v, i) => v === batchDecisions[i]);
  // Both timed into a reused output: a fresh 1 MiB array a call costs page faults, and where they
  // are slow (13-24 µs each on some VMs) which of the two gets fresh pages decides the race.
  console.log('  timed on a batch of 256 rows x 1000 scores, each into a reused output ({ out }):');
  const out = new Float32Array(256 * 1000);
  report('one-hot', same, timeMicros(() => hardmax(batch, { axis: -1 }, { out })), timeMicros(() => plainHardmax(batch.data, 256, 1000, out)));
}
