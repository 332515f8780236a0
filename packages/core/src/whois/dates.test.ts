import { performance } from 'node:perf_hooks';
import { expect, test } from 'vitest';
import { toIsoDate } from './dates.js';

test.each([
  // RFC 3339 (RDAP) and ICANN WHOIS
  ['2019-10-04T05:05:04Z', '2019-10-04T05:05:04.000Z'],
  ['2012-01-26T05:49:44.787Z', '2012-01-26T05:49:44.787Z'],
  ['1995-04-11T04:00:00.00Z', '1995-04-11T04:00:00.000Z'],
  ['2019-01-02T04:55:30+13:00', '2019-01-01T15:55:30.000Z'],
  ['1997-09-15T00:00:00-0700', '1997-09-15T07:00:00.000Z'],
  ['2004-08-30T22:55:00+00:00', '2004-08-30T22:55:00.000Z'],
  // RDAP dates without an offset are read as UTC
  ['2004-12-14T08:29:42', '2004-12-14T08:29:42.000Z'],
  ['2001-06-14-T10:32:43Z', '2001-06-14T10:32:43.000Z'],
  // ccTLD layouts
  ['2007-10-04 13:40:19+03', '2007-10-04T10:40:19.000Z'],
  ['2000-08-29 10:22:50 (UTC+8)', '2000-08-29T02:22:50.000Z'],
  ['1999-06-07 13:01:43 (GMT+0:00)', '1999-06-07T13:01:43.000Z'],
  ['2017/06/01 01:05:09 (JST)', '2017-05-31T16:05:09.000Z'],
  ['2005-10-27 (YYYY-MM-DD)', '2005-10-27T00:00:00.000Z'],
  ['2001/03/22', '2001-03-22T00:00:00.000Z'],
  ['20170315 14:41:55', '2017-03-15T14:41:55.000Z'],
  ['15.12.2015 09:48:01', '2015-12-15T09:48:01.000Z'],
  ['19.2.2019', '2019-02-19T00:00:00.000Z'],
  ['06-04-2004', '2004-04-06T00:00:00.000Z'],
  ['08-Jan-2019', '2019-01-08T00:00:00.000Z'],
  ['31 May 1999', '1999-05-31T00:00:00.000Z'],
  ['30th April 2003 at 00:00:00.000', '2003-04-30T00:00:00.000Z'],
  ['Mon Oct 04 2019', '2019-10-04T00:00:00.000Z'],
  ['October 4, 2019', '2019-10-04T00:00:00.000Z'],
  ['04-oct-2019 05:05:04 UTC', '2019-10-04T05:05:04.000Z'],
  ['2019-10-04 12:00:00 CEST', '2019-10-04T10:00:00.000Z'],
  // registries outside the shared corpus (docs/whois.md, issue 20 item 10)
  ['2007. 03. 02.', '2007-03-02T00:00:00.000Z'], // .kr
  ['19990518 #162310', '1999-05-18T00:00:00.000Z'], // .br: a ticket number follows
  ['16/09/03', '2003-09-16T00:00:00.000Z'], // .es: two-digit year, day first
  ['01/02/99', '1999-02-01T00:00:00.000Z'],
  ['2001-Aug-23.', '2001-08-23T00:00:00.000Z'], // .tr
  ['Friday 7th November 2003', '2003-11-07T00:00:00.000Z'], // .ac.uk
  ['2nd April, 2001', '2001-04-02T00:00:00.000Z'], // .ug
  ['18 Apr 2003 00:00 EAT', '2003-04-17T21:00:00.000Z'], // .ke
  ['2002-10-22 17:48:23 CLST', '2002-10-22T20:48:23.000Z'], // .cl
  ['Mar 25 01:57:22 PDT 2009', '2009-03-25T08:57:22.000Z'], // .bj
  ['Sat Mar 28 23:59:00 2026', '2026-03-28T23:59:00.000Z'], // .kg
  ['2010-08-10 16:43:38 +03:00', '2010-08-10T13:43:38.000Z'], // .ee
  // A date without a time but with a zone is the start of that day there.
  ['2000-01-01 (JST)', '1999-12-31T15:00:00.000Z'],
])('%s → %s', (input, expected) => {
  expect(toIsoDate(input)).toBe(expected);
});

test.each([
  ['', 'empty'],
  ['before 1 January 1996', 'not a precise date'],
  ['2019-02-31', 'rolled-over day'],
  ['2019-13-01', 'month 13'],
  ['2019-10-04 12:00:00 XYZT', 'unknown zone'],
  ['tomorrow', 'words'],
  ['2019-10-04T25:00:00Z', 'hour 25'],
  ['Mar 25 01:57:22 XYZ 2009', 'unknown zone in a date(1) line'],
  ['2019-10-04 #', 'not a ticket number'],
  [`2019-10-04 ${'x'.repeat(200)}`, 'too long to be a date'],
])('%s → "" (%s)', (input) => {
  expect(toIsoDate(input)).toBe('');
});

test('hostile near-dates stay fast (no exponential backtracking)', () => {
  // "(yyyy…" without ")" once took ~2^n steps in the format-hint pattern.
  const inputs = [
    '(' + 'y'.repeat(60),
    `(${'yyyy-'.repeat(20)}`,
    `${'1'.repeat(110)} (UTC`,
    '(dd/'.repeat(25),
  ];
  const start = performance.now();
  for (const input of inputs) expect(toIsoDate(input)).toBe('');
  expect(performance.now() - start).toBeLessThan(200);
});
