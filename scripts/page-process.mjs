// A browser that nothing drives (Debian's Firefox, WebKitGTK's MiniBrowser): it opens one URL,
// the page POSTs its result back to the static server (startStaticServer's onReport), and the
// processes are ended after. Shared by scripts/firefox.mjs and scripts/webkit.mjs.
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

const OUTPUT_KEPT = 16 << 10; // the end of the browser's stdout and stderr, for an error message

// The process groups this process started and has not closed, each with its temporary directory
// (a profile): they are ended (and the directories removed) when this process ends without
// close(): an uncaught error, Ctrl-C, a test runner's SIGTERM at its timeout.
const running = new Map(); // process group id -> directory or null
function endRunning() {
  for (const [pid, dir] of running) {
    killGroup(pid);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  running.clear();
}
let hooked = false;
function endRunningOnExit() {
  if (hooked) return;
  hooked = true;
  process.once('exit', endRunning);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.once(signal, () => {
      endRunning();
      process.kill(process.pid, signal); // (the handler is gone: the signal's default, an exit)
    });
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // (already ended, or never started)
  }
}

/** Ends process group `pid` (tracked: trackGroup) and removes its directory. */
export async function endGroup(pid) {
  const dir = running.get(pid);
  running.delete(pid);
  killGroup(pid);
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** Tracks `child` (spawned with `detached: true`, a process group of its own) until endGroup or
 * this process's end; `dir` is removed with it. */
export function trackGroup(child, dir = null) {
  endRunningOnExit();
  if (child.pid !== undefined) running.set(child.pid, dir);
}

/**
 * The page's browser process `child` (tracked: trackGroup), as `{ until, hasEnded, close }`.
 * `until(promise, ms, what)` waits for what the page sends back (`promise`), and rejects, naming
 * `what`, if the browser ends first (a crash, a failed start: with its exit status and output) or
 * after `ms`; `hasEnded()` says whether it has; `close()` ends it and removes its directory, then
 * runs `onClose` (ends what it ran on: an X server).
 */
export function pageProcess(name, child, onClose = async () => {}) {
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-OUTPUT_KEPT));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, output: `${output}\n${error.message}` }));
    child.once('exit', (code, signal) => resolve({ code, signal, output }));
  });
  let endedText = null; // why it ended, once it has
  const ended = exited.then(({ code, signal, output: text }) => {
    throw new Error((endedText = `${name} ended (code ${code}, signal ${signal}): ${text}`));
  });
  ended.catch(() => {}); // (read by until())
  return {
    until(promise, ms, what) {
      if (endedText !== null) {
        promise.catch(() => {}); // (whatever it says, the ended browser is the answer)
        return Promise.reject(new Error(`${what}: ${endedText}`));
      }
      let timer;
      // (a crashed page process leaves the browser running: what it printed may say so)
      const said = () => (output.trim() ? `; its output ends: ${output.slice(-2048).trim()}` : '');
      const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms / 1000} s${said()}`)), ms)));
      const gone = ended.catch((error) => {
        throw new Error(`${what}: ${error.message}`);
      });
      return Promise.race([gone, promise, late]).finally(() => clearTimeout(timer));
    },
    /** Whether the browser has ended (by itself, or closed). */
    hasEnded: () => endedText !== null,
    async close() {
      const pid = child.pid;
      if (pid !== undefined) killGroup(pid);
      await exited; // (before its directory goes: nothing of it writes there any more)
      if (pid !== undefined) await endGroup(pid);
      await onClose();
    },
  };
}
