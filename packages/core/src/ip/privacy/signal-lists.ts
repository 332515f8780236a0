/**
 * The curated privacy lists shipped in `@netdiag/core/data/` (tab-separated, one entry per
 * line with a one-line reason, so anyone can fix a wrong entry):
 * - `asn-hosting.tsv`, `asn-vpn.tsv`, `asn-proxy.tsv`, `asn-relay.tsv`, `asn-mobile.tsv`,
 *   `asn-isp.tsv`:
 *   `AS number <TAB> holder <TAB> reason`;
 * - `as-name-keywords.tsv`: `signal <TAB> keyword <TAB> reason`.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAsn } from '../../asn/as-number.js';
import { ConfigError } from '../../errors.js';

export type ListedSignal = 'hosting' | 'vpn' | 'proxy' | 'relay' | 'mobile' | 'isp';
export type KeywordSignal = 'hosting' | 'vpn' | 'proxy' | 'mobile';

export interface ListedAs {
  asn: number;
  holder: string;
  reason: string;
  /** File the entry came from, e.g. `data/asn-hosting.tsv`. */
  file: string;
}

export interface NameKeyword {
  signal: KeywordSignal;
  keyword: string;
  reason: string;
  /** Whole-word, case-insensitive matcher. */
  pattern: RegExp;
}

/** `text` with the characters a regular expression treats specially escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The whole-word, case-insensitive pattern of `keyword` (as `loadSignalLists` makes them). */
export function keywordPattern(keyword: string): RegExp {
  const escaped = escapeRegExp(keyword.toLowerCase());
  return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, 'iu');
}

/** Keywords whose `pattern` is `keywordPattern(keyword)`, made on first use (classify.ts). */
const STANDARD = new WeakSet<NameKeyword>();

/** A keyword with the pattern `keywordPattern` makes, built when first read. */
export function standardKeyword(
  signal: KeywordSignal,
  keyword: string,
  reason: string,
): NameKeyword {
  let pattern: RegExp | undefined;
  const entry = {
    signal,
    keyword,
    reason,
    get pattern(): RegExp {
      pattern ??= keywordPattern(keyword);
      return pattern;
    },
  };
  STANDARD.add(entry);
  return entry;
}

/** Whether `k.pattern` is `keywordPattern(k.keyword)` (made by `standardKeyword`). */
export function isStandardKeyword(k: NameKeyword): boolean {
  return STANDARD.has(k);
}

export interface SignalLists {
  lists: Record<ListedSignal, ReadonlyMap<number, ListedAs>>;
  keywords: readonly NameKeyword[];
}

const LISTED: readonly ListedSignal[] = ['hosting', 'vpn', 'proxy', 'relay', 'mobile', 'isp'];
const listFile = (signal: ListedSignal) => `asn-${signal}.tsv`;
const KEYWORD_FILE = 'as-name-keywords.tsv';
const KEYWORD_SIGNALS = new Set<string>(['hosting', 'vpn', 'proxy', 'mobile']);

/** The package's `data/` folder: the first ancestor's that has `data/asn-hosting.tsv`. */
function findDataDir(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'data', listFile('hosting')))) return join(dir, 'data');
    const parent = dirname(dir);
    if (parent === dir) {
      throw new ConfigError(`@netdiag/core data files not found above ${from}`);
    }
    dir = parent;
  }
}

/** Parses list files from `texts` (file name → content); throws naming the file and line. */
export function parseSignalLists(texts: Record<string, string>): SignalLists {
  const lists = {} as Record<ListedSignal, Map<number, ListedAs>>;
  for (const signal of LISTED) {
    const file = listFile(signal);
    const map = new Map<number, ListedAs>();
    for (const { fields, line } of rows(texts[file] ?? '')) {
      const [asnText = '', holder = '', reason = ''] = fields;
      const asn = parseAsn(asnText);
      if (asn === undefined || !holder || !reason) {
        throw new ConfigError(
          `data/${file} line ${line}: expected "AS number<TAB>holder<TAB>reason"`,
        );
      }
      if (map.has(asn)) throw new ConfigError(`data/${file} line ${line}: AS${asn} listed twice`);
      map.set(asn, { asn, holder, reason, file: `data/${file}` });
    }
    lists[signal] = map;
  }
  const keywords: NameKeyword[] = [];
  for (const { fields, line } of rows(texts[KEYWORD_FILE] ?? '')) {
    const [signal = '', keyword = '', reason = ''] = fields;
    if (!KEYWORD_SIGNALS.has(signal) || !keyword || !reason) {
      throw new ConfigError(
        `data/${KEYWORD_FILE} line ${line}: expected "signal<TAB>keyword<TAB>reason" with signal hosting, vpn, proxy or mobile`,
      );
    }
    keywords.push(standardKeyword(signal as KeywordSignal, keyword, reason));
  }
  return { lists, keywords };
}

/** Reads and parses the lists from `dir` (default: the package's `data/` folder). */
export function loadSignalLists(dir: string = findDataDir()): SignalLists {
  return parseSignalLists(readSignalListTexts(dir));
}

/** The list files' texts by file name (what `parseSignalLists` reads). */
export function readSignalListTexts(dir: string = findDataDir()): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const file of [...LISTED.map(listFile), KEYWORD_FILE]) {
    try {
      texts[file] = readFileSync(join(dir, file), 'utf8');
    } catch (error) {
      throw new ConfigError(`cannot read ${join(dir, file)}: ${(error as Error).message}`, error);
    }
  }
  return texts;
}

function* rows(text: string): Generator<{ fields: string[]; line: number }> {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).replace(/\r$/, '');
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    yield { fields: raw.split('\t').map((f) => f.trim()), line: i + 1 };
  }
}
