/// <reference lib="dom" />
// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText() is what a person sees (rendered text), which is what these tests check.
/**
 * The page at `/` in a real browser (Debian's Chromium through playwright-core, no browser
 * download): the server-rendered answer without JavaScript, every form against loopback
 * fixtures, cross-origin reads of the rate-limit headers, screenshots at desktop and phone width
 * (saved under packages/http/test-artifacts/, the README's among them), and netdiag's own
 * security-header grade of the page served over TLS. Both colour schemes with every answer
 * shown, and axe-core, are in page-answers.browser.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gradeSecurityHeaders } from '@netdiag/core';
import {
  type HttpTarget,
  makeSelfSignedCert,
  opensslAvailable,
  prerequisite,
  startHttpTarget,
  tempDir,
} from '@netdiag/test-utils';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer } from '../src/server.js';
import {
  ARTIFACTS,
  CHROMIUM,
  everyForm,
  hasChromium,
  type PageServer,
  startPageServer,
  submit,
} from './page-browser.js';

const hasOpenssl = prerequisite('openssl', opensslAvailable(), 'apt-get install openssl');

let pages: PageServer;
let other: HttpTarget;
let browser: Browser;
const cacheDir = tempDir('netdiag-page-');

beforeAll(async () => {
  if (!hasChromium) return;
  pages = await startPageServer();
  // Another origin whose page reads the API cross-origin.
  other = await startHttpTarget({
    host: '127.0.0.3',
    routes: {
      '/': (_q, r) => void r.writeHead(200, { 'content-type': 'text/html' }).end('<p>other</p>'),
    },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([pages?.close(), other?.close()]);
});

describe.skipIf(!hasChromium)('the page in Chromium', () => {
  test('without JavaScript: the visitor’s answer is in the HTML', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${pages.server.url}/`);
    expect(await page.locator('#caller-ip').innerText()).toBe('127.0.0.1');
    const facts = await page.locator('.you').innerText();
    expect(facts).toMatch(/Privacy type\s+residential/);
    expect(facts).toMatch(/Score\s+A\s+100\/100 — Clean/);
    await context.close();
  });

  test('every form answers against the loopback fixtures, in words a person reads', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${pages.server.url}/`);
    const seen: Record<string, string> = {};
    for (const [form, values] of everyForm(pages.upstreams)) {
      seen[form] = await submit(page, form, values);
    }
    expect(seen.lookup).toMatch(/Mountain View/);
    expect(seen.bulk).toMatch(/8\.8\.8\.8[\s\S]*1\.1\.1\.1[\s\S]*not-an-ip/);
    expect(seen.asn).toMatch(/15169/);
    expect(seen.dns).toMatch(/10 mail\.example\.test\./);
    expect(seen.rdns).toMatch(/dns\.google/);
    expect(seen.blacklist).toMatch(/LISTED/);
    expect(seen.whois).toMatch(/Example Registrar, Inc\./);
    expect(seen.down).toMatch(/is up\s+yes/);
    expect(seen.headers).toMatch(/grade/);
    expect(seen.ports).toMatch(/open/);
    expect(seen.email).toMatch(/dmarc/i);
    expect(seen.breach).toMatch(/Adobe/);
    for (const text of Object.values(seen)) expect(text).toMatch(/^curl /m);
    // Rate-limit state in words.
    expect(await page.locator('#limits').innerText()).toMatch(/\d+ of \d+ requests left/);
    // An error in words.
    const bad = await submit(page, 'lookup', { ip: '999.1.1.1' });
    expect(bad).toMatch(/Invalid IP address format/);
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'page-desktop.png'), fullPage: true });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS, 'page-desktop-top.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(ARTIFACTS, 'page-phone.png') });
    // Phone width: the page never scrolls sideways, and nothing sticks out of it.
    const tooWide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('body *'))
        .filter((node) => node.getBoundingClientRect().right > 391)
        .map((node) => `${node.tagName}.${node.className}`),
    );
    expect(tooWide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.close();
  }, 120_000);

  test('the keyboard reaches every form: skip link, then fields and buttons in order', async () => {
    const page = await browser.newPage();
    await page.goto(`${pages.server.url}/`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Skip to the tools',
    );
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('lookup-ip');
    await page.keyboard.type('8.8.8.8');
    await page.keyboard.press('Enter');
    await page.locator('#lookup .answer details.raw').waitFor();
    expect(await page.locator('#lookup .answer').innerText()).toMatch(/Mountain View/);
    await page.close();
  });

  test('a page on another origin reads the rate-limit headers and the request id', async () => {
    const page = await browser.newPage();
    await page.goto(`${other.url}/`);
    const seen = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/api/lookup?ip=8.8.8.8`, {
        headers: { 'X-Requested-With': 'fetch', 'Cache-Control': 'no-cache' },
      });
      return {
        limit: res.headers.get('X-RateLimit-Limit'),
        remaining: res.headers.get('X-RateLimit-Remaining'),
        window: res.headers.get('X-RateLimit-Window'),
        id: res.headers.get('X-Request-Id'),
      };
    }, pages.server.url);
    expect(seen.limit).toBe('60');
    expect(Number(seen.remaining)).toBeGreaterThanOrEqual(0);
    expect(seen.window).toBe('60');
    expect(seen.id).toMatch(/^[0-9a-f]{12}-/);
    await page.close();
  });

  test('the README screenshot: the caller and two answers, light, 1280 wide', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${pages.server.url}/`);
    await submit(page, 'lookup', { ip: '8.8.8.8' });
    await submit(page, 'dns', { domain: 'example.test', type: 'MX' });
    expect(await page.locator('.answer .verdict').count()).toBe(2);
    // docs/images/page.png is a copy of this file.
    mkdirSync(ARTIFACTS, { recursive: true });
    // From the top of the page to the second answer's panel (boxes are relative to the scroll).
    await page.evaluate(() => window.scrollTo(0, 0));
    const last = await page.locator('#dns').boundingBox();
    if (!last) throw new Error('no DNS panel');
    await page.screenshot({
      path: join(ARTIFACTS, 'readme-page.png'),
      clip: { x: 0, y: 0, width: 1280, height: Math.ceil(last.y + last.height + 16) },
      fullPage: true,
    });
    await page.close();
  });

  test('under 100 KB: page, script and style sheet', async () => {
    let total = 0;
    for (const path of ['/', '/assets/app.js', '/assets/app.css']) {
      const res = await fetch(`${pages.server.url}${path}`, { headers: { accept: 'text/html' } });
      total += (await res.arrayBuffer()).byteLength;
    }
    expect(total).toBeLessThan(100 * 1024);
  });
});

describe.skipIf(!hasOpenssl)('the page practises what the API grades', () => {
  test('served over TLS, netdiag’s own grader gives it A+', async () => {
    const dir = tempDir('netdiag-page-tls-');
    const { key, cert } = makeSelfSignedCert({
      names: ['page.test'],
      ips: ['127.0.0.2'],
      days: 30,
      organisation: 'netdiag page test',
    });
    writeFileSync(join(dir, 'key.pem'), key);
    writeFileSync(join(dir, 'cert.pem'), cert);
    const tls = await startServer({
      logLevel: 'silent',
      env: false,
      host: '127.0.0.2',
      port: 0,
      dnsServers: ['127.0.0.1:1'],
      torExitListUrl: 'http://127.0.0.1:1/tor',
      tlsCert: join(dir, 'cert.pem'),
      tlsKey: join(dir, 'key.pem'),
      cacheDir,
      shutdownTimeoutS: 0,
    });
    try {
      const result = await gradeSecurityHeaders(`${tls.url}/`, {
        allowedTargets: ['127.0.0.0/8'],
        ca: cert,
        // The server speaks only HTTPS here; the http→https redirect is a proxy's job.
        checkRedirection: false,
      });
      const failing = result.headers.filter((h) => !h.pass).map((h) => `${h.test}: ${h.result}`);
      expect(result.grade, failing.join('; ')).toBe('A+');
      expect(result.headers.find((h) => h.test === 'content-security-policy')?.pass).toBe(true);
      expect(result.headers.find((h) => h.test === 'strict-transport-security')?.pass).toBe(true);
    } finally {
      await tls.close();
    }
  }, 60_000);
});
