// What the per-request log line takes from a client: the URL with credential-looking query values
// redacted, and the client's x-request-id only when short and printable.

import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/http/redact-url.js';
import { isAcceptableRequestId, requestIdOf } from '../../../src/http/request-id.js';

describe('redactUrl', () => {
  it.each([
    ['case 1: no query', '/v1/schemas', '/v1/schemas'],
    ['case 2: no credential', '/v1/cachedobjects?schema=v1.x.core&limit=5&continue=abc', '/v1/cachedobjects?schema=v1.x.core&limit=5&continue=abc'],
    ['case 3: access_token', '/v1/schemas?access_token=s3cr3t', '/v1/schemas?access_token=[Redacted]'],
    ['case 4: token among others, order kept', '/x?a=1&token=s&b=2', '/x?a=1&token=[Redacted]&b=2'],
    ['case 5: names are matched without case, `-` as `_`', '/x?API-Key=s&Client_Secret=s&X-Amz-Signature=s', '/x?API-Key=[Redacted]&Client_Secret=[Redacted]&X-Amz-Signature=[Redacted]'],
    ['case 6: a percent-encoded name', '/x?access%5Ftoken=s', '/x?access%5Ftoken=[Redacted]'],
    ['case 7: a malformed percent-encoding in the name is matched as sent', '/x?token%zz=s', '/x?token%zz=[Redacted]'],
    ['case 8: a name without a value has nothing to hide', '/x?token&watch=true', '/x?token&watch=true'],
    ['case 9: a value with `=` is replaced whole', '/x?password=a=b&x=1', '/x?password=[Redacted]&x=1'],
    ['case 10: exact short names (key, sig, code, auth)', '/x?key=s&sig=s&code=s&auth=s&keys=1', '/x?key=[Redacted]&sig=[Redacted]&code=[Redacted]&auth=[Redacted]&keys=1'],
    ['case 11: the same name twice', '/x?token=a&token=b', '/x?token=[Redacted]&token=[Redacted]'],
    ['case 12: a name whose credential word is only seen once decoded', '/x?%74oken=s&cluster=root', '/x?%74oken=[Redacted]&cluster=root'],
    ['case 13: a form-encoded space in the name', '/x?my+Password=s', '/x?my+Password=[Redacted]'],
    ['case 14: `-` for `_` inside a credential part', '/x?x-api-key=s&consistent=false', '/x?x-api-key=[Redacted]&consistent=false'],
    ['case 15: a percent-encoded path with a plain query', '/v1/objects/a%2Fb?cluster=root', '/v1/objects/a%2Fb?cluster=root'],
  ])('%s', (_name, url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe('request ids', () => {
  it.each([
    ['case 1: a UUID', '4f8e2b1c-0d3a-4c5e-9f7a-1b2c3d4e5f60', true],
    ['case 2: printable ASCII with spaces and punctuation', 'req 42/a:b', true],
    ['case 3: exactly 128 characters', 'x'.repeat(128), true],
    ['case 4: 129 characters', 'x'.repeat(129), false],
    ['case 5: empty', '', false],
    ['case 6: a tab', 'a\tb', false],
    ['case 7: a newline (log injection)', 'a\nb', false],
    ['case 8: DEL', 'a\x7fb', false],
    ['case 9: outside ASCII', 'caf\u00e9', false],
  ])('%s', (_name, id, acceptable) => {
    expect(isAcceptableRequestId(id)).toBe(acceptable);
  });

  it('case 10: requestIdOf keeps an acceptable id and replaces anything else by a fresh UUID', () => {
    expect(requestIdOf({ 'x-request-id': 'req-1' })).toBe('req-1');
    const fresh = requestIdOf({ 'x-request-id': 'x'.repeat(200) });
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf({})).not.toBe(fresh);
  });
});
