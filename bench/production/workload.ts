/** The mixed workload of the load and soak runs: lookup, DNS, headers echo, bulk. */
import { startDnsServer } from '@netdiag/test-utils';

export async function startWorkloadDns() {
  const zone: Record<
    string,
    { A?: string[]; MX?: { preference: number; exchange: string }[]; TXT?: string[]; ttl?: number }
  > = {};
  for (let i = 0; i < 50; i++) {
    zone[`host${i}.bench.test`] = {
      A: [`192.0.2.${i + 1}`],
      MX: [{ preference: 10, exchange: `mx.host${i}.bench.test` }],
      TXT: ['v=spf1 -all'],
      ttl: 30,
    };
  }
  return startDnsServer({ zone });
}

export function workloadRequests() {
  const ips = [
    '8.8.8.8',
    '1.1.1.1',
    '81.2.69.160',
    '2a00:1450:4001:80b::200e',
    '185.199.108.153',
    '9.9.9.9',
  ];
  const bulk = JSON.stringify({
    ips: Array.from({ length: 20 }, (_, i) => `${((i * 37) % 223) + 1}.${i}.${i * 3}.1`),
  });
  const requests: {
    method: 'GET' | 'POST';
    path: string;
    headers?: Record<string, string>;
    body?: string;
  }[] = [];
  for (let i = 0; i < 50; i++) {
    requests.push({
      method: 'GET',
      path: `/api/lookup?ip=${encodeURIComponent(ips[i % ips.length] as string)}`,
    });
    requests.push({
      method: 'GET',
      path: `/api/dns?domain=host${i}.bench.test&type=${i % 2 ? 'A' : 'MX'}`,
    });
    requests.push({ method: 'GET', path: '/api/v1/headers' });
    if (i % 5 === 0)
      requests.push({
        method: 'POST',
        path: '/api/bulk',
        headers: { 'content-type': 'application/json' },
        body: bulk,
      });
  }
  return requests;
}
