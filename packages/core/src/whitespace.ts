/**
 * Whitespace by code unit, as `String.prototype.trim` and `/\s/` see it (ECMA-262 §12.2
 * WhiteSpace, §12.3 LineTerminator): for scanners that read text in place instead of trimming
 * or splitting copies of it.
 * @module
 */

/** What `\s` matches outside ASCII. */
export const OTHER_WHITESPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/g;

/** Whether code unit `u` (not ASCII) is one that `OTHER_WHITESPACE` matches. */
export function isOtherWhitespace(u: number): boolean {
  return (
    u === 0xa0 ||
    u === 0x1680 ||
    (u >= 0x2000 && u <= 0x200a) ||
    u === 0x2028 ||
    u === 0x2029 ||
    u === 0x202f ||
    u === 0x205f ||
    u === 0x3000 ||
    u === 0xfeff
  );
}

/** Whether code unit `u` (NaN past the end: no) is whitespace for `trim` and `/\s/`. */
export function isWhitespaceCode(u: number): boolean {
  if (u < 128) return u === 0x20 || (u >= 0x09 && u <= 0x0d);
  return isOtherWhitespace(u);
}
