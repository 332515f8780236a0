/**
 * The data feeds pointed at a closed loopback port, as environment variables: a server made by a
 * test without feed URLs refreshes its feeds on schedule and must never ask the real ones.
 * @module
 */
export const LOOPBACK_FEED_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  [
    'NETDIAG_TOR_EXIT_LIST_URL',
    'NETDIAG_RELAY_RANGES_URL',
    'NETDIAG_VPN_EXITS_URL',
    'NETDIAG_CLOUD_RANGES_URL',
  ].map((name) => [name, `http://127.0.0.1:9/${name.toLowerCase()}`]),
);
