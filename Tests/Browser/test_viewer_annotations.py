"""The viewer's stars, keywords, title and caption (contract §14, issue 31) in a real browser: what another program
writes into a photo's XMP sidecar reaches the open panel live, and what is edited in the panel reaches the sidecar,
read back with exiftool."""
import json
import os
import subprocess

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import make_photo
from page import assets, open_timeline, open_viewer, tile_ids, wait_for


def exiftool(path, *tags):
    output = subprocess.run(["exiftool", "-j", *[f"-XMP:{tag}" for tag in tags], path], capture_output=True, text=True, check=True)
    return json.loads(output.stdout)[0]


def as_list(value):
    return value if isinstance(value, list) else [] if value is None else [value]


def stars_shown(driver):
    return driver.execute_script("""
        return [...document.querySelectorAll('#viewer .rating [data-rating]')]
            .filter(b => b.getAttribute('aria-pressed') === 'true').map(b => +b.dataset.rating)[0] ?? 0""")


def chips(driver):
    return driver.execute_script("return [...document.querySelectorAll('#viewer .keywords .chip')].map(c => c.dataset.keyword)")


def open_info(driver, asset_id):
    open_viewer(driver, asset_id)
    if driver.find_element(By.CSS_SELECTOR, "#viewer .info").get_attribute("hidden") is not None:
        driver.find_element(By.CSS_SELECTOR, '#viewer [data-action="info"]').click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#viewer .annotations"), message="the panel's annotations")


def test_a_sidecar_written_by_another_program_shows_live_and_an_edit_in_the_viewer_reaches_it(gallery, browser):
    folder = os.path.join(gallery.directory, "reference")
    os.makedirs(folder, exist_ok=True)
    photo = make_photo(os.path.join(folder, "REF.jpg"), 70, "2024:06:01:12:00:00", (900, 600))
    gallery.photolib("sources", "add", folder, "--mode", "reference")
    open_timeline(browser, gallery)
    asset_id = wait_for(browser, lambda d: next((a["id"] for a in assets(gallery) if a["originalFilename"] == "REF.jpg"), None),
                        message="the referenced photo is an asset")
    wait_for(browser, lambda d: asset_id in tile_ids(d), message="its tile")
    open_info(browser, asset_id)
    assert stars_shown(browser) == 0 and chips(browser) == []

    # darktable (here exiftool) writes the sidecar beside the photo: the open panel follows without a reload.
    sidecar = photo + ".xmp"
    subprocess.run(["exiftool", "-q", "-o", sidecar, "-XMP:Rating=3", "-XMP:Subject=harbour", photo], check=True)
    wait_for(browser, lambda d: stars_shown(d) == 3 and chips(d) == ["harbour"], message="the sidecar's stars and keyword")

    # Edited in the viewer: five stars, a hierarchical keyword, a title; the sidecar gets them beside what it had.
    browser.find_element(By.CSS_SELECTOR, '#viewer .rating [data-rating="5"]').click()
    wait_for(browser, lambda d: stars_shown(d) == 5, message="five stars shown")
    browser.find_element(By.CSS_SELECTOR, "#viewer .keywords input").send_keys("Places|Marseille", Keys.ENTER)
    wait_for(browser, lambda d: "Places|Marseille" in chips(d), message="the keyword's chip")
    title = browser.find_element(By.CSS_SELECTOR, '#viewer .annotations [name="title"]')
    title.send_keys("Old port", Keys.TAB)
    wait_for(browser, lambda d: json.loads(gallery.photolib("info", asset_id, "--json").stdout)["asset"]["title"] == "Old port",
             message="the title in the library")
    written = wait_for(browser, lambda d: (lambda x: x if x.get("Rating") == 5 and x.get("Title") == "Old port" else None)(
        exiftool(sidecar, "Rating", "Subject", "HierarchicalSubject", "Title")), message="the sidecar rewritten")
    assert "harbour" in as_list(written.get("Subject"))
    assert "Places|Marseille" in as_list(written.get("HierarchicalSubject"))
    info = json.loads(gallery.photolib("info", asset_id, "--json").stdout)["asset"]
    assert info["rating"] == 5 and set(info["keywords"]) >= {"harbour", "Places|Marseille"}

    # A keyword's chip searches the library for it.
    browser.find_element(By.XPATH, "//li[@data-keyword='harbour']/button[@class='chip-name']").click()
    wait_for(browser, lambda d: tile_ids(d) == [asset_id], message="the keyword's search")
    assert browser.find_element(By.CSS_SELECTOR, '#search [name="query"]').get_attribute("value") == "ANY keywords == 'harbour'"


def test_the_search_box_finds_photos_by_rating(gallery, browser):
    open_timeline(browser, gallery)
    rated = tile_ids(browser, photos_only=True)[2]
    gallery.photolib("rate", rated, "4")
    search = browser.find_element(By.CSS_SELECTOR, '#search [name="query"]')
    search.clear()
    search.send_keys("rating >= 4", Keys.ENTER)
    wait_for(browser, lambda d: rated in tile_ids(d) and all(
        a["rating"] >= 4 for a in assets(gallery) if a["id"] in tile_ids(d)), message="the photos with four stars or more")
    search.clear()
    search.send_keys(Keys.ENTER)
    wait_for(browser, lambda d: len(tile_ids(d)) > 5, message="back to the timeline")
