/**
 * jCard (RFC 7095), the JSON form of vCard 4.0 (RFC 6350) that RDAP uses for contacts
 * (RFC 9083 §5.1 `vcardArray`). Strict: a malformed card is rejected with `JCardError`
 * rather than half-read, because a half-read card silently yields wrong names.
 * @module
 */
import { InvalidInputError } from '../errors.js';

/** A scalar jCard value (RFC 7095 §3.4–3.5: text, booleans, numbers; `null` is tolerated). */
export type JCardScalar = string | number | boolean | null;

/** A scalar, or a structured value (RFC 7095 §3.3.1.3) of scalars or arrays of scalars. */
export type JCardValue = JCardScalar | (JCardScalar | JCardScalar[])[];

export interface VCardProperty {
  /** Property name, lower case (RFC 7095 §3.3.1.1). */
  name: string;
  /** Parameters, names lower case, every value as a list (RFC 7095 §3.4). */
  parameters: Record<string, string[]>;
  /** Value type (`text`, `uri`, `date-and-or-time`, …). */
  type: string;
  /** The value; several values (RFC 7095 §3.3.1.4) as an array in the order given. */
  value: JCardValue | JCardValue[];
}

export interface VCard {
  properties: VCardProperty[];
}

/** A jCard that is not one (RFC 7095); an `InvalidInputError`. */
export class JCardError extends InvalidInputError {
  override name = 'JCardError';
}

/** Parses a jCard, `["vcard", [[name, {parameters}, type, value, …], …]]` or its JSON text. */
export function parseJCard(input: unknown): VCard {
  let card = input;
  if (typeof card === 'string') {
    try {
      card = JSON.parse(card);
    } catch (error) {
      throw new JCardError(`not valid JSON: ${(error as Error).message}`);
    }
  }
  if (!Array.isArray(card) || card.length !== 2) {
    throw new JCardError('a jCard is a two-element array ["vcard", [properties]]');
  }
  if (card[0] !== 'vcard') throw new JCardError(`expected the label "vcard", got ${show(card[0])}`);
  const list: unknown = card[1];
  if (!Array.isArray(list)) throw new JCardError('the properties of a jCard must be an array');
  const properties = list.map((raw, index) => {
    try {
      return parseProperty(raw);
    } catch (error) {
      throw new JCardError(`property ${index}: ${(error as Error).message}`);
    }
  });
  return { properties };
}

function parseProperty(raw: unknown): VCardProperty {
  if (!Array.isArray(raw)) throw new JCardError('a property must be an array');
  if (raw.length < 4) {
    throw new JCardError('a property has at least a name, parameters, a type and a value');
  }
  const [name, params, type, ...values] = raw as unknown[];
  if (typeof name !== 'string' || name === '') {
    throw new JCardError(`property name must be text, got ${show(name)}`);
  }
  if (typeof type !== 'string' || type === '') {
    throw new JCardError(`value type must be text, got ${show(type)}`);
  }
  const parameters = parseParameters(params);
  const parsed = values.map(checkValue);
  return {
    name: name.toLowerCase(),
    parameters,
    type: type.toLowerCase(),
    value: parsed.length === 1 ? (parsed[0] as JCardValue) : parsed,
  };
}

function parseParameters(params: unknown): Record<string, string[]> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new JCardError(`parameters must be an object, got ${show(params)}`);
  }
  const out: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(params)) {
    const list = Array.isArray(value) ? value : [value];
    if (!list.every((item) => typeof item === 'string')) {
      throw new JCardError(`parameter "${key}" must be text or a list of text`);
    }
    out[key.toLowerCase()] = list as string[];
  }
  return out;
}

const isScalar = (value: unknown): value is JCardScalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** A value is a scalar or one level of components, each a scalar or a list of scalars. */
function checkValue(value: unknown): JCardValue {
  if (isScalar(value)) return value;
  if (!Array.isArray(value)) throw new JCardError(`unsupported value ${show(value)}`);
  for (const component of value) {
    if (isScalar(component)) continue;
    if (Array.isArray(component) && component.every(isScalar)) continue;
    throw new JCardError('structured values nest at most two levels (RFC 7095 §3.3.1.3)');
  }
  return value as JCardValue;
}

/** Every scalar of a value as text, in order (`null` → "", booleans and numbers stringified). */
export function flattenValue(value: JCardValue | JCardValue[]): string[] {
  return Array.isArray(value)
    ? value.flatMap((item) => flattenValue(item as JCardValue))
    : [scalarText(value)];
}

const scalarText = (value: JCardScalar) => (value === null ? '' : String(value));

/** The properties with a given name (case-insensitive), in order. */
export function getProperties(card: VCard, name: string): VCardProperty[] {
  const wanted = name.toLowerCase();
  return card.properties.filter((p) => p.name === wanted);
}

/** The first value of a property as text, or "" when absent. */
export function getText(card: VCard, name: string): string {
  const property = getProperties(card, name)[0];
  return property ? flattenValue(property.value).join(' ').trim() : '';
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.slice(0, 40);
}
