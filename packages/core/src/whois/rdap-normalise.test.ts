import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite } from '@netdiag/test-utils';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toIsoDate as toIsoDateBefore } from '../../test/fixtures/dates-before.js';
import type { RdapObject } from './rdap-client.js';
import {
  entityName,
  fillGaps,
  hasGaps,
  ianaRegistrarId,
  normaliseHostName,
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

describe('lists read without copies give what the filtered copies gave', () => {
  // normaliseRdapDomain before its lists were read in place (objects(), strings(),
  // uniqueNonEmpty() made filtered copies) and its dates told apart by their leading digits.
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  const objects = (value: unknown): RdapObject[] =>
    Array.isArray(value) ? (value.filter(isObject) as RdapObject[]) : [];
  const strings = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const uniqueNonEmpty = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];
  const findEntity = (doc: RdapObject, role: string, depth = 0): RdapObject | undefined => {
    for (const entity of objects(doc.entities)) {
      if (strings(entity.roles).some((r) => r.toLowerCase() === role)) return entity;
    }
    if (depth >= 2) return undefined;
    for (const entity of objects(doc.entities)) {
      const nested = findEntity(entity, role, depth + 1);
      if (nested) return nested;
    }
    return undefined;
  };
  const ianaId = (entity: RdapObject | undefined): number | null => {
    if (!entity) return null;
    for (const id of objects(entity.publicIds)) {
      const record = id as { type?: unknown; identifier?: unknown };
      if (typeof record.type === 'string' && /iana registrar id/i.test(record.type)) {
        const value = String(record.identifier ?? '').trim();
        if (/^\d+$/.test(value)) return Number(value);
      }
    }
    return null;
  };
  const eventDate = (doc: RdapObject, action: string): string => {
    for (const event of objects(doc.events)) {
      const record = event as { eventAction?: unknown; eventDate?: unknown };
      if (typeof record.eventAction === 'string' && record.eventAction.toLowerCase() === action) {
        const date = toIsoDateBefore(text(record.eventDate));
        if (date) return date;
      }
    }
    return '';
  };
  const before = (doc: RdapObject) => {
    const registrar = findEntity(doc, 'registrar');
    const nameServers = objects(doc.nameservers).map((ns) =>
      normaliseHostName(text(ns.ldhName) || text(ns.unicodeName)),
    );
    return {
      domain: 'example.com',
      registrar: entityName(registrar),
      registrar_iana_id: ianaId(registrar),
      creation_date: eventDate(doc, 'registration'),
      expiration_date: eventDate(doc, 'expiration'),
      last_updated: eventDate(doc, 'last changed'),
      name_servers: uniqueNonEmpty(nameServers),
      status: uniqueNonEmpty(
        strings(doc.status).map((s) => s.trim().toLowerCase().replace(/\s+/g, ' ')),
      ),
      rdap_link: 'https://rdap.example/',
    };
  };

  // Lists of what RDAP holds mixed with what it must not: null, numbers, strings, arrays,
  // holes (a sparse array), and not a list at all.
  const junk = fc.constantFrom<unknown>(null, 0, 'x', '', [], [{}], true);
  const listOf = (item: fc.Arbitrary<unknown>) =>
    fc.oneof(
      fc.array(item, { maxLength: 4 }),
      fc.array(fc.oneof(item, junk), { maxLength: 4 }),
      fc.sparseArray(fc.oneof(item, junk), { maxLength: 4 }),
      junk,
      fc.constant(undefined),
    );
  const word = fc.constantFrom('', ' ', 'Active', ' client  Hold', 'ok', 'OK ', 'x\ty', 'Ünï');
  const role = fc.constantFrom('registrar', 'Registrar', 'abuse', 'technical', '');
  const entity = fc.letrec((tie) => ({
    entity: fc.record(
      {
        roles: listOf(role),
        handle: fc.constantFrom('H1', ' H2 ', 7),
        vcardArray: fc.constantFrom<unknown>(
          ['vcard', [['fn', {}, 'text', 'Registrar Inc.']]],
          ['vcard', [['org', {}, 'text', 'Org']]],
          ['vcard', 'bad'],
        ),
        publicIds: listOf(
          fc.record({
            type: fc.constantFrom('IANA Registrar ID', 'other'),
            identifier: fc.constantFrom('292', ' 42 ', 'x', 9),
          }),
        ),
        entities: fc.oneof({ depthSize: 'small' }, fc.constant(undefined), listOf(tie('entity'))),
      },
      { requiredKeys: [] },
    ),
  })).entity;
  const event = fc.record(
    {
      eventAction: fc.constantFrom('registration', 'Expiration', 'last changed', 'transfer', 3),
      eventDate: fc.constantFrom('2001-01-01T00:00:00Z', '1234x', ' 31-Oct-2019 ', '', 5),
    },
    { requiredKeys: [] },
  );
  const nameServer = fc.record(
    {
      ldhName: fc.constantFrom(
        'NS1.Example.COM.',
        'ns1.example.com',
        '',
        ' ',
        'xn--bcher-kva.example',
      ),
      unicodeName: fc.constantFrom('bücher.example', 'NS2.example', ''),
    },
    { requiredKeys: [] },
  );
  const doc = fc.record(
    {
      entities: listOf(entity),
      events: listOf(event),
      nameservers: listOf(nameServer),
      status: listOf(word),
    },
    { requiredKeys: [] },
  );

  test('normaliseRdapDomain', () => {
    fc.assert(
      fc.property(doc, (d) => {
        const rdap = d as RdapObject;
        expect(normaliseRdapDomain(rdap, 'example.com', 'https://rdap.example/')).toEqual(
          before(rdap),
        );
      }),
      { numRuns: 20_000 },
    );
  });
});
