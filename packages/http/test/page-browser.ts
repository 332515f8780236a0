/// <reference lib="dom" />
/**
 * What the page's browser tests share: Debian's Chromium (through playwright-core, no browser
 * download), a server whose upstreams are loopback fixtures, every tool form with an input the
 * fixtures answer, and axe-core.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  type LoopbackUpstreams,
  prerequisite,
  startLoopbackUpstreams,
  tempDir,
} from '@netdiag/test-utils';
import type { Page } from 'playwright-core';
import type { CreateAppOptions } from '../src/app.js';
import { type StartedServer, startServer } from '../src/server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = prerequisite(
  'chromium',
  existsSync(CHROMIUM),
  'apt-get install chromium (or set CHROMIUM_PATH)',
);
/** Screenshots land here (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/', import.meta.url));

export interface PageServer {
  upstreams: LoopbackUpstreams;
  server: StartedServer;
  close(): Promise<void>;
}

/** The app on 127.0.0.1 with every upstream on loopback. */
export async function startPageServer(options: CreateAppOptions = {}): Promise<PageServer> {
  const upstreams = await startLoopbackUpstreams();
  const server = await startServer({
    logLevel: 'silent',
    env: false,
    host: '127.0.0.1',
    port: 0,
    ...upstreams.config,
    cacheDir: tempDir('netdiag-page-'),
    shutdownTimeoutS: 0,
    ...options,
  });
  return {
    upstreams,
    server,
    close: async () => {
      await Promise.all([server.close(), upstreams.close()]);
    },
  };
}

/** Each tool form's id and the values that the loopback fixtures answer. */
export function everyForm(upstreams: LoopbackUpstreams): [string, Record<string, string>][] {
  return [
    ['lookup', { ip: '8.8.8.8' }],
    ['bulk', { ips: '8.8.8.8\n1.1.1.1\nnot-an-ip' }],
    ['asn', { q: 'AS15169' }],
    ['dns', { domain: 'example.test', type: 'MX' }],
    ['rdns', { ip: '8.8.8.8' }],
    ['blacklist', { ip: '8.8.8.8' }],
    ['whois', { domain: 'example.com' }],
    ['down', { url: `${upstreams.siteUrl}/` }],
    ['headers', { url: `${upstreams.siteUrl}/` }],
    ['ports', { host: '127.0.0.2', ports: String(upstreams.sitePort) }],
    ['email', { domain: 'example.test' }],
    ['breach', { email: 'someone@example.com' }],
  ];
}

/** Fills and submits one form; resolves to its answer's text once it is shown. */
export async function submit(
  page: Page,
  form: string,
  values: Record<string, string>,
): Promise<string> {
  for (const [name, value] of Object.entries(values)) {
    const field = page.locator(`#${form}-${name}`);
    if ((await field.evaluate((node) => node.tagName)) === 'SELECT')
      await field.selectOption(value);
    else await field.fill(value);
  }
  await page.locator(`#${form} button[type=submit]`).click();
  const answer = page.locator(`#${form} .answer`);
  await answer.locator('details.raw').waitFor({ timeout: 20_000 });
  // biome-ignore lint/performance/useDomNodeTextContent: innerText is the rendered text a person reads.
  return answer.innerText();
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical violations on the page as it is, as `rule: nodes` lines. The
 * page's context must bypass CSP: axe is injected as an inline script.
 */
export async function axeSerious(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  })) as { id: string; impact: string; nodes: unknown[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.length}`);
}
