/**
 * Issue 20 item 1, end to end: the security-headers grade of each worst-case page (pages.ts),
 * served whole from loopback. The grade answers, reads the page whole, and the check the page
 * aims at sees what it carries: these are the pages whose synchronous steps
 * `bench/headers/grade-steps.bench.ts` times.
 */
import { type HttpTarget, startHttpTarget } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gradeSecurityHeaders } from '../../src/headers/grade-security-headers.js';
import { WORST_PAGES } from './pages.js';

const MIB = 1024 * 1024;
const CHECK_AIMED_AT = { csp: 'content-security-policy', sri: 'subresource-integrity' } as const;

describe('the grade of each worst-case page', () => {
  let site: HttpTarget;
  const pages = WORST_PAGES.map((page) => page.make(MIB));
  beforeAll(async () => {
    site = await startHttpTarget({
      routes: {
        '*': (req, res) => {
          const page = pages[Number(req.url?.slice(1))] as string;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        },
      },
    });
  });
  afterAll(() => site.close());

  test.each(WORST_PAGES.map((page, i) => [page.shape, page, i] as const))(
    '%s',
    async (_shape, page, i) => {
      expect(Buffer.byteLength(pages[i] as string)).toBeGreaterThan(0.95 * MIB);
      expect(Buffer.byteLength(pages[i] as string)).toBeLessThanOrEqual(MIB);
      const result = await gradeSecurityHeaders(`${site.url}/${i}`, {
        allowedTargets: ['127.0.0.1/32'],
        checkRedirection: false,
      });
      expect(result.status_code).toBe(200);
      expect(result.note ?? '').not.toMatch(/only the first/);
      const aimed = page.aims;
      if (aimed !== 'scan') {
        const row = result.headers.find((h) => h.test === CHECK_AIMED_AT[aimed]);
        expect(row?.present).toBe(true);
      }
    },
    20_000,
  );
});
