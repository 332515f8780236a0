/**
 * Subresource Integrity (W3C SRI; Observatory `subresource-integrity.js`): scripts from other
 * sites should carry an integrity hash and load over https. Scripts on the same registrable
 * domain (tldts) or relative URLs count as same origin.
 * @module
 */
import { tldts } from '../../net/domain.js';
import { HTML_TYPES, scanHtml } from '../html.js';
import {
  type CheckOutcome,
  type CheckSteps,
  joinedHeader,
  onlyIfWorse,
  type ScanInput,
  toTheEnd,
} from './types.js';

/** Best first. */
const ORDER = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-implemented-but-external-scripts-not-loaded-securely',
  'sri-not-implemented-but-external-scripts-loaded-securely',
  'sri-not-implemented-and-external-scripts-not-loaded-securely',
  'sri-not-implemented-response-not-html',
];

const PASSING = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-not-implemented-response-not-html',
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
  'sri-not-implemented-but-no-scripts-loaded',
];

/**
 * Scripts read in one step of the grade (`sriSteps`): ~3 ms of work. A script with a full URL
 * costs a URL parse and a registrable-domain lookup (tldts), ~1.3 µs together, of a `src` that
 * is a slice of the page (twice the time of a flat string for the URL parser); a 1 MiB page of
 * 22,000 external scripts from distinct sites held the process 26-46 ms per MiB in one step,
 * the longest step of its grade (BENCHMARKS.md, issue 20 item 1).
 */
const SCRIPTS_PER_STEP = 2048;

export function checkSubresourceIntegrity(input: ScanInput): CheckOutcome {
  return toTheEnd(sriSteps(input));
}

/** `checkSubresourceIntegrity` in steps of SCRIPTS_PER_STEP scripts (see `CheckSteps`). */
export function* sriSteps(input: ScanInput): CheckSteps {
  const response = input.auto;
  const done = (result: string, value: string | null = null, present = false): CheckOutcome => ({
    result,
    pass: PASSING.includes(result),
    present,
    value,
  });
  if (!response) return done('sri-not-implemented-but-no-scripts-loaded');
  const mime =
    (joinedHeader(response, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime && !HTML_TYPES.has(mime)) return done('sri-not-implemented-response-not-html');

  const scripts = scanHtml(input.body ?? '').scripts;
  const { parse } = tldts();
  const siteDomain = parse(input.hostname).domain;
  let result: string | null = null;
  let foreign = false;
  const external: string[] = [];
  let read = 0;
  for (const script of scripts) {
    if (++read % SCRIPTS_PER_STEP === 0) yield;
    if (!script.src) continue;
    const relativeProtocol = /^\/\/[^/]/.test(script.src);
    const fullUrl = /^https?:\/\//i.test(script.src);
    const relativeOrigin = !relativeProtocol && !fullUrl;
    const sameSite =
      relativeProtocol || relativeOrigin || (fullUrl && parse(script.src).domain === siteDomain);
    const secureOrigin = relativeOrigin || (sameSite && !relativeProtocol);
    if (!secureOrigin) foreign = true;
    let scheme: string | null = null;
    // Not `URL.canParse` and the scheme from the text, which would skip making the URL object
    // (about a seventh of this check on a page of thousands of external scripts): on Node 20 it
    // answers false for a valid URL with characters outside Latin-1 ("http://é") once the
    // calling code is optimised (found by a property test, 2026-11-29).
    if (fullUrl) {
      try {
        scheme = new URL(script.src).protocol;
      } catch {
        scheme = null;
      }
    }
    const secureScheme =
      scheme === 'https:' || (relativeOrigin && input.url?.protocol === 'https:');
    const { integrity } = script;
    if (!secureOrigin) {
      external.push(script.src);
      if (integrity && !secureScheme) {
        result = onlyIfWorse(
          'sri-implemented-but-external-scripts-not-loaded-securely',
          result,
          ORDER,
        );
      } else if (!integrity && secureScheme) {
        result = onlyIfWorse(
          'sri-not-implemented-but-external-scripts-loaded-securely',
          result,
          ORDER,
        );
      } else if (!integrity && !secureScheme) {
        result = onlyIfWorse(
          'sri-not-implemented-and-external-scripts-not-loaded-securely',
          result,
          ORDER,
        );
      }
    } else if (integrity && secureScheme && result === null) {
      // Credit SRI even on same-origin scripts.
      result = 'sri-implemented-and-all-scripts-loaded-securely';
    }
  }
  const value = external.length > 0 ? external.join(', ').slice(0, 1024) : null;
  if (scripts.length === 0) return done('sri-not-implemented-but-no-scripts-loaded');
  const final =
    result ??
    (foreign
      ? 'sri-implemented-and-external-scripts-loaded-securely'
      : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin');
  return done(final, value, true);
}
