/** `netdiag down`, `security-headers` and `ports` against loopback fixtures. */
import net from 'node:net';
import { freePort, type HttpTarget, startHttpTarget } from '@netdiag/test-utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT, run } from '../src/index.js';
import { progressBar } from '../src/output/progress.js';
import { captureIO } from './helpers.js';

const env = { NETDIAG_ALLOWED_TARGETS: '127.0.0.2/32' };
let target: HttpTarget;
const servers: net.Server[] = [];
const open: number[] = [];

beforeAll(async () => {
  target = await startHttpTarget({
    host: '127.0.0.2',
    routes: {
      '/': (_req, res) =>
        res.writeHead(200, { server: 'fixture/3', 'content-type': 'text/plain' }).end('ok'),
    },
  });
  for (let i = 0; i < 2; i++) {
    const server = net.createServer((s) => s.destroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    servers.push(server);
    open.push((server.address() as net.AddressInfo).port);
  }
});
afterAll(async () => {
  await target.close();
  for (const s of servers) s.close();
});

describe('netdiag down', () => {
  test('human output for a site that is up; exit 0', async () => {
    const cap = captureIO(env);
    expect(await run(['down', `${target.url}/`], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toMatch(new RegExp(`^${target.url}/ is UP \\(200 OK in \\d+ ms\\)`));
    expect(cap.stdout()).toContain('Server:       fixture/3');
    expect(cap.stdout()).toContain('Address:      127.0.0.2');
  });

  test('--json prints the API data; a down site exits 3', async () => {
    const port = await freePort('127.0.0.2');
    const cap = captureIO(env);
    expect(await run(['down', `http://127.0.0.2:${port}/`, '--json'], cap.io)).toBe(EXIT.network);
    const data = JSON.parse(cap.stdout());
    expect(data).toMatchObject({ is_up: false, status_code: null });
    expect(cap.stderr()).toMatch(/is down: connection refused/);
  });

  test('a blocked target exits 2 with the reason', async () => {
    const cap = captureIO({});
    expect(await run(['down', `${target.url}/`], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toMatch(/Target not allowed: 127\.0\.0\.2 is a loopback/);
    expect(cap.stdout()).toBe('');
  });
});

describe('netdiag security-headers', () => {
  test('grade table and JSON', async () => {
    const cap = captureIO(env);
    expect(await run(['security-headers', `${target.url}/`], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toMatch(/grade [A-F][+-]? \(score \d+; MDN Observatory/);
    expect(cap.stdout()).toMatch(/FAIL {3}-25 {2}Content Security Policy \(CSP\)/);
    const json = captureIO(env);
    expect(await run(['security-headers', `${target.url}/`, '--json'], json.io)).toBe(EXIT.ok);
    expect(JSON.parse(json.stdout()).headers).toHaveLength(14);
  });
});

describe('netdiag ports', () => {
  test('lists open ports; --all lists every port; no 100-port cap', async () => {
    const closed = await freePort('127.0.0.2');
    const cap = captureIO(env);
    const code = await run(
      ['ports', '127.0.0.2', '--ports', `${open.join(',')},${closed}`, '--no-progress'],
      cap.io,
    );
    expect(code).toBe(EXIT.ok);
    expect(cap.stdout()).toMatch(
      /^127\.0\.0\.2: 2 open, 1 closed, 0 filtered of 3 ports in [\d.]+ s/,
    );
    expect(cap.stdout()).toContain(`${open[0]}`.padEnd(7) + 'open');
    expect(cap.stdout()).not.toContain('closed    ');
    expect(cap.stderr()).toBe('');

    const all = captureIO(env);
    await run(['ports', '127.0.0.2', '-p', `${closed}`, '--all', '--no-progress'], all.io);
    expect(all.stdout()).toContain(`${closed}`.padEnd(7) + 'closed');

    const wide = captureIO(env);
    const low = Math.max(1, closed - 150);
    expect(
      await run(
        [
          'ports',
          '127.0.0.2',
          '-p',
          `${low}-${low + 149}`,
          '--json',
          '--no-progress',
          '--port-timeout',
          '300',
        ],
        wide.io,
      ),
    ).toBe(EXIT.ok);
    expect(JSON.parse(wide.stdout()).ports_scanned).toBe(150);
  });

  test('--progress draws a bar on stderr and clears it; stdout stays clean JSON', async () => {
    const cap = captureIO(env);
    await run(['ports', '127.0.0.2', '-p', open.join(','), '--json', '--progress'], cap.io);
    expect(() => JSON.parse(cap.stdout())).not.toThrow();
    expect(cap.stderr()).toMatch(/\r\[#{30}\] 2\/2 ports 100%/);
    expect(cap.stderr().endsWith('\r\x1b[K')).toBe(true);
  });

  test('bad port lists and blocked hosts exit 2', async () => {
    const bad = captureIO(env);
    expect(await run(['ports', '127.0.0.2', '-p', '80-22'], bad.io)).toBe(EXIT.badInput);
    expect(bad.stderr()).toMatch(/runs backwards/);
    const blocked = captureIO(env);
    expect(await run(['ports', '10.0.0.1', '-p', '22'], blocked.io)).toBe(EXIT.badInput);
    expect(blocked.stderr()).toMatch(/private network/);
  });
});

test('progressBar throttles redraws but always draws the last one', () => {
  const cap = captureIO();
  const bar = progressBar(cap.io, 'ports', true, 10);
  bar.update(1, 4);
  bar.update(2, 4);
  bar.update(4, 4);
  bar.done();
  expect(cap.stderr()).toBe('\r[###-------] 1/4 ports 25%\r[##########] 4/4 ports 100%\r\x1b[K');
});
