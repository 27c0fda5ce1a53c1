// parseYamlBody reads a YAML (or JSON) request body, refusing deep nesting before the composer runs.
//   cases 1-8 (table): what a body reads as, or the 400 it gets
//   case 9: a body nested past the bound by flow collections is refused by the token count, not by
//           the depth check on a parsed value (whose message differs)
//   case 10: the same for block sequences opened on one line (`- - - ...`)

import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { MAX_JSON_DEPTH } from '../../../src/apimachinery/json-depth.js';
import { parseYamlBody, yamlNestingExceeds } from '../../../src/apimachinery/yaml-body.js';
import { numbered } from './numbered.js';

const flowMaps = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function refusal(text: string): string {
  try {
    parseYamlBody(text);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('BadRequest');
    return (err as Error).message;
  }
  throw new Error('the body was accepted');
}

describe('parseYamlBody', () => {
  const cases = numbered([
    { name: 'a block mapping', text: 'kind: ConfigMap\nmetadata:\n  name: x\n  labels: {app: web}\n', want: { kind: 'ConfigMap', metadata: { name: 'x', labels: { app: 'web' } } } },
    { name: 'a JSON body reads the same', text: '{"kind":"ConfigMap","metadata":{"name":"x"}}', want: { kind: 'ConfigMap', metadata: { name: 'x' } } },
    { name: 'yes and no stay strings (YAML 1.2 core)', text: 'a: yes\nb: no\nc: true\n', want: { a: 'yes', b: 'no', c: true } },
    { name: 'an empty body is no body', text: '  \n', want: undefined },
    { name: 'brackets inside scalars open nothing', text: `a: "${'['.repeat(600)}"\nb: x${'{'.repeat(600)}\nc: |\n  ${'['.repeat(600)}\n`, want: { a: '['.repeat(600), b: `x${'{'.repeat(600)}`, c: `${'['.repeat(600)}\n` } },
    { name: 'flow nesting at the bound is read', text: flowMaps(MAX_JSON_DEPTH - 1), want: JSON.parse(flowMaps(MAX_JSON_DEPTH - 1)) as unknown },
    { name: 'a syntax error is a 400', text: 'a: [1, 2\n', error: /^error decoding YAML: / },
    { name: 'an alias bomb is a 400', text: 'a: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n', error: /^error decoding YAML: / },
  ]);

  it.each(cases)('case $n: $name', ({ text, want, error }) => {
    if (error !== undefined) expect(refusal(text)).toMatch(error);
    else expect(parseYamlBody(text)).toEqual(want);
  });

  it('case 9: flow collections past the bound are refused from their tokens', () => {
    expect(yamlNestingExceeds(flowMaps(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(yamlNestingExceeds(flowMaps(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(refusal(flowMaps(100_000))).toBe(`error decoding YAML: the request body nests deeper than ${MAX_JSON_DEPTH} levels`);
    expect(refusal('['.repeat(100_000) + ']'.repeat(100_000))).toMatch(/nests deeper than/);
  });

  it('case 10: block sequences opened on one line count as nesting', () => {
    expect(yamlNestingExceeds('- '.repeat(MAX_JSON_DEPTH + 1) + 'x\n', MAX_JSON_DEPTH)).toBe(true);
    expect(yamlNestingExceeds(Array.from({ length: MAX_JSON_DEPTH + 1 }, (_, i) => `- ${i}`).join('\n'), MAX_JSON_DEPTH)).toBe(false);
    expect(refusal('- '.repeat(100_000) + 'x\n')).toBe(`error decoding YAML: the request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  });
});
