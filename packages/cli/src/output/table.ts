/**
 * Aligned columns for the terminal: the widest cell sets each column, the last column takes what
 * is left of the terminal width and is cut with "…" when a row would wrap (only on a terminal;
 * in a pipe nothing is cut). Colour is applied after layout, so escape codes never skew widths.
 * @module
 */

export interface TableOptions {
  /** Terminal width; `undefined` = no limit. */
  width?: number | undefined;
  /** Colours cell `column` of a row (after padding). */
  paint?: (text: string, column: number, row: readonly string[]) => string;
  /** Header row, drawn like the others. */
  header?: readonly string[];
}

const GAP = '  ';

export function table(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const all = options.header ? [options.header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) {
    row.forEach((text, i) => {
      widths[i] = Math.max(widths[i] ?? 0, width(text));
    });
  }
  return all
    .map((row) => {
      let used = 0;
      return row
        .map((text, i) => {
          const last = i === row.length - 1;
          let shown = text;
          if (last && options.width !== undefined) {
            const room = Math.max(8, options.width - used);
            if (width(shown) > room) shown = `${[...shown].slice(0, room - 1).join('')}…`;
          } else if (!last) {
            shown = text + ' '.repeat((widths[i] ?? 0) - width(text));
            used += (widths[i] ?? 0) + GAP.length;
          }
          return options.paint ? options.paint(shown, i, row) : shown;
        })
        .join(GAP)
        .trimEnd();
    })
    .join('\n');
}

/** Width in terminal cells: code points (wide CJK glyphs are rare in these answers). */
function width(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
