// The sidebar: the library, the places, the smart albums worth showing, then folders and albums as a tree, each
// with its count.

const SMART_ORDER = [
  'smartAlbumFavorites', 'smartAlbumRecentlyAdded', 'smartAlbumVideos', 'smartAlbumLivePhotos', 'smartAlbumPanoramas',
  'smartAlbumScreenshots', 'smartAlbumBursts', 'smartAlbumRAW', 'smartAlbumDuplicates', 'smartAlbumAllHidden',
  'smartAlbumRecentlyDeleted',
];
/** Shown even when empty: where a person looks for what they marked, hid, deleted or would merge. */
const ALWAYS = new Set(['smartAlbumFavorites', 'smartAlbumDuplicates', 'smartAlbumAllHidden', 'smartAlbumRecentlyDeleted']);
/** Smart albums shown as a view of their own rather than as photos by day: Duplicates by group (duplicates.js). */
const OWN_VIEWS = new Map([['smartAlbumDuplicates', 'duplicates']]);

export class Sidebar {
  constructor(list, { onSelect }) {
    this.list = list;
    this.onSelect = onSelect;
    this.collections = [];
    this.current = 'timeline';
    list.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-view]');
      if (button) this.onSelect(button.dataset.view);
    });
  }

  /** The albums a photo can be added to: regular albums, by title. */
  get albums() {
    return this.collections.filter((collection) => collection.kind === 'album')
      .sort((left, right) => left.title.localeCompare(right.title));
  }

  collection(id) { return this.collections.find((collection) => collection.id === id); }

  /** The title of a view for the page's heading. */
  titleOf(view) {
    if (view === 'timeline') return 'Library';
    if (view === 'duplicates') return 'Duplicates';
    if (view.startsWith('collection-')) return this.collection(view.slice('collection-'.length))?.title ?? 'Album';
    return 'Search';
  }

  update(collections) {
    this.collections = collections;
    this.render();
  }

  select(view) {
    this.current = view;
    // A city's or a country's photos are reached from Places, which stays marked.
    const shown = view.startsWith('place-') || view.startsWith('country-') ? 'places' : view;
    for (const button of this.list.querySelectorAll('button[data-view]')) {
      if (button.dataset.view === shown) button.setAttribute('aria-current', 'page'); else button.removeAttribute('aria-current');
    }
  }

  render() {
    const library = this.collections.find((collection) => collection.subtype === 'smartAlbumUserLibrary');
    const items = [this.item({ id: library?.id, title: 'Library', assetCount: library?.assetCount, view: 'timeline' }, 0),
      this.item({ title: 'Places', assetCount: null, view: 'places' }, 0)];
    const smart = this.collections.filter((collection) => collection.kind === 'smartAlbum'
      && SMART_ORDER.includes(collection.subtype) && (collection.assetCount > 0 || ALWAYS.has(collection.subtype)))
      .sort((left, right) => SMART_ORDER.indexOf(left.subtype) - SMART_ORDER.indexOf(right.subtype));
    for (const collection of smart) items.push(this.item(collection, 0));
    const heading = document.createElement('li');
    heading.className = 'heading';
    heading.textContent = 'Albums';
    heading.setAttribute('role', 'presentation');
    items.push(heading);
    const children = new Map();
    for (const collection of this.collections) {
      if (collection.kind !== 'album' && collection.kind !== 'folder') continue;
      const parent = collection.parentId ?? null;
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent).push(collection);
    }
    // Depth first by a stack of its own, not by recursion: folders nest to any depth, deeper than the script's stack.
    // Siblings go on it in reverse title order, to come off it in title order.
    for (const siblings of children.values()) siblings.sort((left, right) => right.title.localeCompare(left.title));
    const stack = (children.get(null) ?? []).map((collection) => ({ collection, depth: 0 }));
    while (stack.length > 0) {
      const { collection, depth } = stack.pop();
      items.push(this.item(collection, depth));
      if (collection.kind !== 'folder') continue;
      for (const child of children.get(collection.id) ?? []) stack.push({ collection: child, depth: depth + 1 });
    }
    // One at a time: spread into one call, a hundred thousand items overflow the stack too.
    this.list.replaceChildren();
    for (const item of items) this.list.append(item);
    this.select(this.current);
  }

  item(collection, depth) {
    const item = document.createElement('li');
    if (collection.id) item.dataset.collectionId = collection.id;
    // Albums and folders can be dragged onto a folder (folders.js).
    if (collection.kind === 'album' || collection.kind === 'folder') item.draggable = true;
    item.style.setProperty('--depth', depth);
    if (collection.kind === 'folder') {
      item.className = 'folder';
      item.textContent = collection.title;
      return item;
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.view = collection.view ?? OWN_VIEWS.get(collection.subtype) ?? `collection-${collection.id}`;
    const title = document.createElement('span');
    title.textContent = collection.title;
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = collection.assetCount == null ? '' : collection.assetCount.toLocaleString();
    button.append(title, count);
    // Places has no count of its own (null); a collection not yet counted has none so far (undefined).
    button.setAttribute('aria-label', collection.assetCount === null ? collection.title : `${collection.title}, ${collection.assetCount ?? 0} items`);
    item.append(button);
    return item;
  }
}
