// WebKit (Debian's WebKitGTK: JavaScriptCore, Safari's engine) for the browser tests and the bench,
// the third engine beside Chromium's V8 and Firefox's SpiderMonkey. Safari itself runs on no machine
// here, and playwright's WebKit would be a download. WebKitGTK's MiniBrowser has no headless mode, so
// it runs on a virtual X server of its own (Xvfb); nothing drives it: it opens one URL, the page
// POSTs its result back to the static server (startStaticServer's onReport), and both processes are
// ended after (scripts/page-process.mjs).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endGroup, pageProcess, trackGroup } from './page-process.mjs';

// Debian puts it under the architecture's library directory (x86_64-linux-gnu, aarch64-linux-gnu).
function debianMiniBrowser() {
  const lib = '/usr/lib';
  const found = existsSync(lib) ? readdirSync(lib).map((dir) => path.join(lib, dir, 'webkit2gtk-4.1/MiniBrowser')).find(existsSync) : undefined;
  return found ?? path.join(lib, 'x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser');
}
export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH || debianMiniBrowser();
const XVFB_PATH = '/usr/bin/Xvfb';
const DISPLAY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

/** 'WebKitGTK 2.50.6' (Debian's package version), or 'WebKitGTK ?': its user agent names no version. */
export function webKitName() {
  try {
    const version = execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'libwebkit2gtk-4.1-0'], { encoding: 'utf8' });
    return `WebKitGTK ${/^[\d.]+/.exec(version)?.[0] ?? '?'}`;
  } catch {
    return 'WebKitGTK ?';
  }
}

const missingText = (what, where) =>
  `${what} not found at ${where}: install Debian's packages (\`sudo apt-get install libwebkit2gtk-4.1-0 xvfb\`, or \`bash scripts/setup.sh\`)`;

// Starts an X server on a free display (Xvfb picks it and writes its number to fd 3), in a
// process group of its own. Resolves { display, stop } once it accepts connections; stop() ends it
// with SIGTERM, so it removes its socket and lock file (SIGKILL after a while: endGroup).
async function startXServer() {
  const child = spawn(XVFB_PATH, ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x800x24'], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  trackGroup(child);
  let errors = '';
  child.stderr.on('data', (chunk) => (errors = (errors + chunk).slice(-4096)));
  try {
    const display = await new Promise((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`Xvfb said no display in ${DISPLAY_TIMEOUT_MS / 1000} s: ${errors}`)), DISPLAY_TIMEOUT_MS);
      child.stdio[3].on('data', (chunk) => {
        text += chunk;
        if (!text.includes('\n')) return;
        clearTimeout(timer);
        resolve(`:${text.trim()}`);
      });
      child.once('error', (error) => (clearTimeout(timer), reject(error)));
      child.once('exit', (code, signal) => (clearTimeout(timer), reject(new Error(`Xvfb ended (code ${code}, signal ${signal}): ${errors}`))));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const stop = async () => {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref())]);
      await endGroup(child.pid);
    };
    return { display, stop };
  } catch (error) {
    await endGroup(child.pid);
    throw error;
  }
}

/**
 * Opens `url` in a new WebKitGTK MiniBrowser (private browsing, its data and caches in a
 * throw-away directory) on an X server of its own. `until(promise, ms, what)` waits for what the
 * page sends back, and rejects, naming `what`, if the browser ends first or after `ms`; `close()`
 * ends both and removes the directory. `env`: more environment variables (JavaScriptCore reads
 * its options from JSC_*: bench/jsc-tiers.mjs); `onOutput(chunk)`: all the browser's stderr, where
 * JavaScriptCore logs.
 * @returns {Promise<{ until: <T>(promise: Promise<T>, ms: number, what: string) => Promise<T>, hasEnded: () => boolean, close: () => Promise<void> }>}
 */
export async function openInWebKit(url, { env: extraEnv = {}, onOutput } = {}) {
  if (!existsSync(MINIBROWSER_PATH)) throw new Error(`${missingText('WebKitGTK MiniBrowser', MINIBROWSER_PATH)}, or set MINIBROWSER_PATH`);
  if (!existsSync(XVFB_PATH)) throw new Error(missingText('Xvfb', XVFB_PATH));
  const x = await startXServer();
  let home;
  let child;
  try {
    home = await mkdtemp(path.join(tmpdir(), 'onnx-extrema-webkit-'));
    const dirs = { XDG_CACHE_HOME: 'cache', XDG_DATA_HOME: 'data', XDG_CONFIG_HOME: 'config', XDG_RUNTIME_DIR: 'runtime' };
    const env = { ...process.env, ...extraEnv, DISPLAY: x.display, NO_AT_BRIDGE: '1' };
    for (const [name, dir] of Object.entries(dirs)) env[name] = path.join(home, dir);
    // Its own process group, so that close() ends its web and network processes with it.
    child = spawn(MINIBROWSER_PATH, ['--private', url], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    if (onOutput) child.stderr.on('data', onOutput);
  } catch (error) {
    if (home) await rm(home, { recursive: true, force: true });
    await x.stop();
    throw error;
  }
  trackGroup(child, home);
  return pageProcess('WebKit', child, x.stop);
}
