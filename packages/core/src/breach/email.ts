/**
 * Email address validation, normalisation and masking for the breach check. Only the everyday
 * form, what a breach database indexes: an RFC 5322 §3.2.3 dot-atom local part and a domain
 * with a TLD. Error messages never echo the input: a mistyped address is still personal data.
 * @module
 */
import { InvalidInputError } from '../errors.js';
import { normaliseDomain } from '../net/domain.js';

/** RFC 5321 §4.5.3.1.1: a local part has at most 64 octets. */
const MAX_LOCAL_LENGTH = 64;
/** RFC 5321 §4.5.3.1.3 path limit (256) minus the angle brackets. */
const MAX_ADDRESS_LENGTH = 254;
/** RFC 5322 §3.2.3 atext, one dot-separated atom at a time. */
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;

const EXPECTED = 'an email address such as user@example.com';

/**
 * Validates an address and returns it lower-cased with an ASCII (punycode) domain. Throws
 * `InvalidInputError` (HTTP 400) naming what is wrong, without repeating the address.
 */
export function normaliseEmail(input: unknown, param = 'email'): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new InvalidInputError(`Missing required parameter "${param}": ${EXPECTED}`, param);
  }
  const text = input.trim();
  const invalid = (why: string) =>
    new InvalidInputError(`"${param}" is not a valid email address: ${why}`, param);
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1 || text.indexOf('@') !== at) {
    throw invalid(
      'expected exactly one "@" between a local part and a domain, as in user@example.com',
    );
  }
  const local = text.slice(0, at);
  if (local.length > MAX_LOCAL_LENGTH) {
    throw invalid(`the part before "@" has at most ${MAX_LOCAL_LENGTH} characters`);
  }
  if (!local.split('.').every((atom) => ATOM.test(atom))) {
    throw invalid(
      'the part before "@" may hold letters, digits, single inner dots and !#$%&\'*+/=?^_`{|}~- only',
    );
  }
  let domain: string;
  try {
    domain = normaliseDomain(text.slice(at + 1), { allowUnderscore: false, param });
  } catch {
    throw invalid('the part after "@" must be a domain name with a TLD, as in example.com');
  }
  const address = `${local.toLowerCase()}@${domain}`;
  if (address.length > MAX_ADDRESS_LENGTH)
    throw invalid(`at most ${MAX_ADDRESS_LENGTH} characters`);
  return address;
}

/**
 * SPEC 2.6 mask: the first three characters of the local part, `***`, `@` and the domain.
 * A local part of three characters or fewer keeps all but its last character visible (none
 * for a one-character local part), so the mask never reveals the whole local part.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const visible = Math.min(3, Math.max(0, local.length - 1));
  return `${local.slice(0, visible)}***@${address.slice(at + 1)}`;
}
