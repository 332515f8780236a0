/**
 * Builds the AS index from @ip-location-db/asn CSV files. Row format (package README):
 * `ip_range_start,ip_range_end,autonomous_system_number,autonomous_system_organization`,
 * inclusive ranges; the organisation is RFC 4180-quoted when it holds a comma or a quote.
 * IPv4 comes from `asn-ipv4-num.csv` (ranges as integers: cheaper to parse), IPv6 from
 * `asn-ipv6.csv` (ranges as text: the -num file needs 128-bit integers).
 * @module
 */
import { InvalidInputError } from '../../errors.js';
import { createAddressParts, parseAddressInto } from '../address.js';
import { type AsnIndex, AsnIndexBuilder } from './asn-index.js';

/** A malformed CSV line; the message names the file and line. */
export class AsnCsvError extends InvalidInputError {
  override name = 'AsnCsvError';
}

export function buildAsnIndexFromCsv(v4NumCsv: string, v6Csv: string, source: string): AsnIndex {
  const builder = new AsnIndexBuilder();
  const parts = createAddressParts();
  forEachRow(v4NumCsv, 'asn-ipv4-num.csv', (a, b, asn, name, line) => {
    const start = Number(a);
    const end = Number(b);
    if (!isUint32(start) || !isUint32(end) || end < start) {
      throw new AsnCsvError(`asn-ipv4-num.csv line ${line}: bad range "${a},${b}"`);
    }
    builder.addV4(start, end, builder.entry(asn, name));
  });
  forEachRow(v6Csv, 'asn-ipv6.csv', (a, b, asn, name, line) => {
    if (!parseAddressInto(a, parts) || parts.version !== 6) {
      throw new AsnCsvError(`asn-ipv6.csv line ${line}: bad address "${a}"`);
    }
    const first = [parts.w0, parts.w1, parts.w2, parts.w3];
    if (!parseAddressInto(b, parts) || parts.version !== 6) {
      throw new AsnCsvError(`asn-ipv6.csv line ${line}: bad address "${b}"`);
    }
    builder.addV6(first, [parts.w0, parts.w1, parts.w2, parts.w3], builder.entry(asn, name));
  });
  return builder.build(source);
}

const isUint32 = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= 0xffffffff;

/**
 * Calls `row` for each non-empty line: start, end, AS number, organisation, line number.
 */
export function forEachRow(
  text: string,
  file: string,
  row: (start: string, end: string, asn: number, name: string, line: number) => void,
): void {
  let pos = 0;
  let line = 0;
  const length = text.length;
  while (pos < length) {
    line++;
    let eol = text.indexOf('\n', pos);
    if (eol < 0) eol = length;
    const lineEnd = eol > pos && text.charCodeAt(eol - 1) === 13 ? eol - 1 : eol;
    if (lineEnd > pos) {
      const c1 = text.indexOf(',', pos);
      const c2 = c1 < 0 ? -1 : text.indexOf(',', c1 + 1);
      const c3 = c2 < 0 ? -1 : text.indexOf(',', c2 + 1);
      if (c3 < 0 || c3 > lineEnd) {
        throw new AsnCsvError(`${file} line ${line}: expected 4 comma-separated fields`);
      }
      const asn = Number(text.slice(c2 + 1, c3));
      if (!isUint32(asn)) {
        throw new AsnCsvError(`${file} line ${line}: bad AS number "${text.slice(c2 + 1, c3)}"`);
      }
      let name = text.slice(c3 + 1, lineEnd);
      if (name.charCodeAt(0) === 34) {
        if (name.length < 2 || name.charCodeAt(name.length - 1) !== 34) {
          throw new AsnCsvError(`${file} line ${line}: unterminated quoted field`);
        }
        name = name.slice(1, -1).replaceAll('""', '"');
      }
      row(text.slice(pos, c1), text.slice(c1 + 1, c2), asn, name, line);
    }
    pos = eol + 1;
  }
}
