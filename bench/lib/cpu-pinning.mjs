// Which CPU each runtime process runs a round on (Linux, `taskset`; Node processes only).
// The VMs of this project do not give their two vCPUs equal speed: on the 2026-12-01 host the
// kernels in cache ran 1.3-1.6x slower on CPU 0 than on CPU 1 (ReduceMax over float32 rows in
// L2 7.6-8.3 against 5.0-5.2 us, in every process pinned there), while a copy-bound loop ran
// alike on both; later the slower one changed from case to case (another tenant's load). Unpinned, a process settles on one of them, so two runtimes in two processes
// could differ by that factor with nothing of their own (onnx-extrema and onnx-extrema-out, the
// same work for a 16 KiB output: 776 against 593 us). Pinned, every one-thread runtime runs
// round r on CPU r mod N, so each meets each CPU equally; a runtime of several threads (the
// registry's `threads`) may use them all. Browsers' pages are not pinned (their renderers are
// the browser's processes).
import { execFileSync } from 'node:child_process';
import os from 'node:os';

// The pinning for a run, or null where it cannot pin: not Linux, one CPU, no taskset.
export function cpuPinning({ cpus = os.cpus().length, platform = process.platform, run = execFileSync } = {}) {
  if (platform !== 'linux' || !(cpus >= 2)) return null;
  try {
    run('taskset', ['--version'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const all = `0-${cpus - 1}`;
  const pinned = new Map(); // pid -> the list it was last pinned to (taskset is a process start: pin on change)
  return {
    cpus,
    // The CPUs a runtime of `threads` threads runs round `round` on, as taskset's list.
    cpuList: (round, threads = 1) => (threads > 1 ? all : String(round % cpus)),
    // Every thread of process `pid` (-a: a Node process's helper threads too) onto that list.
    // False when taskset refused (the process ended): the round runs where it is.
    pin(pid, round, threads = 1) {
      const list = this.cpuList(round, threads);
      if (pinned.get(pid) === list) return true;
      try {
        run('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
        pinned.set(pid, list);
        return true;
      } catch {
        return false;
      }
    },
  };
}
