/** The checks, one per test, in the order the report lists them. @module */
import { checkCookies } from './cookies.js';
import { checkCors } from './cors.js';
import { checkCoep, checkCoop, checkCorp } from './cross-origin-policies.js';
import { checkCsp } from './csp.js';
import { checkInformationDisclosure } from './information-disclosure.js';
import { checkPermissionsPolicy } from './permissions-policy.js';
import { checkRedirection } from './redirection.js';
import { checkReferrerPolicy } from './referrer-policy.js';
import { checkHsts } from './strict-transport-security.js';
import { checkSubresourceIntegrity } from './subresource-integrity.js';
import type { CheckOutcome, ScanInput } from './types.js';
import { checkXContentTypeOptions } from './x-content-type-options.js';
import { checkXFrameOptions } from './x-frame-options.js';

export interface CheckDef {
  /** Test name (Observatory test name, or a netdiag addition). */
  test: string;
  /** The header(s) the test reads, for the report. */
  header: string;
  run(input: ScanInput): CheckOutcome;
}

export const CHECKS: readonly CheckDef[] = [
  { test: 'content-security-policy', header: 'Content-Security-Policy', run: checkCsp },
  { test: 'strict-transport-security', header: 'Strict-Transport-Security', run: checkHsts },
  { test: 'x-frame-options', header: 'X-Frame-Options', run: checkXFrameOptions },
  {
    test: 'x-content-type-options',
    header: 'X-Content-Type-Options',
    run: checkXContentTypeOptions,
  },
  { test: 'referrer-policy', header: 'Referrer-Policy', run: checkReferrerPolicy },
  { test: 'cross-origin-resource-policy', header: 'Cross-Origin-Resource-Policy', run: checkCorp },
  { test: 'cross-origin-opener-policy', header: 'Cross-Origin-Opener-Policy', run: checkCoop },
  { test: 'cross-origin-embedder-policy', header: 'Cross-Origin-Embedder-Policy', run: checkCoep },
  { test: 'cross-origin-resource-sharing', header: 'Access-Control-Allow-Origin', run: checkCors },
  { test: 'cookies', header: 'Set-Cookie', run: checkCookies },
  { test: 'redirection', header: 'Location', run: checkRedirection },
  { test: 'subresource-integrity', header: '', run: checkSubresourceIntegrity },
  { test: 'permissions-policy', header: 'Permissions-Policy', run: checkPermissionsPolicy },
  {
    test: 'information-disclosure',
    header: 'Server, X-Powered-By, X-AspNet-Version, X-AspNetMvc-Version, X-Generator',
    run: checkInformationDisclosure,
  },
];
