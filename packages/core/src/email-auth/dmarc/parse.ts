/**
 * DMARC record parsing (RFC 7489 §6.3/§6.4), aware of DMARCbis (RFC 9989: `np`, `psd`, `t`;
 * `pct`, `rf`, `ri` removed). Lenient like trailofbits/dmarc: a bad tag is reported and dropped.
 * @module
 */
import type { z } from 'zod';
import type {
  dmarcEffectivePolicySchema,
  dmarcTagErrorSchema,
  dmarcTagsSchema,
} from '../schema.js';
import { parseTagList } from '../tag-list.js';

/** The tags as published (only the valid ones), typed. */
export type DmarcTags = z.output<typeof dmarcTagsSchema>;

/** The tags RFC 7489 §6.3 gives defaults for, applied (DMARCbis: missing p means none). */
export type DmarcEffectivePolicy = z.output<typeof dmarcEffectivePolicySchema>;

export type DmarcPolicy = DmarcEffectivePolicy['p'];

export interface DmarcRecordParse {
  /** False when the record does not start with `v=DMARC1` (§6.6.3: such records are discarded). */
  valid: boolean;
  tags: DmarcTags;
  errors: z.output<typeof dmarcTagErrorSchema>[];
  /** Tags this parser does not know (ignored, §6.3: "MUST be ignored"). */
  unknown_tags: string[];
}

const POLICIES: readonly string[] = ['none', 'quarantine', 'reject'];
/** RFC 7489 §6.3 fo: "0", "1", "d", "s". */
const FAILURE_OPTIONS: readonly string[] = ['0', '1', 'd', 's'];
/** RFC 7489 §6.3 rf: afrf (RFC 6591); iodef (RFC 5070) appeared in drafts and is still seen. */
const REPORT_FORMATS: readonly string[] = ['afrf', 'iodef'];

/** Problems listed per record before the rest are only counted. */
const MAX_REPORTED = 50;
/**
 * Segments read per record: RFC 7489 §6.3 and DMARCbis define fourteen tags, so a record of
 * more is hostile and its rest is not read (as SPF stops past fifty errors).
 */
const MAX_SEGMENTS = 1024;
/** Invalid report URIs quoted in a `rua`/`ruf` problem; the rest are counted. */
const LISTED_BAD_URIS = 10;

/**
 * RFC 7489 §6.4 `dmarc-version = "v" *WSP "=" *WSP %x44.4d.41.52.43.31`: `V=DMARC1` is a record,
 * `v=dmarc1` is not (RFC 5234 §2.3), nor one with leading whitespace (§6.6.3).
 */
const DMARC_VERSION = /^[Vv]\s*=\s*DMARC1\s*(?:;|$)/;

/** True when `text` is a DMARC record: the one test for parsing and for picking them (§6.6.3). */
export function isDmarcRecord(text: string): boolean {
  return DMARC_VERSION.test(text);
}

/**
 * True when `text` would be a DMARC record but for the whitespace it starts with
 * (`" v=DMARC1; p=reject"`): discarded all the same (§6.6.3), and worth saying why.
 */
export function startsWithWhitespace(text: string): boolean {
  return text !== text.trimStart() && DMARC_VERSION.test(text.trimStart());
}

/**
 * Parses one DMARC TXT record. Never throws. Tag names and keyword values are case-insensitive
 * ABNF literals (RFC 7489 §6.4); report URIs and the `v` value keep their case.
 */
export function parseDmarcRecord(record: string): DmarcRecordParse {
  const result: DmarcRecordParse = { valid: false, tags: {}, errors: [], unknown_tags: [] };
  const list = parseTagList(record, MAX_REPORTED, MAX_SEGMENTS);
  const first = list.entries[0];
  // §6.4: "v" MUST be the first tag and its value exactly "DMARC1".
  if (!isDmarcRecord(record)) {
    const start = record.trim().slice(0, 20);
    result.errors.push({
      tag: 'v',
      value: first?.name.toLowerCase() === 'v' ? first.value : '',
      message: startsWithWhitespace(record)
        ? `the record starts with whitespace before "v=DMARC1", and receivers discard a record that does not begin with "v=DMARC1" (RFC 7489 §6.6.3): remove the leading whitespace`
        : `a DMARC record starts with "v=DMARC1" (RFC 7489 §6.4); this one starts "${start}"`,
    });
    return result;
  }
  result.valid = true;
  result.tags.v = 'DMARC1';
  // Past MAX_REPORTED problems the rest are only counted, in one closing message, so a hostile
  // record of thousands of bad segments yields a bounded answer.
  let unlisted = list.malformedCount - list.malformed.length;
  const full = () => result.errors.length + result.unknown_tags.length >= MAX_REPORTED;
  const report = (tag: string, value: string, message: string) => {
    if (full()) unlisted++;
    else result.errors.push({ tag, value, message });
  };
  for (const segment of list.malformed) {
    report(segment, '', `"${segment}" is not a tag=value pair (RFC 7489 §6.4)`);
  }
  const seen = new Set<string>(['v']);
  for (const entry of list.entries.slice(1)) {
    const name = entry.name.toLowerCase();
    if (seen.has(name)) {
      report(name, entry.value, `tag "${name}" appears more than once; the first one is used`);
      continue;
    }
    seen.add(name);
    const error = applyTag(result.tags, name, entry.value);
    if (error === undefined) continue;
    if (error !== 'unknown') report(name, entry.value, error);
    else if (full()) unlisted++;
    else result.unknown_tags.push(entry.name);
  }
  if (unlisted > 0) {
    const message = `${unlisted} more problems are not listed: the record has more than ${MAX_REPORTED}`;
    result.errors.push({ tag: '', value: '', message });
  }
  if (list.truncated) {
    const message = `the rest of the record was not read: it has more than ${MAX_SEGMENTS} tags and segments, where RFC 7489 defines a dozen tags`;
    result.errors.push({ tag: '', value: '', message });
  }
  return result;
}

/** Sets one tag; returns an error message, `'unknown'`, or undefined when it was applied. */
function applyTag(tags: DmarcTags, name: string, raw: string): string | undefined {
  const value = raw.toLowerCase();
  const empty = raw === '' ? `tag "${name}" has no value` : undefined;
  switch (name) {
    case 'p':
    case 'sp':
    case 'np':
      if (empty) return empty;
      if (!POLICIES.includes(value)) {
        return `${name}=${raw} is not a policy: use none, quarantine or reject (RFC 7489 §6.3)`;
      }
      tags[name] = value as DmarcPolicy;
      return undefined;
    case 'adkim':
    case 'aspf':
      if (value !== 'r' && value !== 's') {
        return `${name}=${raw} is not an alignment mode: use r (relaxed) or s (strict) (RFC 7489 §6.3)`;
      }
      tags[name] = value;
      return undefined;
    case 'pct': {
      if (!/^\d{1,3}$/.test(raw) || Number(raw) > 100) {
        return `pct=${raw} is not a whole number from 0 to 100 (RFC 7489 §6.3)`;
      }
      tags.pct = Number(raw);
      return undefined;
    }
    case 'ri': {
      // §6.3: ri is a 32-bit unsigned integer.
      if (!/^\d{1,10}$/.test(raw) || Number(raw) > 0xffffffff) {
        return `ri=${raw} is not a number of seconds (RFC 7489 §6.3)`;
      }
      tags.ri = Number(raw);
      return undefined;
    }
    case 'fo': {
      const options = value.split(':').map((s) => s.trim());
      if (empty || options.some((o) => !FAILURE_OPTIONS.includes(o))) {
        return `fo=${raw} must be a colon-separated list of 0, 1, d and s (RFC 7489 §6.3)`;
      }
      tags.fo = options;
      return undefined;
    }
    case 'rf': {
      const formats = value.split(':').map((s) => s.trim());
      if (empty || formats.some((f) => !REPORT_FORMATS.includes(f))) {
        return `rf=${raw} names an unknown report format; only afrf is defined (RFC 7489 §6.3)`;
      }
      tags.rf = formats.join(':');
      return undefined;
    }
    case 'rua':
    case 'ruf': {
      if (empty) return empty;
      const uris: string[] = [];
      const bad: string[] = [];
      let badCount = 0;
      for (const item of raw.split(',')) {
        const text = item.trim();
        if (!('error' in parseDmarcUri(text))) uris.push(text);
        else if (badCount++ < LISTED_BAD_URIS) bad.push(`"${text}"`);
      }
      if (uris.length > 0) tags[name] = uris;
      if (badCount === 0) return undefined;
      const more = badCount > bad.length ? ` and ${badCount - bad.length} more` : '';
      return `${name} has invalid report URI(s) ${bad.join(', ')}${more}: expected mailto:address[!size] (RFC 7489 §6.2)`;
    }
    case 'psd':
      if (value !== 'y' && value !== 'n' && value !== 'u') {
        return `psd=${raw} must be y, n or u (DMARCbis, RFC 9989)`;
      }
      tags.psd = value;
      return undefined;
    case 't':
      if (value !== 'y' && value !== 'n') return `t=${raw} must be y or n (DMARCbis, RFC 9989)`;
      tags.t = value;
      return undefined;
    default:
      return 'unknown';
  }
}

/**
 * Parses one report destination: a URI with a scheme, optionally followed by `!size` with a
 * unit k, m, g or t (RFC 7489 §6.2). Commas and exclamation marks inside the URI must be
 * percent-encoded, so the last `!digits[unit]` is the size.
 */
export function parseDmarcUri(
  text: string,
): { uri: string; size?: string; unit?: string } | { error: string } {
  const sized = /^(.*)!(\d+)([kmgtKMGT])?$/.exec(text);
  const uri = sized ? (sized[1] as string) : text;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:[^\s,!]+$/.test(uri)) {
    return { error: `"${text}" is not a URI` };
  }
  if (/^mailto:/i.test(uri) && !/^mailto:[^@]+@[^@]+$/i.test(uri)) {
    return { error: `"${text}" is not a mailto: address` };
  }
  return {
    uri,
    ...(sized ? { size: sized[2] as string } : {}),
    ...(sized?.[3] ? { unit: sized[3].toLowerCase() } : {}),
  };
}

/** Defaults of RFC 7489 §6.3 (adkim/aspf r, fo 0, pct 100, rf afrf, ri 86400, sp = p). */
export function effectivePolicy(tags: DmarcTags): DmarcEffectivePolicy {
  const p = tags.p ?? 'none';
  const sp = tags.sp ?? p;
  return {
    p,
    sp,
    np: tags.np ?? sp,
    adkim: tags.adkim ?? 'r',
    aspf: tags.aspf ?? 'r',
    pct: tags.pct ?? 100,
    fo: tags.fo ?? ['0'],
    rf: tags.rf ?? 'afrf',
    ri: tags.ri ?? 86_400,
    testing: tags.t === 'y',
  };
}
