// The live stream of the open view (Server-Sent Events). The browser reconnects by itself and sends the last
// token it saw, so a page that slept gets what changed meanwhile, or a `reset` when that is too old.

export class LiveStream {
  constructor({ onSections, onCollections, onPlaces, onDuplicates, onReset, onDaemon, onConnection }) {
    this.handlers = { onSections, onCollections, onPlaces, onDuplicates, onReset, onDaemon, onConnection };
    this.source = null;
  }

  /** Follows `view` from `token` (the token its index was fetched at). */
  follow(view, token) {
    this.source?.close();
    const query = new URLSearchParams({ view });
    if (token) query.set('since', token);
    const source = new EventSource(`/api/events?${query}`);
    this.source = source;
    const parse = (handler) => (event) => { if (this.source === source) handler(JSON.parse(event.data)); };
    source.addEventListener('hello', parse((hello) => {
      this.handlers.onConnection(true);
      this.handlers.onDaemon(hello.daemon === 'up');
    }));
    source.addEventListener('sections', parse(this.handlers.onSections));
    source.addEventListener('places', parse(this.handlers.onPlaces));
    source.addEventListener('duplicates', parse(this.handlers.onDuplicates));
    source.addEventListener('collections', parse((event) => this.handlers.onCollections(event.collections)));
    source.addEventListener('daemon', parse((event) => this.handlers.onDaemon(event.state === 'up')));
    source.addEventListener('reset', parse(this.handlers.onReset));
    source.addEventListener('error', () => { if (this.source === source) this.handlers.onConnection(false); });
  }
}
