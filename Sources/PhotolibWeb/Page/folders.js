// Albums filed into folders: dragged in the sidebar onto a folder (or onto the Albums heading, out of any folder),
// or, from the keyboard, with the folder menu beside the title of the album shown.
import { change } from './api.js';

export class Folders {
  constructor(list, picker, { sidebar, onError }) {
    this.picker = picker;
    this.sidebar = sidebar;
    this.onError = onError;
    this.view = 'timeline';
    list.addEventListener('dragstart', (event) => {
      const item = event.target.closest('li[draggable="true"]');
      if (item) event.dataTransfer.setData('application/x-photolib-collection', item.dataset.collectionId);
    });
    const target = (event) => event.dataTransfer.types.includes('application/x-photolib-collection')
      && event.target.closest('li.folder, li.heading');
    list.addEventListener('dragover', (event) => { if (target(event)) event.preventDefault(); });
    list.addEventListener('drop', (event) => {
      const into = target(event);
      if (!into) return;
      event.preventDefault();
      this.move(event.dataTransfer.getData('application/x-photolib-collection'), into.dataset.collectionId ?? null);
    });
    picker.addEventListener('change', () => {
      const album = this.shownAlbum();
      if (album) this.move(album.id, picker.value || null);
    });
  }

  /** The album the page shows, if it shows one. */
  shownAlbum() {
    const album = this.view.startsWith('collection-') && this.sidebar.collection(this.view.slice('collection-'.length));
    return album?.kind === 'album' ? album : null;
  }

  /** Shows the folder menu when an album is shown and there are folders to file it in. */
  render(view = this.view) {
    this.view = view;
    const album = this.shownAlbum();
    const folders = this.sidebar.collections.filter((collection) => collection.kind === 'folder')
      .sort((left, right) => left.title.localeCompare(right.title));
    this.picker.hidden = !album || !folders.length;
    if (this.picker.hidden) return;
    this.picker.replaceChildren(new Option('Not in a folder', ''),
      ...folders.map((folder) => new Option(`In ${folder.title}`, folder.id)));
    this.picker.value = album.parentId ?? '';
  }

  /** Puts the album or folder `id` into `folder`, or out of its folder when `folder` is null. */
  async move(id, folder) {
    const moved = this.sidebar.collection(id);
    if (!moved || (moved.parentId ?? null) === folder || id === folder) return;
    try {
      await change({ action: 'moveToFolder', collections: [id], folder, from: moved.parentId ?? null });
    } catch (error) {
      this.onError(error.message);
      this.render();
    }
  }
}
