/**
 * The default port catalog: nmap's most frequently open TCP ports (the frequency column of
 * nmap-services, https://svn.nmap.org/nmap/nmap-services, as used by `nmap --top-ports`) plus
 * the services that nmap ranks low but that are dangerous when exposed to the internet
 * (databases, caches, brokers, container and cluster APIs). Each entry names the service and
 * says in one line why an open port matters. 100 entries at most, so the default scan fits
 * the API's per-request cap.
 * @module
 */
import type { z } from 'zod';
import type { portResultSchema } from './schema.js';

/** How worrying an open port is: a `risk_level` of the answer (`""` is outside the catalog). */
export type RiskLevel = Exclude<z.output<typeof portResultSchema>['risk_level'], ''>;

export interface CatalogEntry {
  port: number;
  /** Service name as in nmap-services / the IANA registry. */
  service: string;
  /** `high`: must never face the internet; `info`: expected on a public server. */
  level: RiskLevel;
  /** One line: what an open port means. */
  risk: string;
}

const entry = (port: number, service: string, level: RiskLevel, risk: string): CatalogEntry => ({
  port,
  service,
  level,
  risk,
});

export const PORT_CATALOG: readonly CatalogEntry[] = [
  entry(21, 'ftp', 'medium', 'FTP sends credentials in clear text; prefer SFTP or FTPS.'),
  entry(
    22,
    'ssh',
    'low',
    'SSH is brute-forced constantly; allow keys only and consider an allow-list.',
  ),
  entry(
    23,
    'telnet',
    'high',
    'Telnet is unencrypted and a favourite botnet entry point; close it.',
  ),
  entry(25, 'smtp', 'low', 'Mail relay: make sure it is not an open relay and offers STARTTLS.'),
  entry(
    53,
    'domain',
    'medium',
    'DNS: an open recursive resolver is abused for amplification attacks.',
  ),
  entry(80, 'http', 'info', 'Plain HTTP: should only redirect to HTTPS.'),
  entry(
    81,
    'hosts2-ns',
    'low',
    'Often a camera or router web interface on an alternate HTTP port.',
  ),
  entry(
    88,
    'kerberos-sec',
    'high',
    'Kerberos KDC: a domain controller should not face the internet.',
  ),
  entry(110, 'pop3', 'medium', 'POP3 without TLS exposes mailbox passwords; use 995.'),
  entry(
    111,
    'rpcbind',
    'high',
    'RPC portmapper leaks service details and is used for DDoS amplification.',
  ),
  entry(113, 'ident', 'low', 'Ident reveals which user owns a connection.'),
  entry(
    135,
    'msrpc',
    'high',
    'Windows RPC endpoint mapper: a frequent worm target; block at the edge.',
  ),
  entry(
    139,
    'netbios-ssn',
    'high',
    'NetBIOS file sharing: leaks host names and shares; block at the edge.',
  ),
  entry(143, 'imap', 'medium', 'IMAP without TLS exposes mailbox passwords; use 993.'),
  entry(179, 'bgp', 'medium', 'BGP should only accept configured peers.'),
  entry(199, 'smux', 'medium', 'SNMP multiplexer: management interfaces should not be public.'),
  entry(
    389,
    'ldap',
    'high',
    'LDAP directory: leaks accounts and is abused for amplification (CLDAP).',
  ),
  entry(443, 'https', 'info', 'HTTPS: expected on a web server.'),
  entry(445, 'microsoft-ds', 'high', 'SMB file sharing (WannaCry, EternalBlue); never expose it.'),
  entry(465, 'smtps', 'info', 'SMTP submission over implicit TLS.'),
  entry(513, 'login', 'high', 'rlogin trusts host names and sends everything in clear text.'),
  entry(514, 'shell', 'high', 'rsh executes commands without real authentication.'),
  entry(
    515,
    'printer',
    'medium',
    'LPD print spooler: printers should not be reachable from the internet.',
  ),
  entry(548, 'afp', 'medium', 'Apple file sharing: keep it on the local network.'),
  entry(554, 'rtsp', 'medium', 'RTSP video stream: often an IP camera with default credentials.'),
  entry(587, 'submission', 'info', 'Mail submission with STARTTLS and authentication.'),
  entry(631, 'ipp', 'medium', 'CUPS/IPP printing: recent CUPS flaws allow remote code execution.'),
  entry(636, 'ldapssl', 'medium', 'LDAP over TLS: a directory should still not face the internet.'),
  entry(
    873,
    'rsync',
    'high',
    'rsync daemon: modules are often readable (or writable) without a password.',
  ),
  entry(990, 'ftps', 'low', 'FTP over TLS.'),
  entry(993, 'imaps', 'info', 'IMAP over TLS.'),
  entry(995, 'pop3s', 'info', 'POP3 over TLS.'),
  entry(1025, 'NFS-or-IIS', 'medium', 'Dynamic RPC range on Windows: should not be public.'),
  entry(1433, 'ms-sql-s', 'high', 'Microsoft SQL Server: databases must not face the internet.'),
  entry(1521, 'oracle', 'high', 'Oracle database listener: databases must not face the internet.'),
  entry(1723, 'pptp', 'medium', 'PPTP VPN uses broken MS-CHAPv2 encryption; replace it.'),
  entry(1883, 'mqtt', 'high', 'MQTT broker: often anonymous, leaks and accepts IoT messages.'),
  entry(2049, 'nfs', 'high', 'NFS exports can expose whole file systems.'),
  entry(
    2375,
    'docker',
    'high',
    'Docker API without TLS: anyone can run containers as root on this host.',
  ),
  entry(
    2376,
    'docker-s',
    'high',
    'Docker API over TLS: still a full host takeover if client certs leak.',
  ),
  entry(2379, 'etcd-client', 'high', 'etcd holds cluster secrets (Kubernetes); never expose it.'),
  entry(
    3000,
    'ppp',
    'low',
    'Common development server port (Node, Grafana): check what is behind it.',
  ),
  entry(3306, 'mysql', 'high', 'MySQL/MariaDB: databases must not face the internet.'),
  entry(
    3389,
    'ms-wbt-server',
    'high',
    'Remote Desktop: brute-forced and exploited (BlueKeep); put it behind a VPN.',
  ),
  entry(5000, 'upnp', 'medium', 'UPnP or a development server: rarely meant to be public.'),
  entry(5060, 'sip', 'medium', 'SIP: toll fraud and scanning target; restrict to your provider.'),
  entry(5432, 'postgresql', 'high', 'PostgreSQL: databases must not face the internet.'),
  entry(5601, 'kibana', 'high', 'Kibana: exposes the Elasticsearch data behind it.'),
  entry(5672, 'amqp', 'high', 'RabbitMQ/AMQP broker: default guest accounts and message leaks.'),
  entry(5900, 'vnc', 'high', 'VNC remote desktop: weak or no passwords are common.'),
  entry(5984, 'couchdb', 'high', 'CouchDB HTTP API: admin-party installs are world-writable.'),
  entry(
    6379,
    'redis',
    'high',
    'Redis has no authentication by default: data theft and remote code execution.',
  ),
  entry(6443, 'sun-sr-https', 'high', 'Kubernetes API server: restrict to administrators.'),
  entry(8000, 'http-alt', 'low', 'Alternate HTTP port: often a development or admin server.'),
  entry(8008, 'http', 'low', 'Alternate HTTP port.'),
  entry(8080, 'http-proxy', 'low', 'Alternate HTTP port or an open proxy; check which.'),
  entry(8081, 'blackice-icecap', 'low', 'Alternate HTTP port: often an admin interface.'),
  entry(8443, 'https-alt', 'low', 'Alternate HTTPS port: often an admin interface.'),
  entry(
    8888,
    'sun-answerbook',
    'low',
    'Alternate HTTP port (Jupyter, proxies): check what is behind it.',
  ),
  entry(
    9000,
    'cslistener',
    'medium',
    'Often PHP-FPM or a management UI, neither meant to be public.',
  ),
  entry(9042, 'cassandra', 'high', 'Cassandra CQL: databases must not face the internet.'),
  entry(9090, 'zeus-admin', 'medium', 'Often Prometheus or an admin console.'),
  entry(
    9200,
    'wap-wsp',
    'high',
    'Elasticsearch REST API: unauthenticated clusters leak whole databases.',
  ),
  entry(10000, 'snet-sensor-mgmt', 'medium', 'Often Webmin: a root web shell if compromised.'),
  entry(10250, 'kubelet', 'high', 'Kubelet API: can run commands in every pod on the node.'),
  entry(11211, 'memcache', 'high', 'Memcached: no authentication, and a 50000x UDP amplifier.'),
  entry(15672, 'rabbitmq-mgmt', 'high', 'RabbitMQ management UI: default guest/guest credentials.'),
  entry(
    27017,
    'mongod',
    'high',
    'MongoDB: unauthenticated instances are wiped and ransomed routinely.',
  ),
];

const BY_PORT = new Map(PORT_CATALOG.map((entry) => [entry.port, entry]));

/** The catalog entry of a port, if it has one. */
export function catalogEntry(port: number): CatalogEntry | undefined {
  return BY_PORT.get(port);
}

/** The default port list: every catalog port, ascending. */
export function defaultPorts(): number[] {
  return PORT_CATALOG.map((entry) => entry.port).sort((a, b) => a - b);
}
