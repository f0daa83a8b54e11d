// The views that are not photos by section but a list the view's stream sends whole, again at every change: Places
// here, Duplicates in duplicates.js.
//
// The Places view: the countries the library's photos were taken in, the most photographed first, each with its key
// photo and total, then its cities, each with a key photo and its count. A city opens its photos as a view of its
// own (`place-ID`), a country all of its photos (`country-CC`). The list is kept live by the `places` events of
// the view's stream.
import { getJSON, imageURL } from './api.js';

/** Whether a region is only its city's name again ("Moscow", "Zurich" for Zürich): it is not said twice. */
export const sameName = (left, right) => left != null && left.localeCompare(right, undefined, { sensitivity: 'base' }) === 0;
export const photos = (count) => `${count.toLocaleString()} ${count === 1 ? 'photo' : 'photos'}`;

export class Places {
  constructor(element, { onOpen }) {
    this.element = element;
    this.places = null;
    this.token = null;
    element.addEventListener('click', (event) => {
      const button = event.target.closest('[data-view]');
      if (button) onOpen(button.dataset.view);
    });
  }

  get shown() { return !this.element.hidden; }

  /** Fetches the cities (`GET /api/places`); resolves with the answer. */
  async load() {
    const answer = await getJSON('/api/places');
    this.update(answer);
    return answer;
  }

  /** Takes the cities of the API or of a `places` event, and draws them when the view is shown. */
  update({ token, places }) {
    this.token = token;
    this.places = places;
    if (this.shown) this.render();
  }

  show(visible) {
    this.element.hidden = !visible;
    if (visible && this.places) this.render();
  }

  /** The countries, each with its cities (in the daemon's order: the most photographed first) and its total. */
  get countries() {
    const byCode = new Map();
    for (const place of this.places ?? []) {
      let country = byCode.get(place.countryCode);
      if (!country) {
        country = { code: place.countryCode, name: place.country, cities: [], total: 0 };
        byCode.set(place.countryCode, country);
      }
      country.cities.push(place);
      country.total += place.assetCount;
    }
    return [...byCode.values()].sort((left, right) => right.total - left.total || left.name.localeCompare(right.name));
  }

  /** The heading of a place's or country's view, once the cities are known. */
  titleOf(view) {
    if (view === 'places') return 'Places';
    const places = this.places ?? [];
    if (view.startsWith('place-')) {
      const place = places.find((candidate) => `place-${candidate.id}` === view);
      return place ? [place.city, place.country].join(', ') : 'Place';
    }
    return places.find((candidate) => `country-${candidate.countryCode}` === view)?.country ?? 'Country';
  }

  /** A line for the bar's count: how many photos in how many cities. */
  get summary() {
    const places = this.places ?? [];
    const total = places.reduce((sum, place) => sum + place.assetCount, 0);
    return `${photos(total)} in ${places.length.toLocaleString()} ${places.length === 1 ? 'city' : 'cities'}`;
  }

  render() {
    const countries = this.countries;
    if (!countries.length) {
      const empty = document.createElement('p');
      empty.className = 'empty';
      empty.textContent = 'No places yet. Photos taken with the location on (GPS) are shown here by city and country.';
      this.element.replaceChildren(empty);
      return;
    }
    const sections = countries.map((country) => {
      const section = document.createElement('section');
      section.className = 'country';
      section.dataset.countryCode = country.code;
      section.setAttribute('aria-labelledby', `country-${country.code}`);
      const heading = document.createElement('button');
      heading.type = 'button';
      heading.className = 'country-heading';
      heading.dataset.view = `country-${country.code}`;
      const cities = country.cities.length;
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = `${photos(country.total)} · ${cities.toLocaleString()} ${cities === 1 ? 'city' : 'cities'}`;
      const name = document.createElement('h2');
      name.id = `country-${country.code}`;
      name.textContent = country.name;
      const text = document.createElement('span');
      text.append(name, count);
      heading.append(picture(country.cities[0], `A photo taken in ${country.name}`), text);
      heading.setAttribute('aria-label', `${country.name}: ${count.textContent}`);
      const list = document.createElement('ul');
      list.className = 'cities';
      for (const place of country.cities) list.append(cityCard(place));
      section.append(heading, list);
      return section;
    });
    this.element.replaceChildren(...sections);
  }
}

/** The key photo of a place, square, at the grid's thumbnail size. */
function picture(place, alt) {
  const image = document.createElement('img');
  image.src = imageURL({ id: place.keyAssetId, version: place.keyVersion }, 256);
  image.alt = alt;
  image.decoding = 'async';
  image.draggable = false;
  return image;
}

function cityCard(place) {
  const item = document.createElement('li');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'place-card';
  button.dataset.view = `place-${place.id}`;
  button.dataset.placeId = place.id;
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = place.city;
  const detail = document.createElement('span');
  detail.className = 'count';
  detail.textContent = photos(place.assetCount);
  const region = document.createElement('span');
  region.className = 'region';
  // A line even without a region, so that the counts of a row of cards line up.
  region.textContent = place.region && !sameName(place.region, place.city) ? place.region : '\u00a0';
  button.append(picture(place, `A photo taken in ${place.city}`), name, region, detail);
  const named = region.textContent.trim() ? `, ${region.textContent}` : '';
  button.setAttribute('aria-label', `${place.city}${named}: ${photos(place.assetCount)}`);
  item.append(button);
  return item;
}

/** A photo's date as its own clock read it (RFC 3339 with its offset): the wall-clock time, whatever the browser's zone. */
