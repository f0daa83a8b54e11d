"""Albums filed into folders from the sidebar, in a real browser: a new folder, an album put into it from the menu
beside the album's title, and dragged out of it onto the Albums heading."""
import json

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from page import open_timeline, wait_for


def collections(gallery):
    lines = gallery.photolib("albums", "--json").stdout.splitlines()
    return {entry["title"]: entry for entry in map(json.loads, filter(None, lines))}


def create(browser, kind, title):
    browser.find_element(By.CSS_SELECTOR, f"#new-{kind}").click()
    browser.find_element(By.CSS_SELECTOR, "#new-collection-dialog input").send_keys(title)
    browser.find_element(By.CSS_SELECTOR, '#new-collection-dialog button[value="create"]').click()


def sidebar_item(browser, title):
    return browser.find_element(By.XPATH, f"//li[@data-collection-id][.//span[text()='{title}'] or text()='{title}']")


def test_an_album_goes_into_a_new_folder_from_its_menu_and_out_by_dragging(gallery, browser):
    open_timeline(browser, gallery)
    create(browser, "folder", "Journeys")
    create(browser, "album", "Lisbon")
    wait_for(browser, lambda d: {"Journeys", "Lisbon"} <= set(collections(gallery)), message="both made")
    wait_for(browser, lambda d: d.find_elements(By.XPATH, "//li[contains(@class, 'folder')][text()='Journeys']"), message="the folder shown")
    sidebar_item(browser, "Lisbon").find_element(By.TAG_NAME, "button").click()
    picker = wait_for(browser, lambda d: (lambda p: p if p.is_displayed() else None)(d.find_element(By.CSS_SELECTOR, "#album-folder")),
                      message="the album's folder menu")
    Select(picker).select_by_visible_text("In Journeys")
    folder_id = collections(gallery)["Journeys"]["id"]
    wait_for(browser, lambda d: collections(gallery)["Lisbon"].get("parentId") == folder_id, message="the album in the folder")
    wait_for(browser, lambda d: d.execute_script(
        "return getComputedStyle(arguments[0]).getPropertyValue('--depth').trim()", sidebar_item(d, "Lisbon")) == "1",
        message="the sidebar shows it inside")

    # Out again by dragging it onto the Albums heading (HTML drag and drop, simulated: WebDriver's drag does not fire it).
    browser.execute_script("""const [item, heading] = arguments; const data = new DataTransfer();
        item.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: data}));
        heading.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: data}));
        heading.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: data}));""",
                           sidebar_item(browser, "Lisbon"), browser.find_element(By.CSS_SELECTOR, "#collections li.heading"))
    wait_for(browser, lambda d: collections(gallery)["Lisbon"].get("parentId") is None, message="the album out of the folder")
    wait_for(browser, lambda d: Select(d.find_element(By.CSS_SELECTOR, "#album-folder")).first_selected_option.text
             == "Not in a folder", message="its menu says so")
    open_timeline(browser, gallery)
