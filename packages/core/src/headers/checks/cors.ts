/**
 * CORS (Fetch §3.2; Observatory `cors.js`): a server that echoes the scan's own `Origin` with
 * Access-Control-Allow-Credentials: true grants any site credentialed access.
 * @module
 */
import { type CheckOutcome, joinedHeader, outcome, type ScanInput } from './types.js';

const UNIVERSAL = 'cross-origin-resource-sharing-implemented-with-universal-access';

export function checkCors(input: ScanInput): CheckOutcome {
  const response = input.cors;
  const acao = joinedHeader(response, 'access-control-allow-origin');
  const credentials = joinedHeader(response, 'access-control-allow-credentials');
  let result = 'cross-origin-resource-sharing-not-implemented';
  let value: string | null = null;
  if (response && acao) {
    value = acao.slice(0, 256).trim().toLowerCase();
    if (value === '*') result = 'cross-origin-resource-sharing-implemented-with-public-access';
    else if (acao === response.requestOrigin && credentials?.toLowerCase().trim() === 'true') {
      result = UNIVERSAL;
    } else result = 'cross-origin-resource-sharing-implemented-with-restricted-access';
  }
  return outcome(result, result !== UNIVERSAL, acao !== null, value);
}
