// Several photos picked in the grid, and what can be done to them at once.
import { change } from './api.js';
import { markSelected } from './tiles.js';

export class Selection {
  constructor(bar, { timeline, albums, onError, currentView }) {
    this.bar = bar;
    this.timeline = timeline;
    this.albums = albums;
    this.onError = onError;
    this.currentView = currentView;
    this.ids = new Set();
    bar.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-selection]');
      if (button) this.perform(button.dataset.selection);
    });
  }

  has(id) { return this.ids.has(id); }

  toggle(id) {
    if (this.ids.has(id)) this.ids.delete(id); else this.ids.add(id);
    markSelected(this.timeline.canvas, id, this.ids.has(id));
    this.render();
  }

  clear() {
    for (const id of this.ids) markSelected(this.timeline.canvas, id, false);
    this.ids.clear();
    this.render();
  }

  render() {
    this.bar.hidden = this.ids.size === 0;
    this.bar.querySelector('.selected-count').textContent = `${this.ids.size} selected`;
    const select = this.bar.querySelector('select[name="album"]');
    select.replaceChildren(new Option('Add to album…', ''), ...this.albums().map((album) => new Option(album.title, album.id)));
    const inTrash = this.currentView().startsWith('collection-') && this.timeline.tile([...this.ids][0] ?? '')?.trashed;
    this.bar.querySelector('[data-selection="trash"]').hidden = Boolean(inTrash);
    this.bar.querySelector('[data-selection="restore"]').hidden = !inTrash;
  }

  async perform(action) {
    const ids = [...this.ids];
    const requests = {
      favorite: { action: 'favorite', value: true },
      hide: { action: 'hide', value: true },
      trash: { action: 'trash' },
      restore: { action: 'restore' },
      'add-to-album': { action: 'addToAlbum', album: this.bar.querySelector('select[name="album"]').value },
      clear: null,
    };
    if (!(action in requests)) return;
    const body = requests[action];
    if (body && !(body.action === 'addToAlbum' && !body.album)) {
      try {
        await change({ ids, ...body });
      } catch (error) {
        this.onError(error.message);
        return;
      }
    }
    this.clear();
  }
}
