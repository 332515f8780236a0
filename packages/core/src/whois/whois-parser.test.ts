import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toRdapStatus } from './status.js';
import { parseWhoisText, serverName } from './whois-parser.js';

describe('layouts', () => {
  test('IANA referral answer', () => {
    const parsed = parseWhoisText(
      '% IANA WHOIS server\n% for more information on IANA, visit http://www.iana.org\n\nrefer:        whois.verisign-grs.com\n\ndomain:       COM\n',
    );
    expect(parsed.referral_server).toBe('whois.verisign-grs.com');
    expect(parsed.domain).toBe('com');
    expect(parsed.outcome).toBe('found');
  });

  test('ICANN gTLD answer with referral, IANA id and EPP statuses', () => {
    const parsed = parseWhoisText(
      [
        '   Domain Name: EXAMPLE.COM',
        '   Registrar WHOIS Server: whois://whois.registrar.example:4343/',
        '   Updated Date: 2024-08-14T07:01:34Z',
        '   Creation Date: 1995-08-14T04:00:00Z',
        '   Registry Expiry Date: 2025-08-13T04:00:00Z',
        '   Registrar: Example Registrar, LLC',
        '   Registrar IANA ID: 376',
        '   Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited',
        '   Domain Status: ok https://icann.org/epp#ok',
        '   Name Server: NS1.EXAMPLE.NET.',
        '   Name Server: ns1.example.net',
        '>>> Last update of whois database: 2025-01-01T00:00:00Z <<<',
      ].join('\r\n'),
    );
    expect(parsed).toEqual({
      outcome: 'found',
      domain: 'example.com',
      registrar: 'Example Registrar, LLC',
      registrar_iana_id: 376,
      creation_date: '1995-08-14T04:00:00.000Z',
      expiration_date: '2025-08-13T04:00:00.000Z',
      last_updated: '2024-08-14T07:01:34.000Z',
      name_servers: ['ns1.example.net'],
      status: ['client delete prohibited', 'active'],
      referral_server: '',
      registrar_whois_server: 'whois.registrar.example:4343',
    });
  });

  test('JPRS bracket keys', () => {
    const parsed = parseWhoisText(
      '[ JPRS database provides information on network administration. ]\nDomain Information:\na. [Domain Name]                EXAMPLE.CO.JP\np. [Name Server]                ns1.example.jp\n[State]                         Connected (2024/03/31)\n[Registered Date]               2001/03/22\n[Last Update]                   2023/04/01 01:05:57 (JST)\n',
    );
    expect(parsed.domain).toBe('example.co.jp');
    expect(parsed.name_servers).toEqual(['ns1.example.jp']);
    expect(parsed.status).toEqual(['Connected']);
    expect(parsed.creation_date).toBe('2001-03-22T00:00:00.000Z');
    expect(parsed.last_updated).toBe('2023-03-31T16:05:57.000Z');
  });

  test('dotted keys and heading blocks', () => {
    const parsed = parseWhoisText(
      'domain.............: example.fi\nstatus.............: Registered\ncreated............: 15.12.2015 09:48:01\n\nNameservers\nnserver............: ns1.example.net [OK]\n\nRegistrar\nregistrar..........: Example Oy\n',
    );
    expect(parsed.registrar).toBe('Example Oy');
    expect(parsed.name_servers).toEqual(['ns1.example.net']);
    expect(parsed.creation_date).toBe('2015-12-15T09:48:01.000Z');
  });

  test('indented values under headings, tab keys and sentences', () => {
    const parsed = parseWhoisText(
      'Domain name\texample.ch\n\nRegistrar\tExample AG\nSomestreet 1\n\nName servers\nns1.example.ch\t192.0.2.1\nns2.example.ch\n\nDomain Status:\n     Active\n     Transfer Prohibited by Registrar\n\nRelevant dates:\n     Registered on 30th April 2003 at 00:00:00.000\n   Record expires on 2030-01-01 (YYYY-MM-DD)\n',
    );
    expect(parsed.registrar).toBe('Example AG');
    expect(parsed.name_servers).toEqual(['ns1.example.ch', 'ns2.example.ch']);
    expect(parsed.status).toEqual(['active', 'client transfer prohibited']);
    expect(parsed.creation_date).toBe('2003-04-30T00:00:00.000Z');
    expect(parsed.expiration_date).toBe('2030-01-01T00:00:00.000Z');
  });

  test('RPSL objects: the domain object wins over contact objects', () => {
    const parsed = parseWhoisText(
      'domain:   example.ua\nstatus:   clientHold\ncreated:  2011-07-21 18:03:50+03\nregistrar: ua.example\n\nregistrar: ua.example\norganization: Example Inc.\nstatus:   ok\ncreated:  2017-07-21 23:55:01+03\n',
    );
    expect(parsed.status).toEqual(['client hold']);
    expect(parsed.creation_date).toBe('2011-07-21T15:03:50.000Z');
    expect(parsed.registrar).toBe('ua.example');
  });
});

describe('outcomes', () => {
  test.each([
    'No match for "EXAMPLE.COM".\r\n>>> Last update of whois database: 2025-01-01T00:00:00Z <<<',
    '%% No entries found in the AFNIC Database.',
    'Domain not found.',
    '',
    '% This query returned 0 objects.',
  ])('%j → not_found', (text) => {
    expect(parseWhoisText(text).outcome).toBe('not_found');
  });

  test('limit exceeded → limit_exceeded, but not when the answer holds data', () => {
    expect(parseWhoisText('Query rate limit exceeded. Try again later.').outcome).toBe(
      'limit_exceeded',
    );
    expect(
      parseWhoisText('Domain Name: example.com\nRegistrar: X\nNote: limit exceeded means nothing')
        .outcome,
    ).toBe('found');
  });

  test('disclaimers mentioning "not found" in prose do not count', () => {
    expect(
      parseWhoisText(
        'Domain Name: example.com\nRegistrar: X\nIf the domain is not found in this registry, ask another.',
      ).outcome,
    ).toBe('found');
  });

  test('never throws, always answers with every field typed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 2_000 }), (text) => {
        const parsed = parseWhoisText(text);
        expect(typeof parsed.registrar).toBe('string');
        expect(Array.isArray(parsed.name_servers)).toBe(true);
        expect(['found', 'not_found', 'limit_exceeded']).toContain(parsed.outcome);
        for (const date of [parsed.creation_date, parsed.expiration_date, parsed.last_updated]) {
          expect(date === '' || !Number.isNaN(Date.parse(date))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('status and server names', () => {
  test.each([
    ['clientTransferProhibited', 'client transfer prohibited'],
    ['CLIENT_TRANSFER_PROHIBITED', 'client transfer prohibited'],
    ['serverHold', 'server hold'],
    ['ok', 'active'],
    ['ACTIVE', 'active'],
    ['linked', 'associated'],
    ['pendingDelete', 'pending delete'],
    ['autoRenewPeriod', 'auto renew period'],
    ['redemptionPeriod', 'redemption period'],
    ['Update Prohibited by Registry', 'server update prohibited'],
    ['Registered', 'Registered'],
  ])('%s → %s', (input, expected) => {
    expect(toRdapStatus(input)).toBe(expected);
  });

  test.each([
    ['whois.example.net', 'whois.example.net'],
    ['WHOIS.Example.NET', 'whois.example.net'],
    ['whois://whois.example.net', 'whois.example.net'],
    ['rwhois://rwhois.example.net:4321', 'rwhois.example.net:4321'],
    ['127.0.0.1:4343', '127.0.0.1:4343'],
    ['', ''],
    ['http://www.example.net/whois', ''],
    ['see our web site', ''],
  ])('server %j → %j', (input, expected) => {
    expect(serverName(input)).toBe(expected);
  });
});

test('an empty heading before a blank line does not swallow the disclaimer', () => {
  const parsed = parseWhoisText(
    'Domain Name: example.com\nRegistrar:\n\nFor more information on Whois status codes, please visit https://icann.org/epp\n',
  );
  expect(parsed.registrar).toBe('');
});
