/**
 * A direct-mapped cache from a positive integer key (an MMDB data pointer, an ASN row) to a
 * shaped value: one multiply and one array read per lookup, no allocation, and a colliding
 * key simply replaces the old entry. Decoding a record costs about a microsecond, a hit a few
 * nanoseconds; with 2^16 slots, uniformly random IPv4 addresses hit about 88 % of the time on
 * the DB-IP City data (measured when this was written).
 * @module
 */
export class PointerCache<T> {
  private readonly keys: Uint32Array;
  private readonly values: (T | undefined)[];
  private readonly shift: number;

  /** @param bits log2 of the slot count. @default 16 */
  constructor(bits = 16) {
    this.keys = new Uint32Array(1 << bits);
    this.values = new Array<T | undefined>(1 << bits).fill(undefined);
    this.shift = 32 - bits;
  }

  /** The value stored for `key` (> 0), if still present. */
  get(key: number): T | undefined {
    const slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    return this.keys[slot] === key ? this.values[slot] : undefined;
  }

  set(key: number, value: T): void {
    const slot = Math.imul(key, 0x9e3779b1) >>> this.shift;
    this.keys[slot] = key;
    this.values[slot] = value;
  }
}
