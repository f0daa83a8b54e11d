// One tile of the grid: the photo's thumbnail at the size its row needs, its badges and its selection button.
import { imageURL, dayLabel, formatDuration } from './api.js';
import { exceedsPixels } from './layout.js';

/** The tile's element, placed at `box` ({left, top, width, height}) within its section; the picture of a tile
 *  `onScreen` is fetched before those drawn ahead of the scrolling. */
export function makeTile(tile, box, dayKey, selected, onScreen) {
  const link = document.createElement('a');
  link.className = 'tile';
  link.href = `#asset=${tile.id}`;
  link.dataset.assetId = tile.id;
  link.style.transform = `translate(${box.left}px, ${box.top}px)`;
  link.style.width = `${box.width}px`;
  link.style.height = `${box.height}px`;
  if (selected) link.classList.add('selected');
  const image = document.createElement('img');
  image.decoding = 'async';
  if (onScreen) image.fetchPriority = 'high';
  image.draggable = false;
  image.alt = describe(tile, dayKey);
  image.src = imageURL(tile, box.height * (window.devicePixelRatio || 1) > 256 ? 512 : 256);
  if (exceedsPixels(tile, box)) {
    // A picture smaller than its slot is shown at its own size, centred: enlarged, it would only be blurred.
    image.classList.add('actual-size');
    image.style.maxWidth = `${tile.w}px`;
    image.style.maxHeight = `${tile.h}px`;
  }
  link.append(image);
  if (tile.type === 'video') link.append(badge('duration', formatDuration(tile.duration)));
  if (tile.favorite) link.append(badge('favorite', '♥'));
  const pick = document.createElement('button');
  pick.type = 'button';
  pick.className = 'pick';
  pick.tabIndex = -1; // the keyboard selects with the space bar on the tile itself
  pick.setAttribute('aria-label', 'Select');
  pick.setAttribute('aria-pressed', String(Boolean(selected)));
  link.append(pick);
  return link;
}

function badge(kind, text) {
  const element = document.createElement('span');
  element.className = `badge ${kind}`;
  element.textContent = text;
  element.setAttribute('aria-hidden', 'true');
  return element;
}

/** The tile's text alternative: what it is, the day it was taken, whether it is a favorite. */
export function describe(tile, dayKey) {
  const kind = tile.type === 'video' ? `Video, ${formatDuration(tile.duration)}` : tile.type === 'audio' ? 'Audio' : 'Photo';
  const day = dayLabel(dayKey);
  return `${kind}${day ? `, ${day}` : ''}${tile.favorite ? ', favorite' : ''}`;
}

/** Opens a tile on a click (or Enter); selects it with its circle, a modifier key, or the space bar; the arrow keys
 *  move along the tiles drawn. */
export function attachTileControls(canvas, { onOpen, onToggleSelect }) {
  canvas.addEventListener('click', (event) => {
    const link = event.target.closest('.tile');
    if (!link) return;
    event.preventDefault();
    if (event.target.closest('.pick') || event.ctrlKey || event.metaKey || event.shiftKey) {
      onToggleSelect(link.dataset.assetId);
    } else {
      onOpen(link.dataset.assetId);
    }
  });
  canvas.addEventListener('keydown', (event) => {
    const link = event.target.closest('.tile');
    if (!link) return;
    if (event.key === ' ') {
      event.preventDefault();
      onToggleSelect(link.dataset.assetId);
    } else if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
      event.preventDefault();
      const tiles = [...canvas.querySelectorAll('.tile')];
      tiles[tiles.indexOf(link) + (event.key === 'ArrowRight' ? 1 : -1)]?.focus();
    }
  });
}

/** Marks the drawn tile of `id` selected or not. */
export function markSelected(canvas, id, selected) {
  for (const link of canvas.querySelectorAll(`.tile[data-asset-id="${CSS.escape(id)}"]`)) {
    link.classList.toggle('selected', selected);
    link.querySelector('.pick')?.setAttribute('aria-pressed', String(selected));
  }
}
