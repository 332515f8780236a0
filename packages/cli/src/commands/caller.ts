/**
 * `netdiag ip [address…]`, `netdiag score [address…]` and `netdiag breach <email…>`: the same
 * data as `GET /api/ip`, `/api/score` and `/api/breach`, from the terminal.
 * @module
 */
import {
  type BreachResult,
  type CallerAnswer,
  type Netdiag,
  requireIp,
  type ScoreAnswer,
} from '@netdiag/core/capabilities';
import { callCapability } from '../capability-call.js';
import { type CallContext, targetCommand, type Ui } from '../command.js';
import { gradeGate, gradeOption } from '../gates.js';
import { gradeColor } from '../output/color.js';
import type { RegisterCommand } from './types.js';

/**
 * The given address, or this machine's public one found through DNS (no web API). No HTTP
 * connection in the CLI, so SPEC 2.2's connection fields are "" (CONTRACT §2).
 */
async function target(
  engine: Netdiag,
  address: string | undefined,
  call: CallContext['call'],
): Promise<{ ip: string }> {
  if (address !== undefined) return { ip: requireIp(address, 'address').address };
  return { ip: await engine.myIp(call) };
}

const SELF = "this machine's public address";
const SCORE_GRADES = ['A', 'B', 'C', 'D'];

export const registerCaller: RegisterCommand = (program, ctx) => {
  targetCommand<CallerAnswer, object>(program, ctx, {
    name: 'ip',
    description:
      "geolocation, network and privacy score of an address (default: this machine's public address, found with a DNS query to OpenDNS, then Google)",
    operand: { name: 'address', help: 'IPv4 or IPv6 address', whenNone: SELF, words: true },
    run: async (engine, address, _flags, { call }) =>
      engine.caller(await target(engine, address, call), call),
    text: renderIp,
  });

  targetCommand<ScoreAnswer, { failUnder?: string }>(program, ctx, {
    name: 'score',
    description:
      "cleanliness score of an address with the evidence behind it (default: this machine's public address)",
    operand: { name: 'address', help: 'IPv4 or IPv6 address', whenNone: SELF, words: true },
    configure: (command) =>
      command.option(
        '--fail-under <grade>',
        'exit 5 when the grade is below this (A, B, C, D)',
        gradeOption(SCORE_GRADES),
      ),
    run: async (engine, address, _flags, { call }) =>
      engine.score(await target(engine, address, call), call),
    text: renderScore,
    rows: (data) =>
      data.privacy.evidence.length > 0
        ? data.privacy.evidence.map((e) => ({
            ip: data.ip,
            score: data.privacy.score,
            grade: data.privacy.grade,
            ...e,
          }))
        : [{ ip: data.ip, score: data.privacy.score, grade: data.privacy.grade }],
    gate: (data, flags) => gradeGate(`${data.ip}: privacy`, data.privacy.grade, flags.failUnder),
  });

  targetCommand<BreachResult, object>(program, ctx, {
    name: 'breach',
    description: 'check an email address against known data breaches (XposedOrNot)',
    operand: {
      name: 'email',
      help: 'the address to check; it is sent to the breach database, never logged',
      words: true,
    },
    run: (engine, email, _flags, { call }) =>
      callCapability<BreachResult>('checkBreach', engine, { email }, call),
    text: renderBreach,
    jobs: 1, // the breach API rate-limits per client
  });
};

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 'es'}`;
}

export function renderBreach(data: BreachResult, ui?: Ui): string {
  const c = ui?.c;
  if (data.breaches === 0) return `${data.email}: not found in any known breach`;
  const p = data.passwords;
  const found = `found in ${plural(data.breaches, 'breach')}`;
  return [
    `${data.email}: ${c ? c.red(found) : found} (risk ${data.risk.level}, ${data.risk.score}/100)`,
    `Services:  ${data.services.join(', ')}`,
    `Passwords: ${p.plain_text} plain text, ${p.weak_hash} weakly hashed, ${p.strong_hash} strongly hashed, ${p.unknown} unknown`,
  ].join('\n');
}

function joinKnown(parts: (string | undefined)[], separator = ', '): string {
  return parts.filter((p) => p !== undefined && p !== '').join(separator);
}

export function renderIp(data: CallerAnswer, ui?: Ui): string {
  const l = data.location;
  const place = joinKnown([
    l.city,
    l.region,
    l.country_name && l.country ? `${l.country_name} (${l.country})` : l.country,
  ]);
  const coordinates = l.latitude && l.longitude ? `${l.latitude}, ${l.longitude}` : '';
  const p = data.privacy;
  const grade = ui ? gradeColor(ui.c, p.grade) : p.grade;
  return [
    `${data.ip} (${data.ipv6 ? 'IPv6' : 'IPv4'}${data.bogon ? ', special-purpose address' : ''})`,
    `Location: ${joinKnown([place, coordinates, l.timezone], ' · ') || 'unknown'}${data.is_eu ? ' · EU' : ''}`,
    `Network:  ${joinKnown([data.network.asn === null ? '' : `AS${data.network.asn}`, data.network.isp], ' ') || 'unknown'}`,
    `Privacy:  ${p.type} · score ${p.score}/100 (grade ${grade})`,
  ].join('\n');
}

export function renderScore(data: ScoreAnswer, ui?: Ui): string {
  const p = data.privacy;
  const grade = ui ? gradeColor(ui.c, p.grade) : p.grade;
  const lines = [`${data.ip}: ${p.score}/100, grade ${grade} (${p.label}), type ${p.type}`];
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
