/**
 * `netdiag ip [address]`, `netdiag score [address]` and `netdiag breach <email>`: the same data
 * as `GET /api/ip`, `/api/score` and `/api/breach`, from the terminal.
 * @module
 */
import {
  type BreachResult,
  type CallerAnswer,
  type Netdiag,
  requireIp,
  type ScoreAnswer,
} from '@netdiag/core';
import { withEngine } from '../context.js';
import { output } from '../io.js';
import type { RegisterCommand } from './types.js';

/**
 * The given address, or this machine's public one found through DNS (no web API). No HTTP
 * connection in the CLI, so SPEC 2.2's connection fields are "" (CONTRACT §2).
 */
async function target(engine: Netdiag, address: string | undefined): Promise<{ ip: string }> {
  if (address !== undefined) return { ip: requireIp(address, 'address').address };
  return { ip: await engine.myIp() };
}

export const registerCaller: RegisterCommand = (program, { io }) => {
  program
    .command('ip')
    .description(
      "geolocation, network and privacy score of an address (default: this machine's public address, found with a DNS query to OpenDNS, then Google)",
    )
    .argument('[address]', 'IPv4 or IPv6 address')
    .option('--json', 'print the API data object (GET /api/ip)')
    .action(async (address: string | undefined, opts: { json?: boolean }) => {
      const data = await withEngine(io, async (engine) =>
        engine.caller(await target(engine, address)),
      );
      output(io, opts.json === true, data, renderIp);
    });

  program
    .command('score')
    .description(
      "cleanliness score of an address with the evidence behind it (default: this machine's public address)",
    )
    .argument('[address]', 'IPv4 or IPv6 address')
    .option('--json', 'print the API data object (GET /api/score)')
    .action(async (address: string | undefined, opts: { json?: boolean }) => {
      const data = await withEngine(io, async (engine) =>
        engine.score(await target(engine, address)),
      );
      output(io, opts.json === true, data, renderScore);
    });

  program
    .command('breach')
    .description('check an email address against known data breaches (XposedOrNot)')
    .argument('<email>', 'the address to check; it is sent to the breach database, never logged')
    .option('--json', 'print the API data object')
    .action(async (email: string, opts: { json?: boolean }) => {
      const data = await withEngine(io, (engine) => engine.breach(email));
      output(io, opts.json === true, data, renderBreach);
    });
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 'es'}`;
}

export function renderBreach(data: BreachResult): string {
  if (data.breaches === 0) return `${data.email}: not found in any known breach`;
  const p = data.passwords;
  return [
    `${data.email}: found in ${plural(data.breaches, 'breach')} (risk ${data.risk.level}, ${data.risk.score}/100)`,
    `Services:  ${data.services.join(', ')}`,
    `Passwords: ${p.plain_text} plain text, ${p.weak_hash} weakly hashed, ${p.strong_hash} strongly hashed, ${p.unknown} unknown`,
  ].join('\n');
}

type IpData = CallerAnswer;
type ScoreData = ScoreAnswer;

function joinKnown(parts: (string | undefined)[], separator = ', '): string {
  return parts.filter((p) => p !== undefined && p !== '').join(separator);
}

export function renderIp(data: IpData): string {
  const l = data.location;
  const place = joinKnown([
    l.city,
    l.region,
    l.country_name && l.country ? `${l.country_name} (${l.country})` : l.country,
  ]);
  const coordinates = l.latitude && l.longitude ? `${l.latitude}, ${l.longitude}` : '';
  const p = data.privacy;
  return [
    `${data.ip} (${data.ipv6 ? 'IPv6' : 'IPv4'}${data.bogon ? ', special-purpose address' : ''})`,
    `Location: ${joinKnown([place, coordinates, l.timezone], ' · ') || 'unknown'}${data.is_eu ? ' · EU' : ''}`,
    `Network:  ${joinKnown([data.network.asn === null ? '' : `AS${data.network.asn}`, data.network.isp], ' ') || 'unknown'}`,
    `Privacy:  ${p.type} · score ${p.score}/100 (grade ${p.grade})`,
  ].join('\n');
}

export function renderScore(data: ScoreData): string {
  const p = data.privacy;
  const lines = [`${data.ip}: ${p.score}/100, grade ${p.grade} (${p.label}), type ${p.type}`];
  if (p.flags.length > 0) lines.push(`Flags: ${p.flags.join(', ')}`);
  if (p.evidence.length > 0) {
    lines.push('Evidence:');
    for (const e of p.evidence) {
      const weight = e.weight === 0 ? '   0' : String(e.weight).padStart(4);
      lines.push(`  ${weight}  ${e.detail} (${e.source})`);
    }
  } else {
    lines.push('Evidence: nothing lowered the score');
  }
  return lines.join('\n');
}
