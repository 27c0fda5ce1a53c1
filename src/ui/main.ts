// The dashboard's entry point: wires the API client, the token prompt, the live feed and the
// three views, then follows the URL's hash route. Everything the page shows comes from the
// service's public HTTP APIs on the origin that served it; nothing here is shared with the
// server's code.

import { ApiClient, apiRootOf } from './api-client.js';
import { h } from './dom.js';
import { EventFeedView } from './event-feed-view.js';
import { LiveFeed } from './live-feed.js';
import { ObjectBrowserView } from './object-browser-view.js';
import { OverviewView } from './overview-view.js';
import { Router } from './router.js';
import { TokenPrompt } from './token-prompt.js';
import { TokenStore } from './token-store.js';

/** startDashboard renders the dashboard into the page's #app element. */
function startDashboard(): void {
  const app = document.getElementById('app');
  if (app === null) throw new Error('the page has no #app element');
  const tokens = new TokenStore();
  // A new token restarts everything that a 401 stopped.
  const prompt = new TokenPrompt(tokens, () => {
    feed.start();
    void overview.refresh();
    objects.refresh();
  });
  const api = new ApiClient(apiRootOf(window.location), tokens, (refused) => prompt.show(refused));
  const feed = new LiveFeed(api);
  const overview = new OverviewView(api, feed);
  const objects = new ObjectBrowserView(api);
  const router = new Router([overview, new EventFeedView(feed), objects]);
  const header = h('header', { class: 'top' }, h('p', { class: 'brand' }, 'cachegate'), router.nav);
  app.replaceChildren(header, router.main, prompt.element);
  router.start();
  feed.start();
  overview.start();
}

startDashboard();
