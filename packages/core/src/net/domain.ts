/**
 * Domain name validation and normalisation: lower case, no trailing dot, IDN → punycode
 * (UTS #46 via node:url), RFC 1035 §2.3.4 sizes (labels 1–63 octets, name ≤ 253 characters
 * in text form). tldts gives the registrable domain.
 * @module
 */
import { domainToASCII } from 'node:url';
import type { parse as parseDomain } from 'tldts';
import { InvalidInputError } from '../errors.js';
import { lazyRequire } from '../lazy-require.js';
import { parseIpLiteral } from './ip.js';

/** tldts (the Public Suffix List), required on first use (lazy-require.ts). */
export const tldts = lazyRequire<{ parse: typeof parseDomain }>('tldts');

export interface NormaliseDomainOptions {
  /** Allow `_` in labels (service names such as `_dmarc`, `_sip._tcp`). @default true */
  allowUnderscore?: boolean;
  /** Name of the parameter, for the error message. @default 'domain' */
  param?: string;
}

/**
 * Validates and normalises a domain name, throwing `InvalidInputError` with a message that
 * says what is wrong. An IP address is rejected (use the IP endpoints for those).
 */
export function normaliseDomain(input: unknown, options: NormaliseDomainOptions = {}): string {
  const param = options.param ?? 'domain';
  const fail = (message: string) => new InvalidInputError(message, param);
  if (typeof input !== 'string' || input.trim() === '') {
    throw fail(`Missing required parameter "${param}": a domain name such as example.com`);
  }
  let text = input.trim();
  if (text.endsWith('.')) text = text.slice(0, -1);
  if (parseIpLiteral(text) && /^[0-9a-fx.:[\]]+$/i.test(text)) {
    throw fail(
      `"${param}" must be a domain name, not an IP address (use the IP endpoints for addresses)`,
    );
  }
  if (text.length > 253 * 4) throw fail(`"${param}" is too long: ${TOO_LONG}`);
  const ascii = toAsciiName(text);
  if (ascii === undefined) {
    throw fail(`"${param}" is not a valid domain name: ${JSON.stringify(input)}`);
  }
  validateName(ascii, param, fail, options.allowUnderscore ?? true);
  return ascii;
}

/**
 * IDN → punycode per label (UTS #46, node:url), so that ASCII labels with `_` (which UTS #46
 * rejects) survive; ideographic full stops separate labels too (UTS #46 §4).
 */
function toAsciiName(text: string): string | undefined {
  const labels = text.replace(/[\u3002\uff0e\uff61]/g, '.').split('.');
  const out: string[] = [];
  for (const label of labels) {
    if (!/[\u0080-\uffff]/.test(label)) {
      out.push(label.toLowerCase());
      continue;
    }
    const converted = domainToASCII(label);
    if (converted === '') return undefined;
    out.push(converted);
  }
  return out.join('.');
}

const TOO_LONG = 'a domain name has at most 253 characters';

function validateName(
  name: string,
  param: string,
  fail: (message: string) => InvalidInputError,
  allowUnderscore: boolean,
): void {
  if (name.length > 253) throw fail(`"${param}" is too long: ${TOO_LONG}`);
  const labels = name.split('.');
  if (labels.length < 2) {
    throw fail(
      `"${param}" must be a fully qualified domain name such as example.com, got "${name}"`,
    );
  }
  const labelPattern = allowUnderscore
    ? /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/
    : /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
  for (const label of labels) {
    if (label.length === 0) {
      throw fail(`"${param}" has an empty label (two dots in a row) in "${name}"`);
    }
    if (label.length > 63) {
      throw fail(`"${param}" has a label longer than 63 characters: "${label.slice(0, 20)}…"`);
    }
    if (!labelPattern.test(label)) {
      throw fail(
        `"${param}" has an invalid label "${label}": use letters, digits and inner hyphens`,
      );
    }
  }
}

/**
 * The registrable domain (public suffix + one label) of a normalised name, per the Public
 * Suffix List as bundled by tldts; `undefined` when the name is itself a public suffix.
 */
export function registrableDomain(name: string): string | undefined {
  const result = tldts().parse(name, { allowPrivateDomains: false });
  return result.domain ?? undefined;
}
