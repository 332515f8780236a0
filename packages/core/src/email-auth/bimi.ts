/**
 * BIMI (draft-brand-indicators-for-message-identification §4): `default._bimi.<domain>` TXT
 * `v=BIMI1; l=<SVG URL>; a=<VMC URL>`, shown only with DMARC at enforcement (§3.2).
 * @module
 */
import type { z } from 'zod';
import type { DmarcAnalysis } from './dmarc/analyse.js';
import { type SectionRun, sectionAnalyser } from './dns.js';
import type { bimiSchema } from './schema.js';
import { lookupTxtPolicy } from './txt-policy.js';
import {
  type EmailAuthSectionOptions,
  finding,
  findingList,
  passUnlessFlagged,
  statusOf,
} from './types.js';

/** The `bimi` section: `default._bimi.<domain>`, its logo (`l=`) and certificate (`a=`). */
export type BimiAnalysis = z.output<typeof bimiSchema>;

export interface AnalyseBimiOptions extends EmailAuthSectionOptions {
  /** The DMARC result, to check the enforcement BIMI requires. */
  dmarc?: DmarcAnalysis;
}

/** Analyses `domain`'s BIMI record. DNS failures become findings. */
export const analyseBimi = sectionAnalyser(bimiSection);

async function bimiSection(
  domain: string,
  options: SectionRun<AnalyseBimiOptions>,
): Promise<BimiAnalysis> {
  const name = `default._bimi.${domain}`;
  const base: BimiAnalysis = {
    status: 'none',
    record_name: name,
    record: null,
    logo_url: null,
    authority_url: null,
    findings: [],
  };
  const found = await lookupTxtPolicy(options, name, 'BIMI1', 'bimi', 'BIMI draft §4.2');
  if (found.kind === 'absent') {
    return { ...base, findings: [finding('info', 'bimi_missing', `no BIMI record at ${name}`)] };
  }
  if (found.kind !== 'found') return { ...base, status: 'fail', findings: [found.finding] };
  const [findings, add] = findingList();
  const logo = found.tags.get('l') ?? null;
  const authority = found.tags.get('a') ?? null;
  if (!logo && !authority) {
    add('info', 'bimi_declined', `${name} declines BIMI (empty l= and a=)`);
  } else {
    if (!logo) {
      add('fail', 'bimi_logo', 'l= (the logo URL) is missing or empty');
    } else if (!/^https:\/\/\S+$/i.test(logo)) {
      add('fail', 'bimi_logo', `l=${logo} must be an https: URL of an SVG file`);
    }
    if (!authority) {
      add(
        'info',
        'bimi_no_vmc',
        'no a= (Verified Mark Certificate): several mailbox providers show the logo only with one',
      );
    } else if (!/^https:\/\/\S+$/i.test(authority)) {
      add('fail', 'bimi_vmc', `a=${authority} must be an https: URL of a PEM file`);
    }
    const applied = options.dmarc?.applied_policy;
    const enforced =
      (applied === 'quarantine' || applied === 'reject') &&
      (options.dmarc?.policy?.pct ?? 100) === 100;
    if (!enforced) {
      add(
        'warn',
        'bimi_dmarc',
        'BIMI logos are shown only when DMARC is at enforcement: p=quarantine or reject, pct=100',
      );
    }
  }
  for (const segment of found.malformed) {
    add('warn', 'bimi_syntax', `"${segment}" is not a tag=value pair`);
  }
  passUnlessFlagged(findings, 'bimi_ok', `BIMI logo published at ${logo}`);
  return {
    ...base,
    status: statusOf(findings),
    record: found.record,
    logo_url: logo,
    authority_url: authority,
    findings,
  };
}
