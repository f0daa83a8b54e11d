"""Driving the gallery's page in Chromium for the browser tests: the browser, waiting, and what the page shows."""
import json
import os

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 20


def new_browser(url):
    """Debian's headless Chromium through chromedriver, on the page at `url`, once its first tiles are drawn."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900", "--force-device-scale-factor=1", "--autoplay-policy=no-user-gesture-required"]:
        options.add_argument(argument)
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    driver.get(url)
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-asset-id] img"))
    return driver


def wait_for(driver, condition, timeout=WAIT, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(condition, message)


def open_timeline(driver, gallery):
    """The page loaded afresh on the timeline, its first tiles drawn."""
    driver.get(gallery.origin + "/")
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-asset-id] img"), message="the timeline")


def assets(gallery, *arguments):
    output = gallery.photolib("assets", "--json", *arguments).stdout
    decoder = json.JSONDecoder()
    found, position = [], 0
    while position < len(output):
        while position < len(output) and output[position].isspace():
            position += 1
        if position >= len(output):
            break
        value, position = decoder.raw_decode(output, position)
        found.extend(value if isinstance(value, list) else [value])
    return found


def tile_ids(driver, photos_only=False):
    return driver.execute_script("""
        return [...document.querySelectorAll('[data-asset-id]')]
            .filter(e => !arguments[0] || e.querySelector('img').alt.startsWith('Photo')).map(e => e.dataset.assetId)""", photos_only)


def sidebar_count(driver, title):
    return driver.execute_script("""
        const button = [...document.querySelectorAll('#collections button')].find(b => b.firstChild.textContent === arguments[0]);
        return button ? button.querySelector('.count').textContent : null""", title)


def press_sidebar(driver, selector, key=None):
    """Clicks (or presses `key` on) the sidebar's button at `selector`, found again when the sidebar was drawn anew
    (its counts changed) between finding the button and pressing it."""
    def pressed(d):
        try:
            button = d.find_element(By.CSS_SELECTOR, "#collections " + selector)
            button.send_keys(key) if key else button.click()
            return True
        except StaleElementReferenceException:
            return False
    wait_for(driver, pressed, message=f"the sidebar's {selector}")


def open_viewer(driver, asset_id):
    driver.find_element(By.CSS_SELECTOR, f'[data-asset-id="{asset_id}"]').click()
    wait_for(driver, lambda d: d.execute_script("return document.querySelector('#viewer').open"), message="the viewer opens")


def close_viewer(driver):
    if driver.execute_script("return document.querySelector('#viewer').open"):
        driver.find_element(By.CSS_SELECTOR, "#viewer").send_keys(Keys.ESCAPE)
        wait_for(driver, lambda d: not d.execute_script("return document.querySelector('#viewer').open"))
