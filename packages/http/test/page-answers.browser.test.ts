/// <reference lib="dom" />
// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's innerText() is the rendered text a person reads.
/**
 * The page with every tool's answer shown, in both colour schemes, at desktop (1280 × 800) and
 * phone (390 × 844) size (issue 44): axe-core finds no serious issue, each answer leads with its
 * verdict in the first screen of its panel, nothing in an answer scrolls on its own, and no answer
 * is wider than the screen. Screenshots are saved under packages/http/test-artifacts/answers/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ARTIFACTS,
  axeSerious,
  CHROMIUM,
  everyForm,
  hasChromium,
  type PageServer,
  startPageServer,
  submit,
} from './page-browser.js';

const SHOTS = join(ARTIFACTS, 'answers');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
// biome-ignore lint/suspicious/noExplicitAny: an answer's JSON, read back from the page.
type Data = Record<string, any>;
/** What each verdict must say, taken from the answer's own raw JSON (a form without an entry fails). */
const VERDICT_SAYS: Record<string, (d: Data) => (string | RegExp)[]> = {
  lookup: (d) => [d.ip, d.location.city],
  bulk: (d) => [String(d.total)],
  asn: (d) => [`AS${d.asn}`, d.name],
  dns: (d) => [d.type, ...d.records.slice(0, 3).map((r: Data) => r.data)],
  rdns: (d) => [d.hostname],
  blacklist: (d) => [d.clean ? /clean/i : /listed/i, String(d.listed_count)],
  whois: (d) => [d.registrar],
  down: (d) => [d.is_up ? /\bup\b/i : /\bdown\b/i],
  headers: (d) => [d.grade],
  ports: (d) => [String(d.open_count)],
  email: (d) => [d.summary.grade],
  breach: (d) => [String(d.breaches)],
};

let pages: PageServer;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  // Two rounds of every form in a minute: above the default limit of 60.
  pages = await startPageServer({ rateLimit: 10_000, toolRateLimit: 10_000 });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await pages?.close();
});

describe.skipIf(!hasChromium).each(['light', 'dark'] as const)('%s theme', (theme) => {
  let context: BrowserContext;
  let page: Page;
  let emptyPageSerious: string[];

  beforeAll(async () => {
    // axe is injected as a script: this context bypasses the page's CSP for that only.
    context = await browser.newContext({ bypassCSP: true, colorScheme: theme });
    page = await context.newPage();
    await page.setViewportSize(VIEWPORTS[0] as { width: number; height: number });
    await page.goto(`${pages.server.url}/`);
    emptyPageSerious = await axeSerious(page);
    for (const [form, values] of everyForm(pages.upstreams)) await submit(page, form, values);
  }, 120_000);
  afterAll(() => context?.close());

  test('axe-core finds no serious or critical violation, before and with every answer', async () => {
    expect({ empty: emptyPageSerious, answered: await axeSerious(page) }).toEqual({
      empty: [],
      answered: [],
    });
  });

  test('DNS records show their type by name', async () => {
    const cells = await page.locator('#dns .answer table td').allTextContents();
    expect(cells).toContain('MX');
    expect(cells).not.toContain('15');
  });

  test.each(VIEWPORTS)(
    '$width × $height: each answer leads with its verdict, in the page',
    async (viewport) => {
      await page.setViewportSize(viewport);
      // Everything open, so the raw JSON is measured too.
      await page.evaluate(() => {
        for (const node of Array.from(document.querySelectorAll('.answer details')))
          node.setAttribute('open', '');
      });
      const boxes = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll('.answer')).map((answer) => {
          const inside = Array.from(answer.querySelectorAll('*'));
          const scrolls = (node: Element) => {
            const style = getComputedStyle(node);
            return (
              (/auto|scroll/.test(style.overflowY) && node.scrollHeight > node.clientHeight) ||
              (/auto|scroll/.test(style.overflowX) && node.scrollWidth > node.clientWidth)
            );
          };
          const name = (node: Element) => `${node.tagName.toLowerCase()}.${node.className}`;
          return {
            tool: answer.closest('.tool')?.id,
            scrollBoxes: [answer, ...inside].filter(scrolls).map(name),
            tooWide: [answer, ...inside]
              .filter((node) => node.getBoundingClientRect().right > width + 0.5)
              .map(name),
          };
        });
      });
      expect(boxes).toHaveLength(12);
      for (const box of boxes)
        expect(box, box.tool).toEqual({ ...box, scrollBoxes: [], tooWide: [] });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      await page.evaluate(() => {
        for (const node of Array.from(document.querySelectorAll('.answer details')))
          node.removeAttribute('open');
      });
      for (const [tool] of everyForm(pages.upstreams)) {
        const panel = page.locator(`#${tool}`);
        const verdict = panel.locator('.answer .verdict');
        expect(await verdict.count(), tool).toBe(1);
        expect(await verdict.isVisible(), tool).toBe(true);
        const panelBox = await panel.boundingBox();
        const verdictBox = await verdict.boundingBox();
        if (!panelBox || !verdictBox) throw new Error(`${tool}: no box`);
        // Its whole line within the first screen of the panel.
        expect(verdictBox.y + verdictBox.height - panelBox.y, tool).toBeLessThanOrEqual(
          viewport.height,
        );
        const raw = await panel.locator('.answer details.raw pre').textContent();
        const data = (JSON.parse(raw ?? '{}') as { data: Data }).data;
        const said = await verdict.innerText();
        for (const expected of VERDICT_SAYS[tool]?.(data) ?? ['(no expectation)']) {
          expect(said, tool).toMatch(expected);
        }
      }

      mkdirSync(SHOTS, { recursive: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({
        path: join(SHOTS, `${theme}-${viewport.width}.png`),
        fullPage: true,
      });
    },
    60_000,
  );
});
