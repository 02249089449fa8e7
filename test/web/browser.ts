/**
 * Debian's Chromium driven by playwright-core for the page tests: headless, no sandbox (CI runs as
 * root), background networking, sync, component updates and QUIC off, a fresh profile per launch.
 * Every request the page makes is checked: one that leaves the gateway's origin is aborted and
 * recorded, so a test can assert the page needs nothing from a CDN or any other host.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env.ASSAY_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = new URL('../../test-artifacts/web/', import.meta.url).pathname;

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions',
];

export interface Browser { context: BrowserContext; page: Page; offOrigin: string[]; consoleErrors: string[]; close(): Promise<void> }

export async function openBrowser(origin: string): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (as root: apt-get update && apt-get install -y chromium; .ci/run does this), or set ASSAY_CHROMIUM`);
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'assay-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, viewport: { width: 1200, height: 900 },
  });
  const offOrigin: string[] = [];
  const consoleErrors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:')) return route.continue();
    offOrigin.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? await context.newPage();
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return {
    context, page, offOrigin, consoleErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A screenshot of one part of the page (a turn, the chart, the console) kept as a test artefact. */
export async function screenshot(what: Page | Locator, name: string): Promise<void> {
  await what.screenshot({ path: join(ARTIFACTS, `${name}.png`), ...('goto' in what ? { fullPage: false } : {}) });
}
