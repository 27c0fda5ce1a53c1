// Replacing a panel's content every few seconds must not throw a reader out of it: a table
// scrolled sideways on a phone would jump back, a scroll still animating from a key press would
// be cut off, and a keyboard user's focus would fall back to the top of the page. So content of
// the same shape (the tables keep theirs from one refresh to the next) is patched in place: only
// changed text and attributes are written, and the elements, their scroll and the focus stay.
// Content of another shape replaces the old and takes over its scroll positions and focus,
// matched by position.

/** SCROLLERS and FOCUSABLE find the elements whose place is kept on a replacement. */
const SCROLLERS = '.table-scroll';
const FOCUSABLE = 'a[href], button, input, select, [tabindex]';

/** replaceKeepingPlace puts content in container, keeping scroll positions and focus. */
export function replaceKeepingPlace(container: HTMLElement, content: HTMLElement): void {
  const old = container.firstElementChild;
  if (old instanceof HTMLElement && container.childNodes.length === 1 && sameShape(old, content)) {
    patch(old, content);
    return;
  }
  const scrolls = [...container.querySelectorAll<HTMLElement>(SCROLLERS)].map((box) => box.scrollLeft);
  const focusables = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const focused = document.activeElement instanceof HTMLElement ? focusables.indexOf(document.activeElement) : -1;
  container.replaceChildren(content);
  container.querySelectorAll<HTMLElement>(SCROLLERS).forEach((box, i) => (box.scrollLeft = scrolls[i] ?? 0));
  if (focused >= 0) container.querySelectorAll<HTMLElement>(FOCUSABLE)[focused]?.focus({ preventScroll: true });
}

/** sameShape tells whether two trees have the same elements in the same places (text and attributes may differ). */
function sameShape(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName || a.childNodes.length !== b.childNodes.length) return false;
  for (let i = 0; i < a.childNodes.length; i++) {
    if (!sameShape(a.childNodes[i]!, b.childNodes[i]!)) return false;
  }
  return true;
}

/** patch writes into `into` the text and attributes of `from`, a tree of the same shape, where they differ. */
function patch(into: Node, from: Node): void {
  if (into instanceof Element && from instanceof Element) patchAttributes(into, from);
  else if (into.nodeValue !== from.nodeValue) into.nodeValue = from.nodeValue;
  for (let i = 0; i < into.childNodes.length; i++) patch(into.childNodes[i]!, from.childNodes[i]!);
}

function patchAttributes(into: Element, from: Element): void {
  for (const name of into.getAttributeNames()) {
    if (!from.hasAttribute(name)) into.removeAttribute(name);
  }
  for (const name of from.getAttributeNames()) {
    const value = from.getAttribute(name)!;
    if (into.getAttribute(name) !== value) into.setAttribute(name, value);
  }
}
