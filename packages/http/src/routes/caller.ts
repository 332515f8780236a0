/**
 * Caller endpoints and the breach check: `GET /api/ip`, `GET /api/v1/ip`, `GET /api/score`
 * (SPEC 2.2–2.5) and `GET /api/breach` (SPEC 2.6).
 * @module
 */
import { arr, enumOf, int, num, obj, str } from '../openapi/schema.js';
import { queryParam } from '../params.js';
import { runBreachCheck } from '../services/breach.js';
import type { RouteDef } from './types.js';

const breachRoute: RouteDef = {
  method: 'get',
  path: '/api/breach',
  operationId: 'checkBreach',
  tag: 'Breach',
  summary: 'Check an email address against known data breaches (XposedOrNot)',
  description:
    'Asks the XposedOrNot breach-analytics API (NETDIAG_BREACH_API_URL, no key) and maps its ' +
    'answer: ExposedBreaches.breaches_details[].breach → services, BreachMetrics.passwords_strength ' +
    '(PlainText, EasyToCrack, StrongHash, Unknown) → passwords, BreachMetrics.risk → risk. An ' +
    'address in no breach is a success with zeros. Answers are cached for one hour under a ' +
    'SHA-256 of the lower-cased address; identical concurrent checks share one upstream request; ' +
    'requests are paced to the upstream limits (2/s, 25/h, 100/day per calling IP). When the ' +
    'upstream (or our pacing) says wait, the answer is 503 with Retry-After. The address is never ' +
    'logged and is returned masked.',
  params: [
    {
      name: 'email',
      in: 'query',
      required: true,
      description: 'The address to check (RFC 5322 dot-atom local part, domain with a TLD).',
      schema: str(undefined, { format: 'email', maxLength: 254 }),
      example: 'johndoe@example.com',
    },
  ],
  data: obj({
    email: str('The checked address, masked: first three characters, ***, @ and the domain'),
    status: enumOf(['checked'], 'Always "checked" on success'),
    breaches: int('Number of breaches the address appears in', { minimum: 0 }),
    services: arr(str(), 'Names of the breached services, most recently added first'),
    passwords: obj(
      {
        plain_text: int('Breaches that exposed plain-text passwords (PlainText)', { minimum: 0 }),
        weak_hash: int('Breaches with weakly hashed, easy-to-crack passwords (EasyToCrack)', {
          minimum: 0,
        }),
        strong_hash: int('Breaches with strongly hashed passwords (StrongHash)', { minimum: 0 }),
        unknown: int('Breaches whose password storage is unknown (Unknown)', { minimum: 0 }),
        total: int('Sum of the four counts (one category per breach)', { minimum: 0 }),
      },
      { description: 'Password exposure per breach' },
    ),
    risk: obj(
      {
        score: num('XposedOrNot risk score, 0–100 (0 when in no breach)', {
          minimum: 0,
          maximum: 100,
        }),
        level: str(
          'XposedOrNot risk label, lower case: low (≤25), moderate (≤50), high (≤75), critical',
        ),
      },
      { description: 'Exposure risk as computed by XposedOrNot' },
    ),
  }),
  example: {
    email: 'joh***@example.com',
    status: 'checked',
    breaches: 3,
    services: ['Canva', 'LinkedIn', 'Adobe'],
    passwords: { plain_text: 0, weak_hash: 2, strong_hash: 1, unknown: 0, total: 3 },
    risk: { score: 62, level: 'high' },
  },
  errors: [400, 502, 503, 504],
  handle({ req, ctx, signal }) {
    const email = queryParam(req, 'email', 'an email address such as user@example.com', true);
    return runBreachCheck(ctx, email, { signal });
  },
};

export const callerRoutes: RouteDef[] = [breachRoute];
