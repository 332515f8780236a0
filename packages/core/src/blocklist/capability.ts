/**
 * `GET /api/blacklist` (SPEC 2.11, CONTRACT §6 statuses): 12 DNS blocklists.
 * @module
 */

import { defineCapability } from '../descriptor.js';
import { blacklistDataSchema, blacklistParamsSchema } from '../dns/schema.js';
import { DNSBL_ZONES } from './zones.js';

export const blacklist = defineCapability({
  id: 'blacklist',
  params: blacklistParamsSchema,
  data: blacklistDataSchema,
  limit: 'general',
  run: (engine, params, context) => engine.blacklist(params.ip, context),
  http: {
    method: 'get',
    path: '/api/blacklist',
    tag: 'DNS',
    summary: `Check an IP against ${DNSBL_ZONES.length} DNS blocklists`,
    description:
      `Lists: ${DNSBL_ZONES.map((z) => z.zone).join(', ')}. All are queried at once under one ` +
      '5 s deadline. Only A answers in 127.0.0.0/8 other than 127.0.0.1 and 127.255.255.0/24 ' +
      'count as listed; any other answer is `error` (counted in `unavailable_count`). A list ' +
      'that also lists the RFC 5782 control address 127.0.0.1 is reported as `error` (dead or ' +
      'wildcarded zone). IPv6 addresses are checked with nibble queries on the lists that ' +
      'support IPv6 and `skipped` elsewhere. Reserved addresses are accepted (127.0.0.2 is the ' +
      'RFC 5782 test point). Results are cached per IP for 10 minutes. Partial answers: the ' +
      'verdict covers only the lists that answered (`total_checked`); the others keep their ' +
      'entry with status `error` or `timeout` and are counted in `unavailable_count`, so ' +
      '`clean: true` means "none of the lists that answered lists the IP". When no list ' +
      'answered there is no verdict: 504 when every list timed out, else 502, with a message ' +
      'naming the lists and why each failed.',
    paramExamples: { ip: '127.0.0.2' },
    example: {
      ip: '127.0.0.2',
      total_lists: 12,
      total_checked: 11,
      unavailable_count: 1,
      skipped_count: 0,
      listed_count: 11,
      clean: false,
      status: 'LISTED',
      results: [
        {
          name: 'Spamhaus ZEN',
          zone: 'zen.spamhaus.org',
          listed: false,
          status: 'error',
          response: ['127.255.255.254'],
          reason: '',
          meaning: ['error: query via a public/open resolver (refused by Spamhaus)'],
        },
        {
          name: 'SpamCop',
          zone: 'bl.spamcop.net',
          listed: true,
          status: 'listed',
          response: ['127.0.0.2'],
          reason: 'Blocked - see https://www.spamcop.net/bl.shtml?127.0.0.2',
          meaning: ['listed: reported spam source'],
        },
      ],
    },
    errors: [400, 502, 504],
  },
  tool: {
    name: 'check_blacklist',
    title: 'Check DNS blocklists',
    description:
      'Whether an IP address is listed on 12 DNS blocklists (Spamhaus ZEN, SpamCop, Barracuda, …), ' +
      'per list with its return code. Same answer as GET /api/blacklist.',
    probe: false,
    openWorld: true,
  },
  cli: { command: 'blacklist', operand: 'ip' },
});
