/**
 * Subresource Integrity (W3C SRI; Observatory `subresource-integrity.js`): scripts from other
 * registrable domains (tldts) should carry an integrity hash and load over https.
 * @module
 */
import { tldts } from '../../net/domain.js';
import { HTML_TYPES, scanHtml } from '../html.js';
import {
  type CheckOutcome,
  joinedHeader,
  onlyIfWorse,
  outcome,
  type ScanInput,
  shownValue,
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

export function checkSubresourceIntegrity(input: ScanInput): CheckOutcome {
  const response = input.auto;
  const done = (result: string, value: string | null = null, present = false) =>
    outcome(result, PASSING.includes(result), present, value);
  if (!response) return done('sri-not-implemented-but-no-scripts-loaded');
  const mime =
    (joinedHeader(response, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mime && !HTML_TYPES.has(mime)) return done('sri-not-implemented-response-not-html');

  const scripts = scanHtml(input.body ?? '').scripts;
  const { parse } = tldts();
  const siteDomain = parse(input.hostname).domain;
  let result: string | null = null;
  const worse = (candidate: string) => {
    result = onlyIfWorse(candidate, result, ORDER);
  };
  const external: string[] = [];
  for (const script of scripts) {
    if (!script.src) continue;
    const relativeProtocol = /^\/\/[^/]/.test(script.src);
    const fullUrl = /^https?:\/\//i.test(script.src);
    const relativeOrigin = !relativeProtocol && !fullUrl;
    const sameSite =
      relativeProtocol || relativeOrigin || (fullUrl && parse(script.src).domain === siteDomain);
    const secureOrigin = relativeOrigin || (sameSite && !relativeProtocol);
    const scheme = fullUrl && URL.canParse(script.src) ? new URL(script.src).protocol : null;
    const secureScheme =
      scheme === 'https:' || (relativeOrigin && input.url?.protocol === 'https:');
    const { integrity } = script;
    if (!secureOrigin) {
      external.push(script.src);
      if (integrity && !secureScheme) {
        worse('sri-implemented-but-external-scripts-not-loaded-securely');
      } else if (!integrity && secureScheme) {
        worse('sri-not-implemented-but-external-scripts-loaded-securely');
      } else if (!integrity && !secureScheme) {
        worse('sri-not-implemented-and-external-scripts-not-loaded-securely');
      }
    } else if (integrity && secureScheme && result === null) {
      // Credit SRI even on same-origin scripts.
      result = 'sri-implemented-and-all-scripts-loaded-securely';
    }
  }
  if (scripts.length === 0) return done('sri-not-implemented-but-no-scripts-loaded');
  const final =
    result ??
    (external.length > 0
      ? 'sri-implemented-and-external-scripts-loaded-securely'
      : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin');
  return done(final, shownValue(external), true);
}
