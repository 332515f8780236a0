/**
 * CORP (Fetch §3.7), COOP (HTML §7.1.3) and COEP (HTML §7.1.4), as Observatory
 * `cross-origin-*-policy.js`: COOP and COEP are RFC 8941 Items whose token must match exactly
 * (`Same-Origin` and `"require-corp"` are invalid), and must not repeat.
 * @module
 */
import { parseItemToken } from './structured-field.js';
import {
  type CheckOutcome,
  headerValues,
  joinedHeader,
  outcome,
  type ScanInput,
  shownValue,
} from './types.js';

export function checkCorp(input: ScanInput): CheckOutcome {
  const response = input.auto;
  const header = joinedHeader(response, 'cross-origin-resource-policy');
  const meta = response?.httpEquiv['cross-origin-resource-policy'] ?? [];
  const raw = header ?? meta.at(-1) ?? null;
  let result = 'corp-not-implemented';
  let value: string | null = null;
  if (response && raw) {
    value = raw.slice(0, 256).trim().toLowerCase();
    result = ['same-site', 'same-origin', 'cross-origin'].includes(value)
      ? `corp-implemented-with-${value}`
      : 'corp-header-invalid';
  }
  return outcome(result, result !== 'corp-header-invalid', raw !== null, value);
}

function tokenPolicy(
  input: ScanInput,
  header: string,
  prefix: 'coop' | 'coep',
  policies: Record<string, string>,
): CheckOutcome {
  const values = headerValues(input.auto, header);
  let result = `${prefix}-not-implemented`;
  let value: string | null = null;
  if (input.auto && values.length > 1) result = `${prefix}-header-invalid`;
  else if (input.auto && values[0]) {
    value = values[0].slice(0, 1024).trim();
    const token = parseItemToken(value);
    result =
      (token !== null && Object.hasOwn(policies, token) && policies[token]) ||
      `${prefix}-header-invalid`;
  }
  const pass = result !== `${prefix}-header-invalid`;
  return outcome(result, pass, values.length > 0, value ?? shownValue(values));
}

export function checkCoop(input: ScanInput): CheckOutcome {
  return tokenPolicy(input, 'cross-origin-opener-policy', 'coop', {
    'same-origin': 'coop-implemented-with-same-origin',
    'same-origin-allow-popups': 'coop-implemented-with-same-origin-allow-popups',
    'noopener-allow-popups': 'coop-implemented-with-noopener-allow-popups',
    'unsafe-none': 'coop-implemented-with-unsafe-none',
  });
}

export function checkCoep(input: ScanInput): CheckOutcome {
  return tokenPolicy(input, 'cross-origin-embedder-policy', 'coep', {
    'require-corp': 'coep-implemented-with-require-corp',
    credentialless: 'coep-implemented-with-credentialless',
    'unsafe-none': 'coep-implemented-with-unsafe-none',
  });
}
