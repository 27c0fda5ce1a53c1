// Reading every page of a list with the next page asked for early. A page's continue token is in
// its metadata, which a kube List carries before its items, so it shows at the start of the body:
// the next page is asked for then, and the source builds it while this process still receives and
// parses the page before. Sequential pages leave both sides waiting on each other for every page
// (at 100k objects in pages of 5,000, about a third of the list's time). At most one page is read
// ahead. A token seen early is only used when the parsed page names the same one.

/** PageReader reads one page (token undefined: the first); onToken hears its continue token as soon as the start of its body shows one. */
export type PageReader<P> = (token: string | undefined, onToken: (token: string) => void) => Promise<P>;

/** Paged is what listAhead needs of a page: its continue token, if more pages follow. */
export interface Paged {
  readonly continue?: string;
}

/** AskedPage is one page asked for, with the token the start of its body showed and the page asked for with it. */
class AskedPage<P> {
  readonly page: Promise<P>;
  seen: string | undefined;
  next: AskedPage<P> | undefined;

  constructor(read: PageReader<P>, token: string | undefined, onSeen: (asked: AskedPage<P>) => void) {
    this.page = read(token, (seen) => {
      this.seen ??= seen;
      onSeen(this);
    });
    // A page read ahead may fail before it is waited for; it is seen then.
    this.page.catch(() => undefined);
  }
}

/** listAhead reads every page through read, in order, asking for each page's successor as soon as its token shows. */
export async function listAhead<P extends Paged>(read: PageReader<P>): Promise<P[]> {
  let waitedFor: AskedPage<P> | undefined;
  // Only the page being waited for reads ahead: a page read ahead waits its turn.
  const readAhead = (asked: AskedPage<P>): void => {
    if (asked === waitedFor && asked.next === undefined && asked.seen !== undefined) asked.next = new AskedPage(read, asked.seen, readAhead);
  };
  let current = new AskedPage(read, undefined, readAhead);
  const pages: P[] = [];
  for (;;) {
    waitedFor = current;
    readAhead(current);
    const page = await current.page;
    pages.push(page);
    if (!page.continue) return pages;
    const early = current.seen === page.continue ? current.next : undefined;
    current = early ?? new AskedPage(read, page.continue, readAhead);
  }
}

/**
 * continueTokenAtStart reads a List body's continue token from its start, before its items; it
 * answers undefined while the start may still show one, and '' when it cannot (the items began,
 * or metadata ended, first).
 */
export function continueTokenAtStart(start: string): string | undefined {
  const items = start.indexOf('"items"');
  const head = items < 0 ? start : start.slice(0, items);
  const found = /"continue":"([^"\\]*)"/.exec(head);
  if (found) return found[1] ?? '';
  return items < 0 ? undefined : '';
}
