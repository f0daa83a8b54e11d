// The viewer's info panel: a list of sections, each drawn from the asset's info (`GET /api/assets/ID`), the first
// one editable (annotations.js).
import { annotationEditor } from './annotations.js';
import { formatBytes } from './api.js';
import { sameName } from './places.js';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' });

function rows(pairs) {
  const list = document.createElement('dl');
  for (const [term, value] of pairs) {
    if (value == null || value === '') continue;
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  return list.children.length ? list : null;
}

/** A date as the photo's own clock read it (its offset kept), with the offset shown. */
function localDate(text) {
  if (!text) return null;
  const offset = /([+-]\d{2}:\d{2}|Z)$/.exec(text)?.[1] ?? '';
  return `${dateTime.format(new Date(text))}${offset && offset !== 'Z' ? ` (UTC${offset})` : ''}`;
}

/** A place as a person says it: "Paris, Île-de-France, France" (a region named as its city said once). */
function placeName(place) {
  if (!place) return null;
  return [place.city, sameName(place.region, place.city) ? null : place.region, place.country].filter(Boolean).join(', ');
}

/** The place's row made a button that shows the photos taken there (main.js opens the view `place-ID`). */
function withPlaceLink(place, list) {
  const value = place && list?.querySelector('dd');
  if (!value) return list;
  const link = document.createElement('button');
  link.type = 'button';
  link.className = 'place-link';
  link.dataset.placeId = place.id;
  link.textContent = value.textContent;
  link.title = `Show the photos taken in ${place.city}`;
  link.addEventListener('click', () => document.dispatchEvent(new CustomEvent('gallery-view', { detail: `place-${place.id}` })));
  value.replaceChildren(link);
  return list;
}

export const infoSections = [
  {
    title: 'Description',
    render: (info, { onError }) => annotationEditor(info, onError),
  },
  {
    title: 'Dates',
    render: ({ asset }) => rows([
      ['Taken', localDate(asset.creationDate)], ['Added', localDate(asset.addedDate)], ['Modified', localDate(asset.modificationDate)],
    ]),
  },
  {
    title: 'Place',
    render: ({ asset }) => asset.location && withPlaceLink(asset.place, rows([
      ['Place', placeName(asset.place)], ['Latitude', asset.location.latitude.toFixed(5)], ['Longitude', asset.location.longitude.toFixed(5)],
      ['Altitude', asset.location.altitude != null ? `${asset.location.altitude.toFixed(0)} m` : null],
    ])),
  },
  {
    title: 'Camera',
    render: ({ asset }) => rows([
      ['Camera', [asset.cameraMake, asset.cameraModel].filter(Boolean).join(' ')], ['Lens', asset.lensModel],
      ['Aperture', asset.fNumber ? `ƒ/${asset.fNumber}` : null],
      ['Exposure', asset.exposureTime ? (asset.exposureTime < 1 ? `1/${Math.round(1 / asset.exposureTime)} s` : `${asset.exposureTime} s`) : null],
      ['ISO', asset.iso], ['Focal length', asset.focalLength ? `${asset.focalLength} mm` : null],
    ]),
  },
  {
    title: 'Files',
    render: ({ asset }) => rows([
      ['Size', `${asset.pixelWidth} × ${asset.pixelHeight}`], ['Edited', asset.hasAdjustments ? 'yes' : null],
      ['Sidecar', asset.sidecar?.path],
      ...(asset.resources ?? [{ originalFilename: asset.originalFilename, fileSize: asset.fileSize, mimeType: '' }])
        .map((resource) => [resource.type ?? 'File', `${resource.originalFilename} — ${resource.mimeType} ${formatBytes(resource.fileSize)}`]),
    ]),
  },
  {
    title: 'Albums',
    render: ({ albums }) => albums.length ? rows(albums.map((album) => ['Album', album.title])) : null,
  },
];

/** Draws every section that has something to say about this asset; the control that had the focus keeps it, and a
 *  field being typed in keeps what was typed (the panel is drawn again whenever the asset changes). */
export function renderInfo(panel, info, context) {
  const focused = panel.contains(document.activeElement) ? document.activeElement : null;
  const typed = focused && 'defaultValue' in focused && focused.value !== focused.defaultValue ? focused.value : null;
  const parts = [];
  for (const section of infoSections) {
    const body = section.render(info, context);
    if (!body) continue;
    const heading = document.createElement('h3');
    heading.textContent = section.title;
    parts.push(heading, body);
  }
  panel.replaceChildren(...parts);
  const key = focused?.dataset.key;
  const again = key && [...panel.querySelectorAll('[data-key]')].find((element) => element.dataset.key === key);
  if (!again) return;
  if (typed != null) again.value = typed;
  again.focus();
}
