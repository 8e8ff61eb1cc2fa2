// Headless Firefox (Debian's firefox-esr) for the browser tests, so the package is checked in a
// second engine (SpiderMonkey) beside Chromium's V8. playwright-core drives only its own patched
// Firefox builds, which would be a download, so nothing drives this one: it opens one URL in a
// throw-away profile, the page POSTs its result back to the static server (startStaticServer's
// onReport), and the process is ended after.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pageProcess, trackGroup } from './page-process.mjs';

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
/**
 * Opens `url` in a new headless Firefox; `prefs` beyond PREFS (the bench's timers). `until(promise,
 * ms, what)` waits for what the page sends back (`promise`), and rejects, naming `what`, if this
 * Firefox ends first (a crash, a failed start: with its exit status and output) or after `ms`;
 * `close()` ends it and removes the profile (scripts/page-process.mjs).
 * @returns {Promise<{ until: <T>(promise: Promise<T>, ms: number, what: string) => Promise<T>, hasEnded: () => boolean, close: () => Promise<void> }>}
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
  trackGroup(child, profile);
  return pageProcess('Firefox', child);
}
