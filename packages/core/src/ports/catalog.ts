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

export const PORT_CATALOG: readonly CatalogEntry[] = [
  {
    port: 21,
    service: 'ftp',
    level: 'medium',
    risk: 'FTP sends credentials in clear text; prefer SFTP or FTPS.',
  },
  {
    port: 22,
    service: 'ssh',
    level: 'low',
    risk: 'SSH is brute-forced constantly; allow keys only and consider an allow-list.',
  },
  {
    port: 23,
    service: 'telnet',
    level: 'high',
    risk: 'Telnet is unencrypted and a favourite botnet entry point; close it.',
  },
  {
    port: 25,
    service: 'smtp',
    level: 'low',
    risk: 'Mail relay: make sure it is not an open relay and offers STARTTLS.',
  },
  {
    port: 53,
    service: 'domain',
    level: 'medium',
    risk: 'DNS: an open recursive resolver is abused for amplification attacks.',
  },
  { port: 80, service: 'http', level: 'info', risk: 'Plain HTTP: should only redirect to HTTPS.' },
  {
    port: 81,
    service: 'hosts2-ns',
    level: 'low',
    risk: 'Often a camera or router web interface on an alternate HTTP port.',
  },
  {
    port: 88,
    service: 'kerberos-sec',
    level: 'high',
    risk: 'Kerberos KDC: a domain controller should not face the internet.',
  },
  {
    port: 110,
    service: 'pop3',
    level: 'medium',
    risk: 'POP3 without TLS exposes mailbox passwords; use 995.',
  },
  {
    port: 111,
    service: 'rpcbind',
    level: 'high',
    risk: 'RPC portmapper leaks service details and is used for DDoS amplification.',
  },
  {
    port: 113,
    service: 'ident',
    level: 'low',
    risk: 'Ident reveals which user owns a connection.',
  },
  {
    port: 135,
    service: 'msrpc',
    level: 'high',
    risk: 'Windows RPC endpoint mapper: a frequent worm target; block at the edge.',
  },
  {
    port: 139,
    service: 'netbios-ssn',
    level: 'high',
    risk: 'NetBIOS file sharing: leaks host names and shares; block at the edge.',
  },
  {
    port: 143,
    service: 'imap',
    level: 'medium',
    risk: 'IMAP without TLS exposes mailbox passwords; use 993.',
  },
  { port: 179, service: 'bgp', level: 'medium', risk: 'BGP should only accept configured peers.' },
  {
    port: 199,
    service: 'smux',
    level: 'medium',
    risk: 'SNMP multiplexer: management interfaces should not be public.',
  },
  {
    port: 389,
    service: 'ldap',
    level: 'high',
    risk: 'LDAP directory: leaks accounts and is abused for amplification (CLDAP).',
  },
  { port: 443, service: 'https', level: 'info', risk: 'HTTPS: expected on a web server.' },
  {
    port: 445,
    service: 'microsoft-ds',
    level: 'high',
    risk: 'SMB file sharing (WannaCry, EternalBlue); never expose it.',
  },
  { port: 465, service: 'smtps', level: 'info', risk: 'SMTP submission over implicit TLS.' },
  {
    port: 513,
    service: 'login',
    level: 'high',
    risk: 'rlogin trusts host names and sends everything in clear text.',
  },
  {
    port: 514,
    service: 'shell',
    level: 'high',
    risk: 'rsh executes commands without real authentication.',
  },
  {
    port: 515,
    service: 'printer',
    level: 'medium',
    risk: 'LPD print spooler: printers should not be reachable from the internet.',
  },
  {
    port: 548,
    service: 'afp',
    level: 'medium',
    risk: 'Apple file sharing: keep it on the local network.',
  },
  {
    port: 554,
    service: 'rtsp',
    level: 'medium',
    risk: 'RTSP video stream: often an IP camera with default credentials.',
  },
  {
    port: 587,
    service: 'submission',
    level: 'info',
    risk: 'Mail submission with STARTTLS and authentication.',
  },
  {
    port: 631,
    service: 'ipp',
    level: 'medium',
    risk: 'CUPS/IPP printing: recent CUPS flaws allow remote code execution.',
  },
  {
    port: 636,
    service: 'ldapssl',
    level: 'medium',
    risk: 'LDAP over TLS: a directory should still not face the internet.',
  },
  {
    port: 873,
    service: 'rsync',
    level: 'high',
    risk: 'rsync daemon: modules are often readable (or writable) without a password.',
  },
  { port: 990, service: 'ftps', level: 'low', risk: 'FTP over TLS.' },
  { port: 993, service: 'imaps', level: 'info', risk: 'IMAP over TLS.' },
  { port: 995, service: 'pop3s', level: 'info', risk: 'POP3 over TLS.' },
  {
    port: 1025,
    service: 'NFS-or-IIS',
    level: 'medium',
    risk: 'Dynamic RPC range on Windows: should not be public.',
  },
  {
    port: 1433,
    service: 'ms-sql-s',
    level: 'high',
    risk: 'Microsoft SQL Server: databases must not face the internet.',
  },
  {
    port: 1521,
    service: 'oracle',
    level: 'high',
    risk: 'Oracle database listener: databases must not face the internet.',
  },
  {
    port: 1723,
    service: 'pptp',
    level: 'medium',
    risk: 'PPTP VPN uses broken MS-CHAPv2 encryption; replace it.',
  },
  {
    port: 1883,
    service: 'mqtt',
    level: 'high',
    risk: 'MQTT broker: often anonymous, leaks and accepts IoT messages.',
  },
  { port: 2049, service: 'nfs', level: 'high', risk: 'NFS exports can expose whole file systems.' },
  {
    port: 2375,
    service: 'docker',
    level: 'high',
    risk: 'Docker API without TLS: anyone can run containers as root on this host.',
  },
  {
    port: 2376,
    service: 'docker-s',
    level: 'high',
    risk: 'Docker API over TLS: still a full host takeover if client certs leak.',
  },
  {
    port: 2379,
    service: 'etcd-client',
    level: 'high',
    risk: 'etcd holds cluster secrets (Kubernetes); never expose it.',
  },
  {
    port: 3000,
    service: 'ppp',
    level: 'low',
    risk: 'Common development server port (Node, Grafana): check what is behind it.',
  },
  {
    port: 3306,
    service: 'mysql',
    level: 'high',
    risk: 'MySQL/MariaDB: databases must not face the internet.',
  },
  {
    port: 3389,
    service: 'ms-wbt-server',
    level: 'high',
    risk: 'Remote Desktop: brute-forced and exploited (BlueKeep); put it behind a VPN.',
  },
  {
    port: 5000,
    service: 'upnp',
    level: 'medium',
    risk: 'UPnP or a development server: rarely meant to be public.',
  },
  {
    port: 5060,
    service: 'sip',
    level: 'medium',
    risk: 'SIP: toll fraud and scanning target; restrict to your provider.',
  },
  {
    port: 5432,
    service: 'postgresql',
    level: 'high',
    risk: 'PostgreSQL: databases must not face the internet.',
  },
  {
    port: 5601,
    service: 'kibana',
    level: 'high',
    risk: 'Kibana: exposes the Elasticsearch data behind it.',
  },
  {
    port: 5672,
    service: 'amqp',
    level: 'high',
    risk: 'RabbitMQ/AMQP broker: default guest accounts and message leaks.',
  },
  {
    port: 5900,
    service: 'vnc',
    level: 'high',
    risk: 'VNC remote desktop: weak or no passwords are common.',
  },
  {
    port: 5984,
    service: 'couchdb',
    level: 'high',
    risk: 'CouchDB HTTP API: admin-party installs are world-writable.',
  },
  {
    port: 6379,
    service: 'redis',
    level: 'high',
    risk: 'Redis has no authentication by default: data theft and remote code execution.',
  },
  {
    port: 6443,
    service: 'sun-sr-https',
    level: 'high',
    risk: 'Kubernetes API server: restrict to administrators.',
  },
  {
    port: 8000,
    service: 'http-alt',
    level: 'low',
    risk: 'Alternate HTTP port: often a development or admin server.',
  },
  { port: 8008, service: 'http', level: 'low', risk: 'Alternate HTTP port.' },
  {
    port: 8080,
    service: 'http-proxy',
    level: 'low',
    risk: 'Alternate HTTP port or an open proxy; check which.',
  },
  {
    port: 8081,
    service: 'blackice-icecap',
    level: 'low',
    risk: 'Alternate HTTP port: often an admin interface.',
  },
  {
    port: 8443,
    service: 'https-alt',
    level: 'low',
    risk: 'Alternate HTTPS port: often an admin interface.',
  },
  {
    port: 8888,
    service: 'sun-answerbook',
    level: 'low',
    risk: 'Alternate HTTP port (Jupyter, proxies): check what is behind it.',
  },
  {
    port: 9000,
    service: 'cslistener',
    level: 'medium',
    risk: 'Often PHP-FPM or a management UI, neither meant to be public.',
  },
  {
    port: 9042,
    service: 'cassandra',
    level: 'high',
    risk: 'Cassandra CQL: databases must not face the internet.',
  },
  {
    port: 9090,
    service: 'zeus-admin',
    level: 'medium',
    risk: 'Often Prometheus or an admin console.',
  },
  {
    port: 9200,
    service: 'wap-wsp',
    level: 'high',
    risk: 'Elasticsearch REST API: unauthenticated clusters leak whole databases.',
  },
  {
    port: 10000,
    service: 'snet-sensor-mgmt',
    level: 'medium',
    risk: 'Often Webmin: a root web shell if compromised.',
  },
  {
    port: 10250,
    service: 'kubelet',
    level: 'high',
    risk: 'Kubelet API: can run commands in every pod on the node.',
  },
  {
    port: 11211,
    service: 'memcache',
    level: 'high',
    risk: 'Memcached: no authentication, and a 50000x UDP amplifier.',
  },
  {
    port: 15672,
    service: 'rabbitmq-mgmt',
    level: 'high',
    risk: 'RabbitMQ management UI: default guest/guest credentials.',
  },
  {
    port: 27017,
    service: 'mongod',
    level: 'high',
    risk: 'MongoDB: unauthenticated instances are wiped and ransomed routinely.',
  },
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
