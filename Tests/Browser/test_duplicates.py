"""Duplicates (contract §17, issue 48) in a real browser: copies of real photographs (scikit-image's, which scripts/setup
installs: the cat saved as JPEG at quality 92 and re-saved at 70 with the vips command, the astronaut with copies
scaled to half) come together in the Duplicates view as they are imported, each group best first with the one a
merge keeps marked and why; Merge, pressed from the keyboard, keeps it and moves the copy to Recently Deleted, live;
a merge the daemon refuses says why. On a library of its own: a merge trashes a photo the other tests do not expect.
The Duplicates screenshot is kept beside the README's (docs/duplicates.png)."""
import importlib.util
import os
import subprocess

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import ROOT, Gallery, make_photo
from page import assets, new_browser, press_sidebar, sidebar_count, tile_ids, wait_for

# Fingerprints are made with the first thumbnails, after the import: a group forms a moment later.
GROUPING = 90

SHOWN = """return [...document.querySelectorAll('#duplicates .duplicate-group')].map(group =>
    [...group.querySelectorAll('.copy')].map(copy => copy.dataset.memberId))"""


@pytest.fixture(scope="module")
def library():
    gallery = Gallery()
    photos = os.path.join(gallery.directory, "photos")
    os.makedirs(photos)
    gallery.start_daemon()
    gallery.import_files([make_photo(f"{photos}/IMG_{index:03}.jpg", index, f"2024:06:{1 + index:02} 10:00:00")
                          for index in range(4)])
    gallery.start_web()
    browser = new_browser(gallery.url)
    yield gallery, browser
    browser.quit()
    gallery.close()


def sample(name):
    """One of scikit-image's sample photographs."""
    spec = importlib.util.find_spec("skimage")
    assert spec, "scikit-image's sample photos are missing: scripts/setup installs them"
    return os.path.join(spec.submodule_search_locations[0], "data", name)


def vips(*arguments):
    subprocess.run(["vips", *arguments], check=True)


def copies(folder):
    """The cat at quality 92 and re-saved at 70; the astronaut, a copy scaled to half and that copy re-saved at 70."""
    os.makedirs(folder)
    cat, astronaut = f"{folder}/chelsea.jpg", f"{folder}/astronaut.jpg"
    vips("copy", sample("chelsea.png"), cat + "[Q=92]")
    vips("copy", sample("astronaut.png"), astronaut + "[Q=92]")
    # Dated as a camera would: the copies keep the EXIF they are made from.
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2024:07:14 16:20:00", cat], check=True)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2023:03:02 11:05:00", astronaut], check=True)
    vips("copy", cat, f"{folder}/chelsea-q70.jpg[Q=70]")
    vips("resize", astronaut, f"{folder}/astronaut-half.jpg[Q=92]", "0.5")
    vips("copy", f"{folder}/astronaut-half.jpg", f"{folder}/astronaut-half-q70.jpg[Q=70]")
    return [f"{folder}/{name}" for name in
            ["chelsea.jpg", "chelsea-q70.jpg", "astronaut.jpg", "astronaut-half.jpg", "astronaut-half-q70.jpg"]]


def ids_by_name(gallery):
    return {asset["originalFilename"]: asset["id"] for asset in assets(gallery, "--include-trashed")}


def group(driver, best_id):
    return driver.find_element(By.CSS_SELECTOR, f'#duplicates .duplicate-group[data-key="{best_id}"]')


def duplicates_button(driver):
    """The sidebar's Duplicates (found again each time: the sidebar is drawn again when the counts change)."""
    return driver.find_element(By.CSS_SELECTOR, '#collections button[data-view="duplicates"]')


def test_copies_group_with_the_kept_one_marked_and_merge_keeps_it_and_trashes_the_copy(library):
    gallery, browser = library
    # Reached from the sidebar with the keyboard, as the rest of the gallery is; no copies yet.
    assert duplicates_button(browser).find_element(By.XPATH, "..").get_attribute("data-collection-id")
    press_sidebar(browser, 'button[data-view="duplicates"]', Keys.ENTER)
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#view-title").text == "Duplicates", message="the view")
    empty = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#duplicates .empty"), message="the empty state")
    assert empty[0].text.startswith("No duplicates")
    assert duplicates_button(browser).get_attribute("aria-current") == "page"
    assert not browser.find_element(By.CSS_SELECTOR, "#scrubber").is_displayed()

    # The copies arrive while the view is open: the groups appear, best first, without a reload.
    browser.execute_script("window.stillTheSamePage = true")
    gallery.import_files(copies(os.path.join(gallery.directory, "copies")))
    ids = ids_by_name(gallery)
    cats = [ids["chelsea.jpg"], ids["chelsea-q70.jpg"]]
    astronauts = [ids["astronaut.jpg"], ids["astronaut-half.jpg"], ids["astronaut-half-q70.jpg"]]
    wait_for(browser, lambda d: sorted(d.execute_script(SHOWN)) == sorted([cats, astronauts]), timeout=GROUPING,
             message="both groups, best first")
    assert browser.execute_script("return window.stillTheSamePage === true")
    cat, astronaut = group(browser, cats[0]), group(browser, astronauts[0])
    kept = cat.find_element(By.CSS_SELECTOR, ".copy.kept")
    assert kept.get_attribute("data-member-id") == cats[0], "the quality-92 file is kept"
    assert kept.find_element(By.CSS_SELECTOR, ".verdict").text == "Kept — largest file", "the pixels tie"
    assert kept.find_element(By.CSS_SELECTOR, ".size").text.startswith("451 × 300 · ")
    assert kept.find_element(By.CSS_SELECTOR, ".date").text.startswith("Taken ")
    assert "2024" in kept.find_element(By.CSS_SELECTOR, ".date").text
    copy = cat.find_element(By.CSS_SELECTOR, f'.copy[data-member-id="{cats[1]}"]')
    assert "kept" not in copy.get_attribute("class").split()
    assert copy.find_element(By.CSS_SELECTOR, ".verdict").text == "To Recently Deleted"
    assert astronaut.find_element(By.CSS_SELECTOR, ".copy.kept .verdict").text == "Kept — most pixels: 512×512"
    assert len(astronaut.find_elements(By.CSS_SELECTOR, ".copy.kept")) == 1
    assert browser.find_element(By.CSS_SELECTOR, "#view-count").text == "2 groups · 5 photos"
    wait_for(browser, lambda d: sidebar_count(d, "Duplicates") == "5", message="the album's count")
    wait_for(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#duplicates img')].every(i => i.complete && i.naturalWidth > 0)"),
        message="every thumbnail drawn")
    target = os.environ.get("DUPLICATES_SCREENSHOT", os.path.join(ROOT, "docs", "duplicates.png"))
    assert browser.save_screenshot(target)

    # Merge from the keyboard: the quality-92 file stays, the re-save leaves the album for Recently Deleted.
    merge = cat.find_element(By.CSS_SELECTOR, "button[data-merge]")
    assert merge.text == "Merge"
    merge.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: d.execute_script(SHOWN) == [astronauts], message="the merged group leaves")
    assert browser.find_element(By.CSS_SELECTOR, "#duplicates .duplicates-note").text == \
        "Merged: chelsea.jpg kept, 1 photo moved to Recently Deleted."
    assert browser.execute_script("return document.activeElement.dataset.merge") == astronauts[0], \
        "the focus goes on to the next group's Merge"
    state = {asset["id"]: asset.get("isTrashed", False) for asset in assets(gallery, "--include-trashed")}
    assert not state[cats[0]] and state[cats[1]]
    wait_for(browser, lambda d: sidebar_count(d, "Duplicates") == "3", message="the copy left the album")
    browser.find_element(By.XPATH, "//*[@id='collections']//button[span[text()='Recently Deleted']]").click()
    wait_for(browser, lambda d: tile_ids(d) == [cats[1]], message="the copy in Recently Deleted")

    # A page that fell behind (its stream stopped) merges a group another client changed: the daemon's refusal is
    # said in the group, which is fetched again.
    press_sidebar(browser, 'button[data-view="duplicates"]')
    wait_for(browser, lambda d: d.execute_script(SHOWN) == [astronauts], message="the Duplicates view again")
    browser.execute_script("window.gallery.live.source.close()")
    gallery.photolib("trash", astronauts[2])
    group(browser, astronauts[0]).find_element(By.CSS_SELECTOR, "button[data-merge]").click()
    problem = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#duplicates .merge-problem"),
                       message="the refusal")
    assert problem[0].text.startswith("Not merged: ") and "one group" in problem[0].text
    wait_for(browser, lambda d: d.execute_script(SHOWN) == [astronauts[:2]], message="the group as it is now")
    state = {asset["id"]: asset.get("isTrashed", False) for asset in assets(gallery, "--include-trashed")}
    assert not state[astronauts[0]] and not state[astronauts[1]], "nothing merged"
