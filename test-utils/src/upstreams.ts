/**
 * Every upstream a whole netdiag needs, on loopback, for the tests that drive all capabilities
 * through one face (the page in a browser, the MCP tools): a DNS server with a mail-ready domain,
 * a PTR with its forward record and one blocklist entry; an RDAP service for `example.com`; the
 * breach API; and a web site on 127.0.0.2 (plain and HTTPS) for the probes. `config` is the engine configuration
 * that points at them (NETDIAG_* names in `env`, for a child process).
 */
import { startDnsServer } from './dns-server.js';
import { startHttpTarget } from './http-server.js';
import { startHttpsTarget } from './https-target.js';
import { bootstrapFile, bootstrapRoute, startRdapServer } from './rdap-server.js';
import { startXposedOrNotServer } from './xposedornot-server.js';

export interface LoopbackUpstreams {
  /** The web site probes may check: `http://127.0.0.2:<port>`. */
  siteUrl: string;
  sitePort: number;
  /** An HTTPS site (self-signed certificate for 127.0.0.2) for the TLS checks. */
  secureSitePort: number;
  /** Engine options (`createNetdiag`, `createApp`) that use these upstreams. */
  config: {
    dnsServers: string[];
    rdapBootstrapUrl: string;
    whoisServer: string;
    breachApiUrl: string;
    torExitListUrl: string;
    allowedTargets: string[];
  };
  /** The same as environment variables. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startLoopbackUpstreams(): Promise<LoopbackUpstreams> {
  const dns = await startDnsServer({
    zone: {
      'example.test': {
        A: ['127.0.0.2'],
        MX: [{ preference: 10, exchange: 'mail.example.test' }],
        TXT: ['v=spf1 ip4:127.0.0.0/8 -all'],
      },
      'mail.example.test': { A: ['127.0.0.2'] },
      '_dmarc.example.test': { TXT: ['v=DMARC1; p=reject; rua=mailto:d@example.test'] },
      '8.8.8.8.in-addr.arpa': { PTR: ['dns.google.'] },
      'dns.google': { A: ['8.8.8.8'] },
      // One listing, so that a blocklist check has a LISTED verdict to show.
      '8.8.8.8.zen.spamhaus.org': { A: ['127.0.0.2'] },
    },
  });
  const rdap = await startRdapServer();
  Object.assign(rdap.routes, {
    '/dns.json': bootstrapRoute(bootstrapFile([[['com'], [`${rdap.url}/registry/`]]])),
    '/registry/domain/example.com': {
      body: {
        objectClassName: 'domain',
        ldhName: 'EXAMPLE.COM',
        status: ['active'],
        events: [
          { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
          { eventAction: 'expiration', eventDate: '2030-08-13T04:00:00Z' },
        ],
        nameservers: [{ ldhName: 'A.IANA-SERVERS.NET' }],
        entities: [
          {
            objectClassName: 'entity',
            roles: ['registrar'],
            vcardArray: ['vcard', [['fn', {}, 'text', 'Example Registrar, Inc.']]],
          },
        ],
      },
    },
  });
  const xon = await startXposedOrNotServer({
    accounts: { 'someone@example.com': ['Adobe', 'LinkedIn'] },
  });
  const site = await startHttpTarget({
    host: '127.0.0.2',
    routes: {
      '/': (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html', 'x-content-type-options': 'nosniff' })
          .end('<html><head><title>up</title></head></html>'),
    },
  });
  const secure = await startHttpsTarget({
    host: '127.0.0.2',
    routes: { '/': (_req, res) => void res.writeHead(200).end('secure') },
  });
  const config = {
    dnsServers: [dns.address],
    rdapBootstrapUrl: `${rdap.url}/dns.json`,
    whoisServer: '127.0.0.1:1',
    breachApiUrl: xon.url,
    torExitListUrl: 'http://127.0.0.1:1/torbulkexitlist',
    allowedTargets: ['127.0.0.0/8'],
  };
  return {
    siteUrl: site.url,
    sitePort: site.port,
    secureSitePort: secure.port,
    config,
    env: {
      NETDIAG_DNS_SERVERS: dns.address,
      NETDIAG_RDAP_BOOTSTRAP_URL: config.rdapBootstrapUrl,
      NETDIAG_WHOIS_SERVER: config.whoisServer,
      NETDIAG_BREACH_API_URL: config.breachApiUrl,
      NETDIAG_TOR_EXIT_LIST_URL: config.torExitListUrl,
      NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8',
    },
    close: async () => {
      await Promise.all([dns.close(), rdap.close(), xon.close(), site.close(), secure.close()]);
    },
  };
}
