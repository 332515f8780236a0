/**
 * Using @netdiag/core from your own code: classify addresses and names without any server.
 * Run: npx tsx examples/library/index.ts
 */
import { classifyAddress, normaliseDomain, parseIp } from '@netdiag/core';

for (const input of ['8.8.8.8', '::ffff:10.0.0.1', '0x7f000001', '2002:a00:1::']) {
  const verdict = classifyAddress(input);
  console.log(
    JSON.stringify({
      input,
      parsed: parseIp(input) ?? null,
      public: verdict.public,
      why: verdict.range?.name ?? null,
    }),
  );
}
console.log(normaliseDomain('Bücher.example'));
