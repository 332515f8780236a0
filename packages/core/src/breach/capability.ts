/**
 * `GET /api/breach` (an addition): an email address against known data breaches (XposedOrNot).
 * @module
 */
import { defineCapability } from '../descriptor.js';
import { breachDataSchema, checkBreachParamsSchema } from './schema.js';

export const checkBreach = defineCapability({
  id: 'checkBreach',
  params: checkBreachParamsSchema,
  data: breachDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.breach(params.email, context),
  http: {
    method: 'get',
    path: '/api/breach',
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
    paramExamples: { email: 'johndoe@example.com' },
    example: {
      email: 'joh***@example.com',
      status: 'checked',
      breaches: 3,
      services: ['Canva', 'LinkedIn', 'Adobe'],
      passwords: { plain_text: 0, weak_hash: 2, strong_hash: 1, unknown: 0, total: 3 },
      risk: { score: 62, level: 'high' },
    },
    errors: [400, 502, 503, 504],
  },
  tool: {
    name: 'check_breach',
    title: 'Check an email address for breaches',
    description:
      'Whether an email address appears in known data breaches (XposedOrNot), with the breaches, ' +
      'exposed data classes and a risk level. Same answer as GET /api/breach.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'breach', operand: 'email' },
});
