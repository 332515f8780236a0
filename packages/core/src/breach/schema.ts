/**
 * `GET /api/breach` (SPEC 2.6): the parameter as `normaliseEmail` accepts it, and the answer.
 * @module
 */
import { z } from 'zod';
import { HOSTNAME } from '../schemas/common.js';
import { parameters } from '../schemas/param.js';

/** RFC 5322 §3.2.3 atext. */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
/**
 * The everyday form `normaliseEmail` takes: a dot-atom local part of at most 64 characters
 * (RFC 5321 §4.5.3.1.1) and a host name with a TLD; 254 characters in all.
 */
const EMAIL = new RegExp(`^(?=[^@]{1,64}@)${ATEXT}+(?:\\.${ATEXT}+)*@${HOSTNAME}$`);

export const checkBreachParamsSchema = parameters({
  email: z
    .email({ pattern: EMAIL })
    .max(254)
    .describe('The address to check (RFC 5322 dot-atom local part, domain with a TLD).'),
});
export type CheckBreachParams = z.input<typeof checkBreachParamsSchema>;

const count = (description: string) => z.int().min(0).describe(description);

/** `GET /api/breach` data (SPEC 2.6). */
export const breachDataSchema = z.strictObject({
  email: z
    .string()
    .describe('The checked address, masked: first three characters, ***, @ and the domain'),
  status: z.enum(['checked']).describe('Always "checked" on success'),
  breaches: count('Number of breaches the address appears in'),
  services: z
    .array(z.string())
    .describe('Names of the breached services, most recently added first'),
  passwords: z
    .strictObject({
      plain_text: count('Breaches that exposed plain-text passwords (PlainText)'),
      weak_hash: count('Breaches with weakly hashed, easy-to-crack passwords (EasyToCrack)'),
      strong_hash: count('Breaches with strongly hashed passwords (StrongHash)'),
      unknown: count('Breaches whose password storage is unknown (Unknown)'),
      total: count('Sum of the four counts (one category per breach)'),
    })
    .describe('Password exposure per breach'),
  risk: z
    .strictObject({
      score: z
        .number()
        .min(0)
        .max(100)
        .describe('XposedOrNot risk score, 0–100 (0 when in no breach)'),
      level: z
        .string()
        .describe(
          'XposedOrNot risk label, lower case: low (≤25), moderate (≤50), high (≤75), critical',
        ),
    })
    .describe('Exposure risk as computed by XposedOrNot'),
});
export type BreachData = z.infer<typeof breachDataSchema>;
