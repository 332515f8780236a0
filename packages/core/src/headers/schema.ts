/**
 * `GET /api/security-headers` (a tool endpoint, CONTRACT §6: shape designed here).
 * @module
 */
import { z } from 'zod';
import { probeUrlInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';
import { tlsSummarySchema } from '../site/schema.js';
import { SECURITY_GRADES } from './score-table.js';

const checkedAt = z.iso.datetime().describe('Time of the check, ISO 8601 UTC with milliseconds');

export const securityHeadersParamsSchema = parameters({
  url: probeUrlInput.describe(
    'URL or host name (http/https only; scheme optional, https assumed).',
  ),
});
export type SecurityHeadersParams = z.input<typeof securityHeadersParamsSchema>;

/** One graded test: a header (or cookies, redirects, scripts) and its verdict. */
export const headerFindingSchema = z.strictObject({
  test: z
    .string()
    .describe('Test name (Observatory test, or permissions-policy / information-disclosure)'),
  title: z.string().describe('Human title of the test'),
  header: z
    .string()
    .describe('Header(s) the test reads; "" for Subresource Integrity (reads the HTML)'),
  present: z
    .boolean()
    .describe('Whether the header (or cookies, a redirect, external scripts) was present'),
  value: z.string().nullable().describe('The value examined (at most 1024 characters)'),
  result: z
    .string()
    .describe('Result id (the Observatory expectation names, e.g. csp-implemented-with-no-unsafe)'),
  pass: z.boolean().describe('Whether the result passes'),
  score_modifier: z.int().describe('Points this result adds to the score (score table)'),
  description: z.string().describe('What the result means'),
  recommendation: z.string().describe('What to change; "" when nothing needs to'),
});

/** `GET /api/security-headers` data. */
export const securityHeadersDataSchema = z.strictObject({
  url: z.string().describe('The URL graded (after redirects)'),
  status_code: z.int().describe('HTTP status of the graded answer'),
  score: z
    .int()
    .describe("Score with netdiag's additions; never below 0, can exceed 100 with bonuses"),
  grade: z.enum(SECURITY_GRADES).describe('Grade of `score`'),
  tests_passed: z.int().describe('Tests passed (of tests_quantity)'),
  tests_failed: z.int().describe('Tests failed'),
  tests_quantity: z.int().describe('Tests run (14)'),
  observatory: z
    .strictObject({
      score: z.int().describe('Observatory score (its 12 tests only)'),
      grade: z.enum(SECURITY_GRADES).describe('Observatory grade'),
      tests_passed: z.int().describe('Observatory tests passed'),
      tests_failed: z.int().describe('Observatory tests failed'),
      tests_quantity: z.int().describe('Observatory tests run (12)'),
      algorithm_version: z.int().describe('Observatory algorithm version followed (6)'),
    })
    .describe("The MDN HTTP Observatory's own figures, for comparison"),
  redirects: z.int().describe('Redirects followed to reach `url`'),
  note: z
    .string()
    .nullable()
    .describe(
      'Why the grade needs care (graded over http, error status, untrusted certificate, truncated body)',
    ),
  tls: tlsSummarySchema,
  headers: z.array(headerFindingSchema).describe('One entry per test'),
  checked_at: checkedAt,
});
export type SecurityHeadersData = z.infer<typeof securityHeadersDataSchema>;
