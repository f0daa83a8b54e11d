// The gallery's JSON API, as the page calls it.

export class RequestError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function answer(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    throw new RequestError(response.status, (body && body.error) || `the gallery answered ${response.status}`);
  }
  return body;
}

export async function getJSON(url) {
  return answer(await fetch(url, { headers: { Accept: 'application/json' } }));
}

/** Performs one of the page's actions (see ChangeRoutes): {action, ids, album, title, value, rotate, crop}. */
export async function change(body) {
  return answer(await fetch('/api/changes', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  }));
}

export const viewIndex = (view) => getJSON(`/api/views/${encodeURIComponent(view)}`);
export const viewSections = (view, keys) =>
  getJSON(`/api/views/${encodeURIComponent(view)}/sections?keys=${keys.map(encodeURIComponent).join(',')}`);
export const assetInfo = (id) => getJSON(`/api/assets/${encodeURIComponent(id)}`);

const FAVORITE = 1, HIDDEN = 2, TRASHED = 4;

/** A tile as the server writes it: [id, width, height, mediaType, flags, version, duration]. */
export function decodeTile([id, w, h, type, flags, version, duration]) {
  return {
    id, w, h, type, version, duration,
    favorite: (flags & FAVORITE) !== 0, hidden: (flags & HIDDEN) !== 0, trashed: (flags & TRASHED) !== 0,
  };
}

/** The picture of a tile, upright, fitted in size×size (256, 512, 1024, 2048) or 'full'. */
export const imageURL = (tile, size) => `/image/${tile.id}/${tile.version}/${size}`;

/** The view key of a search: base64url of its terms. */
export function searchView(terms) {
  const bytes = new TextEncoder().encode(JSON.stringify(terms));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return 'search-' + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A file's size as a person reads it: "840 bytes", "41.2 KB", "2.1 MB". */
export function formatBytes(count) {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let value = count;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit++; }
  return `${unit ? value.toFixed(1) : value} ${units[unit]}`;
}

export function formatDuration(seconds) {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return minutes >= 60 ? `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** A section's heading: its day written out, or nothing for an album's runs. */
export function dayLabel(key) {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(key);
  if (!match) return key.startsWith('undated') ? 'No date' : '';
  return dayFormat.format(new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])));
}
