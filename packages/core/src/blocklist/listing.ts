/**
 * The listing rule (CONTRACT §6): only A answers in 127.0.0.0/8 other than 127.0.0.1 and
 * 127.255.255.0/24 mean "listed". 127.0.0.1 is the RFC 5782 §5 address that no list may
 * contain; 127.255.255.0/24 is Spamhaus's range for errors about the query itself (news 788);
 * anything outside 127/8 comes from a resolver that rewrites NXDOMAIN (RFC 5782 §2.1 puts
 * answers in 127.0.0.0/8).
 * @module
 */
import { isIPv4 } from 'node:net';

/** True when `address` is a return code that means "listed". */
export function isListingCode(address: string): boolean {
  if (!isIPv4(address)) return false;
  if (!address.startsWith('127.')) return false;
  return address !== '127.0.0.1' && !address.startsWith('127.255.255.');
}

export type AnswerVerdict = 'listed' | 'not_listed' | 'error';

/**
 * The verdict for the A answers of one list: none → not listed; all listing codes → listed;
 * any other answer (an error code, a rewritten NXDOMAIN) → error, whatever else came with it.
 */
export function classifyAnswer(addresses: readonly string[]): AnswerVerdict {
  if (addresses.length === 0) return 'not_listed';
  return addresses.every(isListingCode) ? 'listed' : 'error';
}
