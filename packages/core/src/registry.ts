/**
 * The registry: every capability descriptor, in the order agents see the tools and the OpenAPI
 * document lists the routes. A face is made from this list; adding a capability is its folder,
 * one line here and its docs (CONTRIBUTING.md).
 * @module
 */
import { blacklist } from './blocklist/capability.js';
import { checkBreach } from './breach/capability.js';
import { callerIp, callerIpV1, callerScore } from './caller/capability.js';
import type { Capability } from './descriptor.js';
import { dnsLookup, dnsLookupV1, reverseDns } from './dns/capability.js';
import { validateDnssec } from './dnssec/capability.js';
import { checkEmailAuth, evaluateSpf } from './email-auth/capability.js';
import { gradeSecurityHeaders } from './headers/capability.js';
import { bulkLookup, lookupIp, lookupIpV1, searchAsn } from './ip/capability.js';
import { scanPorts } from './ports/capability.js';
import { checkSite } from './site/capability.js';
import { checkTls } from './tls/capability.js';
import { whois, whoisV1 } from './whois/capability.js';

export {
  type Capability,
  type CapabilityContext,
  defineCapability,
  type HttpFace,
  MAX_BODY_DEPTH,
  type RateLimitKind,
  type ToolFace,
} from './descriptor.js';
export { parameters, parseParams } from './schemas/param.js';

export const CAPABILITIES: readonly Capability[] = [
  callerIp,
  callerIpV1,
  callerScore,
  lookupIp,
  lookupIpV1,
  bulkLookup,
  searchAsn,
  dnsLookup,
  dnsLookupV1,
  reverseDns,
  blacklist,
  whois,
  whoisV1,
  checkSite,
  gradeSecurityHeaders,
  scanPorts,
  checkTls,
  validateDnssec,
  checkEmailAuth,
  evaluateSpf,
  checkBreach,
] as readonly Capability[];

/** A capability by id (the OpenAPI operationId). */
export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((capability) => capability.id === id);
}
