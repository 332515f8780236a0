/**
 * The benchmark domain: a 3-level SPF include chain, MX, DMARC with an external report
 * destination, a DKIM key at a common selector, MTA-STS, TLS-RPT and BIMI. Shared by the
 * benchmark and its child-process DNS fixture.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Zone } from '@netdiag/test-utils';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkim = `v=DKIM1; k=rsa; p=${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`;

export const BENCH_DOMAIN = 'bench.example';

export const zone: Zone = {
  'bench.example': {
    MX: [
      { preference: 10, exchange: 'mx1.bench.example' },
      { preference: 20, exchange: 'mx2.bench.example' },
    ],
    TXT: ['v=spf1 mx include:_spf1.bench.example -all', 'site-verification=abc'],
  },
  'mx1.bench.example': { A: ['93.184.216.25'], AAAA: ['2606:2800:220:1::25'] },
  'mx2.bench.example': { A: ['93.184.216.26'] },
  // The 3-level include chain: bench.example → _spf1 → _spf2 → _spf3.
  '_spf1.bench.example': { TXT: ['v=spf1 ip4:93.184.217.0/24 include:_spf2.bench.example -all'] },
  '_spf2.bench.example': {
    TXT: ['v=spf1 ip6:2606:2800:221::/48 include:_spf3.bench.example -all'],
  },
  '_spf3.bench.example': { TXT: ['v=spf1 ip4:93.184.218.0/24 a:out.bench.example -all'] },
  'out.bench.example': { A: ['93.184.219.1'] },
  '_dmarc.bench.example': {
    TXT: ['v=DMARC1; p=reject; rua=mailto:dmarc@bench.example,mailto:r@reports.example'],
  },
  'bench.example._report._dmarc.reports.example': { TXT: ['v=DMARC1'] },
  'selector1._domainkey.bench.example': { TXT: [dkim.match(/.{1,250}/g) as string[]] },
  '_mta-sts.bench.example': { TXT: ['v=STSv1; id=20260101'] },
  '_smtp._tls.bench.example': { TXT: ['v=TLSRPTv1; rua=mailto:tls@bench.example'] },
  'default._bimi.bench.example': {
    TXT: ['v=BIMI1; l=https://bench.example/logo.svg; a=https://bench.example/vmc.pem'],
  },
};
