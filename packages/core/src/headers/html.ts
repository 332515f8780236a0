/**
 * A small, forgiving HTML tag scanner for what the grade needs from a page: `<meta
 * http-equiv>` policies (HTML §4.2.5.3; `<meta name=referrer>` counts as a Referrer-Policy,
 * W3C Referrer Policy §4.2) and `<script src>` tags with their integrity/crossorigin
 * attributes (for SRI). Comments, and the contents of script/style/textarea, are skipped.
 * Not a full HTML5 parser: enough for well-formed pages, harmless on anything else.
 * @module
 */

export interface ScriptTag {
  src: string;
  integrity: string | null;
  crossorigin: string | null;
}

export interface HtmlFacts {
  /** Lower-case http-equiv name → contents, in document order. */
  httpEquiv: Record<string, string[]>;
  /** Every `<script>` element (with or without src). */
  scripts: (ScriptTag | { src: null })[];
}

/** MIME types treated as HTML (Observatory HTML_TYPES). */
export const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

const TAG = /<!--[\s\S]*?-->|<(meta|script|style|textarea)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function scanHtml(html: string): HtmlFacts {
  const facts: HtmlFacts = { httpEquiv: {}, scripts: [] };
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match !== null; match = TAG.exec(html)) {
    const name = match[1]?.toLowerCase();
    if (!name) continue; // a comment
    const attributes = parseAttributes(match[2] ?? '');
    if (name === 'meta') {
      const equiv = attributes.get('http-equiv')?.trim().toLowerCase();
      const content = attributes.get('content');
      if (content === undefined) continue;
      const key =
        equiv ??
        (attributes.get('name')?.trim().toLowerCase() === 'referrer'
          ? 'referrer-policy'
          : undefined);
      if (!key) continue;
      const list = facts.httpEquiv[key] ?? [];
      list.push(content);
      facts.httpEquiv[key] = list;
      continue;
    }
    if (name === 'script') {
      const src = attributes.get('src');
      facts.scripts.push(
        src === undefined
          ? { src: null }
          : {
              src: src.trim(),
              integrity: attributes.get('integrity') ?? null,
              crossorigin: attributes.get('crossorigin') ?? null,
            },
      );
    }
    // Skip raw-text contents so that "<meta" inside a script is not a tag (HTML §13.1.2).
    const close = html.toLowerCase().indexOf(`</${name}`, TAG.lastIndex);
    if (name !== 'meta' && close !== -1 && (match[2] ?? '').trim().slice(-1) !== '/')
      TAG.lastIndex = close;
  }
  return facts;
}

function parseAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  ATTRIBUTE.lastIndex = 0;
  for (let match = ATTRIBUTE.exec(text); match !== null; match = ATTRIBUTE.exec(text)) {
    const key = (match[1] ?? '').toLowerCase();
    if (out.has(key)) continue; // the first attribute of a name wins (HTML §13.2.5.33)
    out.set(key, decodeEntities(match[2] ?? match[3] ?? match[4] ?? ''));
  }
  return out;
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1]?.toLowerCase() === 'x'
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff
        ? String.fromCodePoint(code)
        : all;
    }
    return ENTITIES[entity.toLowerCase()] ?? all;
  });
}
