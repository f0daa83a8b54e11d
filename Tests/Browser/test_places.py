"""Places (contract §15, issue 47) in a real browser: photos whose GPS exiftool wrote are shown by country and city,
each with a key photo and its count, kept live while an import adds a city; a city opens its photos, and the viewer's
info panel names the place. The Places screenshot is kept beside the README's (docs/places.png)."""
import os
import subprocess
from collections import Counter

from selenium.webdriver.common.by import By

from harness import ROOT, make_photo
from page import assets, press_sidebar, close_viewer, open_timeline, open_viewer, tile_ids, wait_for

# Taken in 2023, before the session's other photos: the timeline's first screens stay as the other tests expect.
LOCATED = [("eiffel", 48.8584, 2.2945), ("louvre", 48.8606, 2.3376), ("notre-dame", 48.8530, 2.3499),
           ("lyon", 45.7640, 4.8357), ("zurich", 47.3769, 8.5417), ("reykjavik", 64.1466, -21.9426),
           ("sydney", -33.8688, 151.2093), ("buenos-aires", -34.6037, -58.3816)]
LATER = [("zurich-lake", 47.3667, 8.5500), ("kyoto", 35.0116, 135.7681)]


def located_photo(gallery, name, index, latitude, longitude):
    path = make_photo(os.path.join(gallery.directory, f"{name}.jpg"), 60 + index, f"2023:08:{1 + index:02}:12:00:00")
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-GPSLatitude={abs(latitude)}",
                    f"-GPSLatitudeRef={'S' if latitude < 0 else 'N'}", f"-GPSLongitude={abs(longitude)}",
                    f"-GPSLongitudeRef={'W' if longitude < 0 else 'E'}", path], check=True)
    return path


def expected_places(gallery):
    """{country: {city: count}} as the daemon names the library's photos."""
    found = {}
    for asset in assets(gallery):
        place = asset.get("place")
        if place and not asset.get("isHidden") and not asset.get("isTrashed"):
            found.setdefault(place["country"], Counter())[place["city"]] += 1
    return found


def shown_places(driver):
    """{country: {city: count}} as the Places view shows them, read from its cards' text."""
    return driver.execute_script("""
        const shown = {};
        for (const section of document.querySelectorAll('#places section.country')) {
            const cities = {};
            for (const card of section.querySelectorAll('.place-card')) {
                cities[card.querySelector('.name').textContent] = parseInt(card.querySelector('.count').textContent);
            }
            shown[section.querySelector('h2').textContent] = cities;
        }
        return shown""")


def matches(driver, gallery):
    expected = expected_places(gallery)
    return expected and shown_places(driver) == {country: dict(cities) for country, cities in expected.items()}


def places_button(driver):
    """The sidebar's Places (found again each time: the sidebar is drawn again when the counts change)."""
    return driver.find_element(By.CSS_SELECTOR, '#collections button[data-view="places"]')


def pictures_drawn(driver, selector):
    return driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].every(i => i.complete && i.naturalWidth > 0)", selector)


def test_places_show_countries_and_cities_live_and_a_city_opens_its_photos(gallery, browser):
    open_timeline(browser, gallery)
    gallery.import_files([located_photo(gallery, name, index, *position) for index, (name, *position) in enumerate(LOCATED)])
    press_sidebar(browser, 'button[data-view="places"]')
    wait_for(browser, lambda d: matches(d, gallery), message="every country and city with its count")
    assert browser.find_element(By.CSS_SELECTOR, "#view-title").text == "Places"
    assert places_button(browser).get_attribute("aria-current") == "page"
    expected = expected_places(gallery)
    assert expected["France"] == {"Paris": 3, "Lyon": 1} and expected["Switzerland"] == {"Zürich": 1}
    countries = browser.execute_script("return [...document.querySelectorAll('#places section.country h2')].map(h => h.textContent)")
    assert countries[0] == "France", "the most photographed country first"
    france = browser.find_element(By.CSS_SELECTOR, '#places section.country[data-country-code="FR"] .country-heading .count')
    assert france.text == "4 photos · 2 cities"
    assert not browser.find_element(By.CSS_SELECTOR, "#scrubber").is_displayed()

    # An import with GPS while Places is open: a new country appears and a city's count moves, without a reload.
    browser.execute_script("window.stillTheSamePage = true")
    gallery.import_files([located_photo(gallery, name, 20 + index, *position) for index, (name, *position) in enumerate(LATER)])
    wait_for(browser, lambda d: matches(d, gallery) and shown_places(d)["Switzerland"]["Zürich"] == 2,
             message="the new city and the new count")
    assert browser.execute_script("return window.stillTheSamePage === true")
    wait_for(browser, lambda d: pictures_drawn(d, "#places img"), message="every key photo drawn")
    browser.execute_script("document.querySelector('#scroller').scrollTop = 0")
    target = os.environ.get("PLACES_SCREENSHOT", os.path.join(ROOT, "docs", "places.png"))
    assert browser.save_screenshot(target)

    # A city opens its photos, newest first; the viewer's info panel names the place.
    paris = browser.find_element(By.XPATH, "//button[contains(@class, 'place-card')][span[@class='name'][text()='Paris']]")
    paris.click()
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#view-title").text == "Paris, France", message="the city's heading")
    in_paris = [a["id"] for a in sorted(assets(gallery), key=lambda a: a["creationDate"], reverse=True)
                if (a.get("place") or {}).get("city") == "Paris"]
    wait_for(browser, lambda d: tile_ids(d) == in_paris, message="the city's photos, newest first")
    assert browser.find_element(By.CSS_SELECTOR, "#back").is_displayed()
    assert places_button(browser).get_attribute("aria-current") == "page", "Places stays marked"
    open_viewer(browser, in_paris[0])
    if browser.find_element(By.CSS_SELECTOR, "#viewer .info").get_attribute("hidden") is not None:
        browser.find_element(By.CSS_SELECTOR, '#viewer [data-action="info"]').click()
    place = wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#viewer .info .place-link"), message="the place in the info")
    assert place[0].text == "Paris, Île-de-France, France"
    close_viewer(browser)

    # Back to Places, then to the timeline as the other tests expect it.
    browser.find_element(By.CSS_SELECTOR, "#back").click()
    wait_for(browser, lambda d: matches(d, gallery), message="Places again")
    open_timeline(browser, gallery)
