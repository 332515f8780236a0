/**
 * Registry dates → ISO 8601 UTC (`toISOString`). RDAP dates are RFC 3339 (RFC 9083 §4.5), but
 * WHOIS has no date format (RFC 3912), so this reads the forms registries print (FORMS), with
 * zones such as `+03`, `(UTC+8)`, `(JST)`, `EAT` (.ke), `CLST` (.cl).
 *
 * Decisions: a date without a zone is taken as UTC (most registries print UTC and say so only
 * in a banner); numeric dates with the year last are read day first (`06-04-2004` is 6 April,
 * as every registry in the corpus means), unless the first number cannot be a day. A two-digit
 * year (only with the year last, .es) is 1970–2069.
 * @module
 */

const MONTHS: Record<string, number> = Object.fromEntries(
  'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ').map((name, i) => [name, i + 1]),
);

/**
 * Offsets of zone abbreviations registries print, in minutes east of UTC (IANA tz database
 * standard/daylight offsets; abbreviations that name several zones, such as CST or IST,
 * are left out on purpose). EAT: .ke, .ug; CLT/CLST: .cl; BRT/BRST: .br.
 */
const ZONES: Record<string, number> = Object.fromEntries(
  Object.entries({
    0: 'z ut utc gmt wet',
    60: 'west bst cet met wat',
    120: 'cest mest eet cat sast',
    180: 'eest msk eat',
    240: 'msd',
    420: 'ict wib',
    480: 'hkt sgt awst myt',
    540: 'jst kst',
    570: 'acst',
    600: 'aest',
    630: 'acdt',
    660: 'aedt',
    720: 'nzst',
    780: 'nzdt',
    [-120]: 'brst',
    [-180]: 'clst brt art uyt',
    [-240]: 'clt edt',
    [-300]: 'pet cot est',
    [-360]: 'mdt',
    [-420]: 'pdt mst',
    [-480]: 'akdt pst',
    [-540]: 'akst',
    [-600]: 'hst',
  }).flatMap(([offset, names]) => names.split(' ').map((name) => [name, Number(offset)])),
);

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  ms: number;
  /** Minutes east of UTC; `undefined` (taken as UTC) when not given. */
  offset: number | undefined;
}

/**
 * Parses a registry date and returns it as `toISOString()` text, or `""` when the text is
 * not a date this parser understands (never a guess that could be wrong by days).
 */
export function toIsoDate(text: string | undefined): string {
  if (!text) return '';
  const parts = parseDateParts(text);
  if (!parts) return '';
  const { year, month, day, hour, minute, second, ms, offset } = parts;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
    return '';
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms) - (offset ?? 0) * 60_000;
  const date = new Date(utc);
  // Reject dates that rolled over (31 February) and absurd years.
  if (Number.isNaN(date.getTime()) || year < 1970 - 100 || year > 9999) return '';
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCDate() !== day) return '';
  return date.toISOString();
}

function parseDateParts(input: string): Parts | undefined {
  // Longer text is a sentence or garbage, not a date; bounding it keeps the patterns cheap.
  if (input.length > 120) return undefined;
  let text = input.trim();
  let offset: number | undefined;
  // registro.br: "19990518 #162310", the ticket that registered the domain follows the date.
  text = text.replace(/\s+#\d+$/, '');
  // A final full stop: "2001-Aug-23." (.tr), "2007. 03. 02." (.kr).
  text = text.replace(/(\d)\.$/, '$1');
  // Format hints such as "(YYYY-MM-DD)" say nothing about the zone. One character class, not
  // `(?:[ymdhs]{1,4}[-./: ]?)+`: that nesting backtracks exponentially on "(yyyy…" without ")".
  text = text.replace(/\([ymdhs\-./: ]{1,40}\)/gi, ' ');
  // A zone in parentheses: "(UTC+8)", "(GMT+0:00)", "(JST)".
  text = text.replace(/\(([^)]*)\)/g, (whole, inner: string) => {
    const zone = parseZone(inner.trim());
    if (zone !== undefined) {
      offset = zone;
      return ' ';
    }
    return whole;
  });
  text = text.replace(/\s+/g, ' ').trim();
  if (text === '' || /^before\b/i.test(text)) return undefined;

  // A trailing zone. Numeric offsets and "Z" count only right after a time, so that the
  // "-04" of "2019-10-04" is never read as a zone.
  const numeric = /(\d:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*(z|[+-]\d{2}(?::?\d{2})?)$/i.exec(text);
  if (numeric) {
    const zone = parseZone(numeric[2] as string);
    if (zone !== undefined) {
      offset = zone;
      text = text.slice(0, numeric.index + (numeric[1] as string).length);
    }
  } else {
    const named = /\s([a-z]{1,5}(?:[+-]\d{1,2}(?::?\d{2})?)?)$/i.exec(text);
    const zone = named ? parseZone(named[1] as string) : undefined;
    if (named && zone !== undefined) {
      offset = zone;
      text = text.slice(0, named.index);
    }
  }

  const time = (
    rest: string | undefined,
  ): Pick<Parts, 'hour' | 'minute' | 'second' | 'ms'> | undefined => {
    if (!rest || rest.trim() === '') return { hour: 0, minute: 0, second: 0, ms: 0 };
    const m = /^(?:[T\s-]+|\s*at\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$/i.exec(rest);
    if (!m) return undefined;
    return {
      hour: Number(m[1]),
      minute: Number(m[2]),
      second: Number(m[3] ?? 0),
      ms: m[4] ? Math.round(Number(`0.${m[4]}`) * 1000) : 0,
    };
  };
  const build = (year: number, month: number, day: number, rest?: string): Parts | undefined => {
    const t = time(rest);
    return t ? { year, month, day, ...t, offset } : undefined;
  };

  for (const [pattern, y, mo, d, swap] of FORMS) {
    const m = pattern.exec(text);
    if (!m) continue;
    const monthText = m[mo] as string;
    let month = /^\d/.test(monthText) ? Number(monthText) : monthNumber(monthText);
    if (month === undefined) continue;
    let day = Number(m[d]);
    let year = Number(m[y]);
    if ((m[y] as string).length === 2) year += year < 70 ? 2000 : 1900;
    if (swap && month > 12 && day <= 12) [day, month] = [month, day];
    return build(year, month, day, m[4]);
  }
  // ctime and date(1): "Mon Oct 04 05:05:04 2019", "Mar 25 01:57:22 PDT 2009" (.bj)
  const m =
    /^(?:[a-z]{3,9},?\s)?([a-z]{3,9})\s(\d{1,2})\s(\d{1,2}:\d{2}(?::\d{2})?)\s(?:([a-z]{1,5})\s)?(\d{4})$/i.exec(
      text,
    );
  if (m) {
    const month = monthNumber(m[1] as string);
    const zone = m[4] === undefined ? offset : parseZone(m[4]);
    if (month && (m[4] === undefined || zone !== undefined)) {
      offset = zone;
      return build(Number(m[5]), month, Number(m[2]), ` ${m[3]}`);
    }
  }
  return undefined;
}

/**
 * The date forms, each followed by an optional time, tried in order: a pattern and the groups
 * of its year, month (a number or a name) and day; the rest is group 4. `swap`: read day first,
 * unless the first number cannot be a day.
 */
const FORMS: [RegExp, number, number, number, boolean?][] = [
  // 2019-10-04, 2019/10/04, 2019.10.04, 2019. 10. 04 (.kr)
  [/^(\d{4})[-/.] ?(\d{1,2})[-/.] ?(\d{1,2})(?!\d)(.*)$/, 1, 2, 3],
  [/^(\d{4})[-/. ]([a-z]{3,9})[-/. ](\d{1,2})(?!\d)(.*)$/i, 1, 2, 3], // 2001-Aug-23 (.tr)
  [/^(\d{4})(\d{2})(\d{2})(\s.*)?$/, 1, 2, 3], // 20191004
  // 04.10.2019, 04-10-2019, 04/10/2019, 4.10.2019
  [/^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})(.*)$/, 3, 2, 1, true],
  [/^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2})(?!\d)(.*)$/, 3, 2, 1], // 16/09/03 (.es), day first
  // 04-Oct-2019, 04 Oct 2019, 30th April 2003, 4-oct-2019, Friday 7th November 2003
  [
    /^(?:[a-z]{3,9},?\s)?(\d{1,2})(?:st|nd|rd|th)?[-\s.]([a-z]{3,9})\.?[-\s.,]+(\d{4})(.*)$/i,
    3,
    2,
    1,
  ],
  // Oct 04 2019, October 4, 2019, Mon Oct 04 2019
  [/^(?:[a-z]{3,9},?\s)?([a-z]{3,9})\.?\s(\d{1,2})(?:st|nd|rd|th)?,?\s(\d{4})(.*)$/i, 3, 1, 2],
];

function monthNumber(name: string): number | undefined {
  return MONTHS[name.slice(0, 3).toLowerCase()];
}

/** `Z`, `UTC`, `GMT+0:00`, `UTC+8`, `+03`, `+0300`, `-07:00`, `JST` → minutes east of UTC. */
function parseZone(text: string): number | undefined {
  const m = /^(?:(utc|gmt|ut)\s*)?([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(text);
  if (m) {
    // A bare "+3"-style offset without UTC/GMT is ambiguous with a day; require two digits.
    if (!m[1] && (m[3] as string).length < 2) return undefined;
    const minutes = Number(m[3]) * 60 + Number(m[4] ?? 0);
    if (minutes > 14 * 60) return undefined; // RFC 3339 offsets stay within ±14 h in practice
    return m[2] === '-' ? -minutes : minutes;
  }
  return ZONES[text.toLowerCase()];
}
