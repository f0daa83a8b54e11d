// The Duplicates view: the copies of one photo side by side, a Merge button per group, kept live by the `duplicates`
// events of the view's stream.
import { change, formatBytes, getJSON, imageURL } from './api.js';
import { photos } from './places.js';

const clockFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const wallClock = (text) => clockFormat.format(new Date(`${text.slice(0, 19)}Z`));
/** When a photo came into the library, in this browser's time. */
const localClock = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A group's best member: the first, the one a merge keeps. */
const best = (group) => group.members[0];

/** Why a group's best member is the one a merge keeps, as `GET /api/duplicates` says it. */
function keptReason(group) {
  switch (group.keptBecause) {
    case 'pixels': return `most pixels: ${best(group).width}×${best(group).height}`;
    case 'fileSize': return 'largest file';
    case 'addedDate': return 'added first';
    default: return null;
  }
}

/** The Duplicates view (contract §17): each group of copies of one photo as a row of its members, best first, the one
 *  a merge keeps marked with why, each with its size and dates, and a Merge button per group that keeps the best and
 *  moves the others to Recently Deleted. Kept live by the `duplicates` events of the view's stream. */
export class Duplicates {
  constructor(element, { onError, onChange }) {
    this.element = element;
    this.onError = onError;
    this.onChange = onChange;
    this.groups = null;
    this.token = null;
    /** Groups (by their best member's id) whose merge was asked and not answered yet. */
    this.merging = new Set();
    /** Why a group's merge failed, shown in it until it is merged or asked again. */
    this.failures = new Map();
    /** What a merge does, above the groups. */
    this.intro = document.createElement('p');
    this.intro.className = 'duplicates-intro';
    this.intro.textContent = 'Merge keeps the photo marked Kept, gives it the others\u2019 albums, keywords and favorite, '
      + 'and moves the others to Recently Deleted.';
    /** What the last merge did, said once; the groups are drawn below it. */
    this.note = document.createElement('p');
    this.note.className = 'duplicates-note';
    this.note.setAttribute('role', 'status');
    this.list = document.createElement('div');
    element.append(this.intro, this.note, this.list);
    element.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-merge]');
      if (button) this.merge(button.dataset.merge);
    });
  }

  get shown() { return !this.element.hidden; }

  /** Fetches the groups (`GET /api/duplicates`); resolves with the answer. */
  async load() {
    const answer = await getJSON('/api/duplicates');
    this.update(answer);
    return answer;
  }

  /** Takes the groups of the API or of a `duplicates` event, and draws them when the view is shown. */
  update({ token, groups }) {
    this.token = token;
    this.groups = groups;
    const present = new Set(groups.map((group) => best(group).id));
    for (const key of this.failures.keys()) if (!present.has(key)) this.failures.delete(key);
    if (this.shown) this.render();
    this.onChange?.();
  }

  show(visible) {
    this.element.hidden = !visible;
    this.note.textContent = '';
    if (visible && this.groups) this.render(); else if (!visible) this.list.replaceChildren();
  }

  /** A line for the bar's count: how many groups of how many photos. */
  get summary() {
    const groups = this.groups ?? [];
    const count = groups.reduce((sum, group) => sum + group.members.length, 0);
    return `${groups.length.toLocaleString()} ${groups.length === 1 ? 'group' : 'groups'} · ${photos(count)}`;
  }

  /** Merges the group whose best member is `key` through the gallery's change route; the stream's next `duplicates`
   *  event confirms it. A failure (the group changed meanwhile) is said in the group, whose list is fetched again. */
  async merge(key) {
    const group = this.groups?.find((candidate) => best(candidate).id === key);
    if (!group || this.merging.has(key)) return;
    const ids = group.members.map((member) => member.id);
    this.merging.add(key);
    this.failures.delete(key);
    this.note.textContent = '';
    if (this.shown) this.render();
    try {
      await change({ action: 'mergeDuplicates', ids });
      this.note.textContent = `Merged: ${best(group).filename} kept, ${photos(ids.length - 1)} moved to Recently Deleted.`;
      this.groups = this.groups.filter((candidate) => best(candidate).id !== key);
      this.onChange?.();
    } catch (error) {
      this.failures.set(key, `Not merged: ${error.message}`);
      await this.load().catch(() => null);
      if (!this.failures.has(key)) this.onError(`Not merged: ${error.message}`);
    } finally {
      this.merging.delete(key);
      if (this.shown) this.render();
    }
  }

  render() {
    // The control that had the focus is found again in the new rows (or the next group's Merge, once its group went).
    const focused = this.element.contains(document.activeElement) ? document.activeElement : null;
    const focusedGroup = focused?.closest('.duplicate-group');
    const focusedIndex = focusedGroup ? [...this.list.querySelectorAll('.duplicate-group')].indexOf(focusedGroup) : -1;
    const groups = this.groups ?? [];
    this.intro.hidden = !groups.length;
    if (!groups.length) {
      const empty = document.createElement('p');
      empty.className = 'empty';
      empty.textContent = 'No duplicates. Copies of a photo (re-saved, resized or re-tagged) are shown here to merge.';
      this.list.replaceChildren(empty);
    } else {
      this.list.replaceChildren(...groups.map((group) => this.groupSection(group)));
    }
    if (!focused || this.element.contains(document.activeElement)) return;
    const sections = this.list.querySelectorAll('.duplicate-group');
    const again = focusedGroup && this.list.querySelector(
      `.duplicate-group[data-key="${CSS.escape(focusedGroup.dataset.key)}"] [data-focus="${focused.dataset.focus}"]`);
    const next = sections[Math.min(focusedIndex, sections.length - 1)]?.querySelector('button[data-merge]');
    (again ?? next ?? this.element.closest('[tabindex]'))?.focus();
  }

  groupSection(group) {
    const { id: key, filename } = best(group);
    const section = document.createElement('section');
    section.className = 'duplicate-group';
    section.dataset.key = key;
    const headingId = `duplicates-${key}`;
    section.setAttribute('aria-labelledby', headingId);
    const header = document.createElement('header');
    const heading = document.createElement('h2');
    heading.id = headingId;
    heading.textContent = filename;
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = photos(group.members.length);
    const merging = this.merging.has(key);
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'primary';
    button.dataset.merge = key;
    button.dataset.focus = 'merge';
    // Not `disabled`: a disabled button loses the focus, which stays on it until its group goes (`merge` ignores it).
    if (merging) button.setAttribute('aria-disabled', 'true');
    button.textContent = merging ? 'Merging…' : 'Merge';
    const others = group.members.length - 1;
    button.setAttribute('aria-label', `Merge ${photos(group.members.length)} of ${filename}: keep the first, `
      + `move ${others === 1 ? 'the other' : `the other ${others}`} to Recently Deleted`);
    button.title = 'Keeps the first and moves the others to Recently Deleted, with their albums, keywords and favorite given to the one kept';
    header.append(heading, count, button);
    section.append(header);
    const failure = this.failures.get(key);
    if (failure) {
      const problem = document.createElement('p');
      problem.className = 'merge-problem';
      problem.setAttribute('role', 'alert');
      problem.textContent = failure;
      section.append(problem);
    }
    const list = document.createElement('ul');
    list.className = 'copies';
    for (const [index, member] of group.members.entries()) list.append(this.memberCard(group, member, index));
    section.append(list);
    return section;
  }

  memberCard(group, member, index) {
    const item = document.createElement('li');
    item.className = index === 0 ? 'copy kept' : 'copy';
    item.dataset.memberId = member.id;
    const link = document.createElement('a');
    link.href = imageURL(member, 'full');
    link.target = '_blank';
    link.rel = 'noopener';
    link.dataset.focus = `open-${member.id}`;
    const image = document.createElement('img');
    image.src = imageURL(member, 256);
    image.alt = `${member.filename}, ${member.width} × ${member.height} (opens at full size)`;
    image.loading = 'lazy';
    image.decoding = 'async';
    image.draggable = false;
    // The tile keeps the photo's shape: its box is set before the thumbnail arrives, so the rows do not jump.
    image.width = Math.round(Math.min(240, 150 * (member.width / Math.max(member.height, 1))));
    image.height = 150;
    link.append(image);
    const verdict = document.createElement('span');
    verdict.className = 'verdict';
    if (index === 0) {
      const reason = keptReason(group);
      verdict.textContent = reason ? `Kept — ${reason}` : 'Kept';
    } else {
      verdict.textContent = 'To Recently Deleted';
    }
    const size = document.createElement('span');
    size.className = 'size';
    size.textContent = `${member.width} × ${member.height} · ${formatBytes(member.fileSize)}`;
    const date = document.createElement('span');
    date.className = 'date';
    date.textContent = member.creationDate ? `Taken ${wallClock(member.creationDate)}` : 'No date';
    item.append(link, verdict, size, date);
    if (group.keptBecause === 'addedDate') {
      const added = document.createElement('span');
      added.className = 'date';
      added.textContent = `Added ${localClock.format(new Date(member.addedDate))}`;
      item.append(added);
    }
    return item;
  }
}
