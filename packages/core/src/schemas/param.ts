/**
 * Parameters as every face reads them. Each schema is made from its documented form (what the
 * OpenAPI document and MCP tool list publish) and parses by one text rule (present once, text,
 * at most 2048 characters, in the words of `PARAM_FORMS`); the capability checks the meaning
 * after. `parseParams` is the one entry for HTTP, MCP and the CLI alike.
 * @module
 */
import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { MAX_PARAM_LENGTH, PARAM_FORMS, type ParamName } from '../params.js';

/** The documented form of a parsing schema, for `toJsonSchema` (json-schema.ts). */
export const documentedForms = new WeakMap<object, unknown>();

function messages(name: ParamName) {
  const form = PARAM_FORMS[name];
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? `Missing required parameter "${name}": ${form}`
        : Array.isArray(issue.input)
          ? `"${name}" must be given once, as ${form}`
          : `"${name}" must be text: ${form}`,
  };
}

/** Required unless the form admits no value (`.optional()`, `.default()`). */
function isRequired(form: z.ZodType): boolean {
  return !form.safeParse(undefined).success;
}

function documented<T extends z.ZodType>(schema: T, form: z.ZodType): T {
  const described: z.ZodType = form.description ? schema.describe(form.description) : schema;
  documentedForms.set(described, form);
  return described as T;
}

function text(name: ParamName) {
  return z
    .string(messages(name))
    .max(MAX_PARAM_LENGTH, `"${name}" is too long (at most ${MAX_PARAM_LENGTH} characters)`);
}

/** A text parameter documented as `form`; the capability reads its meaning. */
export function textParameter<F extends z.ZodType>(name: ParamName, form: F) {
  const schema = documented(text(name), form);
  return (isRequired(form) ? schema : schema.optional()) as F extends z.ZodOptional | z.ZodDefault
    ? z.ZodOptional<z.ZodString>
    : z.ZodString;
}

/**
 * A value the capability reads whole (the `ips` list of a bulk body): any JSON value is handed
 * on, and the capability says what is wrong with it, in the same words for every face.
 */
export function valueParameter(form: z.ZodType) {
  return documented(z.unknown(), form);
}

/** The documented form of a parameter of `schema` (for tests and the docs). */
export function formOf(schema: z.ZodObject, name: string): z.ZodType {
  let field = schema.shape[name] as z.ZodType | undefined;
  while (field && documentedForms.get(field) === undefined && field instanceof z.ZodOptional) {
    field = field.unwrap() as z.ZodType;
  }
  const form = field && documentedForms.get(field);
  if (form === undefined) throw new Error(`no documented form for "${name}"`);
  return form as z.ZodType;
}

/** `dnssec=true|false|1|0`, read as a boolean (absent: false). */
export function flagParameter(name: 'dnssec', form: z.ZodType) {
  const schema = text(name)
    .refine((value) => ['true', 'false', '1', '0'].includes(value), {
      error: `"${name}" must be ${PARAM_FORMS[name]}`,
    })
    .transform((value) => value === 'true' || value === '1');
  return documented(schema, form).optional();
}

/**
 * A TCP port, read as a number. The range is the documented one (1–65535): one rule, here,
 * for every face.
 */
export function portParameter(name: 'port' | 'allow_port', form: z.ZodType) {
  const what = name === 'allow_port' ? '"allow_port" must repeat "port":' : '"port" must be';
  const schema = text(name)
    .refine((value) => /^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535, {
      error: `${what} a whole number from 1 to 65535`,
    })
    .transform(Number);
  return documented(schema, form).optional();
}

type Form = z.ZodType;
/** What each named parameter parses to: `dnssec` a boolean, the ports numbers, the rest text. */
type ParameterSchemas<T extends Record<string, Form>> = {
  [K in keyof T]: K extends 'dnssec'
    ? ReturnType<typeof flagParameter>
    : K extends 'port' | 'allow_port'
      ? ReturnType<typeof portParameter>
      : T[K] extends z.ZodOptional | z.ZodDefault
        ? z.ZodOptional<z.ZodString>
        : z.ZodString;
};

/**
 * The parameter object of an operation from the documented forms of its parameters, each read
 * by its name's rule: `dnssec` a flag, `port` and `allow_port` ports, every other one text.
 */
export function parameters<T extends Record<string, Form>>(forms: T) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, form] of Object.entries(forms)) {
    shape[name] =
      name === 'dnssec'
        ? flagParameter(name, form)
        : name === 'port' || name === 'allow_port'
          ? portParameter(name, form)
          : textParameter(name as ParamName, form);
  }
  return z.object(shape as ParameterSchemas<T>);
}

/**
 * Reads `raw` (a query, path values, tool arguments, CLI options) with a capability's parameter
 * schema. An empty value is an absent one (`?type=` is the default type), as HTML forms send
 * empty fields; the first problem is the 400, naming the parameter and the form it takes.
 */
export function parseParams<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const values =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? Object.fromEntries(
          Object.entries(raw).filter(([, value]) => value !== '' && value !== null),
        )
      : raw;
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const name = issue?.path[0];
  throw new InvalidInputError(
    issue?.message ?? 'Invalid parameters',
    typeof name === 'string' ? name : undefined,
  );
}
