/**
 * Builds the AS index from a MaxMind-format ASN database (GeoLite2-ASN, GeoIP2-ASN) or ISP
 * database (GeoIP2-ISP, which adds `isp` and `organization`): every network becomes one range.
 * @module
 */
import { prefixMask } from '../../net/cidr.js';
import type { MmdbDatabase } from '../mmdb/database.js';
import { type AsnIndex, AsnIndexBuilder } from './asn-index.js';

export function buildAsnIndexFromMmdb(db: MmdbDatabase, source: string): AsnIndex {
  const builder = new AsnIndexBuilder();
  const entryByPointer = new Map<number, number>();
  db.forEachNetwork((network) => {
    let entry = entryByPointer.get(network.pointer);
    if (entry === undefined) {
      const record = db.record(network.pointer) ?? {};
      const asn = record['autonomous_system_number'];
      entry =
        typeof asn === 'number'
          ? builder.entry(
              asn,
              text(record['autonomous_system_organization']),
              text(record['organization']),
              text(record['isp']),
            )
          : -1;
      entryByPointer.set(network.pointer, entry);
    }
    if (entry < 0) return;
    if (network.version === 4) {
      const last = (network.w3 | ~prefixMask(network.prefix)) >>> 0;
      builder.addV4(network.w3, last, entry);
    } else {
      const words = [network.w0, network.w1, network.w2, network.w3];
      // Word k holds address bits 32k..32k+31; the host bits are those from `prefix` on.
      const last = words.map((w, k) => (w | ~prefixMask(network.prefix - 32 * k)) >>> 0);
      builder.addV6(words, last, entry);
    }
  });
  return builder.build(source);
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
