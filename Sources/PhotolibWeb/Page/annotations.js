// The info panel's first section: the photo's title, caption, stars and keywords (contract §14), each editable and
// saved at once through the gallery (the daemon writes them to the photo's XMP sidecar). What another program
// changes arrives with the live stream, which redraws the panel; a field being typed in keeps what was typed.
import { change } from './api.js';

const STARS = [1, 2, 3, 4, 5];

/** The section's element for `asset`; `onError` shows a refusal. */
export function annotationEditor({ asset }, onError) {
  const save = async (body) => {
    try {
      await change({ ids: [asset.id], ...body });
    } catch (error) {
      onError(error.message);
    }
  };
  const form = document.createElement('div');
  form.className = 'annotations';
  form.append(
    textField('title', 'Title', asset.title, (value) => save({ action: 'setTitle', title: value })),
    textField('caption', 'Caption', asset.caption, (value) => save({ action: 'setCaption', caption: value })),
    ratingControl(asset.rating ?? 0, (rating) => save({ action: 'rate', rating })),
    keywordList(asset.keywords ?? [], {
      add: (keyword) => save({ action: 'tag', addKeywords: [keyword] }),
      remove: (keyword) => save({ action: 'tag', removeKeywords: [keyword] }),
      find: (keyword) => document.dispatchEvent(new CustomEvent('gallery-search', { detail: keywordPredicate(keyword) })),
    }),
  );
  const problem = asset.sidecar?.writeProblem;
  if (problem) {
    const note = document.createElement('p');
    note.className = 'sidecar-problem';
    note.textContent = `Kept in the library, but not written to the sidecar: ${problem}`;
    form.append(note);
  }
  return form;
}

/** A labelled text field saved when it changes (Enter, or leaving it); the caption has several lines. */
function textField(name, label, value, onSave) {
  const wrapper = document.createElement('label');
  wrapper.className = 'field';
  wrapper.textContent = label;
  const field = document.createElement(name === 'caption' ? 'textarea' : 'input');
  field.name = name;
  field.dataset.key = name;
  field.defaultValue = value ?? '';
  field.placeholder = name === 'caption' ? 'Add a caption' : 'Add a title';
  if (name === 'caption') field.rows = 3;
  field.addEventListener('change', () => {
    field.defaultValue = field.value;
    onSave(field.value.trim());
  });
  wrapper.append(field);
  return wrapper;
}

/** Five stars (the one already given takes them away again) and a reject mark, as darktable and Lightroom rate. */
function ratingControl(rating, onRate) {
  const group = document.createElement('div');
  group.className = 'rating';
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', `Rating: ${rating < 0 ? 'rejected' : rating ? `${rating} of 5 stars` : 'none'}`);
  for (const stars of STARS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.key = `rating-${stars}`;
    button.dataset.rating = String(stars);
    button.textContent = stars <= rating ? '★' : '☆';
    button.setAttribute('aria-pressed', String(stars === rating));
    button.setAttribute('aria-label', `${stars} ${stars === 1 ? 'star' : 'stars'}`);
    button.addEventListener('click', () => onRate(stars === rating ? 0 : stars));
    group.append(button);
  }
  const reject = document.createElement('button');
  reject.type = 'button';
  reject.className = 'reject';
  reject.dataset.key = 'rating-reject';
  reject.dataset.rating = '-1';
  reject.textContent = 'Reject';
  reject.setAttribute('aria-pressed', String(rating < 0));
  reject.addEventListener('click', () => onRate(rating < 0 ? 0 : -1));
  group.append(reject);
  return group;
}

/** The keywords as chips (a hierarchy's levels shown with ›), each removable and a search of its own, and a field
 *  that adds one on Enter. */
function keywordList(keywords, { add, remove, find }) {
  const wrapper = document.createElement('div');
  wrapper.className = 'keywords';
  const list = document.createElement('ul');
  list.setAttribute('aria-label', 'Keywords');
  for (const keyword of keywords) {
    const chip = document.createElement('li');
    chip.className = 'chip';
    chip.dataset.keyword = keyword;
    const name = document.createElement('button');
    name.type = 'button';
    name.className = 'chip-name';
    name.dataset.key = `keyword-${keyword}`;
    name.textContent = keyword.split('|').join(' › ');
    name.title = `Show every photo with the keyword ${keyword}`;
    name.addEventListener('click', () => find(keyword));
    const drop = document.createElement('button');
    drop.type = 'button';
    drop.className = 'chip-remove';
    drop.dataset.key = `keyword-remove-${keyword}`;
    drop.textContent = '×';
    drop.setAttribute('aria-label', `Remove the keyword ${keyword}`);
    drop.addEventListener('click', () => remove(keyword));
    chip.append(name, drop);
    list.append(chip);
  }
  const field = document.createElement('input');
  field.name = 'keyword';
  field.dataset.key = 'keyword-add';
  field.placeholder = 'Add a keyword';
  field.setAttribute('aria-label', 'Add a keyword (Places|Paris for a hierarchy)');
  field.addEventListener('keydown', (event) => {
    const keyword = field.value.trim();
    if (event.key !== 'Enter' || !keyword) return;
    event.preventDefault();
    field.value = '';
    add(keyword);
  });
  wrapper.append(list, field);
  return wrapper;
}

/** The predicate of the photos that have `keyword`. */
function keywordPredicate(keyword) {
  return `ANY keywords == '${keyword.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
