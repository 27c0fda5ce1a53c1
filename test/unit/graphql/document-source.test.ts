// checkDocumentSource: the size limits every transport checks before a document is parsed.

import { describe, expect, it } from 'vitest';
import { checkDocumentSource } from '../../../src/graphql/document-source.js';

const LIMITS = { maxDocumentBytes: 100, maxTokens: 10 };

describe('checkDocumentSource', () => {
  it.each([
    ['case 1: a small document passes', '{ schemas { name } }', undefined, undefined],
    ['case 2: exactly maxTokens tokens pass', '{ a b c d e f g h }', undefined, undefined],
    ['case 3: one token more is GRAPHQL_PARSE_FAILED (400)', '{ a b c d e f g h i }', 400, 'GRAPHQL_PARSE_FAILED'],
    ['case 4: comments are not tokens', `{ a } # ${'x'.repeat(80)}`, undefined, undefined],
    ['case 5: over maxDocumentBytes is PAYLOAD_TOO_LARGE (413)', `{ a } # ${'x'.repeat(100)}`, 413, 'PAYLOAD_TOO_LARGE'],
    ['case 6: bytes are UTF-8 bytes, not characters', `{ a } # ${'é'.repeat(50)}`, 413, 'PAYLOAD_TOO_LARGE'],
    ['case 7: a character the lexer refuses is GRAPHQL_PARSE_FAILED', '{ a ; }', 400, 'GRAPHQL_PARSE_FAILED'],
    ['case 8: an unterminated string is GRAPHQL_PARSE_FAILED', '{ a(b: "x) }', 400, 'GRAPHQL_PARSE_FAILED'],
  ])('%s', (_name, source, status, code) => {
    const rejection = checkDocumentSource(source, LIMITS);
    expect(rejection?.httpStatus).toBe(status);
    expect(rejection?.error.extensions?.['code']).toBe(code);
  });
});
