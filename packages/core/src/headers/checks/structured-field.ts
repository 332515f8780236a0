/**
 * The smallest RFC 8941 parser the checks need: an Item whose bare item is a Token (COOP/COEP,
 * HTML §7.1.3.2, §7.1.4.2: a value that fails to parse is ignored) and a Dictionary
 * (Permissions-Policy). One regular expression per production: the grammar is regular and each
 * choice is decided by the next character, so matching is linear.
 * @module
 */

/** key = ( lcalpha / "*" ) *( lcalpha / DIGIT / "_" / "-" / "." / "*" ) (§3.1.2) */
const KEY = '[a-z*][a-z0-9_\\-.*]*';
/** sf-token = ( ALPHA / "*" ) *( tchar / ":" / "/" ) (§3.3.4) */
const TOKEN = "[A-Za-z*][!#$%&'*+\\-.^_`|~0-9A-Za-z:/]*";
/** sf-integer / sf-decimal (§3.3.1, §3.3.2), as one pattern. */
const NUMBER = '-?\\d{1,15}(?:\\.\\d{1,3})?';
/** sf-string = DQUOTE *( unescaped / "%" / "\" ( DQUOTE / "\" ) ) DQUOTE (§3.3.3) */
const STRING = '"(?:[ !#-\\[\\]-~]|\\\\["\\\\])*"';
/** sf-boolean = "?" ( "0" / "1" ) (§3.3.6) */
const BOOLEAN = '\\?[01]';
const BARE_ITEM = `(?:${TOKEN}|${NUMBER}|${STRING}|${BOOLEAN})`;
/** parameters = *( ";" *SP param-key [ "=" param-value ] ) (§3.1.2) */
const PARAMETERS = `(?:; *${KEY}(?:=${BARE_ITEM})?)*`;
/** inner-list = "(" *SP [ sf-item *( 1*SP sf-item ) *SP ] ")" parameters (§3.1.1) */
const INNER_LIST = `\\((?: *${BARE_ITEM}${PARAMETERS}(?=[ )]))* *\\)${PARAMETERS}`;
/** dict-member = member-key ( parameters / ( "=" member-value ) ) (§3.2), after the key. */
const MEMBER_VALUE = `(?:=(?:${INNER_LIST}|${BARE_ITEM}${PARAMETERS})|${PARAMETERS})`;
const MEMBER = `${KEY}${MEMBER_VALUE}`;

/** sf-item whose bare item is captured when it is a Token (§3.3). */
const ITEM = new RegExp(`^(?:(${TOKEN})|${NUMBER}|${STRING}|${BOOLEAN})${PARAMETERS}$`);
/** sf-dictionary = dict-member *( OWS "," OWS dict-member ) (§3.2), or nothing. */
const DICTIONARY = new RegExp(`^(?:${MEMBER}(?:[ \\t]*,[ \\t]*${MEMBER})*)?$`);
/** One member of a valid dictionary (its key captured) and the separator after it. */
const NEXT_MEMBER = new RegExp(`(${KEY})${MEMBER_VALUE}(?:[ \\t]*,[ \\t]*)?`, 'y');

/**
 * The bare item of a structured-field Item when it is a Token, else null (RFC 8941 §4.2:
 * leading/trailing spaces are discarded; anything left over is a failure).
 */
export function parseItemToken(value: string): string | null {
  return ITEM.exec(trim(value, ' '))?.[1] ?? null;
}

/** True when `value` parses as an RFC 8941 Dictionary (§4.2.2); returns its keys. */
export function parseDictionaryKeys(value: string): string[] | null {
  const text = trim(value, ' \t');
  if (!DICTIONARY.test(text)) return null;
  const keys: string[] = [];
  NEXT_MEMBER.lastIndex = 0;
  for (let member = NEXT_MEMBER.exec(text); member; member = NEXT_MEMBER.exec(text)) {
    keys.push(member[1] as string);
  }
  return keys;
}

/** `value` without leading and trailing `chars`; not `/[ \t]+$/`, quadratic on inner runs. */
function trim(value: string, chars: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && chars.includes(value[start] as string)) start++;
  while (end > start && chars.includes(value[end - 1] as string)) end--;
  return value.slice(start, end);
}
