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

/** `[port, service, level, risk]`, ascending. */
const ROWS: readonly [number, string, RiskLevel, string][] = [
  [21, 'ftp', 'medium', 'FTP sends credentials in clear text; prefer SFTP or FTPS.'],
  [22, 'ssh', 'low', 'SSH is brute-forced constantly; allow keys only and consider an allow-list.'],
  [23, 'telnet', 'high', 'Telnet is unencrypted and a favourite botnet entry point; close it.'],
  [25, 'smtp', 'low', 'Mail relay: make sure it is not an open relay and offers STARTTLS.'],
  [53, 'domain', 'medium', 'DNS: an open recursive resolver is abused for amplification attacks.'],
  [80, 'http', 'info', 'Plain HTTP: should only redirect to HTTPS.'],
  [81, 'hosts2-ns', 'low', 'Often a camera or router web interface on an alternate HTTP port.'],
  [88, 'kerberos-sec', 'high', 'Kerberos KDC: a domain controller should not face the internet.'],
  [110, 'pop3', 'medium', 'POP3 without TLS exposes mailbox passwords; use 995.'],
  [
    111,
    'rpcbind',
    'high',
    'RPC portmapper leaks service details and is used for DDoS amplification.',
  ],
  [113, 'ident', 'low', 'Ident reveals which user owns a connection.'],
  [135, 'msrpc', 'high', 'Windows RPC endpoint mapper: a frequent worm target; block at the edge.'],
  [
    139,
    'netbios-ssn',
    'high',
    'NetBIOS file sharing: leaks host names and shares; block at the edge.',
  ],
  [143, 'imap', 'medium', 'IMAP without TLS exposes mailbox passwords; use 993.'],
  [179, 'bgp', 'medium', 'BGP should only accept configured peers.'],
  [199, 'smux', 'medium', 'SNMP multiplexer: management interfaces should not be public.'],
  [389, 'ldap', 'high', 'LDAP directory: leaks accounts and is abused for amplification (CLDAP).'],
  [443, 'https', 'info', 'HTTPS: expected on a web server.'],
  [445, 'microsoft-ds', 'high', 'SMB file sharing (WannaCry, EternalBlue); never expose it.'],
  [465, 'smtps', 'info', 'SMTP submission over implicit TLS.'],
  [513, 'login', 'high', 'rlogin trusts host names and sends everything in clear text.'],
  [514, 'shell', 'high', 'rsh executes commands without real authentication.'],
  [
    515,
    'printer',
    'medium',
    'LPD print spooler: printers should not be reachable from the internet.',
  ],
  [548, 'afp', 'medium', 'Apple file sharing: keep it on the local network.'],
  [554, 'rtsp', 'medium', 'RTSP video stream: often an IP camera with default credentials.'],
  [587, 'submission', 'info', 'Mail submission with STARTTLS and authentication.'],
  [631, 'ipp', 'medium', 'CUPS/IPP printing: recent CUPS flaws allow remote code execution.'],
  [636, 'ldapssl', 'medium', 'LDAP over TLS: a directory should still not face the internet.'],
  [
    873,
    'rsync',
    'high',
    'rsync daemon: modules are often readable (or writable) without a password.',
  ],
  [990, 'ftps', 'low', 'FTP over TLS.'],
  [993, 'imaps', 'info', 'IMAP over TLS.'],
  [995, 'pop3s', 'info', 'POP3 over TLS.'],
  [1025, 'NFS-or-IIS', 'medium', 'Dynamic RPC range on Windows: should not be public.'],
  [1433, 'ms-sql-s', 'high', 'Microsoft SQL Server: databases must not face the internet.'],
  [1521, 'oracle', 'high', 'Oracle database listener: databases must not face the internet.'],
  [1723, 'pptp', 'medium', 'PPTP VPN uses broken MS-CHAPv2 encryption; replace it.'],
  [1883, 'mqtt', 'high', 'MQTT broker: often anonymous, leaks and accepts IoT messages.'],
  [2049, 'nfs', 'high', 'NFS exports can expose whole file systems.'],
  [
    2375,
    'docker',
    'high',
    'Docker API without TLS: anyone can run containers as root on this host.',
  ],
  [
    2376,
    'docker-s',
    'high',
    'Docker API over TLS: still a full host takeover if client certs leak.',
  ],
  [2379, 'etcd-client', 'high', 'etcd holds cluster secrets (Kubernetes); never expose it.'],
  [3000, 'ppp', 'low', 'Common development server port (Node, Grafana): check what is behind it.'],
  [3306, 'mysql', 'high', 'MySQL/MariaDB: databases must not face the internet.'],
  [
    3389,
    'ms-wbt-server',
    'high',
    'Remote Desktop: brute-forced and exploited (BlueKeep); put it behind a VPN.',
  ],
  [5000, 'upnp', 'medium', 'UPnP or a development server: rarely meant to be public.'],
  [5060, 'sip', 'medium', 'SIP: toll fraud and scanning target; restrict to your provider.'],
  [5432, 'postgresql', 'high', 'PostgreSQL: databases must not face the internet.'],
  [5601, 'kibana', 'high', 'Kibana: exposes the Elasticsearch data behind it.'],
  [5672, 'amqp', 'high', 'RabbitMQ/AMQP broker: default guest accounts and message leaks.'],
  [5900, 'vnc', 'high', 'VNC remote desktop: weak or no passwords are common.'],
  [5984, 'couchdb', 'high', 'CouchDB HTTP API: admin-party installs are world-writable.'],
  [
    6379,
    'redis',
    'high',
    'Redis has no authentication by default: data theft and remote code execution.',
  ],
  [6443, 'sun-sr-https', 'high', 'Kubernetes API server: restrict to administrators.'],
  [8000, 'http-alt', 'low', 'Alternate HTTP port: often a development or admin server.'],
  [8008, 'http', 'low', 'Alternate HTTP port.'],
  [8080, 'http-proxy', 'low', 'Alternate HTTP port or an open proxy; check which.'],
  [8081, 'blackice-icecap', 'low', 'Alternate HTTP port: often an admin interface.'],
  [8443, 'https-alt', 'low', 'Alternate HTTPS port: often an admin interface.'],
  [
    8888,
    'sun-answerbook',
    'low',
    'Alternate HTTP port (Jupyter, proxies): check what is behind it.',
  ],
  [9000, 'cslistener', 'medium', 'Often PHP-FPM or a management UI, neither meant to be public.'],
  [9042, 'cassandra', 'high', 'Cassandra CQL: databases must not face the internet.'],
  [9090, 'zeus-admin', 'medium', 'Often Prometheus or an admin console.'],
  [
    9200,
    'wap-wsp',
    'high',
    'Elasticsearch REST API: unauthenticated clusters leak whole databases.',
  ],
  [10000, 'snet-sensor-mgmt', 'medium', 'Often Webmin: a root web shell if compromised.'],
  [10250, 'kubelet', 'high', 'Kubelet API: can run commands in every pod on the node.'],
  [11211, 'memcache', 'high', 'Memcached: no authentication, and a 50000x UDP amplifier.'],
  [15672, 'rabbitmq-mgmt', 'high', 'RabbitMQ management UI: default guest/guest credentials.'],
  [27017, 'mongod', 'high', 'MongoDB: unauthenticated instances are wiped and ransomed routinely.'],
];

export const PORT_CATALOG: readonly CatalogEntry[] = ROWS.map(([port, service, level, risk]) => ({
  port,
  service,
  level,
  risk,
}));

const BY_PORT = new Map(PORT_CATALOG.map((entry) => [entry.port, entry]));

/** The catalog entry of a port, if it has one. */
export function catalogEntry(port: number): CatalogEntry | undefined {
  return BY_PORT.get(port);
}

/** The default port list: every catalog port, ascending. */
export function defaultPorts(): number[] {
  return PORT_CATALOG.map((entry) => entry.port).sort((a, b) => a - b);
}
