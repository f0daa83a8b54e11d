// One tile of the grid: the photo's thumbnail at the size its row needs, its badges and its selection button.
import { imageURL, dayLabel, formatDuration } from './api.js';

/** The tile's element, placed at `box` ({left, top, width, height}) within its section. */
export function makeTile(tile, box, dayKey, selected) {
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
  image.draggable = false;
  image.alt = describe(tile, dayKey);
  image.src = imageURL(tile, box.height * (window.devicePixelRatio || 1) > 256 ? 512 : 256);
  link.append(image);
  if (tile.type === 'video') link.append(badge('duration', formatDuration(tile.duration)));
  if (tile.favorite) link.append(badge('favorite', '♥'));
  const pick = document.createElement('button');
  pick.type = 'button';
  pick.className = 'pick';
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
