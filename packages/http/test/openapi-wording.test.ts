/**
 * The public OpenAPI document describes the API in its own words: no section numbers of the
 * project's SPEC.md or CONTRACT.md, no issue numbers, no repository file names. Standards are
 * cited as such (`RFC 9110 §15.5.6`).
 */
import request from 'supertest';
import { expect, test } from 'vitest';
import { createApp } from '../src/app.js';

test('the served OpenAPI document cites no SPEC, CONTRACT, issue or repository file', async () => {
  const app = createApp({ logLevel: 'silent', env: false });
  const res = await request(app).get('/api/openapi.json');
  expect(res.status).toBe(200);
  const text = JSON.stringify(res.body);
  const cited = (pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[0]);
  expect(cited(/.{0,40}\b(?:SPEC|CONTRACT)\b.{0,20}/g)).toEqual([]);
  expect(cited(/.{0,40}\b[Ii]ssue \d+.{0,20}/g)).toEqual([]);
  expect(cited(/.{0,40}\b[\w-]+\.md\b.{0,20}/g)).toEqual([]);
  // A section sign belongs to a standard: "RFC 9110 §15.5.6".
  expect(cited(/.{0,40}(?<!RFC \d+ )§.{0,20}/g)).toEqual([]);
  expect(cited(/RFC \d+ §/g).length).toBeGreaterThan(5);
  await app.locals.netdiag.engine.close();
});
