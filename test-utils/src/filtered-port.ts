/**
 * A "filtered" TCP port on loopback: SYNs to it get no answer, as behind a dropping firewall.
 * A child process listens with a backlog of 1 and is then stopped (SIGSTOP), so it never
 * accepts; two connections fill the accept queue and Linux silently drops every later SYN
 * (tcp_abort_on_overflow = 0, the default), so a connect attempt times out.
 * @module
 */
import { spawn } from 'node:child_process';
import net from 'node:net';

export interface FilteredPort {
  host: string;
  port: number;
  close(): Promise<void>;
}

export async function startFilteredPort(host = '127.0.0.1'): Promise<FilteredPort> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('net').createServer().listen({port:0,host:${JSON.stringify(host)},backlog:1},function(){console.log(this.address().port)})`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
  });
  child.kill('SIGSTOP');
  const fillers: net.Socket[] = [];
  for (let i = 0; i < 2; i++) {
    await new Promise<void>((resolve) => {
      const socket = net.connect({ host, port });
      fillers.push(socket);
      socket.on('error', () => {});
      const timer = setTimeout(resolve, 300);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return {
    host,
    port,
    close: async () => {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 10));
    },
  };
}
