/**
 * The CLI as a face of core's registry: every descriptor with a `cli` face names a command (and
 * a flag) the CLI has; the CLI's data commands are the registry's but for those it keeps as its
 * own; and a command accepts or refuses an operand as the HTTP route does. Values are generated
 * from each descriptor's example (as is, upper and lower case, too long); the engine records the
 * call and fails it, so nothing leaves the process. Spaces and empty values are not tried here:
 * on a command line they separate or drop operands (they are tried over HTTP and MCP in
 * packages/mcp/test/faces.test.ts).
 */
import {
  CAPABILITIES,
  type Capability,
  createNetdiag,
  type Netdiag,
  UpstreamError,
} from '@netdiag/core';
import { createApp } from '@netdiag/http';
import { tempDir } from '@netdiag/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildProgram, EXIT, run } from '../src/index.js';
import { captureIO } from './helpers.js';

let real: Netdiag;
let recording: Netdiag;
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  real = createNetdiag({ dnsServers: ['127.0.0.1:9'], cacheDir: tempDir('netdiag-cli-faces-') });
  // Every engine method fails as an upstream would; closing is left to afterAll.
  recording = new Proxy(real, {
    get(target, name, receiver) {
      if (name === 'close') return async () => {};
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'config') return value;
      return async () => {
        throw new UpstreamError('recorder', 'recorded');
      };
    },
  });
  app = createApp({
    logLevel: 'silent',
    env: false,
    engine: recording,
    rateLimit: 1_000_000,
    toolRateLimit: 1_000_000,
  });
});

afterAll(async () => {
  await real?.close();
});

/** Commands the CLI keeps as its own (this machine's address, feeds, the other faces, shells). */
const CLI_OWN = ['ip', 'score', 'refresh-feeds', 'data', 'serve', 'mcp', 'completion'];

describe('the registry and the CLI commands', () => {
  test('every cli face names a command and flag the CLI has; every other command is the CLI’s own', async () => {
    const program = await buildProgram(captureIO().io, { code: 0 });
    const commands = new Map(program.commands.map((c) => [c.name(), c]));
    for (const capability of CAPABILITIES.filter((c) => c.cli)) {
      const face = capability.cli!;
      const command = commands.get(face.command);
      expect(command, `${capability.id}: netdiag ${face.command}`).toBeDefined();
      if (face.flag) {
        expect(
          command!.options.map((o) => o.long),
          `${capability.id}: ${face.flag}`,
        ).toContain(face.flag);
      }
    }
    const answered = new Set(CAPABILITIES.flatMap((c) => (c.cli ? [c.cli.command] : [])));
    const others = [...commands.keys()].filter((name) => !answered.has(name));
    expect(others.sort()).toEqual([...CLI_OWN].sort());
  });
});

async function httpRefuses(capability: Capability, name: string, value: string) {
  const face = capability.http!;
  const args = { ...(face.paramExamples as Record<string, string>), [name]: value };
  let path = face.path;
  const query = new URLSearchParams();
  for (const [key, v] of Object.entries(args)) {
    if (path.includes(`:${key}`)) path = path.replace(`:${key}`, encodeURIComponent(v));
    else query.append(key, v);
  }
  const response =
    face.method === 'post'
      ? await request(app).post(path).set('Content-Type', 'application/json').send(args)
      : await request(app).get(`${path}?${query}`);
  return response.status === 400;
}

async function cliRefuses(capability: Capability, value: string) {
  const face = capability.cli!;
  const capture = captureIO();
  capture.io.engine = () => recording;
  const argv = [face.command, value, ...(face.flag ? [face.flag] : [])];
  // `netdiag spf` needs its client address, as the tool and the route need `ip`.
  if (capability.id === 'evaluateSpf') argv.push('--ip', '192.0.2.1');
  const code = await run(argv, capture.io);
  expect(
    [EXIT.ok, EXIT.badInput, EXIT.network],
    `${argv.join(' ')}: ${capture.stderr()}`,
  ).toContain(code);
  return code === EXIT.badInput;
}

// One operand per capability with both faces; the bulk body and `lookup` (answered from the
// prebuilt tables before the engine) are compared where their input is the same: the address.
const compared = CAPABILITIES.filter((c) => c.cli && c.http && c.http.method === 'get');

describe('an operand is accepted or refused alike by the CLI and the HTTP route', () => {
  for (const capability of compared) {
    const name = capability.cli!.operand;
    const example = String(capability.http!.paramExamples?.[name] ?? '');
    test(`${capability.id}: ${name}`, async () => {
      expect(example, 'the descriptor gives an example of its operand').not.toBe('');
      let refused = 0;
      for (const value of [
        example,
        example.toUpperCase(),
        example.toLowerCase(),
        'x'.repeat(2049),
      ]) {
        const http = await httpRefuses(capability, name, value);
        expect(
          await cliRefuses(capability, value),
          `${capability.id} ${JSON.stringify(value)}`,
        ).toBe(http);
        if (http) refused++;
      }
      expect(refused).toBeGreaterThan(0);
    });
  }
});
