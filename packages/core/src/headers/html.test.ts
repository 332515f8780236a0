/**
 * scanHtml reads the page with htmlparser2's tokenizer alone (its `Parser` is quadratic on
 * unclosed elements: html.ts); it must report what a reading with the `Parser` reports, which
 * is kept here as the oracle. Its time on hostile pages: test/adversarial.
 */
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import { type HtmlFacts, scanHtml } from './html.js';

/** The previous scanHtml, built on htmlparser2's `Parser`. */
function parserFacts(html: string): HtmlFacts {
  const facts: HtmlFacts = { httpEquiv: {}, scripts: [] };
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
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  return facts;
}

/** Tokens that matter to either reading, hostile ones included. */
const token = fc.constantFrom(
  ...['<meta ', '<META ', '<Meta\t', '<script', '<SCRIPT ', '<script>', '</script>', '</SCRIPT >'],
  ...['<style>', '</style>', '<textarea>', '</textarea>', '<title>', '</title>', '<xmp>', '</xmp>'],
  ...['<svg>', '</svg>', '<math>', '</math>', '<b>', '</i>', '<p>', '</p>', '</br>', '<br/>'],
  ...[' content=', ' CONTENT="', " content='", ' http-equiv=', ' Http-Equiv="', ' name=referrer'],
  ...[' NAME="Referrer"', ' src=', ' SRC="', ' integrity=', ' crossorigin', ' crossorigin=""'],
  ...['"', "'", '=', '>', '/>', '/', ' ', '\t', '\n', 'x', 'refresh', ' 0;url=/ ', 'a.js'],
  ...['&amp;', '&#x41;', '&lt', '&', '&#0;', '&#x1F600;', '&notit;', '<!--', '-->', '<!-->'],
  ...['<![CDATA[', ']]>', '<?', '<!', '</', '<', '\u212a', 'İ', '\u00a0', '<scr', 'ipt>'],
);

/**
 * Attribute names at or near the six read: each as it is, in any ASCII case, with a character
 * changed, dropped or added.
 */
const SIX = ['content', 'http-equiv', 'name', 'src', 'integrity', 'crossorigin'];
const nearName = fc
  .tuple(
    fc.constantFrom(...SIX),
    fc.nat(),
    fc.constantFrom('same', 'same', 'same', 'upper', 'change', 'drop', 'add'),
    fc.constantFrom('a', 'N', '-', 'x', '\u212a', 'é'),
  )
  .map(([name, at, edit, ch]) => {
    const i = at % name.length;
    if (edit === 'upper') return name.slice(0, i) + name.slice(i).toUpperCase();
    if (edit === 'change') return name.slice(0, i) + ch + name.slice(i + 1);
    if (edit === 'drop') return name.slice(0, i) + name.slice(i + 1);
    if (edit === 'add') return name.slice(0, i) + ch + name.slice(i);
    return name;
  });
const attribute = fc
  .tuple(nearName, fc.constantFrom('', '=', '=x', '="a b"', "='c'", '=&amp;', '= y'))
  .map(([name, value]) => ` ${name}${value}`);
const tag = fc
  .tuple(
    fc.constantFrom('<meta', '<META', '<script', '<Script', '<p'),
    fc.array(attribute, { maxLength: 8 }),
    fc.constantFrom('>', '/>', ' >', ''),
  )
  .map(([open, attributes, end]) => open + attributes.join('') + end);

describe('scanHtml', () => {
  test('reports what the parser reported, on attribute names near the six read', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(tag, token), { maxLength: 6 }), (parts) => {
        const html = parts.join('');
        expect(scanHtml(html)).toEqual(parserFacts(html));
      }),
      { numRuns: 20_000 },
    );
  });

  test('reports what the parser reported', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const html = tokens.join('');
        expect(scanHtml(html)).toEqual(parserFacts(html));
      }),
      { numRuns: 20_000 },
    );
  });

  test('meta policies and scripts, as the grade reads them', () => {
    const facts = scanHtml(
      '<!doctype html><META HTTP-EQUIV="Content-Security-Policy " content="default-src &apos;self&apos;">' +
        '<meta name=" Referrer" content=no-referrer><meta content=x http-equiv=refresh content=y>' +
        '<script src=" /a.js " integrity="sha384-x" crossorigin></script><script>var s = "<meta content=1 http-equiv=x>";</script>' +
        '<textarea><script src=b.js></script></textarea><!-- <script src=c.js> --><meta content=z>',
    );
    expect(facts).toEqual({
      httpEquiv: {
        'content-security-policy': ["default-src 'self'"],
        'referrer-policy': ['no-referrer'],
        refresh: ['x'],
      },
      scripts: [{ src: '/a.js', integrity: 'sha384-x', crossorigin: '' }, { src: null }],
    });
  });
});
