/**
 * A test's prerequisite (a corpus, a tool, a build). Locally a missing one skips its tests with a
 * warning; with `CI=true` it fails the run, so CI cannot pass on missing evidence (issue 20).
 * @module
 */

/** Returns `present`; throws under `CI=true` when it is false. */
export function prerequisite(name: string, present: boolean, hint: string): boolean {
  if (present) return true;
  if (process.env['CI'] === 'true') {
    throw new Error(`prerequisite missing under CI=true: ${name} (${hint})`);
  }
  console.warn(`${name} missing: its tests are skipped (${hint})`);
  return false;
}
