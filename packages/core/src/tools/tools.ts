/**
 * The capabilities as tools for AI agents: one row per tool with its name, what it does, its
 * input and output schemas (the same zod schemas as the HTTP API's parameters and `data`), and
 * the engine call that answers it. The MCP face (`@netdiag/mcp`) turns each row into a Model
 * Context Protocol tool; nothing here knows the protocol. A tool's answer is exactly the HTTP
 * `data` for the same input, so an agent and a `curl` user see the same thing. `run` reads its
 * arguments with the functions the HTTP routes read query values with (`params.ts`), and the
 * engine checks them as for HTTP, so a bad input gets the API's message too.
 * @module
 */
import type { z } from 'zod';
import type { CallerConnection } from '../caller/connection.js';
import { evaluateSpfParamsSchema, spfEvaluationSchema } from '../email-auth/schema.js';
import type { CallOptions, Netdiag } from '../engine/engine.js';
import { InvalidInputError } from '../errors.js';
import { dnssecParam, portParam, textParam } from '../params.js';
import { ENDPOINT_SCHEMAS, type OperationId } from '../schemas/index.js';
import { summaries } from './summaries.js';

/** What a tool call knows besides its input. */
export interface ToolContext extends CallOptions {
  /**
   * The agent's own connection, when the transport has one (streamable HTTP): `scan_ports` scans
   * it when no host is given, as `GET /api/ports` does. Absent over stdio.
   */
  caller?: CallerConnection;
}

/** Which per-client rate limit a call counts against (CONTRACT §3). */
export type RateLimitKind = 'general' | 'tool';

export interface ToolDefinition {
  /** snake_case tool name. */
  name: string;
  title: string;
  /** What the tool answers and when to use it, for the model choosing a tool. */
  description: string;
  /** The HTTP operation whose `data` the tool returns (and whose parameters it takes). */
  operationId: OperationId | null;
  /**
   * The arguments, described for the agent. `run` reads and checks them itself, as the HTTP
   * route does, so a face need not (and should not: its messages would differ) parse with this.
   */
  input: z.ZodType<Record<string, unknown>>;
  output: z.ZodType<Record<string, unknown>>;
  /** Connects to a target the user names: the SSRF guard applies. */
  probe: boolean;
  /**
   * The per-client rate limit a call counts against, over MCP and on the HTTP route of
   * `operationId` alike (both read it from here): `general` is the limit over every request,
   * `tool` the stricter tool limit as well (`NETDIAG_TOOL_RATE_LIMIT`).
   */
  limit: RateLimitKind;
  /** Reaches the network at all (DNS, registries, the target); false for the embedded data. */
  openWorld: boolean;
  run(engine: Netdiag, input: Record<string, unknown>, context: ToolContext): Promise<unknown>;
  /** One or two lines for a person reading the agent's transcript. */
  summary(data: never): string;
}

const call = ({ signal, timeout }: ToolContext): CallOptions => ({
  ...(signal ? { signal } : {}),
  ...(timeout !== undefined ? { timeout } : {}),
});

/** The schemas of an HTTP operation: its parameters (or body) in, its `data` out. */
function schemasOf(operationId: OperationId) {
  const entry = ENDPOINT_SCHEMAS[operationId] as {
    params?: z.ZodType<Record<string, unknown>>;
    body?: z.ZodType<Record<string, unknown>>;
    data: z.ZodType<Record<string, unknown>>;
  };
  const input = entry.params ?? entry.body;
  if (!input) throw new Error(`operation ${operationId} takes no input`);
  return { operationId, input, output: entry.data };
}

type Row = Omit<ToolDefinition, 'summary' | 'operationId' | 'input' | 'output'> &
  Partial<Pick<ToolDefinition, 'operationId' | 'input' | 'output'>> & { via?: OperationId };

function tool(row: Row): ToolDefinition {
  const schemas = row.via ? schemasOf(row.via) : undefined;
  const input = row.input ?? schemas?.input;
  const output = row.output ?? schemas?.output;
  if (!input || !output) throw new Error(`tool ${row.name} has no schemas`);
  const summary = summaries[row.name];
  if (!summary) throw new Error(`tool ${row.name} has no summary`);
  const { via: _via, ...rest } = row;
  return {
    ...rest,
    operationId: row.operationId ?? schemas?.operationId ?? null,
    input,
    output,
    summary: summary as ToolDefinition['summary'],
  };
}

/** Every tool, in the order agents see them. */
export const NETDIAG_TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'lookup_ip',
    title: 'Look up an IP address',
    description:
      'Location, network (AS number and ISP) and privacy flags (hosting, proxy or Tor exit, ' +
      'mobile) of one IPv4 or IPv6 address, from the embedded IP data. Same answer as GET /api/lookup.',
    via: 'lookupIp',
    probe: false,
    limit: 'general',
    openWorld: false,
    run: (engine, input) => engine.lookupIp(textParam(input.ip, 'ip', true)),
  }),
  tool({
    name: 'bulk_lookup',
    title: 'Look up many IP addresses',
    description:
      'lookup_ip for 1 to 50 addresses at once; invalid entries are listed in errors. Same answer as POST /api/bulk.',
    via: 'bulkLookup',
    probe: false,
    limit: 'general',
    openWorld: false,
    // `bulkLookup` checks that `ips` is an array, as for POST /api/bulk.
    run: (engine, input) => engine.bulkLookup(input.ips as unknown[]),
  }),
  tool({
    name: 'search_asn',
    title: 'Search autonomous systems',
    description:
      'q = an IP address (its origin AS and announced range), an AS number such as AS15169 (its ' +
      'name and prefixes) or an organisation name (matching ASes). Same answer as GET /api/asn.',
    via: 'searchAsn',
    probe: false,
    limit: 'general',
    openWorld: false,
    run: (engine, input, context) => engine.searchAsn(textParam(input.q, 'q', true), call(context)),
  }),
  tool({
    name: 'dns_lookup',
    title: 'DNS lookup',
    description:
      'Records of one type (A, AAAA, MX, TXT, NS, CNAME, SOA, CAA, SRV, PTR, HTTPS, SVCB, DS, ' +
      'DNSKEY, RRSIG, NSEC, NSEC3, NSEC3PARAM, TLSA, SSHFP, NAPTR, CDS, CDNSKEY) for a domain, in ' +
      'dig +short presentation (HTTPS/SVCB also decoded), with the response code, the authority ' +
      "section, the resolver's AD flag and any Extended DNS Errors; dnssec=1 adds the RRSIGs. " +
      'Same answer as GET /api/v1/dns/{domain}.',
    via: 'dnsLookupV1',
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.dnsV1(
        {
          domain: textParam(input.domain, 'domain', true),
          type: textParam(input.type, 'type'),
          ...(dnssecParam(textParam(input.dnssec, 'dnssec')) ? { dnssec: true } : {}),
        },
        call(context),
      ),
  }),
  tool({
    name: 'reverse_dns',
    title: 'Reverse DNS',
    description:
      'PTR names of an IP address and whether each name resolves back to it (forward-confirmed ' +
      'reverse DNS). Same answer as GET /api/rdns.',
    via: 'reverseDns',
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.reverseDns(textParam(input.ip, 'ip', true), call(context)),
  }),
  tool({
    name: 'check_blacklist',
    title: 'Check DNS blocklists',
    description:
      'Whether an IP address is listed on 12 DNS blocklists (Spamhaus ZEN, SpamCop, Barracuda, …), ' +
      'per list with its return code. Same answer as GET /api/blacklist.',
    via: 'blacklist',
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.blacklist(textParam(input.ip, 'ip', true), call(context)),
  }),
  tool({
    name: 'whois',
    title: 'WHOIS / RDAP',
    description:
      'Registration record of a domain (registrar, dates, name servers, status): RDAP first, ' +
      'classic WHOIS when RDAP has no record. Same answer as GET /api/whois.',
    via: 'whois',
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.whois(textParam(input.domain, 'domain', true), call(context)),
  }),
  tool({
    name: 'check_site',
    title: 'Is a web site up?',
    description:
      'Fetches a URL (redirects followed) and says whether the site is up, with status, ' +
      'response time, server and certificate facts; a down site comes with the reason. Public ' +
      'targets only. Same answer as GET /api/down.',
    via: 'checkSite',
    probe: true,
    // As GET /api/down: SPEC §8 gives the tool limit to the scans and graders, not the site check.
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.checkSite(textParam(input.url, 'url', true), call(context)),
  }),
  tool({
    name: 'grade_security_headers',
    title: 'Grade security headers',
    description:
      "Grades a site's HTTP security headers (CSP, HSTS, X-Frame-Options, cookies, CORS, SRI, …) " +
      'the way the MDN HTTP Observatory does, with a score, a grade and a finding per test. ' +
      'Public targets only. Same answer as GET /api/security-headers.',
    via: 'gradeSecurityHeaders',
    probe: true,
    limit: 'tool',
    openWorld: true,
    run: (engine, input, context) =>
      engine.securityHeaders(textParam(input.url, 'url', true), call(context)),
  }),
  tool({
    name: 'scan_ports',
    title: 'Scan TCP ports',
    description:
      'TCP connect scan of a public host: open, closed or filtered per port, with service names ' +
      'and risk notes. ports: up to 100 ports or ranges such as "22,80,8000-8010"; without it a ' +
      'curated list of common and risky ports. Same answer as GET /api/ports.',
    via: 'scanPorts',
    probe: true,
    limit: 'tool',
    openWorld: true,
    run: (engine, input, context) => {
      const host = textParam(input.host, 'host') ?? context.caller?.ip;
      if (!host) {
        throw new InvalidInputError(
          'Missing "host": give a host name or public IP address to scan (over stdio there is no caller address to default to)',
          'host',
        );
      }
      const ports = textParam(input.ports, 'ports');
      return engine.scanPorts({ host, ...(ports ? { ports } : {}) }, call(context));
    },
  }),
  tool({
    name: 'check_tls',
    title: 'Inspect and grade TLS',
    description:
      "A TLS server's protocols (TLS 1.0–1.3), cipher suites in server order, certificate chain " +
      '(expiry, days left, trust, host-name match), ALPN, OCSP stapling, HSTS and an SSL ' +
      'Labs-style grade with every cap named. port defaults to 443; a well-known non-TLS port ' +
      '(SMTP 25, SSH 22, Redis 6379, …) is refused unless allow_port repeats it. Public targets ' +
      'only. Same answer as GET /api/tls.',
    via: 'checkTls',
    probe: true,
    limit: 'tool',
    openWorld: true,
    run: (engine, input, context) => {
      const host = textParam(input.host, 'host', true);
      const port = portParam(textParam(input.port, 'port'));
      const allowPort = portParam(textParam(input.allow_port, 'allow_port'), 'allow_port');
      return engine.checkTls(
        {
          host,
          ...(port !== undefined ? { port } : {}),
          ...(allowPort !== undefined ? { allowPort } : {}),
        },
        call(context),
      );
    },
  }),
  tool({
    name: 'validate_dnssec',
    title: 'Validate DNSSEC',
    description:
      'Validates the answer to a name and record type with DNSSEC, from the IANA root trust ' +
      'anchor down (DS → DNSKEY → RRSIG, NSEC/NSEC3 denial): secure, insecure (with the proof ' +
      'that a delegation has no DS), bogus (naming the failing key, signature and rule) or ' +
      'indeterminate, with the whole chain. type defaults to A. Same answer as GET /api/dnssec.',
    via: 'validateDnssec',
    probe: false,
    limit: 'tool',
    openWorld: true,
    run: (engine, input, context) =>
      engine.validateDnssec(
        { domain: textParam(input.domain, 'domain', true), type: textParam(input.type, 'type') },
        call(context),
      ),
  }),
  tool({
    name: 'check_email_auth',
    title: 'Check email authentication',
    description:
      "A domain's mail setup: MX, SPF (analysis and, with ip, an RFC 7208 evaluation), DMARC, " +
      'DKIM, MTA-STS, TLS-RPT and BIMI, each with findings, and an overall grade. Same answer as ' +
      'GET /api/email-auth.',
    via: 'checkEmailAuth',
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.emailAuth(
        {
          domain: textParam(input.domain, 'domain', true),
          ip: textParam(input.ip, 'ip'),
          sender: textParam(input.sender, 'sender'),
          helo: textParam(input.helo, 'helo'),
          dkimSelector: textParam(input.dkim_selector, 'dkim_selector'),
        },
        call(context),
      ),
  }),
  tool({
    name: 'evaluate_spf',
    title: 'Evaluate SPF for a sender',
    description:
      'Would mail from this IP address pass SPF for this domain? One RFC 7208 check_host() ' +
      'evaluation with the deciding term and every step; the same object as ' +
      'check_email_auth → spf.evaluation for the same input.',
    operationId: null,
    input: evaluateSpfParamsSchema,
    output: spfEvaluationSchema,
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.evaluateSpf(
        {
          domain: textParam(input.domain, 'domain', true),
          ip: textParam(input.ip, 'ip', true),
          sender: textParam(input.sender, 'sender'),
          helo: textParam(input.helo, 'helo'),
        },
        call(context),
      ),
  }),
  tool({
    name: 'check_breach',
    title: 'Check an email address for breaches',
    description:
      'Whether an email address appears in known data breaches (XposedOrNot), with the breaches, ' +
      'exposed data classes and a risk level. Same answer as GET /api/breach.',
    via: 'checkBreach',
    probe: false,
    limit: 'general',
    openWorld: true,
    run: (engine, input, context) =>
      engine.breach(textParam(input.email, 'email', true), call(context)),
  }),
];

/**
 * The rate limit an HTTP operation counts against: its tool's (`limit`), `general` for an
 * operation no tool answers. The HTTP face's limiter and its `/mcp` route both ask this table,
 * so a route and its tool cannot count against different limits.
 */
export function operationLimit(operationId: string): RateLimitKind {
  return NETDIAG_TOOLS.find((entry) => entry.operationId === operationId)?.limit ?? 'general';
}

/** A tool by name. */
export function findTool(name: string): ToolDefinition | undefined {
  return NETDIAG_TOOLS.find((entry) => entry.name === name);
}
