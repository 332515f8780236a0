import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { run } from '../index.js';
import type { CliIO } from '../io.js';

const cacheDir = tempDir('netdiag-ip-cli-');

function capture(stdin = '') {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = {
    stdout: (t) => void out.push(t),
    stderr: (t) => void err.push(t),
    // The Tor list URL points at a closed loopback port: absence is never an error.
    env: {
      NETDIAG_LOG_LEVEL: 'silent',
      NETDIAG_CACHE_DIR: cacheDir,
      NETDIAG_TOR_EXIT_LIST_URL: 'http://127.0.0.1:9/torbulkexitlist',
    },
    stdin: async () => stdin,
  };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('netdiag lookup / bulk / asn', () => {
  test('lookup --json prints the /api/lookup data', async () => {
    const c = capture();
    expect(await run(['lookup', '8.8.8.8', '--json'], c.io)).toBe(0);
    const data = JSON.parse(c.out());
    expect(data).toMatchObject({
      ip: '8.8.8.8',
      network: { asn: 15169 },
      privacy: { hosting: true },
    });
  });

  test('lookup answers from the prebuilt files as the engine does', async () => {
    // A Tor list copy on disk (empty: it changes no answer) makes the engine answer instead.
    const engineDir = tempDir('netdiag-ip-cli-engine-');
    writeFileSync(join(engineDir, 'netdiag-tor-exit-list.txt'), '');
    const addresses = [
      '8.8.8.8',
      '1.1.1.1',
      '2a00:1450:4001:80b::200e',
      '64:ff9b::101:101',
      '10.1.2.3',
    ];
    for (let i = 0; i < 40; i++) addresses.push(`${(i * 37 + 11) % 223}.${i * 5}.${i * 3}.${i}`);
    const lines = async (dir: string) => {
      const c = capture();
      c.io.env = { ...c.io.env, NETDIAG_CACHE_DIR: dir };
      expect(await run(['lookup', ...addresses, '--format', 'jsonl'], c.io)).toBe(0);
      return c.out().trim().split('\n');
    };
    const direct = await lines(tempDir('netdiag-ip-cli-direct-'));
    expect(direct).toHaveLength(addresses.length);
    expect(direct).toEqual(await lines(engineDir));
  });

  test('lookup human output', async () => {
    const c = capture();
    expect(await run(['lookup', '1.1.1.1'], c.io)).toBe(0);
    expect(c.out()).toMatch(/AS13335 Cloudflare/);
  });

  test('lookup of an invalid IP exits 2 with the SPEC message', async () => {
    const c = capture();
    expect(await run(['lookup', '300.1.1.1'], c.io)).toBe(2);
    expect(c.err()).toMatch(/Invalid IP address format/);
  });

  test('bulk takes more than 50 addresses from a file, arguments and stdin', async () => {
    const file = join(cacheDir, 'ips.txt');
    const many = Array.from({ length: 120 }, (_, i) => `8.8.${i}.1`);
    writeFileSync(file, `# a comment\n${many.join('\n')}\nnot-an-ip\n`);
    const c = capture('1.1.1.1, 2606:4700:4700::1111\n');
    expect(await run(['bulk', '-f', file, '9.9.9.9', '-', '--json'], c.io)).toBe(0);
    const data = JSON.parse(c.out());
    expect(data.total).toBe(123);
    // Arguments (and "-" in their place) first, then the file.
    expect(data.results.slice(0, 3).map((r: { ip: string }) => r.ip)).toEqual([
      '9.9.9.9',
      '1.1.1.1',
      '2606:4700:4700::1111',
    ]);
    expect(data.results[122].ip).toBe('8.8.119.1');
    expect(data.errors).toEqual([
      {
        input: 'not-an-ip',
        error: 'Invalid IP address format: a valid IPv4 or IPv6 address is required.',
      },
    ]);
  });

  test('bulk in batches: a repeat in a later batch is dropped, a batch of bad entries goes on', async () => {
    const c = capture('8.8.8.8\n1.1.1.1\nbad\nworse\n::ffff:8.8.8.8\n9.9.9.9\n');
    expect(await run(['bulk', '-', '--batch-size', '2', '--format', 'jsonl'], c.io)).toBe(0);
    const lines = c
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.ip ?? l.input)).toEqual([
      '8.8.8.8',
      '1.1.1.1',
      'bad',
      'worse',
      '9.9.9.9',
    ]);
  });

  test('bulk human output and empty input', async () => {
    const c = capture();
    expect(await run(['bulk', '8.8.8.8', 'x'], c.io)).toBe(0);
    expect(c.out()).toMatch(/8\.8\.8\.8\s+US\s+AS15169/);
    expect(c.out()).toMatch(/1 invalid entry/);
    const empty = capture('');
    expect(await run(['bulk', '-'], empty.io)).toBe(2);
    expect(empty.err()).toMatch(/no addresses given/);
  });

  test('asn: number, name and unknown AS (exit 4)', async () => {
    const c = capture();
    expect(await run(['asn', 'AS13335', '--json'], c.io)).toBe(0);
    expect(JSON.parse(c.out())).toMatchObject({ type: 'asn', asn: 13335 });
    const name = capture();
    expect(await run(['asn', 'Cloudflare,', 'Inc.'], name.io)).toBe(0);
    expect(name.out()).toMatch(/AS13335\s+exact/);
    const unknown = capture();
    expect(await run(['asn', 'AS4294967295'], unknown.io)).toBe(4);
  });
});
