/** SVCB/HTTPS rdata from the test vectors of RFC 9460 Appendix D. */
import { describe, expect, test } from 'vitest';
import { presentModern } from './resolver-present-modern.js';

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('SVCB per RFC 9460 Appendix D', () => {
  test('D.1 AliasMode: priority 0, a target, no params', () => {
    const rdata = hex('0000 03666f6f076578616d706c6503636f6d00');
    const { data, value } = presentModern('SVCB', rdata);
    expect(data).toBe('0 foo.example.com.');
    expect(value).toEqual({ priority: 0, target: 'foo.example.com', params: {} });
  });

  test('D.2 a port and a target of "." (the owner)', () => {
    const rdata = hex('0001 00 0003 0002 0035');
    const { data, value } = presentModern('HTTPS', rdata);
    expect(data).toBe('1 . port=53');
    expect(value).toEqual({ priority: 1, target: '', params: { port: 53 } });
  });

  test('D.2 mandatory, alpn and ipv4hint', () => {
    const rdata = hex(
      '0010 03666f6f076578616d706c65036f726700' +
        '0000 0004 0001 0004' +
        '0001 0009 02 6832 05 68332d3139' +
        '0004 0004 c0000201',
    );
    const { data, value } = presentModern('SVCB', rdata);
    expect(data).toBe(
      '16 foo.example.org. mandatory=alpn,ipv4hint alpn="h2,h3-19" ipv4hint=192.0.2.1',
    );
    expect(value).toEqual({
      priority: 16,
      target: 'foo.example.org',
      params: { mandatory: ['alpn', 'ipv4hint'], alpn: ['h2', 'h3-19'], ipv4hint: ['192.0.2.1'] },
    });
  });

  test('D.2 ipv6hint with two addresses, and a key without a name', () => {
    const rdata = hex(
      '0001 03666f6f076578616d706c6503636f6d00' +
        '0006 0020 20010db8000000000000000000000001 20010db8000000000000000000530001',
    );
    const { value, data } = presentModern('SVCB', rdata);
    expect(data).toBe('1 foo.example.com. ipv6hint=2001:db8::1,2001:db8::53:1');
    expect((value as { params: unknown }).params).toEqual({
      ipv6hint: ['2001:db8::1', '2001:db8::53:1'],
    });
    const generic = presentModern('SVCB', hex('0001 00 0299 0003 616263'));
    expect(generic.data).toBe('1 . key665="abc"');
  });
});
