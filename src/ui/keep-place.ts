// Replacing a panel's content every few seconds must not throw a reader out of it: a table
// scrolled sideways on a phone would jump back, and a keyboard user's focus would fall back to
// the top of the page. Content that did not change is left alone; changed content takes over the
// scroll positions and the focus of the content it replaces (matched by position, as the tables
// keep their shape from one refresh to the next).

/** SCROLLERS and FOCUSABLE find the elements whose place is kept. */
const SCROLLERS = '.table-scroll';
const FOCUSABLE = 'a[href], button, input, select, [tabindex]';

/** replaceKeepingPlace puts content in container, keeping scroll positions and focus. */
export function replaceKeepingPlace(container: HTMLElement, content: HTMLElement): void {
  const old = container.firstElementChild;
  if (old instanceof HTMLElement && old.outerHTML === content.outerHTML) return;
  const scrolls = [...container.querySelectorAll<HTMLElement>(SCROLLERS)].map((box) => box.scrollLeft);
  const focusables = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const focused = document.activeElement instanceof HTMLElement ? focusables.indexOf(document.activeElement) : -1;
  container.replaceChildren(content);
  container.querySelectorAll<HTMLElement>(SCROLLERS).forEach((box, i) => (box.scrollLeft = scrolls[i] ?? 0));
  if (focused >= 0) container.querySelectorAll<HTMLElement>(FOCUSABLE)[focused]?.focus({ preventScroll: true });
}
