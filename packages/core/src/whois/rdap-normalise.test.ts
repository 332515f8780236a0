import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import type { RdapObject } from './rdap-client.js';
import {
  entityName,
  eventDate,
  fillGaps,
  hasGaps,
  ianaRegistrarId,
  normaliseRdapDomain,
  normaliseRdapResource,
  registrarLink,
} from './rdap-normalise.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const corpora = process.env.NETDIAG_CORPORA ?? join(repo, '..', 'shared', 'corpora');
const rdapDir = join(corpora, 'rdap');
const present = prerequisite(
  'RDAP corpus',
  existsSync(join(rdapDir, 'rdap-cases.json')),
  'the shared corpora: set NETDIAG_CORPORA or put ../shared beside the repository',
);
if (!present) console.warn(`[rdap-normalise] corpus tests skipped: no corpus at ${rdapDir}`);

interface RawSample {
  id: string;
  file: string;
  expected: unknown;
}

(present ? describe : describe.skip)('real registry documents (openrdap samples)', () => {
  const samples = present
    ? (
        JSON.parse(readFileSync(join(rdapDir, 'rdap-cases.json'), 'utf8')) as {
          raw_samples: RawSample[];
        }
      ).raw_samples
    : [];
  const load = (id: string) => {
    const sample = samples.find((s) => s.id === id) as RawSample;
    return { sample, doc: JSON.parse(readFileSync(join(rdapDir, sample.file), 'utf8')) };
  };

  test('CZ.NIC domain: dates, name servers, status; registrar without vCard → its handle', () => {
    const { sample, doc } = load('openrdap-cz-domain');
    const expected = sample.expected as {
      ldhName: string;
      status: string[];
      nameservers: string[];
      registrar_entity_handle: string;
      events: { registration: string; expiration: string };
    };
    const url = 'https://rdap.nic.cz/domain/example.cz';
    const record = normaliseRdapDomain(doc, expected.ldhName, url);
    expect(record).toEqual({
      domain: expected.ldhName,
      registrar: expected.registrar_entity_handle,
      registrar_iana_id: null,
      creation_date: new Date(expected.events.registration).toISOString(),
      expiration_date: new Date(expected.events.expiration).toISOString(),
      last_updated: '',
      name_servers: expected.nameservers,
      status: expected.status,
      rdap_link: url,
    });
  });

  test('Verisign registrar entity: vCard fn and IANA Registrar ID', () => {
    const { doc } = load('openrdap-verisign-entity');
    expect(entityName(doc)).toBe('Verisign, Inc.~VRSN');
    expect(ianaRegistrarId(doc)).toBe(1);
  });

  test('CZ.NIC nameserver document decodes without error', () => {
    const { doc } = load('openrdap-cz-nameserver');
    expect(doc.objectClassName).toBe('nameserver');
    expect(normaliseRdapDomain(doc, 'x.cz', 'u').name_servers).toEqual([]);
  });
});

/** A gTLD-style registry record, shaped like Verisign's answers (ICANN RDAP profile). */
const registryDoc: RdapObject = {
  objectClassName: 'domain',
  ldhName: 'EXAMPLE.COM',
  status: ['client delete prohibited', 'Client Transfer Prohibited', 'client delete prohibited'],
  events: [
    { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
    { eventAction: 'expiration', eventDate: '2030-08-13T04:00:00+02:00' },
    { eventAction: 'last changed', eventDate: '2024-08-14T07:01:34Z' },
    { eventAction: 'last update of RDAP database', eventDate: '2025-01-01T00:00:00Z' },
  ],
  nameservers: [
    { objectClassName: 'nameserver', ldhName: 'A.IANA-SERVERS.NET.' },
    { objectClassName: 'nameserver', ldhName: 'b.iana-servers.net' },
    { objectClassName: 'nameserver', unicodeName: 'ns.bücher.example' },
  ],
  entities: [
    { objectClassName: 'entity', roles: ['registrant'], handle: 'R1' },
    {
      objectClassName: 'entity',
      roles: ['registrar'],
      handle: '376',
      publicIds: [{ type: 'IANA Registrar ID', identifier: '376' }],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'RESERVED-IANA'],
        ],
      ],
    },
  ],
  links: [
    { rel: 'self', href: 'https://rdap.example/domain/EXAMPLE.COM', type: 'application/rdap+json' },
    {
      rel: 'related',
      href: 'https://rdap.registrar.example/domain/EXAMPLE.COM',
      type: 'application/rdap+json',
    },
  ],
};

describe('normaliseRdapDomain', () => {
  test('maps events, registrar, name servers and status to the SPEC shape', () => {
    expect(
      normaliseRdapDomain(registryDoc, 'example.com', 'https://rdap.example/domain/example.com'),
    ).toEqual({
      domain: 'example.com',
      registrar: 'RESERVED-IANA',
      registrar_iana_id: 376,
      creation_date: '1995-08-14T04:00:00.000Z',
      expiration_date: '2030-08-13T02:00:00.000Z',
      last_updated: '2024-08-14T07:01:34.000Z',
      name_servers: ['a.iana-servers.net', 'b.iana-servers.net', 'ns.xn--bcher-kva.example'],
      status: ['client delete prohibited', 'client transfer prohibited'],
      rdap_link: 'https://rdap.example/domain/example.com',
    });
  });

  test('an empty document keeps every type', () => {
    const record = normaliseRdapDomain({}, 'example.com', 'u');
    expect(record).toEqual({
      domain: 'example.com',
      registrar: '',
      registrar_iana_id: null,
      creation_date: '',
      expiration_date: '',
      last_updated: '',
      name_servers: [],
      status: [],
      rdap_link: 'u',
    });
    expect(hasGaps(record)).toBe(true);
  });

  test('wrong member types are ignored, never thrown', () => {
    const junk = {
      status: 'active',
      events: [null, 5, { eventAction: 'registration', eventDate: 'yesterday' }],
      nameservers: { ldhName: 'x' },
      entities: [{ roles: 'registrar' }, { roles: ['registrar'], vcardArray: ['vcard', 7] }],
    } as RdapObject;
    const record = normaliseRdapDomain(junk, 'example.com', 'u');
    expect(record.status).toEqual([]);
    expect(record.creation_date).toBe('');
    expect(record.name_servers).toEqual([]);
    expect(record.registrar).toBe('');
  });

  test('a malformed registrar vCard is rejected and the handle is used', () => {
    const doc: RdapObject = {
      entities: [
        {
          roles: ['registrar'],
          handle: 'REG-1',
          vcardArray: ['vcard', [['fn', {}, 'text', ['ok', ['ok', ['too deep']]]]]],
        },
      ],
    };
    expect(normaliseRdapDomain(doc, 'example.com', 'u').registrar).toBe('REG-1');
  });

  test('a registrar nested under another entity is found', () => {
    const doc: RdapObject = {
      entities: [
        {
          roles: ['reseller'],
          entities: [
            { roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Nested']]] },
          ],
        },
      ],
    };
    expect(normaliseRdapDomain(doc, 'example.com', 'u').registrar).toBe('Nested');
  });
});

describe('registrar link and gap filling', () => {
  test('the related RDAP link is the registrar record; self links and other types are not', () => {
    expect(registrarLink(registryDoc, 'https://rdap.example/domain/EXAMPLE.COM')).toBe(
      'https://rdap.registrar.example/domain/EXAMPLE.COM',
    );
    expect(
      registrarLink(
        { links: [{ rel: 'related', href: 'https://x.example/about', type: 'text/html' }] },
        'u',
      ),
    ).toBeUndefined();
    expect(
      registrarLink({ links: [{ rel: 'related', href: 'ftp://x/domain/a' }] }, 'u'),
    ).toBeUndefined();
  });

  test('fillGaps keeps the primary values and fills only empty fields', () => {
    const primary = normaliseRdapDomain(
      { events: [{ eventAction: 'registration', eventDate: '2000-01-01T00:00:00Z' }] },
      'example.com',
      'registry',
    );
    const merged = fillGaps(primary, {
      creation_date: '1999-01-01T00:00:00.000Z',
      expiration_date: '2030-01-01T00:00:00.000Z',
      registrar: 'Registrar Inc.',
      name_servers: ['ns1.example.net'],
      rdap_link: 'registrar',
    });
    expect(merged.creation_date).toBe('2000-01-01T00:00:00.000Z');
    expect(merged.expiration_date).toBe('2030-01-01T00:00:00.000Z');
    expect(merged.registrar).toBe('Registrar Inc.');
    expect(merged.name_servers).toEqual(['ns1.example.net']);
    expect(merged.rdap_link).toBe('registry');
  });
});

describe('normaliseRdapResource', () => {
  test('IP network', () => {
    const result = normaliseRdapResource(
      {
        objectClassName: 'ip network',
        handle: 'NET-8-8-8-0-2',
        name: 'GOGL',
        startAddress: '8.8.8.0',
        endAddress: '8.8.8.255',
        type: 'DIRECT ALLOCATION',
        country: 'US',
        status: ['active'],
        entities: [
          { roles: ['registrant'], vcardArray: ['vcard', [['fn', {}, 'text', 'Google LLC']]] },
        ],
        events: [{ eventAction: 'registration', eventDate: '2023-12-28T17:24:33-05:00' }],
      },
      '8.8.8.8',
      'https://rdap.arin.net/registry/ip/8.8.8.8',
    );
    expect(result).toEqual({
      query: '8.8.8.8',
      object_class: 'ip network',
      handle: 'NET-8-8-8-0-2',
      name: 'GOGL',
      start: '8.8.8.0',
      end: '8.8.8.255',
      country: 'US',
      type: 'DIRECT ALLOCATION',
      organization: 'Google LLC',
      creation_date: '2023-12-28T22:24:33.000Z',
      last_updated: '',
      status: ['active'],
      rdap_link: 'https://rdap.arin.net/registry/ip/8.8.8.8',
    });
  });

  test('autnum', () => {
    const result = normaliseRdapResource(
      {
        objectClassName: 'autnum',
        handle: 'AS13335',
        startAutnum: 13335,
        endAutnum: 13335,
        name: 'CLOUDFLARENET',
      },
      'AS13335',
      'u',
    );
    expect(result.start).toBe('AS13335');
    expect(result.end).toBe('AS13335');
    expect(result.object_class).toBe('autnum');
    expect(result.organization).toBe('');
  });
});

describe('eventDate', () => {
  const events = (dates: string[]) =>
    ({
      events: dates.map((eventDate) => ({ eventAction: 'registration', eventDate })),
    }) as RdapObject;

  test('the first readable date of the action, among its first 32 events', () => {
    const late = events([...Array.from({ length: 31 }, (_, i) => `${i}x`), '2001-01-01T00:00:00Z']);
    expect(eventDate(late, 'registration')).toBe('2001-01-01T00:00:00.000Z');
    // A registry lists each action once (RFC 9083 §4.5): past 32 unreadable ones, none is read.
    const hostile = events([...Array.from({ length: 32 }, (_, i) => `${i}x`), '2001-01-01']);
    expect(eventDate(hostile, 'registration')).toBe('');
  });
});

test('the first 64 distinct statuses and name servers are read (a registry prints a few)', () => {
  const doc = {
    status: Array.from({ length: 100 }, (_, i) => `Status ${i % 80}`),
    nameservers: Array.from({ length: 100 }, (_, i) => ({ ldhName: `NS${i}.Example.` })),
  } as RdapObject;
  const record = normaliseRdapDomain(doc, 'example', 'u');
  expect(record.status).toEqual(Array.from({ length: 64 }, (_, i) => `status ${i}`));
  expect(record.name_servers).toEqual(Array.from({ length: 64 }, (_, i) => `ns${i}.example`));
});
