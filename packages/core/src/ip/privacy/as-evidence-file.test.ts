/**
 * The package build's flags of the AS entries without AS-level evidence (as-evidence-file.ts):
 * the file on disk says what the classification says today, every answer is the same with and
 * without the flags, and a file of other data is not read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom32 } from '@netdiag/test-utils';
import { afterAll, describe, expect, test } from 'vitest';
import { formatV4, formatV6 } from '../address.js';
import { embeddedAsnKey, PREBUILT_TABLES } from '../data-packages.js';
import { loadIpDatasets } from '../datasets.js';
import {
  asEvidenceFile,
  asEvidenceKey,
  quietAsEntries,
  readAsEvidence,
  writeAsEvidence,
} from './as-evidence-file.js';
import { asCandidates } from './classify.js';
import { loadIntelData } from './intel-pack.js';
import { intelFingerprint } from './intel-table-file.js';
import { providerAses } from './provider-ases.js';
import { findDataDir, loadSignalLists } from './signal-lists.js';

const scratch = mkdtempSync(join(tmpdir(), 'netdiag-as-evidence-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('AS entries without AS-level evidence, prebuilt', async () => {
  // Flags read (the bundled lists and pack), and none (the same lists, given by the caller).
  const flagged = await loadIpDatasets({ cacheDir: false });
  const plain = await loadIpDatasets({ cacheDir: false, signalLists: loadSignalLists() });
  const asn = flagged.asn;
  const lists = loadSignalLists();
  const intel = flagged.intel;
  const dir = join(findDataDir(), PREBUILT_TABLES);
  const key = asEvidenceKey(
    embeddedAsnKey(),
    intelFingerprint(loadIntelData(findDataDir())),
    lists,
  );
  const onDisk = await readAsEvidence(asEvidenceFile(dir, key), key, asn.entries);

  test('the package build wrote them (CI builds first)', () => {
    if (process.env['CI'] === 'true') expect(onDisk).toBeDefined();
  });

  test('they say what the classification says now, entry by entry', () => {
    if (onDisk === undefined) return;
    const learnt = intel ? providerAses(intel, asn, lists) : undefined;
    let quiet = 0;
    for (let entry = 0; entry < asn.entries; entry++) {
      const found = asCandidates(
        asn.asnOf(entry),
        asn.nameOf(entry),
        lists,
        intel?.asLists,
        learnt,
      );
      expect(onDisk[entry], `AS entry ${entry} (AS${asn.asnOf(entry)})`).toBe(
        found.length === 0 ? 1 : 0,
      );
      quiet += onDisk[entry] as number;
    }
    // Most ASes have none (83,490 of 91,065 on 2026-11-29), some have some.
    expect(quiet).toBeGreaterThan(asn.entries / 2);
    expect(quiet).toBeLessThan(asn.entries);
  });

  test('every answer is the same with and without them (random addresses of every AS row)', () => {
    const random = seededRandom32(0xa5e71d);
    const { v4Start, v4End, v6Start } = asn.data;
    const rows4 = v4Start.length;
    const rows6 = v6Start.length / 4;
    for (let i = 0; i < 20_000; i++) {
      let ip: string;
      if (i % 2 === 0) {
        const row = random() % rows4;
        const first = v4Start[row] as number;
        const span = (v4End[row] as number) - first + 1;
        ip = formatV4((first + (random() % span)) >>> 0);
      } else {
        const k = (random() % rows6) * 4;
        // The row's first /64 with a random interface id: still inside the row.
        ip = formatV6(v6Start[k] as number, v6Start[k + 1] as number, random(), random());
      }
      const a = flagged.lookup(ip);
      const b = plain.lookup(ip);
      expect(a.privacy, ip).toEqual(b.privacy);
      expect(a.network, ip).toEqual(b.network);
    }
  });
});

describe('the flags file', () => {
  test('is read back only for its own key and entry count, with flags of 0 and 1', async () => {
    const flags = Uint8Array.from([1, 0, 1, 1]);
    const file = asEvidenceFile(scratch, 'k1');
    expect(await writeAsEvidence(file, 'k1', flags)).toBeUndefined();
    expect(await readAsEvidence(file, 'k1', 4)).toEqual(flags);
    expect(await readAsEvidence(file, 'k2', 4)).toBeUndefined();
    expect(await readAsEvidence(file, 'k1', 5)).toBeUndefined();
    const bad = asEvidenceFile(scratch, 'k3');
    await writeAsEvidence(bad, 'k3', Uint8Array.from([1, 2]));
    expect(await readAsEvidence(bad, 'k3', 2)).toBeUndefined();
  });

  test('other lists make another key', () => {
    const lists = loadSignalLists();
    const fewer = { ...lists, keywords: lists.keywords.slice(1) };
    expect(asEvidenceKey('a', 'i', lists)).toBe(asEvidenceKey('a', 'i', loadSignalLists()));
    expect(asEvidenceKey('a', 'i', fewer)).not.toBe(asEvidenceKey('a', 'i', lists));
  });

  test('quietAsEntries flags the entries asCandidates finds nothing for', async () => {
    const datasets = await loadIpDatasets({ cacheDir: false });
    const lists = loadSignalLists();
    const quiet = quietAsEntries(datasets.asn, lists, undefined, undefined);
    expect(quiet.length).toBe(datasets.asn.entries);
    for (let entry = 0; entry < datasets.asn.entries; entry += 97) {
      const { asnOf, nameOf } = {
        asnOf: (e: number) => datasets.asn.asnOf(e),
        nameOf: (e: number) => datasets.asn.nameOf(e),
      };
      const found = asCandidates(asnOf(entry), nameOf(entry), lists);
      expect(quiet[entry]).toBe(found.length === 0 ? 1 : 0);
    }
    // AS13335 (Cloudflare) is on the curated hosting list: never quiet.
    const cloudflare = Array.from({ length: datasets.asn.entries }, (_, e) => e).filter(
      (e) => datasets.asn.asnOf(e) === 13335,
    );
    expect(cloudflare.length).toBeGreaterThan(0);
    for (const entry of cloudflare) expect(quiet[entry]).toBe(0);
  });
});
