/**
 * What the grade needs from a page: `<meta http-equiv>` policies (HTML §4.2.5.3; `<meta
 * name=referrer>` counts as a Referrer-Policy, W3C Referrer Policy §4.2) and `<script>` tags with
 * their integrity/crossorigin attributes (for SRI). Read with htmlparser2's tokenizer in one
 * linear pass (raw-text elements, quoting, character references: HTML §13.2.5); not its
 * `Parser`, quadratic on a page of unclosed elements (test/adversarial/inputs.ts).
 * @module
 */
import type { TokenizerCallbacks } from 'htmlparser2';
import { lazyRequire } from '../lazy-require.js';

/** htmlparser2, required on the first page read: only the grade reads pages (lazy-require.ts). */
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

/** The last page's facts: the grade reads a page twice (the `<meta>` policies, then SRI). */
let last: { html: string; facts: HtmlFacts } | undefined;

export function scanHtml(html: string): HtmlFacts {
  if (last?.html === html) return last.facts;
  // No prototype: the keys are the page's text (`__proto__`, `constructor`).
  const facts: HtmlFacts = { httpEquiv: Object.create(null), scripts: [] };
  const reader = new StartTags(html, facts);
  const { Tokenizer } = htmlparser2();
  // HTML, not XML, with character references decoded (the `Parser`'s defaults).
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, reader);
  tokenizer.write(html);
  tokenizer.end();
  last = { html, facts };
  return facts;
}

/** The attributes read, by name in lower case; a repeated one keeps its first value. */
const READ = new Set(['content', 'http-equiv', 'name', 'src', 'integrity', 'crossorigin']);

/**
 * The tokenizer's callbacks: the attributes of READ on `<meta>` and `<script>` start tags (the
 * first of a repeated one, HTML §13.2.5.33), reported when the tag ends; a tag cut off by the
 * end of the page is not, as with htmlparser2's `Parser`.
 */
class StartTags implements TokenizerCallbacks {
  /** 'meta' or 'script' while inside one of those start tags, else ''. */
  private tag = '';
  /** The attribute being read, when it is one of READ. */
  private attribute = '';
  private value = '';
  private readonly attributes = new Map<string, string>();

  constructor(
    private readonly html: string,
    private readonly facts: HtmlFacts,
  ) {}

  onopentagname(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    this.tag = name === 'meta' || name === 'script' ? name : '';
    if (this.tag !== '') this.attributes.clear();
  }

  onattribname(start: number, end: number): void {
    const name = this.tag === '' ? '' : this.html.slice(start, end).toLowerCase();
    this.attribute = READ.has(name) ? name : '';
  }

  onattribdata(start: number, end: number): void {
    if (this.attribute !== '') this.value += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    if (this.attribute !== '') this.value += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    if (this.attribute !== '' && !this.attributes.has(this.attribute)) {
      this.attributes.set(this.attribute, this.value);
    }
    this.attribute = '';
    this.value = '';
  }

  onopentagend(): void {
    this.endTag();
  }

  onselfclosingtag(): void {
    this.endTag();
  }

  private endTag(): void {
    const { tag, attributes } = this;
    this.tag = '';
    if (tag === 'meta') {
      const content = attributes.get('content');
      if (content === undefined) return;
      const equiv = attributes.get('http-equiv')?.trim().toLowerCase();
      const key =
        equiv ??
        (attributes.get('name')?.trim().toLowerCase() === 'referrer'
          ? 'referrer-policy'
          : undefined);
      if (!key) return;
      const list = this.facts.httpEquiv[key] ?? [];
      list.push(content);
      this.facts.httpEquiv[key] = list;
    } else if (tag === 'script') {
      const src = attributes.get('src');
      this.facts.scripts.push(
        src === undefined
          ? { src: null }
          : {
              src: src.trim(),
              integrity: attributes.get('integrity') ?? null,
              crossorigin: attributes.get('crossorigin') ?? null,
            },
      );
    }
  }

  // The rest of the page: text, comments, closing tags and the like say nothing here.
  onclosetag(): void {}
  ontext(): void {}
  ontextentity(): void {}
  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
  onend(): void {}
}
