// JsonText keeps the JSON text of frozen objects it sent, within a budget of two generations.
// Each object here counts how often it is serialised (JSON.stringify calls its toJSON).
//   case 1: a frozen object is serialised once and its text reused; an unfrozen one every time
//   case 2: texts past the budget are dropped: an object not sent for two generations is serialised again
//   case 3: an object sent within each generation keeps its text however many others are sent
//   case 4: peek answers the kept text, and keeps none it had to make

import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/apimachinery/object-meta.js';
import { JsonText } from '../../../src/apimachinery/json-text.js';

/** Counted is an object whose serialisations are counted; its text is 20 characters. */
interface Counted {
  readonly obj: KubeObject;
  serialised(): number;
}

function counted(name: string, frozen = true): Counted {
  let calls = 0;
  const obj = {
    metadata: { name },
    toJSON: () => {
      calls++;
      return { n: name.padEnd(12, '.') };
    },
  };
  return { obj: (frozen ? Object.freeze(obj) : obj) as unknown as KubeObject, serialised: () => calls };
}

describe('JsonText', () => {
  it('case 1: a frozen object is serialised once and its text reused; an unfrozen one every time', () => {
    const json = new JsonText();
    const frozen = counted('frozen');
    const loose = counted('loose', false);
    expect(json.of(frozen.obj)).toBe('{"n":"frozen......"}');
    expect(json.of(frozen.obj)).toBe('{"n":"frozen......"}');
    json.of(loose.obj);
    json.of(loose.obj);
    expect(frozen.serialised()).toBe(1);
    expect(loose.serialised()).toBe(2);
  });

  it('case 2: texts past the budget are dropped: an object not sent for two generations is serialised again', () => {
    // 100 characters a generation: five texts of 20 fill one.
    const json = new JsonText(100);
    const first = counted('first');
    json.of(first.obj);
    for (let i = 0; i < 4; i++) json.of(counted(`young-${i}`).obj);
    // The first generation is full and old now: its texts are still found.
    json.of(first.obj);
    expect(first.serialised()).toBe(1);
    const second = counted('second');
    json.of(second.obj);
    for (let i = 0; i < 10; i++) json.of(counted(`other-${i}`).obj);
    json.of(second.obj);
    expect(second.serialised()).toBe(2);
  });

  it('case 3: an object sent within each generation keeps its text however many others are sent', () => {
    const json = new JsonText(100);
    const hot = counted('hot');
    for (let i = 0; i < 200; i++) {
      json.of(hot.obj);
      json.of(counted(`cold-${i}`).obj);
    }
    expect(hot.serialised()).toBe(1);
  });

  it('case 4: peek answers the kept text, and keeps none it had to make', () => {
    const json = new JsonText();
    const kept = counted('kept');
    const peeked = counted('peeked');
    json.of(kept.obj);
    expect(json.peek(kept.obj)).toBe('{"n":"kept........"}');
    expect(kept.serialised()).toBe(1);
    json.peek(peeked.obj);
    json.peek(peeked.obj);
    expect(peeked.serialised()).toBe(2);
  });
});
