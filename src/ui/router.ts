// Hash routes (`#/overview`, `#/events`, `#/objects`): the views are links in the navigation,
// so they are reached by keyboard and by URL, the browser's back button works, and the page is
// never reloaded. Showing a view moves the focus to its heading, so a keyboard or screen-reader
// user lands on what was asked for.

import { h } from './dom.js';
import type { View } from './view.js';

/** Router shows one view at a time and keeps the navigation in step. */
export class Router {
  readonly nav: HTMLElement;
  readonly main: HTMLElement;
  private readonly sections = new Map<string, { view: View; section: HTMLElement; heading: HTMLElement; link: HTMLAnchorElement }>();

  constructor(private readonly views: readonly View[]) {
    const items: HTMLElement[] = [];
    const sections: HTMLElement[] = [];
    for (const view of views) {
      const link = h('a', { href: `#/${view.id}`, 'data-view-link': view.id }, view.title);
      const heading = h('h1', { tabindex: -1 }, view.title);
      const section = h('section', { id: `view-${view.id}`, 'data-view': view.id, 'aria-labelledby': `view-${view.id}-heading`, hidden: true }, heading, view.element);
      heading.id = `view-${view.id}-heading`;
      items.push(h('li', {}, link));
      sections.push(section);
      this.sections.set(view.id, { view, section, heading, link });
    }
    this.nav = h('nav', { 'aria-label': 'Views' }, h('ul', {}, ...items));
    this.main = h('main', { id: 'main' }, ...sections);
  }

  /** start shows the view the URL names and follows the URL from then on. */
  start(): void {
    window.addEventListener('hashchange', () => this.show(true));
    this.show(false);
  }

  /** current is the view the URL names (the first view for any other URL). */
  current(): View {
    const id = /^#\/([a-z]+)/.exec(window.location.hash)?.[1];
    return this.sections.get(id ?? '')?.view ?? this.views[0]!;
  }

  private show(moveFocus: boolean): void {
    const current = this.current();
    for (const { view, section, link } of this.sections.values()) {
      const active = view === current;
      section.hidden = !active;
      if (active) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    document.title = `${current.title} · cachegate`;
    current.shown?.();
    if (moveFocus) this.sections.get(current.id)?.heading.focus();
  }
}
