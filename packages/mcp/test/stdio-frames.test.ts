/**
 * Stdio frames past the cap (issue 41 item 7): the line splitter on its own, and the built
 * `netdiag mcp` fed a 10 MiB and a 64 MiB line, which must answer each with a short JSON-RPC
 * error and go on answering.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NETDIAG_TOOLS } from '@netdiag/core';
import { prerequisite, tempDir } from '@netdiag/test-utils';
import { describe, expect, test } from 'vitest';
import { capFrames, MAX_FRAME_BYTES, QUOTED_CHARS } from '../src/stdio-frames.js';

/** What `capFrames(max)` passes on and reports for these chunks. */
async function split(max: number, chunks: (string | Buffer)[]) {
  const refused: string[] = [];
  const stream = capFrames(max, (start) => refused.push(start));
  const out: Buffer[] = [];
  stream.on('data', (piece: Buffer) => out.push(piece));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  for (const chunk of chunks) stream.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  stream.end();
  await ended;
  return { passed: Buffer.concat(out).toString(), refused };
}

describe('capFrames', () => {
  test('lines up to the cap pass unchanged, however the chunks fall', async () => {
    const text = '{"a":1}\n12345\n\n{"b":2}\r\n';
    const whole = await split(5, [text]);
    expect(whole).toEqual({ passed: '12345\n\n', refused: ['{"a":1}', '{"b":2}\r'] });
    const roomy = await split(
      100,
      [...text].map((c) => c),
    );
    expect(roomy).toEqual({ passed: text, refused: [] });
  });

  test('a longer line is reported once, dropped up to its newline, and the next line passes', async () => {
    const { passed, refused } = await split(10, ['abcdefgh', 'ijklmnop', 'qrstu', 'vw\nnext\n']);
    expect(passed).toBe('next\n');
    expect(refused).toEqual(['abcdefghijklmnop']);
  });

  test('exactly the cap passes, one byte more does not', async () => {
    expect((await split(4, ['abcd\n'])).passed).toBe('abcd\n');
    expect(await split(4, ['abcde\nok\n'])).toEqual({ passed: 'ok\n', refused: ['abcde'] });
  });

  test(`the report quotes ${QUOTED_CHARS} characters at most, multi-byte ones whole`, async () => {
    const { refused } = await split(200, ['é'.repeat(300), '\n']);
    expect(refused).toEqual(['é'.repeat(QUOTED_CHARS)]);
  });

  test('a last line without a newline is passed on at the end', async () => {
    expect(await split(10, ['one\ntw', 'o'])).toEqual({ passed: 'one\ntwo', refused: [] });
  });
});

const cliBin = fileURLToPath(new URL('../../cli/bin.js', import.meta.url));
const builtCli = prerequisite(
  'the built CLI (packages/cli/dist) and MCP face (packages/mcp/dist)',
  existsSync(fileURLToPath(new URL('../../cli/dist/index.js', import.meta.url))) &&
    existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url))),
  'run `pnpm build` first',
);

interface Answer {
  id?: number | null;
  result?: { tools?: unknown[] };
  error?: { code: number; message: string };
}

/** The lines `netdiag mcp` writes, with a wait for the next one that matches. */
function answers(child: ChildProcessWithoutNullStreams) {
  const lines: string[] = [];
  let rest = '';
  const waiting: (() => void)[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text: string) => {
    const parts = (rest + text).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
    for (const wake of waiting.splice(0)) wake();
  });
  return {
    lines,
    async next(
      match: (answer: Answer) => boolean,
      seen = 0,
    ): Promise<{ line: string; answer: Answer }> {
      const deadline = Date.now() + 15_000;
      for (;;) {
        for (const line of lines.slice(seen)) {
          const answer = JSON.parse(line) as Answer;
          if (match(answer)) return { line, answer };
        }
        seen = lines.length;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('netdiag mcp answered nothing within 15 s');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, left);
        });
      }
    },
  };
}

describe.skipIf(!builtCli)('stdio: netdiag mcp and frames past the cap', () => {
  test('a 10 MiB and a 64 MiB line each get a short error; the next request is answered', async () => {
    const child = spawn(process.execPath, [cliBin, 'mcp'], {
      env: {
        PATH: process.env.PATH ?? '',
        // CI's --throw-deprecation reaches the child (.ci/run).
        NODE_OPTIONS: process.env.NODE_OPTIONS ?? '',
        // Nothing here queries; were anything to, it would reach no one.
        NETDIAG_DNS_SERVERS: '127.0.0.1:9',
        NETDIAG_CACHE_DIR: tempDir('netdiag-mcp-frames-'),
      },
    });
    let stderr = '';
    child.stderr.on('data', (text) => {
      stderr += text;
    });
    const read = answers(child);
    const send = (text: string) =>
      new Promise<void>((resolve, reject) =>
        child.stdin.write(`${text}\n`, (error) => (error ? reject(error) : resolve())),
      );
    try {
      await send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'netdiag-test', version: '1.0.0' },
          },
        }),
      );
      await read.next((a) => a.id === 1);
      await send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      let id = 1;
      for (const size of [10 * 1024 * 1024, 64 * 1024 * 1024]) {
        const seen = read.lines.length;
        // A tools/call whose argument alone is past the cap: valid JSON-RPC but for its size.
        const big = JSON.stringify({
          jsonrpc: '2.0',
          id: 99,
          method: 'tools/call',
          params: { name: 'lookup_ip', arguments: { ip: 'x'.repeat(size) } },
        });
        await send(big);
        const refused = await read.next((a) => a.id === null, seen);
        expect(refused.answer.error?.code).toBe(-32600);
        expect(refused.answer.error?.message).toMatch(/too large/);
        expect(refused.answer.error?.message).toContain(String(MAX_FRAME_BYTES));
        expect(refused.line.length).toBeLessThan(300);
        id++;
        await send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
        const listed = await read.next((a) => a.id === id, seen);
        expect(listed.answer.result?.tools).toHaveLength(NETDIAG_TOOLS.length);
      }
      // A line that is not JSON is answered too (JSON-RPC 2.0 §5.1), and reading goes on.
      const seen = read.lines.length;
      await send('not json at all');
      expect((await read.next((a) => a.id === null, seen)).answer.error?.code).toBe(-32700);
      await send(JSON.stringify({ jsonrpc: '2.0', id: 50, method: 'tools/list' }));
      await read.next((a) => a.id === 50, seen);
      // The big lines were never answered as requests, and nothing but protocol was written.
      expect(read.lines.some((line) => line.includes('"id":99'))).toBe(false);
      expect(stderr).toBe('');
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 60_000);
});
