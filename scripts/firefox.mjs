// Headless Firefox (Debian's firefox-esr) for the browser tests, so the package is checked in a
// second engine (SpiderMonkey) beside Chromium's V8. playwright-core drives only its own patched
// Firefox builds, which would be a download, so nothing drives this one: it opens one URL in a
// throw-away profile, the page POSTs its result back to the static server (startStaticServer's
// onReport), and the process is ended after.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

// No first-run pages, default-browser prompts, updates, telemetry or background requests: the
// profile only opens the page under test.
const PREFS = {
  'browser.shell.checkDefaultBrowser': false,
  'browser.startup.homepage_override.mstone': 'ignore',
  'browser.aboutwelcome.enabled': false,
  'browser.sessionstore.resume_from_crash': false,
  'browser.safebrowsing.malware.enabled': false,
  'browser.safebrowsing.phishing.enabled': false,
  'browser.safebrowsing.downloads.enabled': false,
  'app.update.disabledForTesting': true,
  'datareporting.policy.dataSubmissionEnabled': false,
  'datareporting.healthreport.uploadEnabled': false,
  'toolkit.telemetry.enabled': false,
  'network.captive-portal-service.enabled': false,
  'network.connectivity-service.enabled': false,
  'extensions.update.enabled': false,
  'services.settings.server': 'http://127.0.0.1:9/',
};
const OUTPUT_KEPT = 16 << 10; // the end of Firefox's stdout and stderr, for an error message

// The Firefoxes this process started and has not closed: each is a process group of its own, so
// they are ended (and their profiles removed) when this process ends without close(): an uncaught
// error, Ctrl-C, a test runner's SIGTERM at its timeout.
const running = new Map(); // process group id -> profile directory
function endRunning() {
  for (const [pid, profile] of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // (already ended)
    }
    rmSync(profile, { recursive: true, force: true });
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

/**
 * Opens `url` in a new headless Firefox; `prefs` beyond PREFS (the bench's timers). `until(promise,
 * ms, what)` waits for what the page sends back (`promise`), and rejects, naming `what`, if this
 * Firefox ends first (a crash, a failed start: with its exit status and output) or after `ms`;
 * `close()` ends it and removes the profile.
 * @returns {Promise<{ until: <T>(promise: Promise<T>, ms: number, what: string) => Promise<T>, close: () => Promise<void> }>}
 */
export async function openInFirefox(url, { prefs: more = {} } = {}) {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(`Firefox not found at ${FIREFOX_PATH}: install Debian's package (\`sudo apt-get install firefox-esr\`, or \`bash scripts/setup.sh\`), or set FIREFOX_PATH`);
  const profile = await mkdtemp(path.join(tmpdir(), 'onnx-extrema-firefox-'));
  let child;
  try {
    const prefs = Object.entries({ ...PREFS, ...more }).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`);
    await writeFile(path.join(profile, 'user.js'), prefs.join(''));
    // Its own process group, so that close() ends the content processes with it.
    child = spawn(FIREFOX_PATH, ['--headless', '--no-remote', '--profile', profile, url], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MOZ_CRASHREPORTER_DISABLE: '1' },
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  endRunningOnExit();
  if (child.pid !== undefined) running.set(child.pid, profile);
  let output = '';
  const keep = (chunk) => (output = (output + chunk).slice(-OUTPUT_KEPT));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, output: `${output}\n${error.message}` }));
    child.once('exit', (code, signal) => resolve({ code, signal, output }));
  });
  let endedText = null; // why it ended, once it has
  const ended = exited.then(({ code, signal, output: text }) => {
    throw new Error((endedText = `Firefox ended (code ${code}, signal ${signal}): ${text}`));
  });
  ended.catch(() => {}); // (read by until())
  return {
    until(promise, ms, what) {
      if (endedText !== null) {
        promise.catch(() => {}); // (whatever it says, the ended Firefox is the answer)
        return Promise.reject(new Error(`${what}: ${endedText}`));
      }
      let timer;
      const late = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing in ${ms / 1000} s`)), ms)));
      const gone = ended.catch((error) => {
        throw new Error(`${what}: ${error.message}`);
      });
      return Promise.race([gone, promise, late]).finally(() => clearTimeout(timer));
    },
    async close() {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // (already ended, or never started)
      }
      await exited;
      running.delete(child.pid);
      await rm(profile, { recursive: true, force: true });
    },
  };
}
