/**
 * What the WHOIS parser looks for, as tables: the keys of each field in priority order, the
 * address keys of a contact, and the lines that mean "not found" or "limit exceeded". Taken
 * from the layouts of the corpora named in whois-parser.ts.
 * @module
 */

/**
 * Each date key, and after it the same key with "domain " before it: Neustar (.co, .us,
 * .travel, .tel) prints "Domain Expiration Date:" and "Domain Last Updated Date:", Freenom
 * (.tk, .ml, .ga, .cf, .gq) "Domain registered:".
 */
function withDomainPrefix(keys: string[]): string[] {
  return keys.flatMap((key) => (key.startsWith('domain ') ? [key] : [key, `domain ${key}`]));
}

/**
 * Keys per field, in priority order (normalised by `normaliseKey`: lower case, single spaces,
 * `-`/`_` as spaces, no trailing `on`/`at`, so `Expires on` is `expires` and `paid-till` is
 * `paid till`). Localised labels are listed with the registry that prints them.
 */
export const KEYS = {
  domain: [
    'domain name',
    'domain',
    'domainname',
    'complete domain name', // .ai (old layout)
    'nombre de dominio', // .uy, .ve (Spanish)
    'dominio', // .bo
    'nome de domínio', // .pt (Portuguese, printed with the English label too)
    'nom de domaine', // .dz (French)
    '도메인이름', // .kr
    'query',
  ],
  registrar: [
    'registrar name',
    'sponsoring registrar',
    'sponsoring registrar organization', // PANDI (.id, 2013 layout)
    'registrar organization',
    'registrar',
    'current registrar',
    'current registar', // sic, .kz
    'registration service provider',
    'authorized agency', // .kr (English part)
    '등록대행자', // .kr: "registration agent"
    'registered by', // .ac.uk (Jisc)
    'registrado por', // .uy
  ],
  ianaId: ['registrar iana id', 'sponsoring registrar iana id', 'registrar iana'],
  created: withDomainPrefix([
    'creation date',
    'created date',
    'create date', // .me (Afilias, 2013 layout): "Domain Create Date:"
    'created',
    'registration date',
    'registration time',
    'registered date',
    'registered',
    'date registered', // .nl (2009 layout)
    'domain registration date',
    'activation', // JWhoisServer (.tg, .tn)
    'domain record activated',
    'domain created',
    'first registration date',
    'domain name commencement date',
    'record created',
    'entry created', // .ac.uk
    'domain datecreated',
    'activated', // .bg "activated on"
    'assigned', // .il
    'registration', // .ie (IEDR, 2014 layout)
    'fecha de creacion', // .uy, .ve
    'fecha de creación',
    'fecha de registro', // .bo
    'date de creation', // .dz (French)
    'date de création',
    'data de registo', // .pt
    'data de registro',
    '등록일', // .kr: "registration date"
  ]),
  expires: withDomainPrefix([
    'registry expiry date',
    'registrar registration expiration date',
    'expiration date',
    'expiry date',
    'expires',
    'expire date',
    'expiration time',
    'paid till',
    'valid until',
    'domain expires',
    'expiration', // JWhoisServer (.tg, .tn)
    'record will expire', // Freenom (.tk, .ml, .ga, .cf, .gq): "Record will expire on:"
    'record expires',
    'record expired', // .my
    'renewal date', // .pl (NASK), .ac.uk: the end of the paid period
    'domain datebilleduntil',
    'expire',
    'expiry', // .ug, .tm
    'expired', // .ly
    'exp date', // .th ("Renew date" there is the last renewal, not the expiry)
    'validity', // .il
    'renewal', // .ie (IEDR, 2014 layout)
    'fecha de vencimiento', // .ve, .bo
    'fecha de expiracion',
    'fecha de expiración',
    'data de expiração', // .pt
    '사용 종료일', // .kr: "end of use date"
  ]),
  updated: withDomainPrefix([
    'updated date',
    'last updated',
    'last update',
    'last modified',
    'last updated date', // .kr
    'update date',
    'modification date',
    'modified date',
    'modified',
    'changed',
    'domain record last updated',
    'domain datelastmodified',
    'record last updated',
    'entry updated', // .ac.uk
    'updated',
    'ultima actualizacion', // .uy, .ve
    'última actualización',
    '최근 정보 변경일', // .kr: "last information change date"
  ]),
  status: ['domain status', 'status', 'state', 'query status', 'registration status', 'epp status'],
  refer: ['refer'],
  registrarWhois: ['registrar whois server', 'whois server', 'referralserver'],
};

/**
 * Address lines of a contact: a `State:` beside one of them is the contact's state or
 * province, not the domain's status (see readStatus).
 */
export const ADDRESS_KEYS = [
  'address',
  'street',
  'street address',
  'city',
  'zip',
  'zipcode',
  'zip code',
  'postal code',
  'country',
];

/** Lines that mean "no such domain" (matched per line, after comment markers are removed). */
export const NOT_FOUND = [
  /^no match\b/i,
  /^no matching record/i,
  /^not found\b/i,
  /^no data found/i,
  /^no found$/i,
  /^no entries found/i,
  /^no object found/i,
  /^domain not found/i,
  /^object does not exist/i,
  /^the queried object does not exist/i,
  /^the domain (?:name )?(?:is not|has not been) registered/i,
  /^this domain name has not been registered/i,
  /^domain status:\s*(?:no object found|available|free)\b/i,
  /^status:\s*(?:available|free|not registered)\b/i,
  /^query_status:\s*220\b/i, // .nz: 220 = available
  /^%?error:101: no entries found/i,
  /^no information available about domain name/i,
  /^nincs talalat/i,
  /^domain "[^"]+" not found/i,
  /^invalid query or domain name not known/i,
  /^>*\s*domain \S+ is available for registration/i,
  /^reserved domain name/i,
  /^this (?:platinum |premium )?domain is available for purchase/i,
  /^this query returned 0 objects/i,
  /^상기 도메인이름은 등록되어 있지 않습니다/, // .kr: "the domain name is not registered"
];

export const LIMIT_EXCEEDED = [
  /limit exceeded/i,
  /exceeded (?:the|your) (?:query|request)? ?(?:limit|quota)/i,
  /too many (?:queries|requests)/i,
  /query rate (?:limit|exceeded)/i,
  /please try again later/i,
];
