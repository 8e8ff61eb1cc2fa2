// A run's column names for onnx-extrema and whether a column measured a case: shared by the
// report, the targets, the sweep and the copy floor.

export const OURS = 'onnx-extrema';
export const RESIDENT = 'onnx-extrema-resident'; // the same call on input already in the heap
export const OUT_REUSED = 'onnx-extrema-out'; // the same call into one output array ({ out })

/** Whether a column's summary for a case holds a measurement. */
export const ok = (summary) => summary?.status === 'ok';
