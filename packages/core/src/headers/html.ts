/**
 * What the grade needs from a page: `<meta http-equiv>` policies (HTML §4.2.5.3; `<meta
 * name=referrer>` counts as a Referrer-Policy, W3C Referrer Policy §4.2) and `<script>` tags with
 * their integrity/crossorigin attributes (for SRI).
 *
 * Read with htmlparser2's tokenizer, which handles comments, raw-text elements (script, style,
 * textarea, title: a "<meta" inside them is text, HTML §13.2.5), attribute quoting and character
 * references, in one linear pass. The previous hand-written scanner lower-cased the rest of the
 * page again for every raw-text element: 13 s of synchronous work for a hostile 1 MiB page of
 * 32,000 elements (issue 20 item 1); this reads the same page in milliseconds
 * (BENCHMARKS.md, "Parsers on worst-case input").
 * @module
 */
import { lazyRequire } from '../lazy-require.js';

/**
 * htmlparser2, required on the first page read: importing it costs ~40 ms of every process's
 * start (the CLI, the server), and only the security-headers grade reads pages.
 */
const htmlparser2 = lazyRequire<typeof import('htmlparser2')>('htmlparser2');

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

/**
 * The facts of one page. The grade reads a page twice (the `<meta>` policies, then SRI), so the
 * last page's facts are kept and a second call with the same text costs nothing.
 */
let last: { html: string; facts: HtmlFacts } | undefined;

export function scanHtml(html: string): HtmlFacts {
  if (last?.html === html) return last.facts;
  const facts: HtmlFacts = { httpEquiv: {}, scripts: [] };
  const { Parser } = htmlparser2();
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'meta') {
          const content = attributes.content;
          if (content === undefined) return;
          const equiv = attributes['http-equiv']?.trim().toLowerCase();
          const key =
            equiv ??
            (attributes.name?.trim().toLowerCase() === 'referrer' ? 'referrer-policy' : undefined);
          if (!key) return;
          const list = facts.httpEquiv[key] ?? [];
          list.push(content);
          facts.httpEquiv[key] = list;
        } else if (name === 'script') {
          const src = attributes.src;
          facts.scripts.push(
            src === undefined
              ? { src: null }
              : {
                  src: src.trim(),
                  integrity: attributes.integrity ?? null,
                  crossorigin: attributes.crossorigin ?? null,
                },
          );
        }
      },
    },
    // HTML, not XML: tag and attribute names lower-cased, character references decoded, the
    // first of repeated attributes kept (HTML §13.2.5.33).
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  last = { html, facts };
  return facts;
}
