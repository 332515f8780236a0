/**
 * ASCII character classes by code, for the readers of remote text that go character by
 * character (SPF terms, tag lists).
 * @module
 */

/** `[A-Za-z]`: `| 0x20` lower-cases an ASCII letter and turns nothing else into one. */
export const isAsciiLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;
