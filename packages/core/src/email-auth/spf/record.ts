/**
 * SPF record selection and parsing (RFC 7208 §4.5, §4.6.1, §5, §6, §12). Every syntax error is
 * collected with its term: the analyser reports them all, the evaluator returns permerror (§4.6).
 * @module
 */
import { isIPv6 } from 'node:net';
import { checkDomainSpec, EXPLAIN_MACRO_LETTERS, macroStringError } from './macro.js';

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

const MECHANISMS = new Set(['all', 'include', 'a', 'mx', 'ptr', 'ip4', 'ip6', 'exists']);

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
  // §4.6.1 / §12: terms are separated by one or more SP; nothing else separates them.
  for (let from = 'v=spf1'.length; from < record.length; ) {
    let end = record.indexOf(' ', from);
    if (end === -1) end = record.length;
    const token = record.slice(from, end);
    from = end + 1;
    if (token === '') continue;
    const parsed = parseTerm(token);
    if ('message' in parsed) {
      result.errors.push(parsed);
      // One syntax error makes the record a permerror (RFC 7208 §4.6): past MAX_ERRORS the
      // rest is not read, which bounds the cost of a hostile record.
      if (result.errors.length === MAX_ERRORS && /[^ ]/.test(record.slice(end))) {
        result.errors.push({
          term: '',
          message: `the rest of the record was not read: it has ${MAX_ERRORS} errors already, and one makes it a permerror (RFC 7208 §4.6)`,
        });
        break;
      }
      continue;
    }
    result.terms.push(parsed);
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

/** Parses one term: a modifier when it starts `name=`, otherwise a directive (§4.6.1). */
export function parseTerm(token: string): SpfTerm | SpfSyntaxError {
  const modifier = MODIFIER.exec(token);
  if (modifier) return parseModifier(token, modifier[1] as string, modifier[2] as string);
  return parseDirective(token);
}

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
  const error = macroStringError(value, { letters: EXPLAIN_MACRO_LETTERS });
  if (error !== undefined) return { term: token, message: `modifier "${rawName}": ${error}` };
  return { kind: 'modifier', text: token, name, value };
}

const CIDR4 = '(0|[1-9][0-9]?)';
const CIDR6 = '(0|[1-9][0-9]{0,2})';
const DUAL = new RegExp(`^(?::(.+?))?(?:/${CIDR4})?(?://${CIDR6})?$`);
/** qnum: 0–255 without leading zeros (RFC 7208 §5.6, §12). */
const QNUM = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
/** ip4-network: exactly four qnums. */
const IP4 = new RegExp(`^:((?:${QNUM}\\.){3}${QNUM})(?:/${CIDR4})?$`);
const IP6 = new RegExp(`^:([0-9a-fA-F:.]+)(?:/${CIDR6})?$`);
/** A qualifier, a name, and the rest (`s`: `.` takes everything, so the match never backtracks). */
const DIRECTIVE = /^([+\-~?]?)([a-zA-Z][a-zA-Z0-9]*)(.*)$/s;
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

const syntaxError = (token: string, why: string): SpfSyntaxError => ({
  term: token,
  message: `"${token}": ${why}`,
});

function parseDirective(token: string): SpfTerm | SpfSyntaxError {
  const directive = DIRECTIVE.exec(token);
  // The rest may not hold a line terminator.
  const rest = directive?.[3] ?? '';
  const matched = directive !== null && !LINE_TERMINATOR.test(rest);
  const rawName = matched ? (directive[2] as string).toLowerCase() : '';
  if (!matched || !MECHANISMS.has(rawName)) return unknownMechanism(token, rawName);
  const qualifier = (directive[1] || '+') as SpfQualifier;
  const name = rawName as SpfMechanismName;
  // Optional fields are set only when present: absent ones stay absent, not undefined.
  const term: SpfMechanism = { kind: 'mechanism', text: token, qualifier, name };

  switch (name) {
    case 'all':
      return rest ? syntaxError(token, '"all" takes no argument (RFC 7208 §5.1)') : term;
    case 'include':
    case 'exists':
    case 'ptr': {
      if (name === 'ptr' && rest === '') return term;
      if (!rest.startsWith(':')) {
        const why =
          name === 'ptr'
            ? '"ptr" takes only ":domain" (RFC 7208 §5.5)'
            : `"${name}" needs ":domain" (RFC 7208 §5.2, §5.7)`;
        return syntaxError(token, why);
      }
      const spec = rest.slice(1);
      const error = checkDomainSpec(spec);
      if (error) return syntaxError(token, error);
      term.domainSpec = spec;
      return term;
    }
    case 'a':
    case 'mx': {
      const dual = DUAL.exec(rest);
      if (!dual) {
        return syntaxError(
          token,
          `expected ${name}[:domain][/ip4-prefix][//ip6-prefix] without leading zeros (RFC 7208 §5.3, §5.4)`,
        );
      }
      const [, spec, c4, c6] = dual;
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
      const ip = IP6.exec(rest);
      if (!ip || !isIPv6(ip[1] as string)) {
        return syntaxError(token, 'expected ip6:<IPv6 address>[/0-128] (RFC 7208 §5.6)');
      }
      const cidr6 = ip[2] === undefined ? undefined : Number(ip[2]);
      if (cidr6 !== undefined && cidr6 > 128) {
        return syntaxError(token, `IPv6 prefix /${cidr6} is over 128`);
      }
      term.network = ip[1] as string;
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
  return ['include', 'a', 'mx', 'ptr', 'exists'].includes(term.name);
}
