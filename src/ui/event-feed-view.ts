// The event feed: the CachedObject changes the live feed delivers, newest first, at most
// FEED_LENGTH of them. Each entry says what happened (ADDED, MODIFIED, DELETED), to which
// original (schema, cluster, namespace, name) and at which cache resourceVersion. The state
// of the stream is shown above the list, so a silent feed can be told from a broken one.

import { CLUSTER_ANNOTATION, SHARD_ANNOTATION } from './api-types.js';
import { h } from './dom.js';
import { formatTime } from './format.js';
import { FEED_LENGTH } from './live-feed.js';
import type { FeedEvent, FeedState, LiveFeed } from './live-feed.js';
import type { View } from './view.js';

const STATE_TEXT: Readonly<Record<FeedState, string>> = {
  connecting: 'connecting…',
  live: 'live: new changes appear at the top',
  reconnecting: 'the stream broke; reconnecting…',
  'signed-out': 'a token is needed',
};

/** SCHEMA_LABEL names the schema of a CachedObject's original. */
const SCHEMA_LABEL = 'cache.kcp.io/object-schema';

/** EventFeedView lists the live feed. */
export class EventFeedView implements View {
  readonly id = 'events';
  readonly title = 'Event feed';
  readonly element: HTMLElement;
  private readonly list = h('ol', { class: 'events', 'aria-label': 'CachedObject events, newest first' });
  private readonly state = h('p', { class: 'feed-state', role: 'status' });

  constructor(private readonly feed: LiveFeed) {
    const clear = h('button', { type: 'button' }, 'Clear the list');
    clear.addEventListener('click', () => {
      feed.events.length = 0;
      this.list.replaceChildren();
    });
    this.element = h('div', {},
      h('p', { class: 'hint' }, `Changes of CachedObjects since this page was opened (the newest ${FEED_LENGTH}), from the Server-Sent Events stream of /v1/cachedobjects?watch=true.`),
      h('div', { class: 'toolbar' }, this.state, clear), this.list);
    this.showState();
    feed.subscribe((event) => (event === undefined ? this.showState() : this.add(event)));
  }

  private showState(): void {
    this.state.dataset['feedState'] = this.feed.state;
    this.state.textContent = STATE_TEXT[this.feed.state];
  }

  private add(event: FeedEvent): void {
    this.list.prepend(entry(event));
    while (this.list.childElementCount > FEED_LENGTH) this.list.lastElementChild?.remove();
  }
}

function entry(event: FeedEvent): HTMLElement {
  const object = event.object;
  const raw = object.spec?.raw?.metadata;
  const annotations = object.metadata.annotations ?? {};
  const name = raw === undefined ? object.metadata.name : raw.namespace ? `${raw.namespace}/${raw.name}` : raw.name;
  return h('li', { class: 'event', 'data-type': event.type, 'data-name': raw?.name ?? object.metadata.name },
    h('span', { class: `event-type type-${event.type.toLowerCase()}` }, event.type),
    h('span', { class: 'event-name' }, name),
    h('span', { class: 'event-where' }, `${object.metadata.labels?.[SCHEMA_LABEL] ?? ''} in ${annotations[SHARD_ANNOTATION] ?? '?'}/${annotations[CLUSTER_ANNOTATION] ?? '?'}`),
    h('span', { class: 'event-meta' }, `${formatTime(event.receivedAt)} · resourceVersion ${event.resourceVersion}`));
}
