/** Every command module, registered in help order. */
import { registerBulk } from './bulk.js';
import { registerCaller } from './caller.js';
import { registerCompletion } from './completion.js';
import { registerData } from './data.js';
import { registerDns } from './dns.js';
import { registerDnssec } from './dnssec.js';
import { registerEmailAuth } from './email-auth.js';
import { registerFeeds } from './feeds.js';
import { registerAsn } from './ip.js';
import { registerLookup } from './lookup.js';
import { registerMcp } from './mcp.js';
import { registerProbes } from './probes.js';
import { registerServe } from './serve.js';
import { registerTls } from './tls.js';
import type { RegisterCommand } from './types.js';
import { registerWhois } from './whois.js';

export const COMMANDS: RegisterCommand[] = [
  registerCaller,
  registerLookup,
  registerBulk,
  registerAsn,
  registerDns,
  registerDnssec,
  registerWhois,
  registerProbes,
  registerTls,
  registerEmailAuth,
  registerFeeds,
  registerData,
  registerServe,
  registerMcp,
  registerCompletion,
];
