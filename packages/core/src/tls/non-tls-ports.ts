/**
 * Well-known ports (IANA port registry) whose service does not speak TLS from the first byte:
 * a ClientHello there is at best wasted, at worst read as commands by a text protocol (Redis,
 * memcached), making netdiag a cross-protocol sender; so unless `allow_port` repeats the port.
 * @module
 */
import { InvalidInputError } from '../errors.js';

/** Port → what runs there, in words (the message of a refusal starts with it). */
export const NON_TLS_PORTS: ReadonlyMap<number, string> = new Map([
  [21, 'FTP, which starts in plain text and upgrades with AUTH TLS (RFC 4217); FTPS is 990'],
  [22, 'SSH, its own protocol (RFC 4253), not TLS'],
  [23, 'Telnet, plain text'],
  [25, 'SMTP, which starts in plain text and upgrades with STARTTLS (RFC 3207); SMTPS is 465'],
  [53, 'DNS; DNS over TLS is 853 (RFC 7858)'],
  [110, 'POP3, which starts in plain text and upgrades with STLS (RFC 2595); POP3S is 995'],
  [111, 'rpcbind (ONC RPC), not TLS'],
  [119, 'NNTP, which starts in plain text and upgrades with STARTTLS (RFC 4642); NNTPS is 563'],
  [135, 'Microsoft RPC, not TLS'],
  [139, 'NetBIOS session service, not TLS'],
  [
    143,
    'IMAP, which starts in plain text and upgrades with STARTTLS (RFC 9051 §6.2.1); IMAPS is 993',
  ],
  [389, 'LDAP, which upgrades with StartTLS (RFC 4511 §4.14); LDAPS is 636'],
  [445, 'SMB, not TLS'],
  [
    587,
    'mail submission (RFC 6409), which starts in plain text and upgrades with STARTTLS; implicit TLS is 465 (RFC 8314)',
  ],
  [1433, 'Microsoft SQL Server, which wraps TLS in its own TDS protocol'],
  [1521, 'the Oracle database listener, not TLS by default'],
  [2049, 'NFS, not TLS'],
  [2375, 'the Docker API without TLS; with TLS it is 2376'],
  [3306, 'MySQL, which upgrades to TLS inside its own protocol'],
  [3389, 'RDP, which negotiates TLS inside its own protocol'],
  [5432, 'PostgreSQL, which asks for TLS with its own SSLRequest message'],
  [5672, 'AMQP without TLS; AMQPS is 5671'],
  [5900, 'VNC (RFB), not TLS'],
  [6379, 'Redis, a text protocol, plain unless TLS is configured'],
  [11211, 'memcached, a text protocol, plain'],
  [27017, 'MongoDB, plain unless TLS is configured'],
]);

/**
 * Refuses a well-known non-TLS port unless `allowPort` names it; `allowPort` must repeat the
 * port when given at all, so that a stale value cannot open another port.
 */
export function checkTlsPort(port: number, allowPort: number | undefined): void {
  if (allowPort !== undefined && allowPort !== port) {
    throw new InvalidInputError(
      `allow_port=${allowPort} must repeat the port checked (port=${port})`,
      'allow_port',
    );
  }
  const service = NON_TLS_PORTS.get(port);
  if (service && allowPort !== port) {
    throw new InvalidInputError(
      `port ${port} is ${service}: netdiag sends no TLS handshake to a well-known non-TLS port unless asked; to check it anyway, add allow_port=${port}`,
      'port',
    );
  }
}
