/**
 * One status vocabulary for both sources: WHOIS prints EPP codes (RFC 5731 §2.3, RGP codes of
 * RFC 3915 §3.1), RDAP prints their RFC 8056 §2 names. WHOIS codes are mapped to the RDAP
 * names so `status` means the same whichever source answered; registry-specific words that
 * have no RDAP name ("Registered", "Connected") are kept as printed.
 * @module
 */

/** RFC 9083 §10.2.2 and RFC 8056 §2 status values. */
const RDAP_STATUS = [
  'validated',
  'renew prohibited',
  'update prohibited',
  'transfer prohibited',
  'delete prohibited',
  'proxy',
  'private',
  'removed',
  'obscured',
  'associated',
  'active',
  'inactive',
  'locked',
  'pending create',
  'pending renew',
  'pending transfer',
  'pending update',
  'pending delete',
  'add period',
  'auto renew period',
  'renew period',
  'transfer period',
  'redemption period',
  'pending restore',
  'client delete prohibited',
  'client hold',
  'client renew prohibited',
  'client transfer prohibited',
  'client update prohibited',
  'server delete prohibited',
  'server hold',
  'server renew prohibited',
  'server transfer prohibited',
  'server update prohibited',
];

/** EPP names whose RFC 8056 mapping is not just the words of the name. */
const EPP_ALIASES: Record<string, string> = {
  ok: 'active', // RFC 8056 §2: ok → active
  linked: 'associated', // RFC 8056 §2: linked → associated
  autorenewperiod: 'auto renew period',
};

const BY_COMPACT = new Map(RDAP_STATUS.map((s) => [compact(s), s]));

/** The letters a-z of the lower-cased value (each run of others is one match, not one each). */
function compact(value: string): string {
  return value.toLowerCase().replace(/[^a-z]+/g, '');
}

/**
 * Maps one WHOIS status token to the RDAP name (`CLIENT_TRANSFER_PROHIBITED`, `ok` →
 * `client transfer prohibited`, `active`); anything else is returned trimmed.
 */
export function toRdapStatus(value: string): string {
  const trimmed = value.trim();
  // .gg/.je: "Delete Prohibited by Registrar" is clientDeleteProhibited (RFC 5731 §2.3:
  // client* codes are set by the sponsoring client, server* codes by the registry).
  const by = /^(\w+) prohibited by (registrar|registry)$/i.exec(trimmed);
  if (by) {
    const side = (by[2] as string).toLowerCase() === 'registrar' ? 'client' : 'server';
    const mapped = BY_COMPACT.get(compact(`${side} ${by[1]} prohibited`));
    if (mapped) return mapped;
  }
  const key = compact(trimmed);
  return EPP_ALIASES[key] ?? BY_COMPACT.get(key) ?? trimmed;
}
