/** What every probe route says about the SSRF guard (CONTRACT §4). */
export const GUARD =
  'The target is resolved once with the netdiag resolver; if ANY address is private, reserved ' +
  'or internal (IANA special-purpose registries, every IPv4/IPv6 literal form, IPv4-mapped, ' +
  'NAT64 and 6to4 included) the answer is 403 "Target not allowed: …" with the reason. ' +
  'Connections go only to the checked address (no second lookup); every redirect hop is ' +
  'checked again (at most 5); bodies are read up to 1 MiB; connect 5 s, total 10 s. ' +
  'NETDIAG_ALLOWED_TARGETS exempts ranges.';
