/**
 * The one `host[:port]` grammar: every form it reads, what it refuses, and that formatting and
 * parsing are inverse. DNS servers, the WHOIS server and referral hosts all go through it.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatHostPort, parseHostPort } from './host-port.js';
import { parseDnsServer } from './resolver-servers.js';

const ips = { defaultPort: 53 };
const names = { defaultPort: 43, names: true };

describe('parseHostPort', () => {
  test.each([
    ['127.0.0.1', ips, { host: '127.0.0.1', port: 53 }],
    ['127.0.0.1:5353', ips, { host: '127.0.0.1', port: 5353 }],
    [' 10.0.0.1:053 ', ips, { host: '10.0.0.1', port: 53 }],
    ['[::1]:5353', ips, { host: '::1', port: 5353 }],
    ['[::1]', ips, { host: '::1', port: 53 }],
    ['::1', ips, { host: '::1', port: 53 }],
    ['2001:DB8::1', ips, { host: '2001:DB8::1', port: 53 }],
    ['[::ffff:1.2.3.4]:1', ips, { host: '::ffff:1.2.3.4', port: 1 }],
    ['whois.iana.org', names, { host: 'whois.iana.org', port: 43 }],
    ['Whois.IANA.org:4343', names, { host: 'whois.iana.org', port: 4343 }],
    ['whois.nic.xn--p1ai.', names, { host: 'whois.nic.xn--p1ai.', port: 43 }],
    ['_srv.example:65535', names, { host: '_srv.example', port: 65535 }],
    ['localhost', names, { host: 'localhost', port: 43 }],
    ['1.2.3.4:43', names, { host: '1.2.3.4', port: 43 }],
  ])('%j', (text, options, expected) => {
    expect(parseHostPort(text, options)).toEqual(expected);
  });

  test.each([
    ['', names],
    ['whois.iana.org', ips], // names only where allowed
    ['1.2.3', names], // dotted numbers that are no IPv4 address are no name either
    ['1.2.3.256', names],
    ['host:0', names],
    ['host:65536', names],
    ['host:', names],
    ['host:+1', names],
    ['host:1e3', names],
    ['host:123456', names],
    ['host:80:80', names],
    ['[host]:80', names],
    ['[1.2.3.4]:80', names],
    ['[::1]:', ips],
    ['[::1]x', ips],
    ['::1:53x', ips],
    ['bad host', names],
    ['a/b', names],
    ['-lead.example', names],
    ['trail-.example', names],
    ['a..b', names],
    [`${'a'.repeat(64)}.example`, names],
  ])('%j is refused', (text, options) => {
    expect(parseHostPort(text, options)).toBeUndefined();
  });

  test('formatHostPort is its inverse, brackets IPv6 and can leave the default port out', () => {
    expect(formatHostPort({ host: '::1', port: 53 })).toBe('[::1]:53');
    expect(formatHostPort({ host: '::1', port: 43 }, 43)).toBe('[::1]');
    expect(formatHostPort({ host: 'whois.iana.org', port: 43 }, 43)).toBe('whois.iana.org');
    expect(formatHostPort({ host: 'whois.iana.org', port: 4343 }, 43)).toBe('whois.iana.org:4343');
    const host = fc.oneof(fc.ipV4(), fc.ipV6(), fc.domain());
    const port = fc.integer({ min: 1, max: 65_535 });
    fc.assert(
      fc.property(host, port, fc.boolean(), (h, p, omit) => {
        const hp = { host: h.toLowerCase(), port: p };
        const text = formatHostPort(hp, omit ? p : undefined);
        expect(parseHostPort(text, { defaultPort: p, names: true })).toEqual(hp);
      }),
    );
  });

  test('never throws, and what it accepts has a port in range', () => {
    fc.assert(
      fc.property(fc.string(), fc.boolean(), (text, allowNames) => {
        const parsed = parseHostPort(text, { defaultPort: 1, names: allowNames });
        if (parsed) expect(parsed.port >= 1 && parsed.port <= 65_535).toBe(true);
      }),
    );
  });
});

describe('its users', () => {
  test('DNS servers: IP literals only, port 53, labelled as host:port', () => {
    expect(parseDnsServer('[::1]:5300')).toEqual({
      host: '::1',
      port: 5300,
      family: 6,
      label: '[::1]:5300',
    });
    expect(parseDnsServer('9.9.9.9')).toEqual({
      host: '9.9.9.9',
      port: 53,
      family: 4,
      label: '9.9.9.9:53',
    });
    expect(parseDnsServer('dns.example')).toBeUndefined();
  });
});
