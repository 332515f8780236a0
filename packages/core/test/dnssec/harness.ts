/**
 * The DNSSEC test bench: the signed hierarchy of `dnssecTestTree` (signed by dnssec-signzone and
 * ldns-signzone), NSD serving all of it on one loopback port, and Unbound validating over it
 * from the same trust anchor. Plus the two independent verdicts the validator is compared with:
 * Unbound's (read with dig: AD set = secure, no AD = insecure, SERVFAIL = bogus) and delv's
 * (bind9-dnsutils, which walks the chain itself through NSD).
 * @module
 */
import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type BuiltHierarchy,
  buildSignedHierarchy,
  dnssecTestTree,
  type LoopbackDnsProcess,
  prerequisite,
  startNsd,
  startUnbound,
  tempDir,
  toolAvailable,
} from '@netdiag/test-utils';

const run = promisify(execFile);

/** Every tool the bench needs, as prerequisites (a missing one fails under CI=true). */
export function dnssecToolsPresent(): boolean {
  const tools: [string, string[], string][] = [
    ['nsd', ['-v'], 'apt-get install nsd'],
    ['unbound', ['-V'], 'apt-get install unbound'],
    ['dnssec-signzone', ['-h'], 'apt-get install bind9-utils'],
    ['ldns-signzone', ['-v'], 'apt-get install ldnsutils'],
    ['delv', ['-v'], 'apt-get install bind9-dnsutils'],
    ['dig', ['-v'], 'apt-get install bind9-dnsutils'],
  ];
  return tools.every(([tool, args, hint]) => prerequisite(tool, toolAvailable(tool, args), hint));
}

export interface DnssecBench {
  built: BuiltHierarchy;
  nsd: LoopbackDnsProcess;
  unbound: LoopbackDnsProcess;
  /** BIND-style anchor file for delv. */
  delvAnchors: string;
  close(): Promise<void>;
}

export async function startDnssecBench(): Promise<DnssecBench> {
  const dir = tempDir('netdiag-dnssec-zones-');
  const built = buildSignedHierarchy(dir, dnssecTestTree());
  const nsd = await startNsd(built.zones);
  let unbound: LoopbackDnsProcess;
  try {
    unbound = await startUnbound({
      authority: nsd.address,
      zones: built.names,
      trustAnchor: built.trustAnchor,
    });
  } catch (error) {
    await nsd.close();
    throw error;
  }
  // delv reads anchors in named.conf syntax (`trust-anchors { . static-ds … }`).
  const delvAnchors = join(dir, 'delv-anchors.conf');
  const lines = built.trustAnchor.split('\n').map((line) => {
    const [, , , keyTag, algorithm, digestType, ...digest] = line.trim().split(/\s+/);
    return `  . static-ds ${keyTag} ${algorithm} ${digestType} "${digest.join('')}";`;
  });
  writeFileSync(delvAnchors, `trust-anchors {\n${lines.join('\n')}\n};\n`);
  return {
    built,
    nsd,
    unbound,
    delvAnchors,
    close: async () => {
      await unbound.close();
      await nsd.close();
    },
  };
}

export type Verdict = 'secure' | 'insecure' | 'bogus' | 'other';

/** Unbound's verdict through dig: the AD flag and the rcode (RFC 4035 §3.2.3, §5.5). */
export async function unboundVerdict(bench: DnssecBench, name: string, type: string) {
  const { stdout } = await run('dig', [
    '+dnssec',
    '+tries=1',
    '+time=5',
    `@${bench.unbound.host}`,
    '-p',
    String(bench.unbound.port),
    name,
    type,
  ]);
  const status = /status: (\w+)/.exec(stdout)?.[1] ?? '';
  const flags = /;; flags: ([^;]+);/.exec(stdout)?.[1]?.split(' ') ?? [];
  const ede = /EDE: ([^\n]+)/.exec(stdout)?.[1];
  let verdict: Verdict = 'other';
  if (status === 'SERVFAIL') verdict = 'bogus';
  else if (status === 'NOERROR' || status === 'NXDOMAIN') {
    verdict = flags.includes('ad') ? 'secure' : 'insecure';
  }
  return { verdict, status, ede };
}

/** delv's verdict: it validates itself from the anchor file, asking NSD for every RRset. */
export function delvVerdict(bench: DnssecBench, name: string, type: string) {
  const result = spawnSync(
    'delv',
    [
      `@${bench.nsd.host}`,
      '-p',
      String(bench.nsd.port),
      '-a',
      bench.delvAnchors,
      '+root=.',
      name,
      type,
    ],
    { encoding: 'utf8', timeout: 20_000 },
  );
  const text = `${result.stdout}\n${result.stderr}`;
  // delv reports each RRset of a CNAME chain on its own line; the chain is as weak as its
  // weakest RRset (as for netdiag and Unbound).
  let verdict: Verdict = 'other';
  if (
    /broken trust chain|no valid signature|insecurity proof failed|validation failed/.test(text)
  ) {
    verdict = 'bogus';
  } else if (/; (negative response, )?unsigned answer/.test(text)) verdict = 'insecure';
  else if (/; (negative response, )?fully validated/.test(text)) verdict = 'secure';
  return { verdict, text };
}
