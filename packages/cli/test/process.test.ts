/**
 * The built CLI as a process, the way people and scripts run it: real pipes (`| head -1`), real
 * stdin, a real pseudo-terminal (util-linux `script`), Ctrl-C, a network namespace with no route
 * (nothing can leave it), and the completion script loaded into a real bash.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prerequisite, startDnsServer, tempDir } from '@netdiag/test-utils';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT } from '../src/index.js';

const bin = fileURLToPath(new URL('../bin.js', import.meta.url));
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));
const dir = tempDir('netdiag-cli-process-');
const needBuilt = !built && process.env['CI'] !== 'true';
const env = { ...process.env, NETDIAG_DNS_SERVERS: '127.0.0.1:9', NO_COLOR: undefined };

/** A UDP socket that reads queries and never answers: a DNS server that hangs. */
let silent: Socket;
beforeAll(async () => {
  silent = createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  // 20,000 addresses: far more output than a pipe holds (64 KiB), so the writer meets a closed pipe.
  const lines = Array.from({ length: 20_000 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.1`);
  writeFileSync(join(dir, 'ips.txt'), `${lines.join('\n')}\n`);
});
afterAll(() => silent.close());

function sh(script: string, extraEnv: Record<string, string> = {}) {
  const result = spawnSync('bash', ['-c', script], {
    env: { ...env, ...extraEnv, NETDIAG: `node ${bin}` },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Each case starts several whole CLI processes (1–2 s each, more on a loaded CI machine).
describe.skipIf(needBuilt)('the built CLI as a process', { timeout: 120_000 }, () => {
  test('no command: usage on stderr, nothing on stdout, exit 1', () => {
    const r = sh('$NETDIAG');
    expect(r.status).toBe(EXIT.internal);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: netdiag /);
  });

  test('a closed pipe ends the command quietly with status 0', () => {
    const bulk = sh(
      `set -o pipefail; $NETDIAG bulk -f ${dir}/ips.txt | head -1; echo "status=\${PIPESTATUS[0]}"`,
    );
    expect(bulk.stdout).toMatch(/^IP\s+CC\s+AS\s+CITY\s+ISP\nstatus=0\n$/);
    expect(bulk.stderr).toBe('');
    const jsonl = sh(
      `$NETDIAG lookup - --format jsonl < ${dir}/ips.txt | head -2; echo "status=\${PIPESTATUS[0]}"`,
    );
    expect(jsonl.stdout.trim().split('\n')).toHaveLength(3);
    expect(jsonl.stdout).toMatch(/status=0\n$/);
    expect(jsonl.stderr).toBe('');
  });

  test('real stdin feeds a batch; stdout holds only the answer', () => {
    const r = sh(`printf '8.8.8.8\\n1.1.1.1\\n' | $NETDIAG lookup - --format jsonl`);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const items = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(items.map((i) => i.input)).toEqual(['8.8.8.8', '1.1.1.1']);
  });

  test.skipIf(
    !prerequisite(
      'script',
      spawnSync('script', ['--version']).status === 0,
      'util-linux script: apt-get install bsdutils',
    ),
  )('on a terminal: colour, pretty JSON and a progress bar; in a pipe none of them', () => {
    const tty = (command: string) =>
      sh(`script -qec ${JSON.stringify(command)} /dev/null`, { COLUMNS: '100' });
    const text = tty(`$NETDIAG lookup 8.8.8.8 1.1.1.1 --fields ip --progress`);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/\[#+\] 2\/2 addresses 100%/); // the bar, on the terminal
    const json = tty('$NETDIAG lookup 8.8.8.8 --json');
    expect(json.stdout.split('\n').length).toBeGreaterThan(10);
    const piped = sh('$NETDIAG lookup 8.8.8.8 --json');
    expect(piped.stdout.trim().split('\n')).toHaveLength(1);
    const coloured = tty('$NETDIAG headers --help >/dev/null; $NETDIAG score 8.8.8.8');
    expect(coloured.stdout).toContain('\x1b[');
    const plain = tty('NO_COLOR=1 $NETDIAG score 8.8.8.8');
    expect(plain.stdout).not.toContain('\x1b[');
  });

  test('--fields with --format csv: one row per record, as csv without --fields', async () => {
    const dns = await startDnsServer({
      zone: {
        'example.test': { A: ['192.0.2.10', '192.0.2.11', '192.0.2.12'] },
        'other.test': { A: ['192.0.2.20'] },
      },
    });
    try {
      // Spawned, not spawnSync: the DNS fixture answers from this process's event loop.
      const cli = (...args: string[]) =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, [bin, ...args], {
            env: { ...env, NETDIAG_DNS_SERVERS: dns.address },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          let stdout = '';
          child.stdout.on('data', (chunk) => {
            stdout += chunk;
          });
          child.on('error', reject);
          child.on('close', (code) =>
            code === 0 ? resolve(stdout) : reject(new Error(`exit ${code}`)),
          );
        });
      const rows = (text: string) => parseCsv(text, { columns: true }) as Record<string, string>[];
      const whole = rows(await cli('dns', 'example.test', '--format', 'csv'));
      expect(whole).toHaveLength(3);
      const picked = rows(
        await cli('dns', 'example.test', '--fields', 'records.data', '--format', 'csv'),
      );
      expect(picked).toEqual(whole.map((r) => ({ 'records.data': r['data'] })));
      // A field outside the list repeats on each row; a batch leads with the input (name and type).
      const batch = rows(
        await cli(
          'dns',
          'example.test',
          'other.test',
          '--fields',
          'domain,records.data',
          '--format',
          'csv',
        ),
      );
      expect(batch.map((r) => [r['input'], r['domain'], r['records.data']])).toEqual([
        ['example.test A', 'example.test', '192.0.2.10'],
        ['example.test A', 'example.test', '192.0.2.11'],
        ['example.test A', 'example.test', '192.0.2.12'],
        ['other.test A', 'other.test', '192.0.2.20'],
      ]);
    } finally {
      await dns.close();
    }
  });

  test('Ctrl-C exits 130 without a stack trace', async () => {
    const port = silent.address().port;
    const child = spawn(
      process.execPath,
      [bin, 'dns', `@127.0.0.1:${port}`, 'example.test', '--timeout', '60'],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    // Wait until the query reached the silent server, then interrupt.
    await new Promise<void>((resolve) => silent.once('message', () => resolve()));
    const started = Date.now();
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(EXIT.interrupted);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  test.skipIf(
    !prerequisite(
      'unshare -n',
      spawnSync('unshare', ['-n', 'true']).status === 0,
      'util-linux unshare with permission to create a network namespace (root)',
    ),
  )(
    'no route to the DNS server: said in network terms, exit 3 (in a namespace nothing leaves)',
    () => {
      const r = sh('unshare -n $NETDIAG dns @192.0.2.1 example.com');
      expect(r.stderr).toBe('netdiag: dns: cannot reach 192.0.2.1:53: network unreachable\n');
      expect(r.status).toBe(EXIT.network);
    },
  );

  test('the bash completion script completes commands, options and formats in a real bash', () => {
    const r = sh(`source <($NETDIAG completion bash)
      complete -p netdiag
      COMP_WORDS=(netdiag bl); COMP_CWORD=1; _netdiag; echo "1:\${COMPREPLY[*]}"
      COMP_WORDS=(netdiag dns --sh); COMP_CWORD=2; _netdiag; echo "2:\${COMPREPLY[*]}"
      COMP_WORDS=(netdiag lookup --format j); COMP_CWORD=3; _netdiag; echo "3:\${COMPREPLY[*]}"
      COMP_WORDS=(netdiag blocklist --fail); COMP_CWORD=2; _netdiag; echo "4:\${COMPREPLY[*]}"`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('complete -o default -F _netdiag netdiag');
    expect(r.stdout).toContain('1:blacklist blocklist\n');
    expect(r.stdout).toContain('2:--short\n');
    expect(r.stdout).toContain('3:json jsonl\n');
    expect(r.stdout).toContain('4:--fail-on-listed\n');
  });
});
