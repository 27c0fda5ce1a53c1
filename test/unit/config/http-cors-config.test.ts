// Config `http.cors.origins`: empty by default, origins written as a browser sends them in
// `Origin` (CORS compares the two as strings) or `*`, and a clear one-line error for anything a
// browser would never send, so a typo cannot leave the dashboard silently refused.
//   case 1: the default is no origin at all (no CORS)
//   case 2..7: origins a browser sends, and `*`, load unchanged
//   case 8..17: what no browser sends is refused naming the field and the expected form
//   case 18: a single origin instead of a list is refused as not a list

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/config-error.js';
import { DEFAULT_CONFIG, loadConfig } from '../../../src/config/load-config.js';

const ORIGIN_PROBLEM = 'must be an origin as a browser sends it, scheme://host[:port] (http or https, lowercase, no path or trailing slash, no default port), or * for any origin';

function load(file: string) {
  return loadConfig({ argv: ['--config', 'c.yaml'], env: {}, readFile: () => file });
}

function messageOf(file: string): string {
  try {
    load(file);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  return 'loaded';
}

describe('config http.cors.origins', () => {
  it('case 1: the default is no origin at all (no CORS)', () => {
    expect(load('port: 1').http.cors.origins).toEqual([]);
    expect(DEFAULT_CONFIG.http.cors.origins).toEqual([]);
  });

  it.each([
    ['case 2: an https origin', 'https://dash.example.com'],
    ['case 3: an http origin with a port', 'http://localhost:5173'],
    ['case 4: an IPv4 address with a port', 'http://127.0.0.1:8081'],
    ['case 5: an IPv6 address', 'http://[::1]:3000'],
    ['case 6: a non-default port on https', 'https://dash.example.com:8443'],
    ['case 7: any origin', '*'],
  ])('%s loads unchanged: %s', (_name, origin) => {
    expect(load(`http: {cors: {origins: ["${origin}"]}}`).http.cors.origins).toEqual([origin]);
  });

  it.each([
    ['case 8: a trailing slash', 'https://dash.example.com/'],
    ['case 9: a path', 'https://dash.example.com/app'],
    ['case 10: no scheme', 'dash.example.com'],
    ['case 11: capitals', 'https://Dash.example.com'],
    ['case 12: the default port of https', 'https://dash.example.com:443'],
    ['case 13: the default port of http', 'http://dash.example.com:80'],
    ['case 14: a scheme pages are not served from', 'ftp://dash.example.com'],
    ['case 15: a wildcard subdomain', 'https://*.example.com'],
    ['case 16: an empty string', ''],
    ['case 17: a query', 'https://dash.example.com?x=1'],
  ])('%s is refused naming the field: %s', (_name, origin) => {
    const file = `http: {cors: {origins: ["https://ok.example.com", "${origin}"]}}`;
    expect(messageOf(file)).toBe(`invalid config: http.cors.origins[1]: ${ORIGIN_PROBLEM}`);
  });

  it('case 18: a single origin instead of a list is refused as not a list', () => {
    expect(messageOf('http: {cors: {origins: "https://dash.example.com"}}')).toBe('invalid config: http.cors.origins: must be a list');
  });
});
