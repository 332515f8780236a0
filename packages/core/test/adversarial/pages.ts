/**
 * Worst-case pages for the security-headers grade (issue 20 item 1): what a hostile site can
 * send in one answer (a page of up to 1 MiB) to make the grade's synchronous steps long. The
 * HTML worst cases as they are; each CSP worst case as the `content` of `<meta http-equiv>`
 * tags (the only way a policy reaches 1 MiB: headers stop at 16 KiB); and pages of thousands of
 * external scripts, which the Subresource Integrity check reads one by one. Shared by the grade's
 * test of these pages (`grade-pages.test.ts`) and its bench (`bench/headers/grade-steps`).
 */
import { WORST_CASES } from './inputs.js';

export interface WorstPage {
  /** The check that the page aims at: `scan` (the HTML read), `csp` or `sri`. */
  aims: 'scan' | 'csp' | 'sri';
  shape: string;
  /** About `bytes` of page. */
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

/**
 * The `<meta>` tags and character references around a policy add up to 3 %: the policy is made
 * that much smaller, so that the page stays within the 1 MiB the grade reads.
 */
const META_SHARE = 0.97;

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
      make: (bytes) =>
        (c.make(Math.floor(bytes * META_SHARE)) as string[])
          .map((policy) => `<meta http-equiv="content-security-policy" content=${quoted(policy)}>`)
          .join(''),
    }),
  ),
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
