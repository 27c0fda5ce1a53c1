// listAhead reads a paged list with the next page asked for as soon as the page before shows its
// token; continueTokenAtStart finds that token at the start of a List body.
//   case 1: every page comes back in order, each asked for while the one before is still being read, never two ahead
//   case 2: pages that show no token early are read one after the other
//   case 3: a token seen early that is not the page's own is not used: the page is asked for with its own
//   case 4: a page read ahead that fails fails the list when its turn comes, and is not an unhandled rejection
// continueTokenAtStart: a table of List body starts, its cases numbered from 1.

import { describe, expect, it } from 'vitest';
import { continueTokenAtStart, listAhead } from '../../../src/kube/list-ahead.js';
import type { PageReader } from '../../../src/kube/list-ahead.js';
import { numbered } from '../apimachinery/numbered.js';

interface Page {
  readonly n: number;
  readonly continue?: string;
}

/** Pending is a page asked for and not answered yet: show(token) plays the start of its body, finish() the rest. */
interface Pending {
  readonly token: string | undefined;
  show(token: string): void;
  finish(): void;
  fail(err: Error): void;
}

/** reader answers pages by hand: each asked page waits in pending until the test plays it. */
function handReader(pages: readonly Page[]): { read: PageReader<Page>; pending: Pending[]; asked: (string | undefined)[] } {
  const pending: Pending[] = [];
  const asked: (string | undefined)[] = [];
  const read: PageReader<Page> = (token, onToken) => new Promise<Page>((resolve, reject) => {
    asked.push(token);
    const index = token === undefined ? 0 : Number(token.slice(1));
    pending.push({ token, show: onToken, finish: () => resolve(pages[index] as Page), fail: reject });
  });
  return { read, pending, asked };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('listAhead', () => {
  it('case 1: every page comes back in order, each asked for while the one before is still being read, never two ahead', async () => {
    const { read, pending, asked } = handReader([{ n: 0, continue: 't1' }, { n: 1, continue: 't2' }, { n: 2 }]);
    const listed = listAhead(read);
    await turn();
    pending[0]?.show('t1');
    expect(asked).toEqual([undefined, 't1']);
    // The page read ahead shows its token before the first page is done: it waits its turn.
    pending[1]?.show('t2');
    expect(asked).toEqual([undefined, 't1']);
    pending[0]?.finish();
    await turn();
    expect(asked).toEqual([undefined, 't1', 't2']);
    pending[1]?.finish();
    pending[2]?.finish();
    expect((await listed).map((page) => page.n)).toEqual([0, 1, 2]);
  });

  it('case 2: pages that show no token early are read one after the other', async () => {
    const { read, pending, asked } = handReader([{ n: 0, continue: 't1' }, { n: 1 }]);
    const listed = listAhead(read);
    await turn();
    expect(asked).toEqual([undefined]);
    pending[0]?.finish();
    await turn();
    expect(asked).toEqual([undefined, 't1']);
    pending[1]?.finish();
    expect((await listed).map((page) => page.n)).toEqual([0, 1]);
  });

  it('case 3: a token seen early that is not the page\'s own is not used: the page is asked for with its own', async () => {
    const { read, pending, asked } = handReader([{ n: 0, continue: 't2' }, { n: 1 }, { n: 2 }]);
    const listed = listAhead(read);
    await turn();
    pending[0]?.show('t1');
    pending[0]?.finish();
    await turn();
    expect(asked).toEqual([undefined, 't1', 't2']);
    pending[2]?.finish();
    expect((await listed).map((page) => page.n)).toEqual([0, 2]);
  });

  it('case 4: a page read ahead that fails fails the list when its turn comes, and is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { read, pending } = handReader([{ n: 0, continue: 't1' }, { n: 1 }]);
      const listed = listAhead(read);
      await turn();
      pending[0]?.show('t1');
      pending[1]?.fail(new Error('expired'));
      await turn();
      await turn();
      pending[0]?.finish();
      await expect(listed).rejects.toThrow('expired');
      await turn();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('continueTokenAtStart', () => {
  it.each(numbered([
    { start: '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"eyJ0IjoxfQ"},"items":[', token: 'eyJ0IjoxfQ', why: 'a token before the items' },
    { start: '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[{"metadata":{"name":"a"}}', token: '', why: 'the items began without a token: none will come' },
    { start: '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7","cont', token: undefined, why: 'too little of the start yet' },
    { start: '{"kind":"List","items":[{"spec":{"continue":"not-the-token"}}],"metadata":{"continue":"late"}}', token: '', why: 'a "continue" inside an item is not the list\'s' },
    { start: '{"metadata":{"continue":"a\\"b"},"items":[]}', token: '', why: 'an escaped token is left for the parsed page' },
    { start: '{"metadata":{"continue":""},"items":[]}', token: '', why: 'an empty token: the last page' },
  ]))('case $n: $why', ({ start, token }) => {
    expect(continueTokenAtStart(start)).toBe(token);
  });
});
