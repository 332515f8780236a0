/**
 * `GET /api/whois` (RDAP, then classic WHOIS; adds `source`) and `GET /api/v1/whois/:domain`
 * (RDAP only) — SPEC 2.9.
 * @module
 */
import { z } from 'zod';
import { registrableDomain } from '../net/domain.js';
import { domainInput } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';

// `whoisDomain` takes host names only (no `_`). A bare multi-label public suffix (co.uk) is
// also a 400 there; the Public Suffix List cannot be written as a pattern, so only the zod
// refinement (absent from the JSON Schema) checks it.
const domainParam = domainInput({ underscore: false })
  .refine(
    (name) => registrableDomain(name.toLowerCase().replace(/\.$/, '')) !== undefined,
    'a registrable domain, not a public suffix such as co.uk',
  )
  .describe(
    'A domain name (IDNs accepted, converted to punycode); subdomains are reduced to the registrable domain.',
  );

export const whoisParamsSchema = parameters({ domain: domainParam });
export type WhoisParams = z.input<typeof whoisParamsSchema>;

export const whoisV1ParamsSchema = parameters({ domain: domainParam });
export type WhoisV1Params = z.input<typeof whoisV1ParamsSchema>;

const recordFields = {
  domain: z
    .string()
    .describe(
      'The registrable domain looked up (punycode, lower case): www.example.co.uk → example.co.uk',
    ),
  registrar: z
    .string()
    .describe('Registrar name (RDAP: vCard fn of the registrar entity); "" when unknown'),
  registrar_iana_id: z
    .int()
    .nullable()
    .describe(
      'Added: the registrar IANA id (RDAP publicIds "IANA Registrar ID"); null when unknown',
    ),
  // No date-time format: "" is the documented value of an unknown date (CONTRACT §2).
  creation_date: z
    .string()
    .describe('Registration time, ISO 8601 UTC (RDAP event "registration"); "" when unknown'),
  expiration_date: z
    .string()
    .describe('Expiry time, ISO 8601 UTC (RDAP event "expiration"); "" when unknown'),
  last_updated: z
    .string()
    .describe(
      'Last change of the record, ISO 8601 UTC (RDAP event "last changed"); "" when unknown',
    ),
  name_servers: z.array(z.string()).describe('Name servers, lower case, no trailing dot'),
  status: z
    .array(z.string())
    .describe(
      'Status values in RDAP form (RFC 9083 §10.2.2 / RFC 8056), e.g. "client transfer prohibited"; ' +
        'WHOIS EPP codes are mapped to the same names',
    ),
  rdap_link: z
    .string()
    .describe('URL of the registry RDAP record that answered (after redirects); "" from WHOIS'),
};

/** `GET /api/v1/whois/:domain` data (SPEC 2.9). */
export const whoisV1DataSchema = z.strictObject(recordFields);
export type WhoisV1Data = z.infer<typeof whoisV1DataSchema>;

/** `GET /api/whois` data (SPEC 2.9, plus `source`). */
export const whoisDataSchema = z.strictObject({
  ...recordFields,
  source: z.enum(['rdap', 'whois']).describe('Added: which protocol answered'),
});
export type WhoisData = z.infer<typeof whoisDataSchema>;
