/**
 * Worst-case pages for the security-headers grade: what a hostile site can send in one answer
 * (a page of up to 1 MiB) to make the grade's synchronous steps long. The HTML worst cases as
 * they are; each CSP worst case as the `content` of `<meta http-equiv>` tags, at the 64 KiB
 * those may carry (csp.ts), and one far over it; and pages of thousands of external scripts,
 * which the Subresource Integrity check reads one by one. Shared by the grade's test of these
 * pages (`grade-pages.test.ts`) and bench/parsers/worst-case.bench.ts.
 */
import { MAX_META_POLICY_BYTES } from '../../src/headers/checks/csp.js';
import { WORST_CASES } from './inputs.js';

export interface WorstPage {
  /** The check that the page aims at: `scan` (the HTML read), `csp` or `sri`. */
  aims: 'scan' | 'csp' | 'sri';
  shape: string;
  /** About `bytes` of page (a CSP page: its policy at the `<meta>` cap whatever `bytes`). */
  make(bytes: number): string;
}

/** An attribute value in double quotes (HTML §13.1.2.3): `&` and `"` as character references. */
const quoted = (text: string) => `"${text.replaceAll('&', '&amp;').replaceAll('"', '&quot;')}"`;

/** `i` as a host label: a-z, then 0-9 (bijective base 36, every label once). */
function label(i: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / alphabet.length)) {
    out = (alphabet[(n - 1) % alphabet.length] as string) + out;
  }
  return out;
}

/** At most `bytes` (ASCII) of `unit(0) unit(1) …`, every unit distinct. */
function distinctUnits(unit: (i: number) => string, bytes: number): string {
  const parts: string[] = [];
  for (let i = 0, size = 0; ; i++) {
    const part = unit(i);
    size += part.length;
    if (size > bytes) break;
    parts.push(part);
  }
  return parts.join('');
}

/** The policies of a CSP worst case as large as the `<meta>` cap lets them be. */
function atTheCap(make: (bytes: number) => unknown): string[] {
  for (let bytes = MAX_META_POLICY_BYTES; ; bytes -= 1024) {
    const policies = make(bytes) as string[];
    if (Buffer.byteLength(policies.join('')) <= MAX_META_POLICY_BYTES) return policies;
  }
}

/** `policies` as `<meta http-equiv>` tags. */
const metaTags = (policies: string[]) =>
  policies
    .map((policy) => `<meta http-equiv="content-security-policy" content=${quoted(policy)}>`)
    .join('');

export const WORST_PAGES: readonly WorstPage[] = [
  ...WORST_CASES.filter((c) => c.parser.startsWith('HTML')).map(
    (c): WorstPage => ({
      aims: 'scan',
      shape: c.shape,
      // Their builders round up to a whole unit (tens of bytes).
      make: (bytes) => c.make(bytes - 256) as string,
    }),
  ),
  ...WORST_CASES.filter((c) => c.parser.startsWith('CSP')).map(
    (c): WorstPage => ({
      aims: 'csp',
      shape: `a <meta> policy: ${c.shape}`,
      make: () => metaTags(atTheCap(c.make)),
    }),
  ),
  {
    aims: 'csp',
    shape: 'a <meta> policy of distinct sources, over the 64 KiB cap',
    make: (bytes) => metaTags([`img-src ${distinctUnits((i) => `${label(i)}. `, bytes - 256)}`]),
  },
  {
    aims: 'sri',
    shape: 'thousands of external scripts from distinct sites',
    make: (bytes) =>
      distinctUnits((i) => `<script src="https://${label(i)}.example/a.js"></script>`, bytes),
  },
  {
    aims: 'sri',
    shape: 'thousands of external scripts with integrity, over http, under a public suffix',
    make: (bytes) =>
      distinctUnits(
        (i) => `<script src="http://${label(i)}.co.uk/a.js" integrity="sha384-x"></script>`,
        bytes,
      ),
  },
  {
    aims: 'sri',
    shape: 'thousands of protocol-relative scripts',
    make: (bytes) =>
      distinctUnits((i) => `<script src="//${label(i)}.example/a.js"></script>`, bytes),
  },
];
