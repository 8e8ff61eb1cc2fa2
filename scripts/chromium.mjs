// Headless Debian Chromium through playwright-core, for the browser tests and the bench's --browser
// runs (bench/browser/host.mjs). Never a downloaded browser:
// playwright-core ships none, and executablePath points at Debian's package. Missing pieces fail
// with a message that says what to install.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// --headless and --user-data-dir are passed by playwright itself.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage', // /dev/shm is small in containers
];

export async function importPlaywright() {
  try {
    return await import('playwright-core');
  } catch (cause) {
    throw new Error(
      'playwright-core is not installed: run `npm install` (it is a devDependency) or `npm install --no-save playwright-core`; ' +
        `it downloads no browser, the tests use Debian's chromium (${cause.message})`,
      { cause },
    );
  }
}

/**
 * Launches headless Chromium with a throw-away profile; `args`: flags beyond CHROMIUM_ARGS.
 * @returns {Promise<{ context: import('playwright-core').BrowserContext, close: () => Promise<void> }>}
 */
export async function launchChromium({ viewport = { width: 1280, height: 900 }, args = [] } = {}) {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install Debian's package (\`sudo apt-get install chromium\`, or \`bash scripts/setup.sh chromium\`), or set CHROMIUM_PATH`);
  const { chromium } = await importPlaywright();
  const profile = await mkdtemp(path.join(tmpdir(), 'onnx-extrema-chromium-'));
  let context;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...args],
      viewport,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw new Error(`could not start ${CHROMIUM_PATH} through playwright-core: ${error.message}`, { cause: error });
  }
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Records what would mean the page is broken: uncaught errors, console errors, failed or
 * 4xx/5xx requests, and any request that leaves `origin` (the demo must not need the network).
 */
export function watchForProblems(page, origin) {
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:')) problems.push(`request outside the server: ${url}`);
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return problems;
}
