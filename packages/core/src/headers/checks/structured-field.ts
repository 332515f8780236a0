/**
 * The smallest RFC 8941 (Structured Field Values for HTTP) parser the checks need: an Item
 * whose bare item is a Token, with parameters, and a Dictionary for Permissions-Policy. HTML
 * parses COOP/COEP as structured-field Items: a value that fails to parse is ignored rather
 * than partly honoured, and only a Token is a policy (HTML §7.1.3.2, §7.1.4.2).
 * @module
 */

class Cursor {
  index = 0;
  constructor(readonly text: string) {}
  peek(): string {
    return this.text[this.index] ?? '';
  }
  done(): boolean {
    return this.index >= this.text.length;
  }
  skipSp(): void {
    while (this.peek() === ' ') this.index++;
  }
  skipOws(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.index++;
  }
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;

/** Token, string, number or boolean (RFC 8941 §4.2.3.1); throws on anything else. */
function parseBareItem(c: Cursor): {
  kind: 'token' | 'string' | 'number' | 'boolean';
  value: string;
} {
  const ch = c.peek();
  if (ch === '"') {
    c.index++;
    let out = '';
    while (!c.done()) {
      const next = c.peek();
      c.index++;
      if (next === '\\') {
        const escaped = c.peek();
        if (escaped !== '"' && escaped !== '\\') throw new Error('bad escape');
        out += escaped;
        c.index++;
      } else if (next === '"') {
        return { kind: 'string', value: out };
      } else if (next < ' ' || next > '~') {
        throw new Error('bad string character');
      } else {
        out += next;
      }
    }
    throw new Error('unterminated string');
  }
  if (ch === '*' || /[A-Za-z]/.test(ch)) {
    let out = '';
    while (!c.done() && (TCHAR.test(c.peek()) || c.peek() === ':' || c.peek() === '/')) {
      out += c.peek();
      c.index++;
    }
    return { kind: 'token', value: out };
  }
  if (ch === '-' || /[0-9]/.test(ch)) {
    const match = /^-?\d{1,15}(?:\.\d{1,3})?/.exec(c.text.slice(c.index));
    if (!match) throw new Error('bad number');
    c.index += match[0].length;
    return { kind: 'number', value: match[0] };
  }
  if (ch === '?') {
    c.index++;
    const b = c.peek();
    if (b !== '0' && b !== '1') throw new Error('bad boolean');
    c.index++;
    return { kind: 'boolean', value: b };
  }
  throw new Error(`unexpected ${JSON.stringify(ch)}`);
}

function parseKey(c: Cursor): string {
  if (!/[a-z*]/.test(c.peek())) throw new Error('bad key');
  let out = '';
  while (/[a-z0-9_\-.*]/.test(c.peek()) && !c.done()) {
    out += c.peek();
    c.index++;
  }
  return out;
}

function parseParameters(c: Cursor): void {
  while (c.peek() === ';') {
    c.index++;
    c.skipSp();
    parseKey(c);
    if (c.peek() === '=') {
      c.index++;
      parseBareItem(c);
    }
  }
}

function parseInnerList(c: Cursor): void {
  c.index++; // (
  while (!c.done()) {
    c.skipSp();
    if (c.peek() === ')') {
      c.index++;
      parseParameters(c);
      return;
    }
    parseBareItem(c);
    parseParameters(c);
    if (c.peek() !== ' ' && c.peek() !== ')') throw new Error('bad inner list');
  }
  throw new Error('unterminated inner list');
}

/**
 * The bare item of a structured-field Item when it is a Token, else null (RFC 8941 §4.2:
 * leading/trailing spaces are discarded; anything left over is a failure).
 */
export function parseItemToken(value: string): string | null {
  try {
    const c = new Cursor(value.replace(/^ +| +$/g, ''));
    const item = parseBareItem(c);
    parseParameters(c);
    if (!c.done()) return null;
    return item.kind === 'token' ? item.value : null;
  } catch {
    return null;
  }
}

/** True when `value` parses as an RFC 8941 Dictionary (§4.2.2); returns its keys. */
export function parseDictionaryKeys(value: string): string[] | null {
  try {
    const c = new Cursor(value.replace(/^[ \t]+|[ \t]+$/g, ''));
    const keys: string[] = [];
    while (!c.done()) {
      keys.push(parseKey(c));
      if (c.peek() === '=') {
        c.index++;
        if (c.peek() === '(') parseInnerList(c);
        else {
          parseBareItem(c);
          parseParameters(c);
        }
      } else {
        parseParameters(c);
      }
      c.skipOws();
      if (c.done()) break;
      if (c.peek() !== ',') return null;
      c.index++;
      c.skipOws();
      if (c.done()) return null;
    }
    return keys;
  } catch {
    return null;
  }
}
