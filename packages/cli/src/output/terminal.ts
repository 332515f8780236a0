/**
 * Text from outside — DNS records, blocklist reasons, WHOIS and RDAP fields, SPF and DMARC
 * records, targets echoed in errors — is shown on a terminal with its control characters
 * escaped, so an answer cannot set the window title, clear the screen, blink, move the cursor
 * or reorder what is read. Escaped: C0 (U+0000–U+001F, tab and newline included: the layout's
 * own tabs and newlines are added after), DEL, C1 (U+0080–U+009F, which some terminals read as
 * ESC sequences), and the bidi embedding, override and isolate controls (U+202A–U+202E,
 * U+2066–U+2069; CVE-2021-42574). Each is shown as dig shows bytes in TXT data: a backslash and
 * three decimal digits per UTF-8 byte (ESC → `\027`, BEL → `\007`, U+202E → `\226\128\174`).
 * JSON keeps the exact value: it escapes C0 itself, and the rest is written as `\uXXXX`.
 * @module
 */
import type { CliIO } from '../io.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** What JSON.stringify leaves raw of the above (it escapes C0 already). */
const JSON_RAW = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function digEscape(char: string): string {
  let out = '';
  for (const byte of Buffer.from(char, 'utf8')) out += `\\${String(byte).padStart(3, '0')}`;
  return out;
}

/** `text` with every control character escaped dig-style. */
export function escapeControls(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, digEscape) : text;
}

/** A copy of an answer (plain JSON data) with every string, keys included, escaped. */
export function escapeStrings<T>(value: T): T {
  if (typeof value === 'string') return escapeControls(value) as T;
  if (Array.isArray(value)) return value.map(escapeStrings) as T;
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[escapeControls(key)] = escapeStrings(child);
  return out as T;
}

/** JSON text with DEL, C1 and bidi controls as `\uXXXX`: the same value, safe to show. */
export function escapeJson(text: string): string {
  return text.replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The one error printer: `netdiag: <message>` on stderr, escaped when stderr is a terminal
 * (a message may quote a target or an upstream's words).
 */
export function printError(io: CliIO, message: string): void {
  io.stderr(`netdiag: ${io.stderrIsTTY ? escapeControls(message) : message}\n`);
}

/** Commander's own error lines (they quote the argument given): each line escaped on a terminal. */
export function escapeLines(io: CliIO, text: string): string {
  if (!io.stderrIsTTY) return text;
  return text
    .split('\n')
    .map((line) => escapeControls(line))
    .join('\n');
}
