/**
 * xorshift32 (Marsaglia, "Xorshift RNGs", 2003): a fixed seed gives the same numbers on every
 * run, so a test over random addresses fails reproducibly. Not for anything but tests.
 */
export function seededRandom32(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
}
