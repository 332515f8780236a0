/**
 * Terminal escapes from outside (issue 41 item 6): blocklist TXT reasons and WHOIS fields that
 * carry a window-title sequence (OSC 0), clear-screen, blink, a C1 CSI and a bidi override, and a
 * target echoed in an error. On a terminal none of them reaches it raw: they are shown escaped as
 * dig shows bytes (`\027`); JSON keeps the exact value, in a pipe every format is exact.
 * In-process runs cover the formats; the built CLI runs on a real pseudo-terminal (`script`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DNSBL_ZONES, dnsblQueryName } from '@netdiag/core';
import { type DnsTestServer, prerequisite, startDnsServer, type Zone } from '@netdiag/test-utils';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  bootstrapFile,
  bootstrapRoute,
  type RdapTestServer,
  startRdapServer,
} from '../../../test-utils/src/rdap-server.js';
import { startWhoisServer, type WhoisTestServer } from '../../../test-utils/src/whois-server.js';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

vi.setConfig({ testTimeout: 90_000 });

/** Window title (OSC 0 … BEL), clear screen, blink, a C1 CSI (red) and a right-to-left override. */
const EVIL = 'see \x1b]0;pwned\x07 \x1b[2J\x1b[5mblink\x1b[0m \u009b31mred \u202egnp.exe';
/** The same as dig shows it: each UTF-8 byte of a control character as `\DDD`. */
const SHOWN =
  'see \\027]0;pwned\\007 \\027[2J\\027[5mblink\\027[0m \\194\\15531mred \\226\\128\\174gnp.exe';
/** Any byte a terminal would act on: C0 but CR/LF (the pty adds CR), DEL, C1, bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const RAW = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let dns: DnsTestServer;
let rdap: RdapTestServer;
let iana: WhoisTestServer;
let registry: WhoisTestServer;

beforeAll(async () => {
  const zone: Zone = {};
  for (const list of DNSBL_ZONES) {
    zone[dnsblQueryName('127.0.0.2', list.zone)] = { A: ['127.0.0.2'], TXT: [EVIL] };
  }
  dns = await startDnsServer({ zone });
  rdap = await startRdapServer();
  // No RDAP service for .org: `netdiag whois example.org` asks the WHOIS chain.
  rdap.routes['/dns.json'] = bootstrapRoute(bootstrapFile([[['com'], [`${rdap.url}/com/`]]]));
  registry = await startWhoisServer({
    answers: {
      'example.org': `Domain Name: EXAMPLE.ORG\nRegistrar: Org Registrar ${EVIL}\nCreation Date: 1995-04-30T04:00:00Z\n`,
    },
  });
  iana = await startWhoisServer({ answers: () => `refer: ${registry.address}\n` });
});
afterAll(async () => {
  await Promise.all([dns.close(), rdap.close(), iana.close(), registry.close()]);
});

const env = () => ({
  NETDIAG_DNS_SERVERS: dns.address,
  NETDIAG_RDAP_BOOTSTRAP_URL: `${rdap.url}/dns.json`,
  NETDIAG_WHOIS_SERVER: iana.address,
  NETDIAG_ALLOWED_TARGETS: '127.0.0.0/8',
});

async function cli(argv: string[], tty: boolean) {
  const capture = captureIO(env());
  if (tty) {
    capture.io.stdoutIsTTY = true;
    capture.io.stderrIsTTY = true;
    capture.io.columns = 400;
  }
  const code = await run([...argv, '--no-color'], capture.io);
  return { code, stdout: capture.stdout(), stderr: capture.stderr() };
}

describe('on a terminal, in every format', () => {
  test('text: blocklist reasons and WHOIS fields escaped, nothing raw', async () => {
    const blacklist = await cli(['blacklist', '127.0.0.2'], true);
    expect(blacklist.code).toBe(EXIT.ok);
    expect(blacklist.stdout).not.toMatch(RAW);
    expect(blacklist.stdout).toContain(SHOWN);
    const whois = await cli(['whois', 'example.org'], true);
    expect(whois.code).toBe(EXIT.ok);
    expect(whois.stdout).not.toMatch(RAW);
    expect(whois.stdout).toContain(`Registrar:    Org Registrar ${SHOWN}`);
  });

  test('--fields (tab-separated) and a batch: the values escaped, the layout intact', async () => {
    const r = await cli(
      ['blacklist', '127.0.0.2', '127.0.0.2', '--fields', 'ip,results.reason'],
      true,
    );
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    // The tabs are the layout's; inside the values nothing is raw.
    for (const value of lines.flatMap((line) => line.split('\t'))) expect(value).not.toMatch(RAW);
    expect(lines[0]?.split('\t')).toEqual([
      '127.0.0.2',
      '127.0.0.2',
      Array(DNSBL_ZONES.length).fill(SHOWN).join('; '),
    ]);
  });

  test('csv and yaml: escaped like text', async () => {
    const csv = await cli(['blacklist', '127.0.0.2', '--format', 'csv'], true);
    expect(csv.stdout).not.toMatch(RAW);
    const rows = parseCsv(csv.stdout, { columns: true }) as { reason: string }[];
    expect(rows.map((row) => row.reason)).toEqual(Array(DNSBL_ZONES.length).fill(SHOWN));
    const yaml = await cli(['blacklist', '127.0.0.2', '--format', 'yaml'], true);
    expect(yaml.stdout).not.toMatch(RAW);
    const doc = parseYaml(yaml.stdout) as { results: { reason: string }[] };
    expect(doc.results.map((r) => r.reason)).toEqual(Array(DNSBL_ZONES.length).fill(SHOWN));
  });

  test('json and jsonl: nothing raw, and the exact value when parsed', async () => {
    for (const format of ['json', 'jsonl']) {
      const r = await cli(['blacklist', '127.0.0.2', '--format', format], true);
      expect(r.stdout).not.toMatch(RAW);
      expect(r.stdout).toContain('\\u001b]0;pwned\\u0007');
      expect(r.stdout).toContain('\\u009b31m');
      expect(r.stdout).toContain('\\u202egnp.exe');
      const parsed = JSON.parse(r.stdout);
      const data = (format === 'jsonl' ? parsed.data : parsed) as { results: { reason: string }[] };
      expect(data.results.map((x) => x.reason)).toEqual(Array(DNSBL_ZONES.length).fill(EVIL));
    }
  });

  test('a target echoed in an error on stderr is escaped', async () => {
    const r = await cli(['dns', '\x1b]0;pwned\x07x.com'], true);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).not.toMatch(RAW);
    // The name is read label by label: the first one is quoted in the message.
    expect(r.stderr).toContain('"\\027]0;pwned\\007x"');
  });

  test('netdiag bulk (its own streamed writer): an entry echoed as invalid is escaped', async () => {
    for (const format of ['text', 'csv']) {
      const capture = captureIO(env(), '8.8.8.8\n\x1b]0;pwned\x07\n');
      capture.io.stdoutIsTTY = true;
      capture.io.stderrIsTTY = true;
      expect(
        await run(['bulk', '-', '--format', format, '--no-color', '--no-progress'], capture.io),
      ).toBe(EXIT.ok);
      const out = capture.stdout() + capture.stderr();
      expect(out).toContain('\\027]0;pwned\\007: ');
      expect(out).not.toMatch(RAW);
    }
  });

  test("commander's errors quoting the argument are escaped", async () => {
    const r = await cli(['dns', '--format', '\x1b[2Jcsv', 'example.com'], true);
    expect(r.code).toBe(EXIT.badInput);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain('\\027[2Jcsv');
  });
});

describe('in a pipe, exact', () => {
  test('text, csv and json keep the bytes as they came', async () => {
    const text = await cli(['blacklist', '127.0.0.2'], false);
    expect(text.stdout).toContain(EVIL);
    const csv = await cli(['blacklist', '127.0.0.2', '--format', 'csv'], false);
    const rows = parseCsv(csv.stdout, { columns: true }) as { reason: string }[];
    expect(rows.map((row) => row.reason)).toEqual(Array(DNSBL_ZONES.length).fill(EVIL));
    const json = await cli(['blacklist', '127.0.0.2', '--json'], false);
    const data = JSON.parse(json.stdout) as { results: { reason: string }[] };
    expect(json.stdout).toContain(JSON.stringify(EVIL));
    expect(data.results.map((x) => x.reason)).toEqual(Array(DNSBL_ZONES.length).fill(EVIL));
  });
});

const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
const haveScript = prerequisite(
  'script',
  spawnSync('script', ['--version']).status === 0,
  'util-linux script: apt-get install bsdutils',
);

/**
 * The built CLI with `args`, on a pseudo-terminal (`script`) or in a pipe. Asynchronous: the
 * fixtures answer from this process, which a synchronous spawn would block.
 */
async function builtCli(args: string[], pty: boolean) {
  // Each argument as bash's $'…' with every character escaped: nothing is read by a shell.
  const quote = (arg: string) =>
    `$'${[...arg]
      .map((c) => {
        const code = c.codePointAt(0) as number;
        return code < 0x80
          ? `\\x${code.toString(16).padStart(2, '0')}`
          : `\\u${code.toString(16).padStart(4, '0')}`;
      })
      .join('')}'`;
  const command = `node ${bin} ${args.map(quote).join(' ')}`;
  // `script` runs its command with $SHELL, which may be dash (no $'…'): so bash is named, the
  // command POSIX-quoted for whichever shell that is (it is ASCII: every argument is escaped).
  const posix = `'${command.replaceAll("'", `'\\''`)}'`;
  const child = pty
    ? spawn('script', ['-qec', `bash -c ${posix}`, '/dev/null'], spawnOptions())
    : spawn('bash', ['-c', command], spawnOptions());
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, out };
}

function spawnOptions() {
  return {
    env: { ...process.env, ...env(), NO_COLOR: '1', COLUMNS: '400' },
    stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  };
}

describe.skipIf((!built && process.env['CI'] !== 'true') || !haveScript)(
  'the built CLI on a pseudo-terminal',
  { timeout: 120_000 },
  () => {
    test('DNSBL TXT reasons, WHOIS fields and an echoed target: escaped, no raw ESC or BEL', async () => {
      const blacklist = await builtCli(['blacklist', '127.0.0.2'], true);
      expect(blacklist.status, blacklist.out).toBe(EXIT.ok);
      expect(blacklist.out).not.toMatch(RAW);
      expect(blacklist.out).toContain(SHOWN);
      const whois = await builtCli(['whois', 'example.org'], true);
      expect(whois.status, whois.out).toBe(EXIT.ok);
      expect(whois.out).not.toMatch(RAW);
      expect(whois.out).toContain(`Org Registrar ${SHOWN}`);
      const error = await builtCli(['dns', '\x1b]0;pwned\x07'], true);
      expect(error.status, error.out).toBe(EXIT.badInput);
      expect(error.out).not.toMatch(RAW);
      expect(error.out).toContain('\\027]0;pwned\\007');
    });

    test('--json in a pipe: the exact bytes, JSON-escaped', async () => {
      const blacklist = await builtCli(['blacklist', '127.0.0.2', '--json'], false);
      expect(blacklist.status, blacklist.out).toBe(EXIT.ok);
      expect(blacklist.out).toContain(JSON.stringify(EVIL));
      const data = JSON.parse(blacklist.out) as { results: { reason: string }[] };
      expect(data.results.map((x) => x.reason)).toEqual(Array(DNSBL_ZONES.length).fill(EVIL));
      const whois = await builtCli(['whois', 'example.org', '--json'], false);
      expect((JSON.parse(whois.out) as { registrar: string }).registrar).toBe(
        `Org Registrar ${EVIL}`,
      );
    });
  },
);
