import {
  InvalidInputError,
  NotFoundError,
  TargetNotAllowedError,
  TimeoutError,
  UpstreamError,
} from '@netdiag/core';
import { describe, expect, test } from 'vitest';
import { describeError as exitFor } from '../src/errors.js';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

describe('netdiag CLI', () => {
  test('--help lists the commands and the conventions', async () => {
    const cap = captureIO();
    expect(await run(['--help'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toContain('serve');
    expect(cap.stdout()).toContain('--json');
    expect(cap.stdout()).toMatch(
      /Exit codes: 0 ok.*2 bad input.*\n3 network.*4 not found.*\n5 a gate failed.*130 interrupted/,
    );
  });

  test('--version prints the package version', async () => {
    const cap = captureIO();
    expect(await run(['--version'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout().trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('an unknown command is bad input', async () => {
    const cap = captureIO();
    expect(await run(['frobnicate'], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toContain('unknown command');
  });

  test.each([
    [new InvalidInputError('bad'), EXIT.badInput],
    [new TargetNotAllowedError('loopback'), EXIT.badInput],
    [new NotFoundError('nope'), EXIT.notFound],
    [new UpstreamError('dns', 'SERVFAIL'), EXIT.network],
    [new TimeoutError('rdap', 100), EXIT.network],
    [new Error('boom'), EXIT.internal],
  ])('%s → exit %i', (error, code) => {
    expect(exitFor(error).code).toBe(code);
  });

  test('serve starts the API and stops on SIGINT', async () => {
    const cap = captureIO();
    const running = run(['serve', '--port', '0', '--host', '127.0.0.1'], cap.io);
    for (let i = 0; i < 100 && !cap.stderr().includes('listening'); i++)
      await new Promise((r) => setTimeout(r, 20));
    const url = /listening on (\S+)/.exec(cap.stderr())?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { success: boolean }).success).toBe(true);
    process.emit('SIGINT');
    expect(await running).toBe(EXIT.ok);
  });

  test('serve refuses bad configuration with exit 2', async () => {
    const cap = captureIO({ NETDIAG_RATE_LIMIT: 'lots' });
    expect(await run(['serve', '--port', '0'], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toContain('NETDIAG_RATE_LIMIT must be a whole number');
  });
});
