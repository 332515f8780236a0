import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  startXposedOrNotServer,
  type XonAction,
  type XonFakeServer,
} from '../../../test-utils/src/xposedornot-server.js';
import { EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

let fake: XonFakeServer;
let action: XonAction;
beforeAll(async () => {
  fake = await startXposedOrNotServer({
    accounts: {
      'johndoe@example.com': {
        breaches: ['Adobe', 'RockYou'],
        risk: { risk_label: 'Moderate', risk_score: 40 },
      },
    },
    onRequest: () => action,
  });
});
afterAll(() => fake.close());
beforeEach(() => {
  action = undefined;
});

const env = () => ({ NETDIAG_BREACH_API_URL: fake.url });

describe('netdiag breach', () => {
  test('--json prints exactly the API data', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'JohnDoe@example.com', '--json'], cap.io)).toBe(EXIT.ok);
    expect(JSON.parse(cap.stdout())).toEqual({
      email: 'joh***@example.com',
      status: 'checked',
      breaches: 2,
      services: ['Adobe', 'RockYou'],
      passwords: { plain_text: 1, weak_hash: 1, strong_hash: 0, unknown: 0, total: 2 },
      risk: { score: 40, level: 'moderate' },
    });
    expect(cap.stdout().trim().split('\n')).toHaveLength(1);
  });

  test('human output', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'johndoe@example.com'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toBe(
      'joh***@example.com: found in 2 breaches (risk moderate, 40/100)\n' +
        'Services:  Adobe, RockYou\n' +
        'Passwords: 1 plain text, 1 weakly hashed, 0 strongly hashed, 0 unknown\n',
    );
  });

  test('no breach', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'nobody@example.net'], cap.io)).toBe(EXIT.ok);
    expect(cap.stdout()).toBe('nob***@example.net: not found in any known breach\n');
  });

  test('an invalid address is exit 2 with a clear message', async () => {
    const cap = captureIO(env());
    expect(await run(['breach', 'not-an-address'], cap.io)).toBe(EXIT.badInput);
    expect(cap.stderr()).toMatch(/not a valid email address/);
    expect(cap.stdout()).toBe('');
  });

  test.each([
    ['throttled', 'throttle' as const, /rate limiting us; retry in 7 s/],
    ['down', 'down' as const, /HTTP 500/],
    ['malformed', 'malformed' as const, /not valid JSON/],
  ])('upstream %s → exit 3', async (_name, mode, message) => {
    action = mode;
    const cap = captureIO(env());
    expect(await run(['breach', 'someone@example.com'], cap.io)).toBe(EXIT.network);
    expect(cap.stderr()).toMatch(message);
    expect(cap.stderr()).not.toContain('someone');
  });
});
