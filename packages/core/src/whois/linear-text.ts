/**
 * Clean-ups of remote text in linear time, each giving exactly what the regular expression it
 * replaces gives: those patterns (`\.+$`, `\s+-…$`, `\([^)]*\)`) backtrack quadratically on a
 * long run of one character in a hostile WHOIS line.
 * @module
 */

/** `text` without the run of `char` (one character) at its end: `/char+$/` without the retries. */
export function stripTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * `text.replace(pattern, replacement)` for a pattern whose every match ends at or before the last
 * `close` (then only whitespace when `spaceAfter`): the pattern runs on the text up to there only,
 * so `\([^)]*\)` never scans to the end from each `(` of "((((…".
 */
export function replaceUpTo(
  text: string,
  close: string,
  pattern: RegExp,
  replacement: string,
  spaceAfter = false,
): string {
  let end = text.lastIndexOf(close) + 1;
  if (end === 0) return text;
  if (spaceAfter) while (end < text.length && isSpace(text[end] as string)) end++;
  return text.slice(0, end).replace(pattern, replacement) + text.slice(end);
}

/** JavaScript's `\s`: the characters `trim()` removes. */
const SPACE = /\s/;
const isSpace = (char: string) => SPACE.test(char);
/** Line terminators: what `.` does not match (ECMA-262 §22.2.2.9). */
const LINE_TERMINATORS = ['\n', '\r', '\u2028', '\u2029'];

/**
 * `text.replace(/\s+-(?:\s+.*)?$/, '')`: the text before the first whitespace run followed by
 * "-" and then the end, or whitespace and a rest without a line terminator ("ok - Normal state.",
 * "clientHold -").
 */
export function cutDashTail(text: string): string {
  const lastTerminator = Math.max(...LINE_TERMINATORS.map((t) => text.lastIndexOf(t)));
  for (let dash = text.indexOf('-'); dash !== -1; dash = text.indexOf('-', dash + 1)) {
    if (dash === 0 || !isSpace(text[dash - 1] as string)) continue;
    let end = dash + 1;
    if (end < text.length) {
      // `\s+.*$`: whitespace, then no line terminator up to the end (`\s+` takes the whole
      // run; a shorter one leaves more text for `.*`, never less).
      if (!isSpace(text[end] as string)) continue;
      while (end < text.length && isSpace(text[end] as string)) end++;
      if (lastTerminator >= end) {
        dash = end - 1;
        continue;
      }
    }
    let start = dash - 1;
    while (start > 0 && isSpace(text[start - 1] as string)) start--;
    return text.slice(0, start);
  }
  return text;
}
