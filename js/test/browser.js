// A static file server on loopback and the system's Chromium (playwright-core), for the browser test and the benchmark.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the page reads the package (js/) and the shipped models (agents/pretrained/). */
export const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];
const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json',
  '.wasm': 'application/wasm', '.gz': 'application/gzip', '.onnx': 'application/octet-stream', '.md': 'text/markdown',
};

/** The Chromium to drive: $SHITHEAD_CHROMIUM, else /usr/bin/chromium; null when neither exists. */
export function chromiumPath() {
  for (const candidate of [process.env.SHITHEAD_CHROMIUM, '/usr/bin/chromium']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Serve the repository's files on 127.0.0.1 (a free port); resolves to {url, close}.
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export async function serveRepository() {
  const server = createServer(async (request, response) => {
    const path = normalize(join(ROOT, decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)));
    if (!path.startsWith(ROOT + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(path);
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The system's Chromium, headless, through playwright-core (it never downloads a browser). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: /** @type {string} */ (chromiumPath()), args: CHROMIUM_FLAGS });
}

/**
 * Open the example page at a table with a model, and wait for its result.
 * @param {any} browser
 * @param {string} url the server's base URL
 * @param {string} model the model's folder name under agents/pretrained
 * @param {number} table
 */
export async function examplePage(browser, url, model, table) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${url}/js/example/index.html?model=../../agents/pretrained/${model}&table=${table}`);
  await page.waitForFunction(() => window.exampleResult !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.exampleResult);
  return { page, result, errors };
}
