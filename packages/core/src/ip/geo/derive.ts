/**
 * Fields derived from a country code or coordinates when the geolocation data lacks them:
 * English country name, continent code, EU membership and IANA time zone.
 * @module
 */
import { createRequire } from 'node:module';

/**
 * Continent of every ISO 3166-1 alpha-2 code, using the seven codes of GeoNames'
 * countryInfo.txt (AF, AN, AS, EU, NA, OC, SA), which MaxMind's `continent.code` also uses.
 * Transcontinental countries follow GeoNames: RU, CY → EU; TR, GE, AM, AZ, KZ → AS; EG → AF;
 * PA → NA. XK (Kosovo) is a user-assigned code that geolocation databases use.
 */
const CONTINENT_COUNTRIES: Record<string, string> = {
  AF:
    'AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ' +
    'ML MR MU MW MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW',
  AN: 'AQ BV GS HM TF',
  AS:
    'AE AF AM AZ BD BH BN BT CC CN CX GE HK ID IL IN IO IQ IR JO JP KG KH KP KR KW KZ LA LB LK ' +
    'MM MN MO MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TR TW UZ VN YE',
  EU:
    'AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI ' +
    'LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA XK',
  NA:
    'AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI ' +
    'PA PM PR SV SX TC TT US VC VG VI',
  OC: 'AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV UM VU WF WS',
  SA: 'AR BO BR CL CO EC FK GF GY PE PY SR UY VE',
};

const CONTINENT_BY_COUNTRY = new Map<string, string>();
for (const [continent, list] of Object.entries(CONTINENT_COUNTRIES)) {
  for (const code of list.split(' ')) CONTINENT_BY_COUNTRY.set(code, continent);
}

/**
 * The 27 member states of the European Union since 1 February 2020 (United Kingdom withdrawn):
 * https://european-union.europa.eu/principles-countries-history/eu-countries_en
 */
const EU_MEMBERS: ReadonlySet<string> = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '),
);

/** Continent code (AF, AN, AS, EU, NA, OC, SA) of a country code, '' when unknown. */
export function continentOf(country: string): string {
  return CONTINENT_BY_COUNTRY.get(country) ?? '';
}

export function isEuCountry(country: string): boolean {
  return EU_MEMBERS.has(country);
}

/** Made on first use: creating it loads ICU's region names. */
let regionNames: Intl.DisplayNames | undefined;

/** English short name of an ISO 3166-1 alpha-2 code (ICU data via Intl.DisplayNames), or ''. */
export function countryName(country: string): string {
  if (!/^[A-Z]{2}$/.test(country)) return '';
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    return regionNames.of(country) ?? '';
  } catch {
    return '';
  }
}

type TzLookup = typeof import('@photostructure/tz-lookup');
/** Loaded on first use: DB-IP records carry their time zone, so most processes never need it. */
let tzlookup: TzLookup | undefined;

/**
 * IANA time zone at a point, from @photostructure/tz-lookup (a maintained CC0 fork of
 * tz-lookup with ~70 KB of boundary data; geo-tz would load ~100 MB). '' when the coordinates
 * are unusable.
 */
export function timezoneAt(latitude: number | null, longitude: number | null): string {
  if (latitude === null || longitude === null) return '';
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return '';
  try {
    tzlookup ??= createRequire(import.meta.url)('@photostructure/tz-lookup') as TzLookup;
    return tzlookup(latitude, longitude);
  } catch {
    return '';
  }
}

/**
 * Geolocation databases often store coordinates as 32-bit floats (DB-IP Lite does), which
 * print as 37.422000885009766. This returns the shortest decimal that is the same float32
 * (37.422); a value that is not a float32 (a double from a MaxMind database) is kept as is.
 */
export function tidyCoordinate(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (Math.fround(value) !== value) return value;
  // The fewest significant digits (1-9) that give the same float32, by bisection: once a digit
  // count works every larger one does (derive.test.ts checks it against a linear search).
  let lo = 1;
  let hi = 9;
  let best = value;
  while (lo <= hi) {
    const digits = (lo + hi) >>> 1;
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) {
      best = shorter;
      hi = digits - 1;
    } else lo = digits + 1;
  }
  return best;
}
