/**
 * The 12 DNSBLs `/api/blacklist` queries (SPEC §8), each with its zone, whether it answers
 * IPv6 (nibble) queries, and what its return codes mean. Every fact names its source. Dead
 * zones are never listed here: a dead zone that is later wildcarded lists the whole internet
 * (SORBS closed in 2024, NiX Spam in 2025). The RFC 5782 §5 control query in
 * `check-blacklist.ts` also catches a zone that starts answering everything.
 * @module
 */

export interface DnsblZone {
  /** Display name. */
  name: string;
  /** DNS zone queried (`<reversed ip>.<zone>`). */
  zone: string;
  /** Answers RFC 5782 §2.4 nibble queries for IPv6 addresses. */
  ipv6: boolean;
  /** Meaning of each A answer (return code); codes not listed fall back to `defaultMeaning`. */
  codes: Readonly<Record<string, string>>;
  /** Meaning of a listing code absent from `codes`. */
  defaultMeaning: string;
  /** Where a listed address can be looked up or delisted. */
  lookupUrl: string;
}

/**
 * Spamhaus answers in 127.255.255.0/24 about the query itself, never about the address
 * (https://www.spamhaus.org/news/article/788/, corpus dnsbl-facts.json `spamhaus.rules`).
 */
export const SPAMHAUS_ERROR_CODES: Readonly<Record<string, string>> = {
  '127.255.255.252': 'error: typing error in the DNSBL zone name',
  '127.255.255.254': 'error: query via a public/open resolver (refused by Spamhaus)',
  '127.255.255.255': 'error: excessive number of queries',
};

export const DNSBL_ZONES: readonly DnsblZone[] = [
  {
    name: 'Spamhaus ZEN',
    zone: 'zen.spamhaus.org',
    // IPv6: rspamd conf/modules.d/rbl.conf sets `ipv6 = true` for zen.spamhaus.org.
    ipv6: true,
    // Codes: https://docs.spamhaus.com/datasets/docs/source/10-data-type-documentation/datasets/040-zones.html
    codes: {
      '127.0.0.2': 'SBL: Spamhaus Blocklist',
      '127.0.0.3': 'CSS: automated SBL component (snowshoe)',
      '127.0.0.4': 'XBL: exploited or infected host',
      '127.0.0.5': 'XBL (currently unused code)',
      '127.0.0.6': 'XBL (currently unused code)',
      '127.0.0.7': 'XBL (currently unused code)',
      '127.0.0.9': 'DROP: do not route or peer',
      '127.0.0.10': 'PBL: policy block list, maintained by the ISP',
      '127.0.0.11': 'PBL: policy block list, maintained by Spamhaus',
      '127.0.0.30': 'BCL: botnet controller list',
      ...SPAMHAUS_ERROR_CODES,
    },
    defaultMeaning: 'listed by Spamhaus',
    lookupUrl: 'https://check.spamhaus.org/',
  },
  {
    name: 'SpamCop',
    zone: 'bl.spamcop.net',
    // 127.0.0.2 per https://www.spamcop.net/fom-serve/cache/291.html; no IPv6 zone is
    // documented there, so IPv6 addresses are skipped.
    ipv6: false,
    codes: { '127.0.0.2': 'listed: reported spam source' },
    defaultMeaning: 'listed by SpamCop',
    lookupUrl: 'https://www.spamcop.net/bl.shtml',
  },
  {
    name: 'Barracuda',
    zone: 'b.barracudacentral.org',
    // 127.0.0.2 per https://www.barracudacentral.org/rbl/how-to-use (queries must come from a
    // registered resolver); IPv4 only there.
    ipv6: false,
    codes: { '127.0.0.2': 'listed: poor sending reputation' },
    defaultMeaning: 'listed by Barracuda',
    lookupUrl: 'https://www.barracudacentral.org/lookups',
  },
  {
    name: 'UCEPROTECT Level 1',
    zone: 'dnsbl-1.uceprotect.net',
    // Level 1 lists single IPv4 addresses, answer 127.0.0.2
    // (https://www.uceprotect.net/en/index.php?m=6&s=11); no IPv6 zone.
    ipv6: false,
    codes: { '127.0.0.2': 'listed: spam trap hits from this address' },
    defaultMeaning: 'listed by UCEPROTECT',
    lookupUrl: 'https://www.uceprotect.net/en/rblcheck.php',
  },
  {
    name: 'PSBL',
    zone: 'psbl.surriel.com',
    // Passive Spam Block List, 127.0.0.2 (https://psbl.org/); IPv4 only.
    ipv6: false,
    codes: { '127.0.0.2': 'listed: spam trap hits' },
    defaultMeaning: 'listed by PSBL',
    lookupUrl: 'https://psbl.org/',
  },
  {
    name: 'Mailspike Z',
    zone: 'z.mailspike.net',
    // The zero-hour zone lists IPs seen in a live spam wave, 127.0.0.2
    // (https://mxtoolbox.com/problem/blacklist/mailspike-bl; reputation codes 127.0.0.10–12
    // from rspamd conf/modules.d/rbl.conf for bl.mailspike.net). No IPv6 zone documented.
    ipv6: false,
    codes: {
      '127.0.0.2': 'listed: part of a current spam wave',
      '127.0.0.10': 'listed: worst reputation',
      '127.0.0.11': 'listed: very bad reputation',
      '127.0.0.12': 'listed: bad reputation',
    },
    defaultMeaning: 'listed by Mailspike',
    lookupUrl: 'https://mailspike.org/iplookup.html',
  },
  {
    name: 'DroneBL',
    zone: 'dnsbl.dronebl.org',
    // Class codes from https://dronebl.org/classes (A answer 127.0.0.<class>, per
    // https://dronebl.org/docs/howtouse); IPv6 listing is not documented there.
    ipv6: false,
    codes: {
      '127.0.0.3': 'IRC drone',
      '127.0.0.5': 'bottler',
      '127.0.0.6': 'unknown spambot or drone',
      '127.0.0.7': 'DDoS drone',
      '127.0.0.8': 'SOCKS proxy',
      '127.0.0.9': 'HTTP proxy',
      '127.0.0.10': 'proxy chain',
      '127.0.0.11': 'web page proxy',
      '127.0.0.12': 'open DNS resolver',
      '127.0.0.13': 'brute-force attacker',
      '127.0.0.14': 'open WinGate proxy',
      '127.0.0.15': 'compromised router or gateway',
      '127.0.0.16': 'autorooting worm',
      '127.0.0.17': 'automatically detected botnet IP',
      '127.0.0.18': 'DNS/MX type hostname detected on IRC',
      '127.0.0.19': 'abused VPN service',
      '127.0.0.255': 'uncategorized threat',
    },
    defaultMeaning: 'listed by DroneBL',
    lookupUrl: 'https://dronebl.org/lookup',
  },
  {
    name: 'blocklist.de',
    zone: 'bl.blocklist.de',
    // Attack reports (fail2ban and similar), 127.0.0.2 (https://www.blocklist.de/en/rbldns.html);
    // IPv6: rspamd conf/modules.d/rbl.conf sets `ipv6 = true` for bl.blocklist.de.
    ipv6: true,
    codes: { '127.0.0.2': 'listed: reported attacks (SSH, mail, web, …)' },
    defaultMeaning: 'listed by blocklist.de',
    lookupUrl: 'https://www.blocklist.de/en/search.html',
  },
  {
    name: 's5h.net',
    zone: 'all.s5h.net',
    // "all.s5h.net is the single public zone for query and supports both IPv4 and IPv6
    // lookups" (https://whatismyipaddress.com/blacklist/s5h; RFC 5782 compliant per
    // http://www.s5h.net/rblcheck).
    ipv6: true,
    codes: { '127.0.0.2': 'listed: spam or abusive HTTP requests seen' },
    defaultMeaning: 'listed by s5h.net',
    lookupUrl: 'https://www.usenix.org.uk/content/rbl.html',
  },
  {
    name: 'SpamRATS Spam',
    zone: 'spam.spamrats.com',
    // RATS-Spam answers 127.0.0.38 (RATS-Dyna .36, RATS-NoPtr .37 are separate zones;
    // https://www.spamrats.com/lists.php). No IPv6 zone documented.
    ipv6: false,
    codes: { '127.0.0.38': 'RATS-Spam: address shown to send abusive mail' },
    defaultMeaning: 'listed by SpamRATS',
    lookupUrl: 'https://www.spamrats.com/lookup.php',
  },
  {
    name: '0spam',
    zone: 'bl.0spam.org',
    // "an IP will be listed in the 0spam dnsbl (bl.0spam.org) with the data code of 127.0.0.#"
    // (https://0spam.org/how-does-the-0spam-service-work); no IPv6 zone documented.
    ipv6: false,
    codes: { '127.0.0.2': 'listed: spam trap hits' },
    defaultMeaning: 'listed by 0spam (spam trap hits)',
    lookupUrl: 'https://0spam.org/',
  },
  {
    name: 'ZapBL',
    zone: 'dnsbl.zapbl.net',
    // IPv4 only, a listing answers 127.0.0.2 (https://www.suped.com/blocklists/zapbl-dnsbl,
    // policy at https://glockapps.com/blacklist/dnsbl-zapbl-net/). One third party reports it
    // discontinued (https://helohub.com/rbl-detail/zapbl): the control query guards against a
    // wildcarded zone, and a dead one shows up as `error`/`timeout`, never as a listing.
    ipv6: false,
    codes: { '127.0.0.2': 'listed: spam received by ZapBL admins or traps' },
    defaultMeaning: 'listed by ZapBL',
    lookupUrl: 'https://zapbl.net/',
  },
];
