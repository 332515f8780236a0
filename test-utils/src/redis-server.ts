/**
 * A real redis-server on a free loopback port (installed by .ci/run from apt). Tests that need
 * it call `redisAvailable()` first and skip with a message when the binary is missing.
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { freePort } from './http-server.js';

export function redisAvailable(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

export interface RedisTestServer {
  port: number;
  url: string;
  /** Kill the server (SIGKILL), as an outage would. */
  kill(): Promise<void>;
  /** Start it again on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisTestServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100; i++) {
      if (await canConnect(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('redis-server did not start');
  };
  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGKILL');
    });
  };
  await launch();
  return { port, url: `redis://127.0.0.1:${port}`, kill, restart: launch, stop: kill };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
