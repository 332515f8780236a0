/**
 * What the grade needs from a page: `<meta http-equiv>` policies (HTML §4.2.5.3; `<meta
 * name=referrer>` counts as a Referrer-Policy, W3C Referrer Policy §4.2) and `<script>` tags with
 * their integrity/crossorigin attributes (for SRI).
 *
 * Read with htmlparser2's tokenizer, which handles comments, raw-text elements (script, style,
 * textarea, title, xmp: a "<meta" inside them is text, HTML §13.2.5), attribute quoting and
 * character references, in one linear pass. The previous hand-written scanner lower-cased the
 * rest of the page again for every raw-text element: 13 s of synchronous work for a hostile
 * 1 MiB page of 32,000 elements (issue 20 item 1).
 *
 * The tokenizer alone, not htmlparser2's `Parser` on top of it: the parser keeps a stack of the
 * open elements with `unshift` and looks a closing tag up in it with `indexOf`, both a pass over
 * the stack, so a page of elements that are never closed is quadratic — 1 MiB of `<b>` took
 * 80 s, 1 MiB of `<b>` then `</i>` 62 s (measured 2026-11-29). Nothing here needs the stack:
 * only the start tags of `<meta>` and `<script>`, and only six of their attributes, whose values
 * are the only strings made. html.test.ts holds the result to what the parser reported.
 * @module
 */
import type { TokenizerCallbacks } from 'htmlparser2';
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
  const reader = new StartTags(html, facts);
  const { Tokenizer } = htmlparser2();
  // HTML, not XML; character references decoded (the parser's defaults, as used before).
  const tokenizer = new Tokenizer({ xmlMode: false, decodeEntities: true }, reader);
  tokenizer.write(html);
  tokenizer.end();
  last = { html, facts };
  return facts;
}

/** The start tags read (0: any other), by name in ASCII lower case. */
const OTHER = 0;
const META = 1;
const SCRIPT = 2;

/** The attributes read, by name in ASCII lower case; their index in `StartTags.values`. */
const ATTRIBUTES = ['content', 'http-equiv', 'name', 'src', 'integrity', 'crossorigin'] as const;
const [CONTENT, HTTP_EQUIV, NAME, SRC, INTEGRITY, CROSSORIGIN] = [0, 1, 2, 3, 4, 5] as const;
const NONE = -1;

/**
 * The one attribute of ATTRIBUTES whose name is `length` characters long (no two are the same
 * length), else NONE: a name is then compared with one of them, not all six. A page of one tag
 * with thousands of attributes spent most of our part of its time comparing each with all six
 * (measured 2026-11-29: 2.9 → 2.2× the yardstick, in a fresh process; the tokenizer alone,
 * with callbacks that do nothing, takes ~1.8× of it).
 */
function attributeOfLength(length: number): number {
  switch (length) {
    case 7:
      return CONTENT;
    case 10:
      return HTTP_EQUIV;
    case 4:
      return NAME;
    case 3:
      return SRC;
    case 9:
      return INTEGRITY;
    case 11:
      return CROSSORIGIN;
    default:
      return NONE;
  }
}

/**
 * Whether `html[start, end)` is `name` (lower case ASCII) in any ASCII case. The parser compared
 * `toLowerCase()` of the name; the two differ only where a non-ASCII character lower-cases to
 * an ASCII letter, which only the Kelvin sign does ("k"), a letter none of these names holds.
 */
function isName(html: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) {
    const ch = html.charCodeAt(start + i);
    // `| 0x20` lower-cases A–Z; "-" (0x2d) is the only other character of these names.
    if ((ch >= 0x41 && ch <= 0x5a ? ch | 0x20 : ch) !== name.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * The tokenizer's callbacks: `<meta>` and `<script>` start tags with the attributes of
 * ATTRIBUTES, the first of a repeated one kept (HTML §13.2.5.33), reported when the tag ends
 * (`>` or `/>`; a tag cut off by the end of the page is not, as with the parser).
 */
class StartTags implements TokenizerCallbacks {
  private tag = OTHER;
  /** The attribute being read (an index of ATTRIBUTES), or NONE. */
  private attribute = NONE;
  private value = '';
  private readonly values: (string | undefined)[] = ATTRIBUTES.map(() => undefined);

  constructor(
    private readonly html: string,
    private readonly facts: HtmlFacts,
  ) {}

  onopentagname(start: number, end: number): void {
    const html = this.html;
    this.tag = isName(html, start, end, 'meta')
      ? META
      : isName(html, start, end, 'script')
        ? SCRIPT
        : OTHER;
    if (this.tag !== OTHER) this.values.fill(undefined);
  }

  onattribname(start: number, end: number): void {
    this.attribute = NONE;
    if (this.tag === OTHER) return;
    const i = attributeOfLength(end - start);
    if (i !== NONE && isName(this.html, start, end, ATTRIBUTES[i] as string)) this.attribute = i;
  }

  onattribdata(start: number, end: number): void {
    if (this.attribute !== NONE) this.value += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    if (this.attribute !== NONE) this.value += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    if (this.attribute !== NONE) this.values[this.attribute] ??= this.value;
    this.attribute = NONE;
    this.value = '';
  }

  onopentagend(): void {
    this.endTag();
  }

  onselfclosingtag(): void {
    this.endTag();
  }

  private endTag(): void {
    const tag = this.tag;
    this.tag = OTHER;
    const values = this.values;
    if (tag === META) {
      const content = values[CONTENT];
      if (content === undefined) return;
      const equiv = values[HTTP_EQUIV]?.trim().toLowerCase();
      const key =
        equiv ??
        (values[NAME]?.trim().toLowerCase() === 'referrer' ? 'referrer-policy' : undefined);
      if (!key) return;
      const httpEquiv = this.facts.httpEquiv;
      const list = httpEquiv[key] ?? [];
      list.push(content);
      httpEquiv[key] = list;
    } else if (tag === SCRIPT) {
      const src = values[SRC];
      this.facts.scripts.push(
        src === undefined
          ? { src: null }
          : {
              src: src.trim(),
              integrity: values[INTEGRITY] ?? null,
              crossorigin: values[CROSSORIGIN] ?? null,
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
