/**
 * Output formats, field selection, batches and gates, through `run()` with captured streams
 * against a loopback DNS server and HTTP target. CSV is checked with an independent parser
 * (csv-parse) and YAML by parsing it back: what a script reading the output would do.
 */

import { DNSBL_ZONES, dnsblQueryName } from '@netdiag/core';
import {
  type DnsTestServer,
  type HttpTarget,
  startDnsServer,
  startHttpTarget,
  type Zone,
} from '@netdiag/test-utils';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { EXIT, run } from '../src/index.js';
import { createWriter, loadFormat } from '../src/output/formats.js';
import { captureIO } from './helpers.js';

// Every lookup builds an engine and reads the IP tables (1–2 s, more on a loaded CI machine).
vi.setConfig({ testTimeout: 90_000 });

/** A TXT value with every character CSV must quote: comma, quote, newline, and non-ASCII. */
const AWKWARD = 'a,b "quoted"\nnext line — café, 東京';

let dns: DnsTestServer;
let site: HttpTarget;
beforeAll(async () => {
  const zone: Zone = {
    'example.test': {
      A: ['192.0.2.10', '192.0.2.11'],
      TXT: [AWKWARD],
      MX: [{ preference: 10, exchange: 'mx.example.test' }],
    },
    'other.test': { A: ['192.0.2.20'] },
  };
  for (const list of DNSBL_ZONES) {
    zone[dnsblQueryName('127.0.0.2', list.zone)] = { A: ['127.0.0.2'] };
  }
  dns = await startDnsServer({ zone });
  site = await startHttpTarget({
    routes: {
      '/': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>'),
    },
  });
});
afterAll(async () => {
  await Promise.all([dns.close(), site.close()]);
});

async function cli(
  argv: string[],
  options: { stdin?: string; tty?: boolean; env?: Record<string, string> } = {},
) {
  const capture = captureIO(
    { NETDIAG_DNS_SERVERS: dns.address, ...options.env },
    options.stdin ?? '',
  );
  if (options.tty) {
    capture.io.stdoutIsTTY = true;
    capture.io.columns = 60;
  }
  const code = await run(argv, capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe('formats', () => {
  test('csv is RFC 4180: CRLF records; commas, quotes, newlines and non-ASCII quoted', async () => {
    await loadFormat('csv');
    let out = '';
    const writer = createWriter<Record<string, unknown>>({
      format: 'csv',
      batch: true,
      fields: undefined,
      pretty: false,
      text: () => '',
      textError: () => '',
      rows: undefined,
      write: (text) => {
        out += text;
      },
    });
    const data = { name: AWKWARD, n: 1, list: ['x', 'y,z'], nested: { k: 'é "q"' }, none: null };
    writer.item({ input: 'first', data });
    writer.item({ input: 'second', error: { code: 'INVALID_INPUT', message: 'bad, "really"' } });
    writer.end();
    expect(out.split('\r\n')[0]).toBe('input,name,n,list,nested.k,none,error');
    expect(parseCsv(out, { columns: true })).toEqual([
      {
        input: 'first',
        name: AWKWARD,
        n: '1',
        list: 'x; y,z',
        'nested.k': 'é "q"',
        none: '',
        error: '',
      },
      {
        input: 'second',
        name: '',
        n: '',
        list: '',
        'nested.k': '',
        none: '',
        error: 'bad, "really"',
      },
    ]);
  });

  test('csv of a command: one row per DNS record, an input column in a batch', async () => {
    const json = await cli(['dns', 'example.test', '-t', 'TXT', '--json']);
    const txt = JSON.parse(json.stdout).records[0].data as string;
    const { code, stdout } = await cli(['dns', 'example.test', 'TXT', 'A', '--format', 'csv']);
    expect(code).toBe(EXIT.ok);
    const records = parseCsv(stdout, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r['input'], r['record_type'], r['data']])).toEqual([
      ['example.test TXT', 'TXT', txt],
      ['example.test A', 'A', '192.0.2.10'],
      ['example.test A', 'A', '192.0.2.11'],
    ]);
    const one = await cli([
      'dns',
      'example.test',
      '-t',
      'TXT',
      '--format',
      'csv',
      '--fields',
      'domain,records.data',
    ]);
    expect(parseCsv(one.stdout, { columns: true })).toEqual([
      { domain: 'example.test', 'records.data': txt },
    ]);
    const two = await cli(['dns', 'example.test', '--format', 'csv', '--fields', 'records.data']);
    expect(parseCsv(two.stdout, { columns: true })).toEqual([
      { 'records.data': '192.0.2.10' },
      { 'records.data': '192.0.2.11' },
    ]);
  });

  test('csv --fields follows the first list, and a list inside it, one row per element', async () => {
    await loadFormat('csv');
    let out = '';
    const writer = createWriter<Record<string, unknown>>({
      format: 'csv',
      batch: false,
      fields: ['host', 'suites.protocol', 'suites.names.name', 'other.x', 'suites.0.protocol'],
      pretty: false,
      text: () => '',
      textError: () => '',
      rows: undefined,
      write: (text) => {
        out += text;
      },
    });
    writer.item({
      input: 'h',
      data: {
        host: 'h',
        suites: [
          { protocol: 'TLSv1.3', names: [{ name: 'a' }, { name: 'b' }] },
          { protocol: 'TLSv1.2', names: [{ name: 'c' }] },
          { protocol: 'TLSv1.1', names: [] },
        ],
        other: [{ x: 1 }, { x: 2 }],
      },
    });
    writer.end();
    const lead = { host: 'h', 'other.x': '1; 2', 'suites.0.protocol': 'TLSv1.3' };
    expect(parseCsv(out, { columns: true })).toEqual([
      { ...lead, 'suites.protocol': 'TLSv1.3', 'suites.names.name': 'a' },
      { ...lead, 'suites.protocol': 'TLSv1.3', 'suites.names.name': 'b' },
      { ...lead, 'suites.protocol': 'TLSv1.2', 'suites.names.name': 'c' },
    ]);
    // The columns are the fields, in the order given.
    expect(out.split('\r\n')[0]).toBe(
      'host,suites.protocol,suites.names.name,other.x,suites.0.protocol',
    );
  });

  test('json is pretty on a terminal and one line in a pipe; yaml parses to the same document', async () => {
    const pipe = await cli(['dns', 'example.test', '--json']);
    expect(pipe.stdout.trim().split('\n')).toHaveLength(1);
    const tty = await cli(['dns', 'example.test', '--format', 'json'], { tty: true });
    expect(tty.stdout.split('\n').length).toBeGreaterThan(5);
    expect(JSON.parse(tty.stdout)).toEqual(JSON.parse(pipe.stdout));
    const yaml = await cli(['dns', 'example.test', '--format', 'yaml']);
    expect(parseYaml(yaml.stdout)).toEqual(JSON.parse(pipe.stdout));
  });

  test('--fields picks dot paths, across arrays, in every format', async () => {
    const json = await cli(['dns', 'example.test', '--json', '--fields', 'domain,records.data']);
    expect(JSON.parse(json.stdout)).toEqual({
      domain: 'example.test',
      records: { data: ['192.0.2.10', '192.0.2.11'] },
    });
    const text = await cli(['lookup', '8.8.8.8', '1.1.1.1', '--fields', 'ip,network.asn']);
    expect(text.stdout).toBe('8.8.8.8\t8.8.8.8\t15169\n1.1.1.1\t1.1.1.1\t13335\n');
    const one = await cli(['lookup', '8.8.8.8', '--fields', 'location.country']);
    expect(one.stdout).toBe('US\n');
  });

  test('jsonl: one item per target, in input order, errors included', async () => {
    const { code, stdout } = await cli(['lookup', '-', '--format', 'jsonl'], {
      stdin: '8.8.8.8\nnot-an-ip\n# a comment\n\n1.1.1.1\n',
    });
    expect(code).toBe(EXIT.badInput); // the first failure decides the status
    const items = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(items.map((i) => i.input)).toEqual(['8.8.8.8', 'not-an-ip', '1.1.1.1']);
    expect(items[0].data.network.asn).toBe(15169);
    expect(items[1].error).toEqual({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/Invalid IP/),
    });
    expect(items[2].data.network.asn).toBe(13335);
  });

  test('a batch in text: each answer, failures inline, the batch goes on', async () => {
    const { code, stdout, stderr } = await cli(['rdns', '192.0.2.1', 'x', '192.0.2.2']);
    expect(code).toBe(EXIT.badInput);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^192\.0\.2\.1: no PTR record/);
    expect(stdout).toMatch(/\nx: error: Invalid IP address format/);
    expect(stdout).toMatch(/\n192\.0\.2\.2: no PTR record/);
  });

  test('-f FILE reads targets; a missing file is bad input in plain words', async () => {
    const missing = await cli(['lookup', '-f', '/nonexistent/ips.txt']);
    expect(missing.code).toBe(EXIT.badInput);
    expect(missing.stderr).toBe('netdiag: cannot read /nonexistent/ips.txt: no such file\n');
    const none = await cli(['lookup']);
    expect(none.code).toBe(EXIT.badInput);
    expect(none.stderr).toMatch(/no address given: pass it as an argument, with -f FILE/);
  });
});

describe('colour and layout', () => {
  test('colour on a terminal only; NO_COLOR, --no-color and FORCE_COLOR decide over it', async () => {
    const argv = ['blacklist', '127.0.0.2'];
    expect((await cli(argv, { tty: true })).stdout).toContain('\x1b[31m');
    expect((await cli(argv)).stdout).not.toContain('\x1b[');
    expect((await cli(argv, { tty: true, env: { NO_COLOR: '1' } })).stdout).not.toContain('\x1b[');
    expect((await cli([...argv, '--no-color'], { tty: true })).stdout).not.toContain('\x1b[');
    expect((await cli(argv, { env: { FORCE_COLOR: '1' } })).stdout).toContain('\x1b[31m');
    // JSON is never coloured.
    expect((await cli([...argv, '--json'], { tty: true })).stdout).not.toContain('\x1b[');
  });

  test('tables fit the terminal width', async () => {
    const { stdout } = await cli(['blacklist', '127.0.0.2', '--no-color'], { tty: true });
    for (const line of stdout.trimEnd().split('\n').slice(1)) {
      expect([...line].length).toBeLessThanOrEqual(60);
    }
  });
});

describe('gates', () => {
  test('--fail-on-listed: exit 5 when listed, 0 when clean; the answer is printed either way', async () => {
    const listed = await cli(['blacklist', '127.0.0.2', '--fail-on-listed', '--json']);
    expect(listed.code).toBe(EXIT.gate);
    expect(JSON.parse(listed.stdout).listed_count).toBe(12);
    expect(listed.stderr).toBe('netdiag: 127.0.0.2 is listed on 12 of 12 lists\n');
    const clean = await cli(['blacklist', '192.0.2.200', '--fail-on-listed']);
    expect(clean.code).toBe(EXIT.ok);
  });

  test('--fail-under on headers, score and email-auth', async () => {
    const env = { NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8' };
    const headers = await cli(['headers', `${site.url}/`, '--fail-under', 'B'], { env });
    expect(headers.code).toBe(EXIT.gate);
    expect(headers.stderr).toMatch(/grade F is below --fail-under B/);
    const easy = await cli(['headers', `${site.url}/`, '--fail-under', 'F'], { env });
    expect(easy.code).toBe(EXIT.ok);
    const score = await cli(['score', '8.8.8.8', '--fail-under', 'a']);
    expect([EXIT.ok, EXIT.gate]).toContain(score.code);
    const grade = /grade ([A-D])/.exec(score.stdout)?.[1];
    expect(score.code).toBe(grade === 'A' ? EXIT.ok : EXIT.gate);
    const mail = await cli(['email-auth', 'example.test', '--fail-under', 'A']);
    expect(mail.code).toBe(EXIT.gate);
    expect(mail.stderr).toMatch(/email authentication grade [B-F] is below --fail-under A/);
    const bad = await cli(['headers', site.url, '--fail-under', 'Z']);
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.stderr).toMatch(/give one of A\+, A, A-/);
  });
});

describe('local probing', () => {
  test('a loopback target is refused with the switch that allows it; --allow-private allows it', async () => {
    const refused = await cli(['down', `${site.url}/`]);
    expect(refused.code).toBe(EXIT.badInput);
    expect(refused.stderr).toMatch(
      /loopback .* pass --allow-private \(or set NETDIAG_ALLOW_PRIVATE=1\)/,
    );
    const allowed = await cli(['down', `${site.url}/`, '--allow-private']);
    expect(allowed.code).toBe(EXIT.ok);
    expect(allowed.stdout).toMatch(/is UP \(200 OK/);
    const byEnv = await cli(['down', `${site.url}/`], { env: { NETDIAG_ALLOW_PRIVATE: '1' } });
    expect(byEnv.code).toBe(EXIT.ok);
  });
});
