/**
 * Every answer shape of the HTTP API, written once as zod schemas: the TypeScript types
 * (`z.infer`), the OpenAPI document, MCP tool schemas and the test validators all derive from
 * these. `ENDPOINT_SCHEMAS` maps each OpenAPI operationId to its parameter (or body) and `data`
 * schemas; the success envelope around `data` is `successEnvelope(data)` (CONTRACT §2).
 *
 * Parameter schemas describe what the server accepts, never more (see `common.ts`); `data`
 * schemas are strict objects, so a test that parses an answer fails on an undocumented field.
 * @module
 */
import type { z } from 'zod';
import { breachDataSchema, checkBreachParamsSchema } from './breach.js';
import { callerIpDataSchema, callerIpV1DataSchema, scoreDataSchema } from './caller.js';
import {
  blacklistDataSchema,
  blacklistParamsSchema,
  dnsLookupDataSchema,
  dnsLookupParamsSchema,
  dnsLookupV1DataSchema,
  dnsLookupV1ParamsSchema,
  reverseDnsDataSchema,
  reverseDnsParamsSchema,
} from './dns.js';
import { dnssecDataSchema, validateDnssecParamsSchema } from './dnssec.js';
import { checkEmailAuthParamsSchema, emailAuthDataSchema } from './email-auth.js';
import { echoHeadersDataSchema } from './headers.js';
import {
  asnDataSchema,
  bulkDataSchema,
  bulkLookupBodySchema,
  lookupDataSchema,
  lookupIpParamsSchema,
  lookupIpV1ParamsSchema,
  lookupV1DataSchema,
  searchAsnParamsSchema,
} from './ip.js';
import { healthDataSchema } from './operations.js';
import {
  checkSiteParamsSchema,
  portScanDataSchema,
  scanPortsParamsSchema,
  securityHeadersDataSchema,
  securityHeadersParamsSchema,
  siteCheckDataSchema,
} from './probes.js';
import { checkTlsParamsSchema, tlsDataSchema } from './tls.js';
import {
  whoisDataSchema,
  whoisParamsSchema,
  whoisV1DataSchema,
  whoisV1ParamsSchema,
} from './whois.js';

export {
  type BreachData,
  breachDataSchema,
  type CheckBreachParams,
  checkBreachParamsSchema,
} from './breach.js';
export {
  type CallerIpData,
  type CallerIpV1Data,
  callerIpDataSchema,
  callerIpV1DataSchema,
  type ScoreData,
  scoreDataSchema,
} from './caller.js';
export {
  domainInput,
  errorEnvelopeSchema,
  hostInput,
  ipAddressInput,
  probeUrlInput,
  successEnvelope,
} from './common.js';
export {
  type BlacklistData,
  type BlacklistParams,
  blacklistDataSchema,
  blacklistParamsSchema,
  type DnsLookupData,
  type DnsLookupParams,
  type DnsLookupV1Data,
  type DnsLookupV1Params,
  dnsLookupDataSchema,
  dnsLookupParamsSchema,
  dnsLookupV1DataSchema,
  dnsLookupV1ParamsSchema,
  type ReverseDnsData,
  type ReverseDnsParams,
  reverseDnsDataSchema,
  reverseDnsParamsSchema,
} from './dns.js';
export {
  type DnssecData,
  dnssecDataSchema,
  type ValidateDnssecParams,
  validateDnssecParamsSchema,
} from './dnssec.js';
export {
  type CheckEmailAuthParams,
  checkEmailAuthParamsSchema,
  type EmailAuthData,
  type EvaluateSpfParams,
  emailAuthDataSchema,
  evaluateSpfParamsSchema,
  type SpfEvaluationData,
  spfEvaluationSchema,
} from './email-auth.js';
export { type EchoHeadersData, echoHeadersDataSchema } from './headers.js';
export {
  type AsnData,
  asnDataSchema,
  type BulkData,
  type BulkLookupBody,
  bulkDataSchema,
  bulkLookupBodySchema,
  type LookupData,
  type LookupIpParams,
  type LookupIpV1Params,
  type LookupV1Data,
  lookupDataSchema,
  lookupIpParamsSchema,
  lookupIpV1ParamsSchema,
  lookupV1DataSchema,
  type SearchAsnParams,
  searchAsnParamsSchema,
} from './ip.js';
export { type JsonSchema, type ToJsonSchemaOptions, toJsonSchema } from './json-schema.js';
export { type HealthData, healthDataSchema } from './operations.js';
export {
  type CheckSiteParams,
  checkSiteParamsSchema,
  type PortScanData,
  portScanDataSchema,
  type ScanPortsParams,
  type SecurityHeadersData,
  type SecurityHeadersParams,
  type SiteCheckData,
  scanPortsParamsSchema,
  securityHeadersDataSchema,
  securityHeadersParamsSchema,
  siteCheckDataSchema,
} from './probes.js';
export { type CheckTlsParams, checkTlsParamsSchema, type TlsData, tlsDataSchema } from './tls.js';
export {
  type WhoisData,
  type WhoisParams,
  type WhoisV1Data,
  type WhoisV1Params,
  whoisDataSchema,
  whoisParamsSchema,
  whoisV1DataSchema,
  whoisV1ParamsSchema,
} from './whois.js';

/** The schemas of one endpoint: query/path parameters, the JSON body (POST), `data`. */
export interface EndpointSchemas {
  params?: z.ZodObject;
  body?: z.ZodObject;
  data: z.ZodType;
}

/**
 * Every enveloped endpoint by OpenAPI operationId. The raw routes (`metrics`, `openapi`) write
 * their own bodies and are not listed.
 */
export const ENDPOINT_SCHEMAS = {
  callerIp: { data: callerIpDataSchema },
  callerIpV1: { data: callerIpV1DataSchema },
  callerScore: { data: scoreDataSchema },
  checkBreach: { params: checkBreachParamsSchema, data: breachDataSchema },
  lookupIp: { params: lookupIpParamsSchema, data: lookupDataSchema },
  lookupIpV1: { params: lookupIpV1ParamsSchema, data: lookupV1DataSchema },
  bulkLookup: { body: bulkLookupBodySchema, data: bulkDataSchema },
  searchAsn: { params: searchAsnParamsSchema, data: asnDataSchema },
  dnsLookup: { params: dnsLookupParamsSchema, data: dnsLookupDataSchema },
  dnsLookupV1: { params: dnsLookupV1ParamsSchema, data: dnsLookupV1DataSchema },
  reverseDns: { params: reverseDnsParamsSchema, data: reverseDnsDataSchema },
  blacklist: { params: blacklistParamsSchema, data: blacklistDataSchema },
  whois: { params: whoisParamsSchema, data: whoisDataSchema },
  whoisV1: { params: whoisV1ParamsSchema, data: whoisV1DataSchema },
  checkSite: { params: checkSiteParamsSchema, data: siteCheckDataSchema },
  gradeSecurityHeaders: { params: securityHeadersParamsSchema, data: securityHeadersDataSchema },
  scanPorts: { params: scanPortsParamsSchema, data: portScanDataSchema },
  checkTls: { params: checkTlsParamsSchema, data: tlsDataSchema },
  validateDnssec: { params: validateDnssecParamsSchema, data: dnssecDataSchema },
  checkEmailAuth: { params: checkEmailAuthParamsSchema, data: emailAuthDataSchema },
  echoHeaders: { data: echoHeadersDataSchema },
  health: { data: healthDataSchema },
} as const satisfies Record<string, EndpointSchemas>;

export type OperationId = keyof typeof ENDPOINT_SCHEMAS;

/** The `data` type of an operation's success answer. */
export type EndpointData<Op extends OperationId> = z.infer<(typeof ENDPOINT_SCHEMAS)[Op]['data']>;
