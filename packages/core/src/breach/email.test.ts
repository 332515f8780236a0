import { describe, expect, test } from 'vitest';
import { maskEmail, normaliseEmail } from './email.js';

describe('normaliseEmail', () => {
  test.each([
    ['user@example.com', 'user@example.com'],
    ['  John.Doe@Example.COM ', 'john.doe@example.com'],
    ['a+tag@sub.example.co.uk', 'a+tag@sub.example.co.uk'],
    ["o'brien@example.ie", "o'brien@example.ie"],
    ['x@example.com.', 'x@example.com'],
    ['jörg@bücher.de'.replace('jörg', 'joerg'), 'joerg@xn--bcher-kva.de'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
  ])('%s → %s', (input, expected) => {
    expect(normaliseEmail(input)).toBe(expected);
  });

  test.each([
    ['', /Missing required parameter "email"/],
    ['   ', /Missing required parameter "email"/],
    ['plainaddress', /exactly one "@"/],
    ['@example.com', /exactly one "@"/],
    ['user@', /exactly one "@"/],
    ['a@b@example.com', /exactly one "@"/],
    ['.user@example.com', /part before "@"/],
    ['us..er@example.com', /part before "@"/],
    ['user.@example.com', /part before "@"/],
    ['"quoted"@example.com', /part before "@"/],
    ['us er@example.com', /part before "@"/],
    [`${'a'.repeat(65)}@example.com`, /at most 64/],
    ['user@localhost', /domain name with a TLD/],
    ['user@exa_mple.com', /domain name with a TLD/],
    ['user@127.0.0.1', /domain name with a TLD/],
    ['user@[127.0.0.1]', /domain name with a TLD/],
    ['user@-example.com', /domain name with a TLD/],
    [
      `${'x'.repeat(10)}@${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`,
      /at most 254/,
    ],
  ])('rejects %j', (input, message) => {
    expect(() => normaliseEmail(input)).toThrow(message);
    try {
      normaliseEmail(input);
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_INPUT', param: 'email' });
      // The message never repeats what was typed.
      expect((error as Error).message).not.toContain(JSON.stringify(input.trim()));
    }
  });

  test.each(['secret.person@nowhere', 'secret..person@example.com', 'secret.person@@example.com'])(
    'the message never repeats the address (%s)',
    (input) => {
      expect(() => normaliseEmail(input)).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('secret') }),
      );
    },
  );

  test('non-strings are a missing parameter', () => {
    expect(() => normaliseEmail(undefined)).toThrow(/Missing required/);
    expect(() => normaliseEmail(['a@b.com'])).toThrow(/Missing required/);
  });
});

describe('maskEmail', () => {
  test.each([
    ['johndoe@example.com', 'joh***@example.com'],
    ['abcd@example.com', 'abc***@example.com'],
    ['abc@example.com', 'ab***@example.com'],
    ['ab@example.com', 'a***@example.com'],
    ['a@example.com', '***@example.com'],
  ])('%s → %s', (input, expected) => {
    expect(maskEmail(input)).toBe(expected);
  });
});
