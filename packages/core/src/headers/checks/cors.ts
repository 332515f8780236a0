/**
 * Cross-origin resource sharing (Fetch §3.2; Observatory `cors.js`): the scan sends an
 * `Origin` of its own; a server that echoes it back with Access-Control-Allow-Credentials:
 * true grants any site credentialed access ("universal access").
 * @module
 */
import { type CheckOutcome, joinedHeader, type ScanInput } from './types.js';

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
      result = 'cross-origin-resource-sharing-implemented-with-universal-access';
    } else result = 'cross-origin-resource-sharing-implemented-with-restricted-access';
  }
  return {
    result,
    pass: result !== 'cross-origin-resource-sharing-implemented-with-universal-access',
    present: acao !== null,
    value,
  };
}
