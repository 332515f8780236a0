/**
 * SPF record selection and parsing (RFC 7208 §4.5, §4.6.1, §5, §6 and the ABNF of §12).
 * Parsing is total: every syntax error is collected with its offending term, so that the
 * analyser can report them all while the evaluator treats any of them as "permerror" (§4.6).
 * @module
 */
import { isAsciiLetter } from '../../ascii.js';
import { ipv6RunEnd } from '../../ip/address.js';
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
 * are case-insensitive), as a number (M_ALL…M_EXISTS, an index into MECHANISM_NAMES), or -1 for
 * any other name. Told apart by length and then character codes: a slice, a lower-cased copy
 * and a hash per term were a sixth of the parse of a record of thousands of short terms, and a
 * loop over the eight names comparing each was still a third of it (bench/parsers). A number,
 * not the name: `directive` then switches on numbers, not on strings compared one by one.
 */
function mechanismName(token: string, start: number, end: number): number {
  const at = (i: number) => token.charCodeAt(start + i) | 0x20;
  switch (end - start) {
    case 1:
      return at(0) === 0x61 ? M_A : -1;
    case 2:
      return at(0) === 0x6d && at(1) === 0x78 ? M_MX : -1;
    case 3: {
      const a = at(0);
      const b = at(1);
      const c = at(2);
      if (a === 0x61) return b === 0x6c && c === 0x6c ? M_ALL : -1;
      if (a === 0x70) return b === 0x74 && c === 0x72 ? M_PTR : -1;
      if (a !== 0x69 || b !== 0x70) return -1;
      // "4" and "6" are digits: `| 0x20` leaves them as they are.
      return c === 0x34 ? M_IP4 : c === 0x36 ? M_IP6 : -1;
    }
    case 6:
      return sameLetters(token, start, 'exists') ? M_EXISTS : -1;
    case 7:
      return sameLetters(token, start, 'include') ? M_INCLUDE : -1;
    default:
      return -1;
  }
}

/** The mechanisms by number (see mechanismName). */
const M_ALL = 0;
const M_INCLUDE = 1;
const M_A = 2;
const M_MX = 3;
const M_PTR = 4;
const M_IP4 = 5;
const M_IP6 = 6;
const M_EXISTS = 7;
/** The names of M_ALL…M_EXISTS, in that order. */
const MECHANISM_NAMES: readonly SpfMechanismName[] = [
  'all',
  'include',
  'a',
  'mx',
  'ptr',
  'ip4',
  'ip6',
  'exists',
];

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

/** What the last term read was, for parseSpfRecord (set where the term or error is built). */
const TERM = 0;
const FAILED = 1;
const ALL = 2;
const REDIRECT = 3;
const EXP = 4;
let outcome = TERM;

/** A syntax error of `term`; tells parseSpfRecord so through `outcome`. */
function failure(term: string, message: string): SpfSyntaxError {
  outcome = FAILED;
  return { term, message };
}

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
  // §4.6.1 / §12: terms are separated by one or more SP; nothing else separates them. Read
  // term by term, not with `split(' ')`: an array of every term of a 64 KiB record was a tenth
  // of its parse (bench/parsers). The next SP is found by character codes: `indexOf` cost a
  // call into the runtime per term, more than reading the 3–6 characters of a short one.
  const terms = result.terms;
  for (let from = 'v=spf1'.length; from < record.length; ) {
    let end = from;
    // Whether the term holds a line terminator (which the grammar's `.` does not match), noted
    // while looking for its end: a pattern test of the whole record first was a tenth of
    // parseSpfRecord's own time on thousands of short terms (bench/parsers).
    let breaks = false;
    for (; end < record.length; end++) {
      const code = record.charCodeAt(end);
      if (code > 0x20) {
        if (code >= 0x2028 && code <= 0x2029) breaks = true;
      } else if (code === 0x20) break;
      else if (code === 0x0a || code === 0x0d) breaks = true;
    }
    const start = from;
    from = end + 1;
    if (end === start) continue;
    const token = record.slice(start, end);
    outcome = TERM;
    const parsed = breaks ? parseTerm(token, true) : readTerm(token);
    // What the term was, from `outcome` rather than `'message' in parsed`, `parsed.kind` and
    // `parsed.name`: terms and errors come in a dozen hidden classes, and once a process has
    // parsed a few kinds of record (as bench/parsers does, case after case) those reads were
    // megamorphic: "thousands of short valid terms" read 4.4x the yardstick after the other
    // SPF cases against 3.5x alone, and this channel alone took it and "a x=y mx//64" from
    // 3.8x and 4.4x to 2.9x and 3.3x (fresh processes, medians of 21).
    const seen = outcome;
    if (seen === TERM) {
      terms.push(parsed as SpfTerm);
      continue;
    }
    if (seen === FAILED) {
      result.errors.push(parsed as SpfSyntaxError);
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
    terms.push(parsed as SpfTerm);
    if (seen === ALL) {
      result.hasAll = true;
      continue;
    }
    const name = seen === REDIRECT ? 'redirect' : 'exp';
    if (result[name]) {
      result.errors.push({
        term: token,
        message: `"${name}" appears more than once; it may appear at most once (RFC 7208 §6)`,
      });
      continue;
    }
    result[name] = parsed as SpfModifier;
  }
  return result;
}

const MODIFIER = /^([a-zA-Z][a-zA-Z0-9\-_.]*)=(.*)$/;

/**
 * Parses one term: a modifier when it starts `name=`, otherwise a directive (§4.6.1).
 * `breaks`: false when the term is known to hold no line terminator (the record was checked).
 */
export function parseTerm(token: string, breaks = true): SpfTerm | SpfSyntaxError {
  if (!breaks) return readTerm(token);
  // Without '=' it cannot be a modifier: most terms skip the pattern (and its match array).
  if (token.includes('=')) {
    const modifier = MODIFIER.exec(token);
    if (modifier) return parseModifier(token, modifier[1] as string, modifier[2] as string);
  }
  return parseDirective(token, true);
}

/**
 * parseTerm of a term that holds no line terminator, in one pass over its name: a modifier
 * name (MODIFIER's `[a-zA-Z][a-zA-Z0-9\-_.]*=`) starts with a mechanism name
 * (`[a-zA-Z][a-zA-Z0-9]*`), so the letters and digits read for one serve the other. A search
 * for "=" before them, then the names read one after the other, was a tenth of the parse of
 * thousands of short terms (bench/parsers).
 */
function readTerm(token: string): SpfTerm | SpfSyntaxError {
  const first = token.charCodeAt(0);
  if (!isAsciiLetter(first)) return directive(token, false, qualified(first) ? 1 : 0);
  let end = 1;
  let upper = isUpper(first);
  for (; end < token.length; end++) {
    const code = token.charCodeAt(end);
    if (!isAlphanumeric(code)) break;
    if (isUpper(code)) upper = true;
  }
  let i = end;
  for (; i < token.length; i++) {
    const code = token.charCodeAt(i);
    if (!isModifierNameChar(code)) break;
    if (isUpper(code)) upper = true;
  }
  // `i < length` first: bare "a" and "mx" end there, and a read past the end (NaN) took the
  // optimised code's slow path for every one of them: 3.1x and 3.65x the yardstick without
  // the test on "thousands of short valid terms" and "a x=y mx//64", 2.85x and 3.35x with it
  // (bench/parsers, fresh processes).
  if (i < token.length && token.charCodeAt(i) === 0x3d) {
    // A name without capitals is its own lower case: no copy.
    const name = token.slice(0, i);
    return parseModifier(token, name, token.slice(i + 1), upper ? name.toLowerCase() : name);
  }
  return directive(token, false, 0, end);
}

const isUpper = (code: number) => code >= 0x41 && code <= 0x5a;
/** A qualifier: + - ~ ? (RFC 7208 §4.6.2), compared by code (no string per term). */
const qualified = (code: number) => code === 43 || code === 45 || code === 126 || code === 63;

/** `[a-zA-Z0-9\-_.]` by character code. */
const isModifierNameChar = (code: number) =>
  isAlphanumeric(code) || code === 0x2d || code === 0x5f || code === 0x2e;

/** §6, §7.1: an unknown modifier's value may use the macro letters of `exp=` too. */
const UNKNOWN_MODIFIER = { letters: 'slodiphvcrt' } as const;

function parseModifier(
  token: string,
  rawName: string,
  value: string,
  name = rawName.toLowerCase(),
): SpfTerm | SpfSyntaxError {
  if (name === 'redirect' || name === 'exp') {
    // §6.1, §6.2: the value is a domain-spec; an empty one is a syntax error (RFC 7208
    // erratum 5227 for exp=).
    const error = checkDomainSpec(value);
    if (error) return failure(token, `${name}=: ${error}`);
    outcome = name === 'redirect' ? REDIRECT : EXP;
    return { kind: 'modifier', text: token, name, value };
  }
  // §6: unknown modifiers are ignored, but their value must still be a valid macro-string.
  const error = macroStringError(value, UNKNOWN_MODIFIER);
  if (error !== undefined) return failure(token, `modifier "${rawName}": ${error}`);
  return { kind: 'modifier', text: token, name, value };
}

const CIDR4 = '(0|[1-9][0-9]?)';
/** qnum: 0–255 without leading zeros (RFC 7208 §5.6, §12). */
const QNUM = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** ip4-network: exactly four qnums (one pattern rather than a split and a test per part). */
const IP4 = new RegExp(`^:((?:${QNUM}\\.){3}${QNUM})(?:/${CIDR4})?$`);

/**
 * Where the address of an `ip6` argument from `from` ends, as
 * `^:([0-9a-fA-F:.]+)(?:/(0|[1-9][0-9]{0,2}))?$` matches it and when the address is IPv6 text
 * (isIpv6Text): the index after the address (the end of the token, or its "/"), or -1. By
 * character codes: the pattern's match array was a fifth of the parse of a record of
 * thousands of short terms (bench/parsers).
 */
function ip6NetworkEnd(token: string, from: number): number {
  if (token.charCodeAt(from) !== 0x3a) return -1; // ":"
  const n = token.length;
  const end = ipv6RunEnd(token, from + 1, n);
  if (end === -1 || end === n) return end;
  if (token.charCodeAt(end) !== 0x2f) return -1; // "/"
  // CIDR6, `0|[1-9][0-9]{0,2}`, to the end.
  return cidrValue(token, end + 1, n, 3) < 0 ? -1 : end;
}

/** What `readDual` read: the end of the domain-spec (`from` when there is none) and the prefixes (-1: none). */
let dualSpecEnd = 0;
let dualCidr4 = -1;
let dualCidr6 = -1;

/**
 * Whether `token` from `from` (just after "a" or "mx") matches the dual-cidr pattern
 * `^(?::(.+?))?(?:/(0|[1-9][0-9]?))?(?://(0|[1-9][0-9]{0,2}))?$`, with what it read in `dualSpecEnd`,
 * `dualCidr4` and `dualCidr6`. By character codes, from the end: the match array of DUAL was
 * over half the parse of a record of thousands of "a/24" (bench/parsers). The lazy `.+?` takes
 * the longest suffix of prefixes that leaves it one character or more; the suffixes that can
 * match are few: "/c4//c6", "//c6", "/c4" (each a whole run of trailing digits) and "".
 * The term holds no line terminator here (parseDirective rejected those), so `.` is any code.
 */
function readDual(token: string, from: number): boolean {
  const n = token.length;
  if (token.charCodeAt(from) === 0x2f) return readPrefixes(token, from, n);
  const spec = token.charCodeAt(from) === 0x3a; // ":"
  // Without a domain-spec the prefixes must start at `from`; with one, after a character of it.
  const least = spec ? from + 2 : from;
  const digits = digitRunStart(token, from, n);
  if (digits < n && digits > from && token.charCodeAt(digits - 1) === 0x2f) {
    const c6 =
      digits - 2 >= from && token.charCodeAt(digits - 2) === 0x2f
        ? cidrValue(token, digits, n, 3)
        : -1;
    if (c6 >= 0) {
      // "//c6", and "/c4" before it.
      const slashes = digits - 2;
      const digits4 = digitRunStart(token, from, slashes);
      const c4 =
        digits4 < slashes && digits4 > from && token.charCodeAt(digits4 - 1) === 0x2f
          ? cidrValue(token, digits4, slashes, 2)
          : -1;
      if (c4 >= 0 && accepts(spec, least, from, digits4 - 1)) return dual(digits4 - 1, c4, c6);
      if (accepts(spec, least, from, slashes)) return dual(slashes, -1, c6);
    }
    const c4 = cidrValue(token, digits, n, 2);
    if (c4 >= 0 && accepts(spec, least, from, digits - 1)) return dual(digits - 1, c4, -1);
  }
  return accepts(spec, least, from, n) ? dual(n, -1, -1) : false;
}

/**
 * readDual of prefixes without a domain-spec (`from` is at a "/"): `/c4`, `//c6` or `/c4//c6`
 * to the end, read forward. The usual case ("mx/24", "a//64"): read from the end, as a
 * domain-spec needs, it took three runs of digits looked for and a prefix read twice, each in
 * a call of its own, and "a x=y mx//64" took 1.33x the time it takes read forward (alternating
 * batches in one process; bench/parsers' input).
 */
function readPrefixes(token: string, from: number, n: number): boolean {
  let at = from;
  let c4 = -1;
  if (token.charCodeAt(at + 1) !== 0x2f) {
    let end = at + 1;
    while (end < n && isDigit(token.charCodeAt(end))) end++;
    c4 = cidrValue(token, at + 1, end, 2);
    if (c4 < 0) return false;
    if (end === n) return dual(from, c4, -1);
    if (token.charCodeAt(end + 1) !== 0x2f || token.charCodeAt(end) !== 0x2f) return false;
    at = end;
  }
  const c6 = cidrValue(token, at + 2, n, 3);
  return c6 >= 0 && dual(from, c4, c6);
}

/** Whether prefixes starting at `at` leave what the pattern needs before them. */
const accepts = (spec: boolean, least: number, from: number, at: number) =>
  spec ? at >= least : at === from;

function dual(specEnd: number, cidr4: number, cidr6: number): true {
  dualSpecEnd = specEnd;
  dualCidr4 = cidr4;
  dualCidr6 = cidr6;
  return true;
}

/** Where the run of ASCII digits that ends at `end` starts (not before `from`). */
function digitRunStart(token: string, from: number, end: number): number {
  let i = end;
  while (i > from && isDigit(token.charCodeAt(i - 1))) i--;
  return i;
}

/** The text from `start` to `end` as a number when it reads `0|[1-9][0-9]{0,max-1}`, else -1. */
function cidrValue(token: string, start: number, end: number, max: number): number {
  const length = end - start;
  if (length === 0 || length > max) return -1;
  if (length > 1 && token.charCodeAt(start) === 0x30) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const code = token.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + code - 0x30;
  }
  return value;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;
const isAlphanumeric = (code: number) => isAsciiLetter(code) || (code >= 0x30 && code <= 0x39);

const syntaxError = (token: string, why: string): SpfSyntaxError =>
  failure(token, `"${token}": ${why}`);

/** Where a mechanism name, `[a-zA-Z][a-zA-Z0-9]*`, from `start` ends (`start` when none). */
function nameEnd(token: string, start: number): number {
  let end = start;
  if (isAsciiLetter(token.charCodeAt(end))) {
    end++;
    while (end < token.length && isAlphanumeric(token.charCodeAt(end))) end++;
  }
  return end;
}

// The mechanism is built from literals or by assignment (see dualSpecTerm), in the key order
// the optional fields always had, not with `{ ...base, ...(x ? { x } : {}) }`: the spreads were most of the 1.3–3.7 µs a term took
// (0.2–0.6 µs now), and a record of thousands of mechanisms ~270 ms/MiB (bench/parsers).
function parseDirective(token: string, breaks: boolean): SpfTerm | SpfSyntaxError {
  return directive(token, breaks, qualified(token.charCodeAt(0)) ? 1 : 0);
}

/**
 * `^([+\-~?]?)([a-zA-Z][a-zA-Z0-9]*)(.*)$` by hand, without a match array per term: a
 * qualifier (`start` is 1 after one), a name (to `end`, when the caller has read it), and the
 * rest, which may not hold a line terminator (`.` matches none).
 */
function directive(
  token: string,
  breaks: boolean,
  start: number,
  end = nameEnd(token, start),
): SpfTerm | SpfSyntaxError {
  // One function for every mechanism, not one per mechanism: split, it was small enough to be
  // compiled into the record's loop, and in most processes that had run the other worst cases
  // first V8 pretenured the term objects (its allocation-site statistics: every object made at
  // the site survived) and "thousands of short valid terms" read 3.7–6x the yardstick against
  // 2.6x (2.4x with `--no-allocation-site-pretenuring`; bench/parsers' cases, test/adversarial).
  // Indices into the token rather than a slice of its rest: one string fewer per term.
  const bare = end === token.length;
  const matched = end > start && (bare || !breaks || !LINE_TERMINATOR.test(token.slice(end)));
  const mechanism = matched ? mechanismName(token, start, end) : -1;
  if (mechanism < 0) {
    return unknownMechanism(token, matched ? token.slice(start, end).toLowerCase() : '');
  }
  const name = MECHANISM_NAMES[mechanism] as SpfMechanismName;
  const qualifier = (start === 1 ? token[0] : '+') as SpfQualifier;

  switch (mechanism) {
    case M_ALL:
      // Not `rest === ''` (a comparison of its own): "-all" usually ends a record, after the
      // optimiser has compiled this function, and a comparison it has never seen run made it
      // start over (bench/parsers).
      if (!bare) return syntaxError(token, '"all" takes no argument (RFC 7208 §5.1)');
      outcome = ALL;
      return { kind: 'mechanism', text: token, qualifier, name };
    case M_INCLUDE:
    case M_EXISTS: {
      if (token.charCodeAt(end) !== 0x3a) {
        return syntaxError(token, `"${name}" needs ":domain" (RFC 7208 §5.2, §5.7)`);
      }
      const domainSpec = token.slice(end + 1);
      const error = checkDomainSpec(domainSpec);
      if (error) return syntaxError(token, error);
      return { kind: 'mechanism', text: token, qualifier, name, domainSpec };
    }
    case M_PTR: {
      if (bare) return { kind: 'mechanism', text: token, qualifier, name };
      if (token.charCodeAt(end) !== 0x3a) {
        return syntaxError(token, '"ptr" takes only ":domain" (RFC 7208 §5.5)');
      }
      const domainSpec = token.slice(end + 1);
      const error = checkDomainSpec(domainSpec);
      if (error) return syntaxError(token, error);
      return { kind: 'mechanism', text: token, qualifier, name, domainSpec };
    }
    case M_A:
    case M_MX: {
      // Bare "a" or "mx" (most of them): nothing to match.
      if (bare) return { kind: 'mechanism', text: token, qualifier, name };
      if (!readDual(token, end)) {
        return syntaxError(
          token,
          `expected ${name}[:domain][/ip4-prefix][//ip6-prefix] without leading zeros (RFC 7208 §5.3, §5.4)`,
        );
      }
      const specEnd = dualSpecEnd;
      const cidr4 = dualCidr4;
      const cidr6 = dualCidr6;
      if (cidr4 > 32) return syntaxError(token, `IPv4 prefix /${cidr4} is over 32`);
      if (cidr6 > 128) return syntaxError(token, `IPv6 prefix //${cidr6} is over 128`);
      if (specEnd === end) {
        // By assignment, not a literal per combination: see dualSpecTerm.
        const term: SpfMechanism = { kind: 'mechanism', text: token, qualifier, name };
        if (cidr4 >= 0) term.cidr4 = cidr4;
        if (cidr6 >= 0) term.cidr6 = cidr6;
        return term;
      }
      const domainSpec = token.slice(end + 1, specEnd);
      const error = checkDomainSpec(domainSpec);
      if (error) return syntaxError(token, error);
      return dualSpecTerm(token, qualifier, name, domainSpec, cidr4, cidr6);
    }
    case M_IP4: {
      const ip = IP4.exec(token.slice(end));
      if (!ip) {
        return syntaxError(
          token,
          'expected ip4:a.b.c.d[/0-32] with four decimal parts (RFC 7208 §5.6)',
        );
      }
      const network = ip[1] as string;
      if (ip[2] === undefined) return { kind: 'mechanism', text: token, qualifier, name, network };
      const cidr4 = Number(ip[2]);
      if (cidr4 > 32) return syntaxError(token, `IPv4 prefix /${cidr4} is over 32`);
      return { kind: 'mechanism', text: token, qualifier, name, network, cidr4 };
    }
    default: {
      // M_IP6, the last of the eight.
      const networkEnd = ip6NetworkEnd(token, end);
      if (networkEnd === -1) {
        return syntaxError(token, 'expected ip6:<IPv6 address>[/0-128] (RFC 7208 §5.6)');
      }
      const network = token.slice(end + 1, networkEnd);
      if (networkEnd === token.length) {
        return { kind: 'mechanism', text: token, qualifier, name, network };
      }
      const cidr6 = cidrValue(token, networkEnd + 1, token.length, 3);
      if (cidr6 > 128) return syntaxError(token, `IPv6 prefix /${cidr6} is over 128`);
      return { kind: 'mechanism', text: token, qualifier, name, network, cidr6 };
    }
  }
}

// A mechanism with a domain-spec or a network is one object literal with exactly its fields
// (absent ones stay absent), in the key order they always had (domainSpec, network, cidr4,
// cidr6): added to `{ kind, text, qualifier, name }` one by one, each went into a property
// store of its own beside the object, and "thousands of short valid terms" (`ip6:::1`) read
// 3.3x the yardstick against 2.8x with literals. Not for `a`/`mx` with prefixes only: there
// the literals measured slower (3.3x against 2.8x on "a x=y mx//64"; bench/parsers, fresh
// processes).

/** An `a` or `mx` mechanism with a domain-spec; a prefix of -1 is absent. */
function dualSpecTerm(
  text: string,
  qualifier: SpfQualifier,
  name: SpfMechanismName,
  domainSpec: string,
  cidr4: number,
  cidr6: number,
): SpfMechanism {
  if (cidr4 < 0) {
    if (cidr6 < 0) return { kind: 'mechanism', text, qualifier, name, domainSpec };
    return { kind: 'mechanism', text, qualifier, name, domainSpec, cidr6 };
  }
  if (cidr6 < 0) return { kind: 'mechanism', text, qualifier, name, domainSpec, cidr4 };
  return { kind: 'mechanism', text, qualifier, name, domainSpec, cidr4, cidr6 };
}

function unknownMechanism(token: string, rawName: string): SpfSyntaxError {
  const hint =
    rawName === 'redirect' || rawName === 'exp'
      ? ` ("${rawName}" is a modifier: write ${rawName}=domain)`
      : rawName === 'ip'
        ? ' (did you mean ip4: or ip6:?)'
        : '';
  return failure(
    token,
    `"${token}" is not a known mechanism or a modifier${hint} (RFC 7208 §4.6.1, §5)`,
  );
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
