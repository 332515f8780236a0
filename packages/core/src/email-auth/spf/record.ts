/**
 * SPF record selection and parsing (RFC 7208 §4.5, §4.6.1, §5, §6 and the ABNF of §12).
 * Parsing is total: every syntax error is collected with its offending term, so that the
 * analyser can report them all while the evaluator treats any of them as "permerror" (§4.6).
 * @module
 */
import { isIpv6Text } from '../../ip/address.js';
import { checkDomainSpec, macroStringError } from './macro.js';

export type SpfQualifier = '+' | '-' | '~' | '?';
export type SpfMechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

export interface SpfMechanism {
  kind: 'mechanism';
  /** The term as published. */
  text: string;
  qualifier: SpfQualifier;
  name: SpfMechanismName;
  /** include, exists (required); a, mx, ptr (optional). */
  domainSpec?: string;
  /** ip4 / ip6 network address as written. */
  network?: string;
  /** a, mx, ip4: the IPv4 prefix length. @default 32 */
  cidr4?: number;
  /** a, mx, ip6: the IPv6 prefix length. @default 128 */
  cidr6?: number;
}

export interface SpfModifier {
  kind: 'modifier';
  text: string;
  /** Lower-case modifier name (`redirect`, `exp` or an unknown one). */
  name: string;
  value: string;
}

export type SpfTerm = SpfMechanism | SpfModifier;

export interface SpfSyntaxError {
  /** The offending term (or the version tag). */
  term: string;
  message: string;
}

export interface ParsedSpfRecord {
  /** Every term that parsed, in record order. */
  terms: SpfTerm[];
  errors: SpfSyntaxError[];
  redirect: SpfModifier | undefined;
  exp: SpfModifier | undefined;
  /** True when the record has an `all` mechanism (then `redirect` is ignored, §5.1). */
  hasAll: boolean;
}

/**
 * The mechanism named by `token` from `start` to `end`, in any case (RFC 7208 §4.6.1: names
 * are case-insensitive), as one of the constant names; undefined for any other name. Told
 * apart by length and then character codes: a slice, a lower-cased copy and a hash per term
 * were a sixth of the parse of a record of thousands of short terms, and a loop over the eight
 * names comparing each was still a third of it (bench/parsers).
 */
function mechanismName(token: string, start: number, end: number): SpfMechanismName | undefined {
  const at = (i: number) => token.charCodeAt(start + i) | 0x20;
  switch (end - start) {
    case 1:
      return at(0) === 0x61 ? 'a' : undefined;
    case 2:
      return at(0) === 0x6d && at(1) === 0x78 ? 'mx' : undefined;
    case 3: {
      const a = at(0);
      const b = at(1);
      const c = at(2);
      if (a === 0x61) return b === 0x6c && c === 0x6c ? 'all' : undefined;
      if (a === 0x70) return b === 0x74 && c === 0x72 ? 'ptr' : undefined;
      if (a !== 0x69 || b !== 0x70) return undefined;
      // "4" and "6" are digits: `| 0x20` leaves them as they are.
      return c === 0x34 ? 'ip4' : c === 0x36 ? 'ip6' : undefined;
    }
    case 6:
      return sameLetters(token, start, 'exists') ? 'exists' : undefined;
    case 7:
      return sameLetters(token, start, 'include') ? 'include' : undefined;
    default:
      return undefined;
  }
}

/** Whether `token` holds the lower-case letters `name` at `start`, in any case. */
function sameLetters(token: string, start: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    if ((token.charCodeAt(start + i) | 0x20) !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** §4.5: a record starts with "v=spf1" (any case) followed by a space or its end. */
export function isSpfRecord(text: string): boolean {
  return /^v=spf1(?: |$)/i.test(text);
}

/** The SPF records among a name's TXT texts (§4.5). */
export function selectSpfRecords(texts: readonly string[]): string[] {
  return texts.filter(isSpfRecord);
}

/** Syntax errors listed per record before the rest of it is left unread. */
const MAX_ERRORS = 50;
/** Some term after this point (anything but SP). */
const MORE_TERMS = /[^ ]/;

/** Parses one record (which should start with `v=spf1`). Never throws. */
export function parseSpfRecord(record: string): ParsedSpfRecord {
  const result: ParsedSpfRecord = {
    terms: [],
    errors: [],
    redirect: undefined,
    exp: undefined,
    hasAll: false,
  };
  if (!isSpfRecord(record)) {
    const version = record.split(' ')[0] ?? '';
    result.errors.push({
      term: version,
      message: `the record must start with "v=spf1" followed by a space (RFC 7208 §4.5), got "${version}"`,
    });
    return result;
  }
  // Whether any term can hold a line terminator (which the grammar's `.` does not match): one
  // test of the record instead of one per term.
  const breaks = LINE_TERMINATOR.test(record);
  // §4.6.1 / §12: terms are separated by one or more SP; nothing else separates them. Read
  // term by term, not with `split(' ')`: an array of every term of a 64 KiB record was a tenth
  // of its parse (bench/parsers). The next SP is found by character codes: `indexOf` cost a
  // call into the runtime per term, more than reading the 3–6 characters of a short one.
  const terms = result.terms;
  for (let from = 'v=spf1'.length; from < record.length; ) {
    let end = from;
    while (end < record.length && record.charCodeAt(end) !== 0x20) end++;
    const start = from;
    from = end + 1;
    if (end === start) continue;
    const token = record.slice(start, end);
    const parsed = parseTerm(token, breaks);
    if ('message' in parsed) {
      result.errors.push(parsed);
      // One syntax error makes the record a permerror (RFC 7208 §4.6); past MAX_ERRORS the
      // rest is not read, so a hostile 64 KiB record of bad terms costs no more than 50 of them
      // (an error object and message per 3-6 bytes was 64-91 ms per MiB).
      if (result.errors.length === MAX_ERRORS && MORE_TERMS.test(record.slice(end))) {
        result.errors.push({
          term: '',
          message: `the rest of the record was not read: it has ${MAX_ERRORS} errors already, and one makes it a permerror (RFC 7208 §4.6)`,
        });
        break;
      }
      continue;
    }
    terms.push(parsed);
    if (parsed.kind === 'mechanism') {
      if (parsed.name === 'all') result.hasAll = true;
      continue;
    }
    if (parsed.name === 'redirect' || parsed.name === 'exp') {
      if (result[parsed.name]) {
        result.errors.push({
          term: token,
          message: `"${parsed.name}" appears more than once; it may appear at most once (RFC 7208 §6)`,
        });
        continue;
      }
      result[parsed.name] = parsed;
    }
  }
  return result;
}

const MODIFIER = /^([a-zA-Z][a-zA-Z0-9\-_.]*)=(.*)$/;

/**
 * Parses one term: a modifier when it starts `name=`, otherwise a directive (§4.6.1).
 * `breaks`: false when the term is known to hold no line terminator (the record was checked).
 */
export function parseTerm(token: string, breaks = true): SpfTerm | SpfSyntaxError {
  // Without '=' it cannot be a modifier: most terms skip the pattern (and its match array).
  if (token.includes('=')) {
    if (breaks) {
      const modifier = MODIFIER.exec(token);
      if (modifier) return parseModifier(token, modifier[1] as string, modifier[2] as string);
    } else {
      // MODIFIER by character codes: a letter, name characters, "=" (the value's `.*` matches
      // all the rest, which holds no line terminator).
      if (isLetter(token.charCodeAt(0))) {
        let i = 1;
        while (isModifierNameChar(token.charCodeAt(i))) i++;
        if (token.charCodeAt(i) === 0x3d) {
          return parseModifier(token, token.slice(0, i), token.slice(i + 1));
        }
      }
    }
  }
  return parseDirective(token, breaks);
}

/** `[a-zA-Z0-9\-_.]` by character code. */
const isModifierNameChar = (code: number) =>
  isAlphanumeric(code) || code === 0x2d || code === 0x5f || code === 0x2e;

/** §6, §7.1: an unknown modifier's value may use the macro letters of `exp=` too. */
const UNKNOWN_MODIFIER = { letters: 'slodiphvcrt' } as const;

function parseModifier(token: string, rawName: string, value: string): SpfTerm | SpfSyntaxError {
  const name = rawName.toLowerCase();
  if (name === 'redirect' || name === 'exp') {
    // §6.1, §6.2: the value is a domain-spec; an empty one is a syntax error (RFC 7208
    // erratum 5227 for exp=).
    const error = checkDomainSpec(value);
    if (error) return { term: token, message: `${name}=: ${error}` };
    return { kind: 'modifier', text: token, name, value };
  }
  // §6: unknown modifiers are ignored, but their value must still be a valid macro-string.
  const error = macroStringError(value, UNKNOWN_MODIFIER);
  if (error !== undefined) return { term: token, message: `modifier "${rawName}": ${error}` };
  return { kind: 'modifier', text: token, name, value };
}

const CIDR4 = '(0|[1-9][0-9]?)';
const CIDR6 = '(0|[1-9][0-9]{0,2})';
const DUAL = new RegExp(`^(?::(.+?))?(?:/${CIDR4})?(?://${CIDR6})?$`);
/** qnum: 0–255 without leading zeros (RFC 7208 §5.6, §12). */
const QNUM = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** ip4-network: exactly four qnums (one pattern rather than a split and a test per part). */
const IP4 = new RegExp(`^:((?:${QNUM}\\.){3}${QNUM})(?:/${CIDR4})?$`);

/**
 * Where the address of an `ip6` argument ends, as `^:([0-9a-fA-F:.]+)(?:/${CIDR6})?$` matches
 * it: the index after the address (the end, or its "/"), or -1 when the pattern does not
 * match. By character codes: the pattern's match array was a fifth of the parse of a record
 * of thousands of short terms (bench/parsers).
 */
function ip6NetworkEnd(rest: string): number {
  if (rest.charCodeAt(0) !== 0x3a) return -1; // ":"
  let end = 1;
  while (end < rest.length && isIp6Char(rest.charCodeAt(end))) end++;
  if (end === 1) return -1;
  if (end === rest.length) return end;
  if (rest.charCodeAt(end) !== 0x2f) return -1; // "/"
  // CIDR6, `0|[1-9][0-9]{0,2}`, to the end.
  const digits = rest.length - end - 1;
  const first = rest.charCodeAt(end + 1);
  if (digits === 0 || digits > 3 || (first === 0x30 && digits > 1)) return -1;
  for (let i = end + 1; i < rest.length; i++) {
    const ch = rest.charCodeAt(i);
    if (ch < 0x30 || ch > 0x39) return -1;
  }
  return end;
}

/** `[0-9a-fA-F:.]` by character code. */
const isIp6Char = (ch: number) =>
  (ch >= 0x30 && ch <= 0x3a) || ((ch | 0x20) >= 0x61 && (ch | 0x20) <= 0x66) || ch === 0x2e;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const isLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
const isAlphanumeric = (code: number) => isLetter(code) || (code >= 0x30 && code <= 0x39);

const syntaxError = (token: string, why: string): SpfSyntaxError => ({
  term: token,
  message: `"${token}": ${why}`,
});

// The mechanism is built by assignment, in the key order the optional fields always had, not
// with `{ ...base, ...(x ? { x } : {}) }`: the spreads were most of the 1.3–3.7 µs a term took
// (0.2–0.6 µs now), and a record of thousands of mechanisms ~270 ms/MiB (bench/parsers).
function parseDirective(token: string, breaks: boolean): SpfTerm | SpfSyntaxError {
  // `^([+\-~?]?)([a-zA-Z][a-zA-Z0-9]*)(.*)$` by hand, without a match array per term: a
  // qualifier, a name, and the rest, which may not hold a line terminator (`.` matches none).
  const first = token.charCodeAt(0);
  // A qualifier: + - ~ ? (RFC 7208 §4.6.2), compared by code (no string per term).
  const start = first === 43 || first === 45 || first === 126 || first === 63 ? 1 : 0;
  let end = start;
  if (isLetter(token.charCodeAt(end))) {
    end++;
    while (end < token.length && isAlphanumeric(token.charCodeAt(end))) end++;
  }
  const rest = end === token.length ? '' : token.slice(end);
  const matched = end > start && (rest === '' || !breaks || !LINE_TERMINATOR.test(rest));
  const name = matched ? mechanismName(token, start, end) : undefined;
  if (name === undefined) {
    return unknownMechanism(token, matched ? token.slice(start, end).toLowerCase() : '');
  }
  const qualifier = (start === 1 ? token[0] : '+') as SpfQualifier;
  const term: SpfMechanism = { kind: 'mechanism', text: token, qualifier, name };

  switch (name) {
    case 'all':
      // Not `rest === ''`: "-all" usually ends a record, after the optimiser has compiled this
      // function, and a comparison it has never seen run made it start over (bench/parsers).
      return rest ? syntaxError(token, '"all" takes no argument (RFC 7208 §5.1)') : term;
    case 'include':
    case 'exists': {
      if (!rest.startsWith(':')) {
        return syntaxError(token, `"${name}" needs ":domain" (RFC 7208 §5.2, §5.7)`);
      }
      const spec = rest.slice(1);
      const error = checkDomainSpec(spec);
      if (error) return syntaxError(token, error);
      term.domainSpec = spec;
      return term;
    }
    case 'ptr': {
      if (rest === '') return term;
      if (!rest.startsWith(':')) {
        return syntaxError(token, '"ptr" takes only ":domain" (RFC 7208 §5.5)');
      }
      const spec = rest.slice(1);
      const error = checkDomainSpec(spec);
      if (error) return syntaxError(token, error);
      term.domainSpec = spec;
      return term;
    }
    case 'a':
    case 'mx': {
      // Bare "a" or "mx" (most of them): nothing to match, and no match array to make.
      if (rest === '') return term;
      const dual = DUAL.exec(rest);
      if (!dual) {
        return syntaxError(
          token,
          `expected ${name}[:domain][/ip4-prefix][//ip6-prefix] without leading zeros (RFC 7208 §5.3, §5.4)`,
        );
      }
      const spec = dual[1];
      const c4 = dual[2];
      const c6 = dual[3];
      const cidr4 = c4 === undefined ? undefined : Number(c4);
      const cidr6 = c6 === undefined ? undefined : Number(c6);
      if (cidr4 !== undefined && cidr4 > 32) {
        return syntaxError(token, `IPv4 prefix /${cidr4} is over 32`);
      }
      if (cidr6 !== undefined && cidr6 > 128) {
        return syntaxError(token, `IPv6 prefix //${cidr6} is over 128`);
      }
      if (spec !== undefined) {
        const error = checkDomainSpec(spec);
        if (error) return syntaxError(token, error);
        term.domainSpec = spec;
      }
      if (cidr4 !== undefined) term.cidr4 = cidr4;
      if (cidr6 !== undefined) term.cidr6 = cidr6;
      return term;
    }
    case 'ip4': {
      const ip = IP4.exec(rest);
      if (!ip) {
        return syntaxError(
          token,
          'expected ip4:a.b.c.d[/0-32] with four decimal parts (RFC 7208 §5.6)',
        );
      }
      const cidr4 = ip[2] === undefined ? undefined : Number(ip[2]);
      if (cidr4 !== undefined && cidr4 > 32) {
        return syntaxError(token, `IPv4 prefix /${cidr4} is over 32`);
      }
      term.network = ip[1] as string;
      if (cidr4 !== undefined) term.cidr4 = cidr4;
      return term;
    }
    case 'ip6': {
      const networkEnd = ip6NetworkEnd(rest);
      const network = networkEnd === -1 ? '' : rest.slice(1, networkEnd);
      if (networkEnd === -1 || !isIpv6Text(network)) {
        return syntaxError(token, 'expected ip6:<IPv6 address>[/0-128] (RFC 7208 §5.6)');
      }
      const cidr6 = networkEnd === rest.length ? undefined : Number(rest.slice(networkEnd + 1));
      if (cidr6 !== undefined && cidr6 > 128) {
        return syntaxError(token, `IPv6 prefix /${cidr6} is over 128`);
      }
      term.network = network;
      if (cidr6 !== undefined) term.cidr6 = cidr6;
      return term;
    }
  }
}

function unknownMechanism(token: string, rawName: string): SpfSyntaxError {
  const hint =
    rawName === 'redirect' || rawName === 'exp'
      ? ` ("${rawName}" is a modifier: write ${rawName}=domain)`
      : rawName === 'ip'
        ? ' (did you mean ip4: or ip6:?)'
        : '';
  return {
    term: token,
    message: `"${token}" is not a known mechanism or a modifier${hint} (RFC 7208 §4.6.1, §5)`,
  };
}

/** True for the terms that cost one of the ten DNS lookups (§4.6.4). */
export function causesLookup(term: SpfTerm): boolean {
  if (term.kind === 'modifier') return term.name === 'redirect';
  return (
    term.name === 'include' ||
    term.name === 'a' ||
    term.name === 'mx' ||
    term.name === 'ptr' ||
    term.name === 'exists'
  );
}
