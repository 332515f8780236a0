/**
 * SPF macros (RFC 7208 §7): parsing a macro-string into tokens, checking a domain-spec
 * (`macro-string domain-end`, §7.1), and expanding tokens for one check (§7.2–7.4).
 * @module
 */

export type MacroToken =
  | { kind: 'literal'; text: string }
  | {
      kind: 'macro';
      /** Lower-case macro letter (`s l o d i p h v`, plus `c r t` in explanations). */
      letter: string;
      /** Upper-case letter: the expansion is URL-escaped (§7.3). */
      escape: boolean;
      /** Keep only this many right-hand parts (§7.3, nonzero); `undefined` keeps all. */
      keep: number | undefined;
      reverse: boolean;
      /** Characters that split the value; `.` when none are given (§7.3). */
      delimiters: string;
      text: string;
    };

/** Letters allowed in domain-specs (§7.2). */
const DOMAIN_MACRO_LETTERS = 'slodiphv';
/** `c`, `r` and `t` are allowed only in explanation strings (§7.2). */
export const EXPLAIN_MACRO_LETTERS = 'slodiphvcrt';

export interface ParseMacroOptions {
  /** Letters accepted in `%{…}`. @default DOMAIN_MACRO_LETTERS */
  letters?: string;
  /** Allow spaces (explain-string, §7.1 `*( macro-string / SP )`). @default false */
  allowSpace?: boolean;
}

export type MacroParse = { ok: true; tokens: MacroToken[] } | { ok: false; error: string };

const bad = (error: string): MacroParse => ({ ok: false, error });

/** `%{…}` at `lastIndex` (sticky). */
const MACRO_EXPAND = /%\{([a-zA-Z])(\d*)([rR]?)([.\-+,/_=]*)\}/y;

/**
 * Tokenises a macro-string (§7.1): `%{…}`, `%%`, `%_`, `%-`, and literal characters
 * %x21-24 / %x26-7E. Anything else (a bare `%`, a control or non-ASCII character, a space
 * outside an explanation, an unknown macro letter, a zero part count) is a syntax error.
 */
export function parseMacroString(text: string, options: ParseMacroOptions = {}): MacroParse {
  const letters = options.letters ?? DOMAIN_MACRO_LETTERS;
  const allowSpace = Boolean(options.allowSpace);
  const tokens: MacroToken[] = [];
  let literal = '';
  let start = 0;
  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code === 0x25 /* % */) {
      literal += text.slice(start, i);
      const next = text[i + 1];
      if (next === '%' || next === '_' || next === '-') {
        literal += next === '%' ? '%' : next === '_' ? ' ' : '%20';
        i += 2;
        start = i;
        continue;
      }
      MACRO_EXPAND.lastIndex = i;
      const match = MACRO_EXPAND.exec(text);
      if (!match) {
        return bad(
          `"${text.slice(i, i + 6)}" is not a macro: "%" must start %{x}, %%, %_ or %- (RFC 7208 §7.1)`,
        );
      }
      const [whole, letterText = '', digits = '', reverse = '', delimiters = ''] = match;
      const letter = letterText.toLowerCase();
      if (!letters.includes(letter)) {
        const where = letters.includes('c') ? '' : ' outside an explanation';
        return bad(
          `"${whole}" uses the macro letter "${letterText}", which is not allowed${where} (RFC 7208 §7.2)`,
        );
      }
      const keep = digits === '' ? undefined : Number(digits);
      if (keep === 0) {
        return bad(`"${whole}" keeps zero parts; the part count must be nonzero (RFC 7208 §7.3)`);
      }
      if (literal) tokens.push({ kind: 'literal', text: literal });
      literal = '';
      tokens.push({
        kind: 'macro',
        letter,
        escape: letterText !== letter,
        keep,
        reverse: reverse !== '',
        delimiters: delimiters || '.',
        text: whole,
      });
      i += whole.length;
      start = i;
      continue;
    }
    const visible = code >= 0x21 && code <= 0x7e;
    if (!visible && !(allowSpace && code === 0x20)) {
      return bad(
        `character ${describeChar(text[i] as string)} is not allowed in a macro-string (RFC 7208 §7.1; records are 7-bit ASCII, §3.1)`,
      );
    }
    i += 1;
  }
  literal += text.slice(start);
  if (literal) tokens.push({ kind: 'literal', text: literal });
  return { ok: true, tokens };
}

/** toplabel = ( *alphanum ALPHA *alphanum ) / ( 1*alphanum "-" *( alphanum / "-" ) alphanum ) */
const TOPLABEL_PATTERN = '[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9]';
const TOPLABEL = new RegExp(`^(?:${TOPLABEL_PATTERN})$`, 'i');

/**
 * `%{…}` with a domain-spec letter and a nonzero part count (§7.1–7.3), any case. The count
 * matches in one way only, so a failed match cannot backtrack exponentially.
 */
const DOMAIN_MACRO = macroPattern(DOMAIN_MACRO_LETTERS);

function macroPattern(letters: string): string {
  return `%\\{[${letters}](?:0*[1-9]\\d*)?r?[.\\-+,/_=]*\\}`;
}
/**
 * Domain-specs that certainly check out, tested without building tokens so that the parse of a
 * hostile record stays linear (test/adversarial); anything else is tokenised.
 */
const VALID_DOMAIN_SPEC = new RegExp(
  `^(?:[!-$&-~]|${DOMAIN_MACRO})*(?:${DOMAIN_MACRO}|\\.(?=[a-z0-9-]+\\.?$)(?:${TOPLABEL_PATTERN})\\.?)$`,
  'i',
);

/** Everything up to the end of the last macro of a valid domain-spec macro-string. */
const LAST_MACRO = new RegExp(`^(?:[!-$&-~]|%[%_-]|${DOMAIN_MACRO})*${DOMAIN_MACRO}`, 'i');

/** The longest start of a macro-string that tokenises (§7.1); global, for `lastIndex`. */
function validStart(letters: string, allowSpace: boolean): RegExp {
  const literal = allowSpace ? '[ !-$&-~]' : '[!-$&-~]';
  return new RegExp(`^(?:${literal}|%[%_-]|${macroPattern(letters)})*`, 'gi');
}
/** validStart patterns by letters and allowSpace, built on first use. */
const validStarts = new Map<string, RegExp>();

/** `parseMacroString(text, options).error`, tokenising only from the first bad token on. */
export function macroStringError(
  text: string,
  options: ParseMacroOptions = {},
): string | undefined {
  const letters = options.letters ?? DOMAIN_MACRO_LETTERS;
  const space = Boolean(options.allowSpace);
  const key = space ? `${letters} ` : letters;
  const pattern = validStarts.get(key) ?? validStart(letters, space);
  validStarts.set(key, pattern);
  pattern.lastIndex = 0;
  pattern.test(text);
  const valid = pattern.lastIndex;
  if (valid === text.length) return undefined;
  const parsed = parseMacroString(text.slice(valid), options);
  return parsed.ok ? undefined : parsed.error;
}

/**
 * The error of a domain-spec (§7.1: `macro-string domain-end`), or `undefined` when it is valid.
 * Syntax is checked before expansion, never after (§7.1).
 */
export function checkDomainSpec(spec: string): string | undefined {
  if (spec === '') return 'the domain is empty';
  if (VALID_DOMAIN_SPEC.test(spec)) return undefined;
  const error = macroStringError(spec);
  if (error !== undefined) return error;
  // A valid macro-string: only what follows its last macro can be the domain-end.
  const start = LAST_MACRO.exec(spec)?.[0].length ?? 0;
  if (start === spec.length) return undefined;
  const parsed = parseMacroString(spec.slice(start));
  const last = parsed.ok ? parsed.tokens[parsed.tokens.length - 1] : undefined;
  // The domain-end is in the final literal run: "." toplabel, optionally followed by ".".
  const tail = (last?.text ?? '').replace(/\.$/, '');
  const dot = tail.lastIndexOf('.');
  const toplabel = dot === -1 ? '' : tail.slice(dot + 1);
  // No macro at all (`start` 0): the whole spec is one literal token.
  if (dot === -1 && start === 0) {
    return `"${spec}" is not a fully qualified domain name (RFC 7208 §7.1 domain-end)`;
  }
  if (!TOPLABEL.test(toplabel)) {
    return `"${spec}" does not end in a valid top-level label ("${toplabel}"; RFC 7208 §7.1 toplabel)`;
  }
  return undefined;
}

/**
 * What the macros of one check expand to (§7.2, §7.3), by letter: s `sender` (`local@domain`),
 * l `local`, o `senderDomain`, d `domain` (the current one), i `ipDotted` (dotted quad or 32
 * nibbles), c `ipText`, v `ipVersionLabel`, h `helo`, r `receiver`, t `timestamp` (seconds),
 * p `validatedName` ("unknown" when none).
 */
export interface MacroContext {
  sender: string;
  local: string;
  senderDomain: string;
  domain: string;
  ipDotted: string;
  ipText: string;
  ipVersionLabel: 'in-addr' | 'ip6';
  helo: string;
  receiver: string;
  timestamp: number;
  validatedName: () => Promise<string>;
}

/** Expands parsed tokens (§7.3): split, reverse, keep right-hand parts, join with ".", escape. */
export async function expandTokens(tokens: readonly MacroToken[], ctx: MacroContext) {
  let out = '';
  for (const token of tokens) {
    if (token.kind === 'literal') {
      out += token.text;
      continue;
    }
    const value = await macroValue(token.letter, ctx);
    const splitter = new RegExp(`[${escapeClass(token.delimiters)}]`);
    let parts = value.split(splitter);
    if (token.reverse) parts = parts.reverse();
    if (token.keep !== undefined && token.keep < parts.length) parts = parts.slice(-token.keep);
    const joined = parts.join('.');
    out += token.escape ? urlEscape(joined) : joined;
  }
  return out;
}

/**
 * An expanded domain-spec as a query name: without the trailing dot (§7.1 test suite), and over
 * 253 characters, without labels on the left until it fits (§7.3).
 */
export function toTargetName(expanded: string): string {
  let name = expanded.replace(/\.$/, '');
  while (name.length > 253 && name.includes('.')) name = name.slice(name.indexOf('.') + 1);
  return name;
}

/** A DNS question name (RFC 1035 §2.3.4) of at least two labels (RFC 7208 §4.3). */
export function isQueryableName(name: string): boolean {
  if (name === '' || name.length > 253) return false;
  const labels = name.split('.');
  if (labels.length < 2) return false;
  return labels.every((l) => l.length > 0 && Buffer.byteLength(l) <= 63);
}

async function macroValue(letter: string, ctx: MacroContext): Promise<string> {
  if (letter === 'p') return ctx.validatedName();
  const values: Record<string, string> = {
    s: ctx.sender,
    l: ctx.local,
    o: ctx.senderDomain,
    d: ctx.domain,
    i: ctx.ipDotted,
    c: ctx.ipText,
    v: ctx.ipVersionLabel,
    h: ctx.helo,
    r: ctx.receiver,
    t: String(ctx.timestamp),
  };
  return values[letter] ?? '';
}

/** RFC 3986 unreserved characters stay; everything else becomes %XX of its UTF-8 bytes. */
function urlEscape(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch)
      ? ch
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function escapeClass(chars: string): string {
  return chars.replace(/[\\\]^-]/g, (c) => `\\${c}`);
}

function describeChar(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
