// A small element builder, so views read as the markup they make. Text is always set as text
// (never parsed as HTML): object names, labels and messages come from the API and may hold
// anything.

/** Child is what an element may contain; null, undefined and false add nothing. */
export type Child = Node | string | number | null | undefined | false;

/** Attributes are set as attributes; false and undefined leave one out, true sets it empty. */
export type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;

/** h makes an element with attributes and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...children.filter((child): child is Node | string | number => child !== null && child !== undefined && child !== false).map((child) => (typeof child === 'number' ? String(child) : child)));
  return element;
}
