import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toRdapStatus } from './status.js';
import { NOT_FOUND } from './whois-keys.js';
import { parseWhoisText, serverName, WHOIS_MAX_LINES } from './whois-parser.js';

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
      refusal: '',
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

describe('layouts of registries outside the shared corpus (issue 20 item 10)', () => {
  test('a name-server heading, then a rule, then one server per line', () => {
    for (const text of [
      'Domain Name: example.xx\nName Server Information:\n------------------------\nns1.example.net\nns2.example.net\n',
      'Domain Name: example.xx\nNAME SERVERS\n============\n  ns1.example.net\n  ns2.example.net\n',
      '[Domain Name]   EXAMPLE.XX\n[Name Server]\nns1.example.net\nns2.example.net\n',
      'Domain name: example.xx\n\nDomain servers in listed order:\n\n   - ns1.example.net\n   - ns2.example.net\n',
    ]) {
      expect(parseWhoisText(text).name_servers, text).toEqual([
        'ns1.example.net',
        'ns2.example.net',
      ]);
    }
  });

  test('headings underlined with dashes and numbered server keys (.es)', () => {
    const parsed = parseWhoisText(
      '    Domain:\n    -------\n       Domain Name:     example.es\n       Creation Date:   16/09/03\n\n    Domain Servers:\n    ---------------\n       Name Server 1:   ns1.example.net\n       IPv4 Server 1:\n       Name Server 2:   ns2.example.net\n',
    );
    expect(parsed.outcome).toBe('found');
    expect(parsed.creation_date).toBe('2003-09-16T00:00:00.000Z');
    expect(parsed.name_servers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  test('a rule under a heading is not a value', () => {
    expect(
      parseWhoisText('Domain Name: example.xx\nRegistrar:\n=========\nExample Registrar Ltd\n')
        .registrar,
    ).toBe('Example Registrar Ltd');
  });

  test('whois.kr: Korean labels, "YYYY. MM. DD." dates, servers under numbered headings', () => {
    const parsed = parseWhoisText(
      'query : example.kr\n\n# KOREAN(UTF8)\n\n도메인이름                  : example.kr\n등록일                      : 2007. 03. 02.\n최근 정보 변경일            : 2010. 10. 04.\n사용 종료일                 : 2015. 03. 02.\n등록대행자                  : (주)예제(http://registrar.example)\n\n1차 네임서버 정보\n   호스트이름               : ns1.example.kr\n\n2차 네임서버 정보\n   호스트이름               : ns2.example.kr\n',
    );
    expect(parsed).toMatchObject({
      outcome: 'found',
      domain: 'example.kr',
      registrar: '(주)예제',
      creation_date: '2007-03-02T00:00:00.000Z',
      expiration_date: '2015-03-02T00:00:00.000Z',
      last_updated: '2010-10-04T00:00:00.000Z',
      name_servers: ['ns1.example.kr', 'ns2.example.kr'],
    });
  });

  test('registro.br: the domain object wins over nic-hdl-br contacts; a ticket follows the date', () => {
    const parsed = parseWhoisText(
      'domain:      example.com.br\nowner:       Example Ltda\nnserver:     a.dns.example\ncreated:     19990518 #162310\nchanged:     20190417\nexpires:     20200518\n\nnic-hdl-br:  ABC12\nperson:      Example Person\ncreated:     20100520\nchanged:     20180324\n',
    );
    expect(parsed.creation_date).toBe('1999-05-18T00:00:00.000Z');
    expect(parsed.last_updated).toBe('2019-04-17T00:00:00.000Z');
    expect(parsed.expiration_date).toBe('2020-05-18T00:00:00.000Z');
  });

  test('RPSL/FRED objects printed without blank lines still end at their class key', () => {
    const parsed = parseWhoisText(
      'domain:       example.cr\nnsset:        NSS-EXAMPLE\nregistrar:    REG-EXAMPLE\nregistered:   18.04.2002 18:00:00\nexpire:       17.04.2020\ncontact:      CON-1\nname:         Example Contact\nregistrar:    REG-OTHER\ncreated:      03.06.2011 16:22:36\nnsset:        NSS-EXAMPLE\nnserver:      ns1.example.net\n',
    );
    expect(parsed.registrar).toBe('REG-EXAMPLE');
    expect(parsed.creation_date).toBe('2002-04-18T18:00:00.000Z');
    expect(parsed.expiration_date).toBe('2020-04-17T00:00:00.000Z');
    expect(parsed.name_servers).toEqual(['ns1.example.net']);
  });

  test('localised and bilingual labels (.pt, .uy, .dz) and zone-record name servers', () => {
    expect(
      parseWhoisText(
        'Nome de domínio / Domain Name: example.pt\nData de registo / Creation Date (dd/mm/yyyy): 09/01/2003\nNameserver Information\n   Nameserver: example.pt\tNS\tns1.example.net.\n',
      ),
    ).toMatchObject({
      domain: 'example.pt',
      creation_date: '2003-01-09T00:00:00.000Z',
      name_servers: ['ns1.example.net'],
    });
    expect(
      parseWhoisText(
        '   Nombre de Dominio: example.uy\n   Registrado por: Ejemplo (https://registrar.example/)\n   Fecha de Creacion: 2012-07-03 20:58:58\n   Fecha de Vencimiento: 2013-07-03 20:58:58\n',
      ),
    ).toMatchObject({
      domain: 'example.uy',
      registrar: 'Ejemplo',
      creation_date: '2012-07-03T20:58:58.000Z',
      expiration_date: '2013-07-03T20:58:58.000Z',
    });
    expect(
      parseWhoisText(
        'Nom de domaine#. . . . . . . . .example.dz\nRegistrar#. . . . . . . . . . . example\nDate de creation#. . . . . . . .10/01/2007\n',
      ),
    ).toMatchObject({
      domain: 'example.dz',
      registrar: 'example',
      creation_date: '2007-01-10T00:00:00.000Z',
    });
  });

  test('a registrar heading names the organisation, not the handle (.it); Nominet tags go', () => {
    expect(
      parseWhoisText(
        'Domain:             example.it\n\nRegistrar\n  Organization:     Example Registrar S.p.A.\n  Name:             EXAMPLE-REG\n',
      ).registrar,
    ).toBe('Example Registrar S.p.A.');
    expect(
      parseWhoisText(
        '    Domain name:\n        example.co.uk\n\n    Registrar:\n        Example Ltd t/a Example [Tag = EXAMPLE]\n        URL: http://registrar.example\n',
      ).registrar,
    ).toBe('Example Ltd t/a Example');
  });

  test('a host line with IPv6 addresses under a heading is a value, not a key', () => {
    expect(
      parseWhoisText(
        'Domain name: example.xx\nName servers:\n    ns1.example.net\n    ns2.example.co.uk      192.0.2.1  2001:0db8:0000:0000:0000:0000:0000:0001\n',
      ).name_servers,
    ).toEqual(['ns1.example.net', 'ns2.example.co.uk']);
  });
});

describe('the lines read', () => {
  // Filler lines that are neither data nor "not found": a disclaimer's.
  const filler = (count: number) => 'Terms of use apply.\n'.repeat(count);

  test(`the first ${WHOIS_MAX_LINES} lines are read, the rest is not`, () => {
    const data = 'Domain Name: example.com\nRegistrar: Example\n';
    expect(parseWhoisText(filler(WHOIS_MAX_LINES - 2) + data)).toMatchObject({
      outcome: 'found',
      registrar: 'Example',
    });
    // One line further and the registrar is past the end (CR LF counts as one line break).
    const late = parseWhoisText(filler(WHOIS_MAX_LINES - 1) + data);
    expect(late).toMatchObject({ domain: 'example.com', registrar: '' });
    expect(parseWhoisText((filler(WHOIS_MAX_LINES - 1) + data).replaceAll('\n', '\r\n'))).toEqual(
      late,
    );
    expect(parseWhoisText(filler(WHOIS_MAX_LINES) + data).outcome).toBe('not_found');
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

  /** A line each NOT_FOUND pattern matches (the first test holds the list to the patterns). */
  const NOT_FOUND_LINES = [
    'No match for "EXAMPLE.COM".',
    'No matching record.',
    'Not found: example.com',
    'No Data Found',
    'No found',
    'No entries found for the selected source(s).',
    'No Object Found',
    'Domain not found.',
    'Object does not exist',
    'The queried object does not exist: example.com',
    'The domain name is not registered.',
    'This domain name has not been registered.',
    'Domain Status: No Object Found',
    'Status: AVAILABLE',
    'query_status: 220 Available',
    '%ERROR:101: no entries found',
    'No information available about domain name example.hu',
    'Nincs talalat',
    'Domain "example.com" not found',
    'Invalid query or domain name not known in Domain Names Database',
    '>>> Domain example.com is available for registration',
    'Reserved domain name',
    'This premium domain is available for purchase',
    'This query returned 0 objects.',
    '상기 도메인이름은 등록되어 있지 않습니다.',
  ];

  test('every not-found pattern has a line here', () => {
    for (const re of NOT_FOUND) expect(NOT_FOUND_LINES.some((line) => re.test(line))).toBe(true);
  });

  test('a not-found line is found whatever its case and comment marks (the per-line filters)', () => {
    // The reference: the patterns themselves on the line without its marks. Data lines before
    // it, so that only the line can make the answer "not found".
    const data = 'Domain Name: example.com\nRegistrar: Example\n';
    const reference = (line: string) => {
      // The parser reads a line without its marks and without trailing space.
      const text = line.replace(/^[\s%#>*]+/, '').trimEnd();
      return NOT_FOUND.some((re) => re.test(text));
    };
    const marks = fc.stringMatching(/^[ \t%#>*]{0,3}$/);
    const casing = (line: string, flips: boolean[]) =>
      [...line]
        .map((ch, i) => (flips[i % flips.length] ? ch.toUpperCase() : ch.toLowerCase()))
        .join('');
    const line = fc.oneof(
      fc
        .tuple(marks, fc.constantFrom(...NOT_FOUND_LINES), fc.array(fc.boolean(), { minLength: 1 }))
        .map(([m, l, flips]) => m + casing(l, flips)),
      // Lines that start like one and go elsewhere, and random text.
      fc
        .tuple(marks, fc.constantFrom(...NOT_FOUND_LINES), fc.nat(12), fc.string({ maxLength: 8 }))
        .map(([m, l, cut, rest]) => m + l.slice(0, cut) + rest),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(line, (l) => {
        expect(parseWhoisText(data + l).outcome).toBe(reference(l) ? 'not_found' : 'found');
      }),
      { numRuns: 2_000 },
    );
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

describe('bounds on hostile answers', () => {
  const answer = (lines: string[]) => `Domain Name: example.com\n${lines.join('\n')}\n`;
  const unreadable = (n: number) =>
    Array.from({ length: n }, (_, i) => `Creation Date: ${i}x`).concat('Creation Date: 2020-01-02');

  test('a date key is given up after 32 unreadable values', () => {
    expect(parseWhoisText(answer(unreadable(31))).creation_date).toBe('2020-01-02T00:00:00.000Z');
    expect(parseWhoisText(answer(unreadable(32))).creation_date).toBe('');
    // …and the next key is still read.
    const next = answer([...unreadable(40), 'Created: 2021-03-04']);
    expect(parseWhoisText(next).creation_date).toBe('2021-03-04T00:00:00.000Z');
  });

  test('at most 64 distinct status values are read', () => {
    const statuses = Array.from({ length: 100 }, (_, i) => `Domain Status: state${i}`);
    const status = parseWhoisText(answer(statuses)).status;
    expect(status).toHaveLength(64);
    expect(status[63]).toBe(toRdapStatus('state63'));
  });
});

// Issue 41 item 10: the edges of each new rule (the real answers are in whois-extra.test.ts).
describe('rules for registries outside the corpora', () => {
  test('dot leaders after the colon go; one leading dot is a value', () => {
    const parsed = parseWhoisText(
      'Supported ccTLDs : .tn\nDomain:.............example.tn\nRegistrar:..ELB\nFirst Name:.....\n',
    );
    expect(parsed.domain).toBe('example.tn');
    expect(parsed.registrar).toBe('ELB');
  });

  test('Freenom dates are month first; a first number past 12 is still a day', () => {
    const dates = (registered: string) =>
      parseWhoisText(`Domain name:\n   EXAMPLE.TK\n\nDomain registered: ${registered}\n`)
        .creation_date;
    expect(dates('03/02/2012')).toBe('2012-03-02T00:00:00.000Z');
    expect(dates('25/03/2013')).toBe('2013-03-25T00:00:00.000Z');
    expect(dates('2011-01-23 00:00:07 +02:00')).toBe('2011-01-22T22:00:07.000Z'); // .ee
  });

  test('"NO OBJECT FOUND!" is "not found" only when its type is domain', () => {
    const answer = (type: string) =>
      `domain:     example.gf\nchanged:    2016-10-14 00:00:00.0\nNO OBJECT FOUND!\nobject:     210\ntype:       ${type}\n`;
    expect(parseWhoisText(answer('nameserver')).outcome).toBe('found');
    expect(parseWhoisText(answer('person')).outcome).toBe('found');
    expect(parseWhoisText(answer('domain')).outcome).toBe('not_found');
    expect(parseWhoisText('NO OBJECT FOUND!\n').outcome).toBe('not_found');
  });

  test.each([
    ['440 Request Denied', 'refused', '440 Request Denied'],
    ['500 Invalid characters in query string', 'refused', '500 Invalid characters in query string'],
    ['510 Domain is not managed by this register', 'not_found', ''],
    ['220 Available', 'not_found', ''],
    ['200 Active', 'found', ''],
  ])('query_status: %s → %s', (status, outcome, refusal) => {
    const parsed = parseWhoisText(`domain_name: example.nz\nquery_status: ${status}\n`);
    expect([parsed.outcome, parsed.refusal]).toEqual([outcome, refusal]);
  });

  test('a State: beside an address line is no status; one without is', () => {
    const contact = 'Registrant:\n   Name: X\n   City: Mountain View\n   State: California\n';
    expect(parseWhoisText(`Domain Name: example.mx\n\n${contact}`).status).toEqual([]);
    expect(parseWhoisText('domain: example.se\nstate: active\n').status).toEqual(['active']);
  });

  test.each([
    ['not.defined', []],
    ['no.nameserver', []],
    ['none.none', []],
    ['192.0.2.1', []],
    ['-', []],
    ['not defined', []],
    ['ns1.no', ['ns1.no']],
    ['a--b.example.', ['a--b.example']],
    ['-bad.example', []],
  ])('name server %j → %j', (value, servers) => {
    const parsed = parseWhoisText(`Domain Name: example.com\nName Server: ${value}\n`);
    expect(parsed.name_servers).toEqual(servers);
  });
});
