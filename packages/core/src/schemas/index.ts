/**
 * Every answer shape of the HTTP API as zod schemas, from which the types, the OpenAPI document,
 * MCP tool schemas and test validators derive. `data` schemas are strict objects, so a test
 * that parses an answer fails on an undocumented field.
 * @module
 */
import type { z } from 'zod';
import { breachDataSchema, checkBreachParamsSchema } from '../breach/schema.js';
import { echoHeadersDataSchema } from '../caller/echo-schema.js';
import { callerIpDataSchema, callerIpV1DataSchema, scoreDataSchema } from '../caller/schema.js';
import {
  blacklistDataSchema,
  blacklistParamsSchema,
  dnsLookupDataSchema,
  dnsLookupParamsSchema,
  dnsLookupV1DataSchema,
  dnsLookupV1ParamsSchema,
  reverseDnsDataSchema,
  reverseDnsParamsSchema,
} from '../dns/schema.js';
import { dnssecDataSchema, validateDnssecParamsSchema } from '../dnssec/schema.js';
import { checkEmailAuthParamsSchema, emailAuthDataSchema } from '../email-auth/schema.js';
import { securityHeadersDataSchema, securityHeadersParamsSchema } from '../headers/schema.js';
import {
  asnDataSchema,
  bulkDataSchema,
  bulkLookupBodySchema,
  lookupDataSchema,
  lookupIpParamsSchema,
  lookupIpV1ParamsSchema,
  lookupV1DataSchema,
  searchAsnParamsSchema,
} from '../ip/schema.js';
import { portScanDataSchema, scanPortsParamsSchema } from '../ports/schema.js';
import { checkSiteParamsSchema, siteCheckDataSchema } from '../site/schema.js';
import { checkTlsParamsSchema, tlsDataSchema } from '../tls/schema.js';
import {
  whoisDataSchema,
  whoisParamsSchema,
  whoisV1DataSchema,
  whoisV1ParamsSchema,
} from '../whois/schema.js';
import { healthDataSchema } from './operations.js';

export {
  type BreachData,
  breachDataSchema,
  type CheckBreachParams,
  checkBreachParamsSchema,
} from '../breach/schema.js';
export { type EchoHeadersData, echoHeadersDataSchema } from '../caller/echo-schema.js';
export {
  type CallerIpData,
  type CallerIpV1Data,
  callerIpDataSchema,
  callerIpV1DataSchema,
  type ScoreData,
  scoreDataSchema,
} from '../caller/schema.js';
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
} from '../dns/schema.js';
export {
  type DnssecData,
  dnssecDataSchema,
  type ValidateDnssecParams,
  validateDnssecParamsSchema,
} from '../dnssec/schema.js';
export {
  type CheckEmailAuthParams,
  checkEmailAuthParamsSchema,
  type EmailAuthData,
  type EvaluateSpfParams,
  emailAuthDataSchema,
  evaluateSpfParamsSchema,
  type SpfEvaluationData,
  spfEvaluationSchema,
} from '../email-auth/schema.js';
export {
  type SecurityHeadersData,
  type SecurityHeadersParams,
  securityHeadersDataSchema,
  securityHeadersParamsSchema,
} from '../headers/schema.js';
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
} from '../ip/schema.js';
export {
  type PortScanData,
  portScanDataSchema,
  type ScanPortsParams,
  scanPortsParamsSchema,
} from '../ports/schema.js';
export {
  type CheckSiteParams,
  checkSiteParamsSchema,
  type SiteCheckData,
  siteCheckDataSchema,
} from '../site/schema.js';
export {
  type CheckTlsParams,
  checkTlsParamsSchema,
  type TlsData,
  tlsDataSchema,
} from '../tls/schema.js';
export {
  type WhoisData,
  type WhoisParams,
  type WhoisV1Data,
  type WhoisV1Params,
  whoisDataSchema,
  whoisParamsSchema,
  whoisV1DataSchema,
  whoisV1ParamsSchema,
} from '../whois/schema.js';
export {
  domainInput,
  errorEnvelopeSchema,
  hostInput,
  ipAddressInput,
  probeUrlInput,
  successEnvelope,
} from './common.js';
export { type JsonSchema, type ToJsonSchemaOptions, toJsonSchema } from './json-schema.js';
export { type HealthData, healthDataSchema } from './operations.js';

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
