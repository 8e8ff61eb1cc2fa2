// A bench runtime (a Node process, or a browser page: run.mjs, browser/*host.mjs) watched by the
// controller. A runtime that does not start, or answer a message, within `timeoutMs` is ended
// (a page spinning in a loop would otherwise hold one of the machine's two cores, and skew every
// other runtime's figures, for the rest of the run) and its message fails; `restartIfEnded()`,
// called between cases, starts it again, so one stuck case costs that runtime that case only; a
// first start that fails is tried once more at once (startTwice; a renew() likewise). (Two of
// about ten WebKit runs with every runtime had one page spin at 100% and never answer.)

const END_WAIT_MS = 10_000; // for a host's end() itself: a stuck page may not close in time

function timeLimit(ms, text) {
  let timer;
  const error = new Error(text);
  const promise = new Promise((_, reject) => (timer = setTimeout(() => reject(error), ms)));
  promise.catch(() => {});
  return { promise, error, cancel: () => clearTimeout(timer) };
}

/**
 * `start(name)`: a runtime `{ name, ready, ask(msg), end(), gone() }` (or a promise of one);
 * `ready` resolves to its info; `gone()` says whether it has ended by itself (a crash). Returns
 * the same shape, supervised: the first start is tried twice (`ready` rejects if both fail),
 * `ready` and `ask` reject after `timeoutMs` (the runtime ended), and an ended or gone runtime is
 * started again by `restartIfEnded()` (true when it restarted; a restart that fails leaves it
 * ended, and each `ask` rejects at once); `renew()` replaces it with a fresh one whatever its state,
 * tried twice too. `onStartAgain(reason)`: told when the first start (or a renew's) failed and is
 * tried again.
 */
export function supervise(start, name, timeoutMs, { onStartAgain = () => {} } = {}) {
  let current = null;
  let endedBy = null; // why the runtime was ended, until it restarts
  let endedHandle = null; // the runtime last ended (each is ended once)
  let made = 0; // runtimes started, one that never became ready included

  async function end(reason) {
    endedBy = reason;
    const handle = current;
    if (!handle || handle === endedHandle) return;
    endedHandle = handle;
    const wait = timeLimit(END_WAIT_MS, 'end');
    await Promise.race([Promise.resolve().then(() => handle.end()), wait.promise]).catch(() => {});
    wait.cancel();
  }
  // `promise`, or an Error naming `what` after timeoutMs (the runtime ended first).
  async function within(promise, what) {
    const limit = timeLimit(timeoutMs, `${name}: no answer to ${what} in ${timeoutMs / 1000} s; ended`);
    try {
      return await Promise.race([promise, limit.promise]);
    } catch (error) {
      if (error === limit.error && endedBy === null) await end(error.message);
      throw error;
    } finally {
      limit.cancel();
    }
  }
  async function begin() {
    endedBy = null;
    try {
      current = await within(Promise.resolve().then(() => start(name)), 'its start');
      made += 1;
    } catch (error) {
      endedBy ??= error.message;
      throw error;
    }
    return within(current.ready, 'its start').catch((error) => {
      endedBy ??= error.message; // (a page that failed to load: restarted like one that hung)
      throw error;
    });
  }

  // (a start's failure is read by whoever awaits `ready`, and by `ended`)
  const started = (how) => {
    const promise = how();
    promise.catch(() => {});
    return promise;
  };
  // The first start (and a renew's), tried once more with a fresh runtime if it fails: a browser
  // that never opened its page (once so far in these hosts' CI runs, WebKitGTK's sent nothing for
  // 120 s under load, where a page starts in about a second) would otherwise fail the whole run.
  // Both reasons are kept.
  async function startTwice() {
    try {
      return await begin();
    } catch (first) {
      await end(first.message);
      onStartAgain(first.message);
      try {
        return await begin();
      } catch (again) {
        endedBy = `${again.message}; before it, ${first.message}`;
        throw new Error(endedBy);
      }
    }
  }
  let ready = started(startTwice);
  return {
    name,
    get ready() {
      return ready;
    },
    // How many runtimes (processes or pages) were started in all.
    get made() {
      return made;
    },
    // The runtime's process id (a Node process's; a browser page has none), for CPU pinning.
    get pid() {
      return current?.child?.pid;
    },
    get ended() {
      return endedBy !== null || current?.gone() === true;
    },
    async ask(msg) {
      if (endedBy !== null) throw new Error(`${name}: ended (${endedBy})`);
      return within(current.ask(msg), `'${msg.cmd}'`);
    },
    // A fresh runtime in place of this one, ended first (run.mjs --starts: one case's rounds
    // spread over several processes or pages), tried twice as the first start is. Rejects if
    // neither starts, leaving it ended as restartIfEnded() does.
    async renew() {
      await end('renewed');
      ready = started(startTwice);
      await ready;
    },
    async restartIfEnded() {
      if (!this.ended) return false;
      await end(endedBy ?? 'it ended'); // (what a crash or a failed start left behind)
      ready = started(begin);
      await ready;
      return true;
    },
  };
}
