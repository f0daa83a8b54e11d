// The page: the view shown (the timeline, an album, a search, the places, the duplicates), kept live, and the parts
// wired together.
import { change, searchView } from './api.js';
import { Timeline } from './timeline.js';
import { Scrubber, jumpTo, whenFilled } from './scrubber.js';
import { Sidebar } from './sidebar.js';
import { Viewer } from './viewer.js';
import { LiveStream } from './live.js';
import { Uploads } from './upload.js';
import { Selection } from './selection.js';
import { Folders } from './folders.js';
import { Duplicates } from './duplicates.js';
import { Places } from './places.js';

const $ = (selector) => document.querySelector(selector);
const status = $('#status');
const state = { view: 'timeline', daemonUp: true, connected: true };

function showStatus() {
  const text = !state.connected ? 'The gallery is not answering. Reconnecting…'
    : !state.daemonUp ? 'The photo library (photolibd) is not answering. Reconnecting…' : '';
  status.textContent = text;
  status.hidden = !text;
  status.className = 'status';
}

function showError(text) {
  status.textContent = text;
  status.hidden = false;
  status.className = 'status error';
  clearTimeout(showError.timer);
  showError.timer = setTimeout(showStatus, 6000);
}

const sidebar = new Sidebar($('#collections'), { onSelect: (view) => openView(view) });
const places = new Places($('#places'), { onOpen: (view) => openView(view) });
const duplicates = new Duplicates($('#duplicates'), {
  onError: showError,
  onChange: () => { if (state.view === 'duplicates') $('#view-count').textContent = duplicates.summary; },
});
/** The views that are not photos by section but a list the stream sends whole: the places, the duplicates. */
const panels = new Map([['places', places], ['duplicates', duplicates]]);
/** A view of the places: the Places view itself, a city's photos (`place-ID`) or a country's (`country-CC`). */
const isPlaceView = (view) => view === 'places' || view.startsWith('place-') || view.startsWith('country-');
const titleOf = (view) => (isPlaceView(view) ? places.titleOf(view) : sidebar.titleOf(view));
let selection;
const timeline = new Timeline($('#scroller'), $('#canvas'), {
  onOpen: (id) => { viewer.open(id); history.replaceState(null, '', `#view=${state.view}&asset=${id}`); },
  onToggleSelect: (id) => selection.toggle(id),
  isSelected: (id) => selection?.has(id),
  onIndexChange: () => {
    scrubber.render();
    const count = timeline.count ?? 0;
    $('#view-count').textContent = `${count.toLocaleString()} ${count === 1 ? 'item' : 'items'}`;
    $('#empty').hidden = count > 0;
  },
});
const scrubber = new Scrubber($('#scrubber'), timeline);
const viewer = new Viewer($('#viewer'), {
  timeline, albums: () => sidebar.albums, onError: showError,
  onClose: () => history.replaceState(null, '', `#view=${state.view}`),
});
selection = new Selection($('#selection-bar'), { timeline, albums: () => sidebar.albums, onError: showError, currentView: () => state.view });
new Uploads($('#uploads'), $('#drop-zone'));
const folders = new Folders($('#collections'), $('#album-folder'), { sidebar, onError: showError });

const live = new LiveStream({
  onSections: (event) => { timeline.applyEvent(event); if (viewer.isOpen) viewer.refresh(); },
  onCollections: (collections) => {
    sidebar.update(collections);
    folders.render();
    $('#view-title').textContent = titleOf(state.view);
  },
  onPlaces: (event) => {
    places.update(event);
    if (state.view === 'places') $('#view-count').textContent = places.summary;
  },
  onDuplicates: (event) => duplicates.update(event),
  // The view's index again, and a new stream from its token (the old one may not have been following a view).
  onReset: () => {
    const panel = panels.get(state.view);
    (panel ? panel.load() : timeline.reload()).then(() => live.follow(state.view, (panel ?? timeline).token))
      .catch((error) => showError(error.message));
  },
  onDaemon: (up) => { state.daemonUp = up; showStatus(); },
  onConnection: (connected) => { state.connected = connected; showStatus(); },
});

/** Shows a view and follows its changes. */
async function openView(view) {
  try {
    const panel = panels.get(view);
    const index = panel ? await panel.load() : await timeline.show(view);
    // A city's or country's heading names it: the page opened on one has not fetched the places yet.
    if (isPlaceView(view) && !places.places) await places.load().catch(() => null);
    if (panel) leaveTimeline();
    state.view = view;
    for (const [name, shown] of panels) shown.show(name === view);
    $('#canvas').hidden = Boolean(panel);
    $('#scrubber').hidden = Boolean(panel);
    $('#back').hidden = !isPlaceView(view) || Boolean(panel);
    if (panel) {
      $('#empty').hidden = true;
      $('#view-count').textContent = panel.summary;
      $('#scroller').scrollTop = 0;
    }
    selection.clear();
    sidebar.select(view);
    folders.render(view);
    $('#view-title').textContent = titleOf(view);
    history.replaceState(null, '', `#view=${view}`);
    live.follow(view, index.token);
    return index;
  } catch (error) {
    showError(error.message);
    if (error.status === 503) setTimeout(() => openView(view), 2000);
    return null;
  }
}

/** Lets go of the timeline's view while the places or the duplicates are shown: none of its sections loads on their
 *  scrolling, and its live changes are not applied (`timeline.show` takes a view again). */
function leaveTimeline() {
  timeline.generation++;
  timeline.view = null;
  timeline.sections = [];
  timeline.tops = [];
  timeline.canvas.replaceChildren();
}
$('#back').addEventListener('click', () => openView('places'));
// The place in the viewer's info panel asks for the photos taken there.
document.addEventListener('gallery-view', (event) => {
  if (viewer.isOpen) viewer.dialog.close();
  openView(event.detail);
});

/** The search form's terms: what was typed is a predicate when it has an operator or a quote (`rating >= 4`,
 *  `ANY keywords == 'cat'`), else words found in keywords, titles, captions and file names. */
function searchTerms(form) {
  const query = form.get('query')?.trim();
  const terms = { from: form.get('from'), to: form.get('to') };
  if (query) terms[/[=<>!'"]/.test(query) ? 'predicate' : 'text'] = query;
  return Object.fromEntries(Object.entries(terms).filter(([, value]) => value));
}

const searchForm = $('#search');
searchForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const terms = searchTerms(new FormData(searchForm));
  openView(Object.keys(terms).length ? searchView(terms) : 'timeline');
});
// A keyword chip of the viewer asks for the photos that have it.
document.addEventListener('gallery-search', (event) => {
  if (viewer.isOpen) viewer.dialog.close();
  searchForm.elements.query.value = event.detail;
  searchForm.requestSubmit();
});

// One dialog names a new album (the selected photos go into it) or a new folder.
const collectionDialog = $('#new-collection-dialog');
for (const kind of ['album', 'folder']) {
  $(`#new-${kind}`).addEventListener('click', () => {
    collectionDialog.dataset.kind = kind;
    collectionDialog.querySelector('h2').textContent = `New ${kind}`;
    for (const hint of collectionDialog.querySelectorAll('.hint')) hint.hidden = hint.dataset.for !== kind;
    collectionDialog.querySelector('input').value = '';
    collectionDialog.showModal();
  });
}
collectionDialog.addEventListener('close', async () => {
  if (collectionDialog.returnValue !== 'create') return;
  const title = collectionDialog.querySelector('input').value.trim();
  if (!title) return;
  try {
    if (collectionDialog.dataset.kind === 'folder') {
      await change({ action: 'createFolder', title });
    } else {
      await change({ action: 'createAlbum', title, ids: [...selection.ids] });
      selection.clear();
    }
  } catch (error) {
    showError(error.message);
  }
});

$('#upload-input').addEventListener('change', (event) => {
  document.dispatchEvent(new CustomEvent('gallery-files', { detail: [...event.target.files] }));
  event.target.value = '';
});

$('#menu-toggle').addEventListener('click', (event) => {
  const open = document.body.classList.toggle('sidebar-closed') === false;
  event.currentTarget.setAttribute('aria-expanded', String(open));
});

document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !viewer.isOpen && selection.ids.size) selection.clear();
});

// For the browser tests and the benchmark: the state of the page and a scrubber jump.
window.gallery = {
  timeline, viewer, sidebar, places, duplicates, live, openView, state,
  jumpTo: (month) => jumpTo(timeline, month), whenFilled: () => whenFilled(timeline),
};

const start = new URLSearchParams(location.hash.slice(1));
openView(start.get('view') || 'timeline').then(() => {
  const asset = start.get('asset');
  if (asset && timeline.tile(asset)) viewer.open(asset);
});
