#!/usr/bin/env python3
"""Writes Benchmarks/REPORT.md and its plots from the figures the benchmarks recorded (BENCHMARK_RECORD), keeping the
report's hand-written `## Notes` section.

Usage: report.py RECORD.jsonl REPORT.md PLOT_DIRECTORY RUN_KIND
"""
import datetime
import json
import math
import os
import platform
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    memory = next(int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal"))
    release = dict(line.rstrip().split("=", 1) for line in open("/etc/os-release") if "=" in line)
    return f"{os.cpu_count()} × {cpu}, {memory / 1048576:.0f} GiB, {release.get('PRETTY_NAME', '?').strip(chr(34))}, " \
           f"kernel {platform.release()}"


def commit():
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def number(value):
    if value is None:
        return "—"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.2f}" if abs(value) >= 1 else f"{value:.3f}"


def distribution_plot(samples, directory):
    figure, axis = plt.subplots(figsize=(8, 4.5))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for series, record in enumerate(samples):
        # A log scale has no zero: what the clock could not tell from nothing is drawn at a microsecond.
        values = sorted(max(value, 0.001) for value in record["values"])
        if not values:
            continue
        fractions = [(index + 1) / len(values) for index in range(len(values))]
        # More series than colours: each pass through the colours draws with another dash, so no two look alike.
        dash = ["-", "--", ":", "-."][series // len(colours) % 4]
        axis.step(values, fractions, where="post", color=colours[series % len(colours)], linestyle=dash,
                  label=f"{record['name']} (n={len(values)})")
    axis.set_xscale("log")
    axis.set_xlabel(f"latency ({samples[0]['unit']}, log scale)")
    axis.set_ylabel("fraction of requests at most this")
    axis.grid(True, which="both", alpha=0.3)
    return save_with_legend_below(figure, axis, os.path.join(directory, "latency-distributions.png"))


def scaling_plot(points, directory):
    series = {}
    for point in points:
        series.setdefault((point["name"], point["unit"]), []).append((point["size"], point["value"]))
    figure, axis = plt.subplots(figsize=(8, 4.5))
    for (name, unit), values in sorted(series.items()):
        values.sort()
        axis.plot([size for size, _ in values], [value for _, value in values], marker="o", label=f"{name} ({unit})")
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xlabel("library size (assets, log scale)")
    axis.set_ylabel("cost (log scale)")
    axis.grid(True, which="both", alpha=0.3)
    return save_with_legend_below(figure, axis, os.path.join(directory, "cost-by-library-size.png"))


def save_with_legend_below(figure, axis, path):
    """Saves a plot with its legend below the axes, where it hides no line; the image grows to hold it."""
    axis.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13))
    figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(figure)
    return path


def growth(points):
    """For each scaling series: how the cost grew per tenfold growth of the library (1.0 = constant, 10 = linear)."""
    series = {}
    for point in points:
        series.setdefault((point["name"], point["unit"]), []).append((point["size"], point["value"]))
    rows = []
    for (name, unit), values in sorted(series.items()):
        values.sort()
        if len(values) < 2 or values[0][1] <= 0:
            continue
        (small, first), (large, last) = values[0], values[-1]
        factor = (last / first) ** (1 / max(1e-9, math.log10(large / small)))
        rows.append(f"| {name} | {', '.join(f'{size:,}: {number(value)} {unit}' for size, value in values)} | ×{factor:.2f} |")
    return rows


def main():
    record, report, directory, kind = sys.argv[1:5]
    entries = [json.loads(line) for line in open(record) if line.strip()]
    os.makedirs(directory, exist_ok=True)
    figures = [e for e in entries if e["kind"] == "figure"]
    samples = [e for e in entries if e["kind"] == "samples"]
    points = [e for e in entries if e["kind"] == "scaling"]

    lines = [
        "# photolibd benchmark report",
        "",
        f"Made by `Benchmarks/report.sh{' --quick' if kind == 'quick' else ''}` on "
        f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC at commit `{commit()}`.",
        f"Machine: {machine()}.",
        "",
        "Each figure is a median unless its name says otherwise. Ours is set against the peer's on the same input in "
        "the same run: as a ratio (ours ÷ theirs; for rates higher is better, for times lower), or as a difference "
        "where the target is one.",
        "",
        "| what | photolibd | peer | peer's figure | ours against the peer's | target |",
        "|---|---|---|---|---|---|",
    ]
    for entry in figures:
        ours, peer = entry["ours"], entry.get("peer")
        if not peer:
            compared = "—"
        elif entry.get("comparison") == "difference":
            compared = f"{ours - peer:+.2f} {entry['unit']}"
        else:
            compared = f"{ours / peer:.2f}×"
        cells = [entry["name"], f"{number(ours)} {entry['unit']}", entry.get("peerName") or "—",
                 f"{number(peer)} {entry['unit']}" if peer else "—", compared, entry["target"] or "—"]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    if points:
        lines += ["", "## Cost against library size", "",
                  "The last column is how the cost grew for each tenfold growth of the library: ×1 is constant, ×10 linear.", "",
                  "| what | measured | per tenfold |", "|---|---|---|"] + growth(points)
        lines += ["", f"![cost against library size]({os.path.basename(directory)}/{os.path.basename(scaling_plot(points, directory))})"]
    if any(entry["name"].startswith("Gallery") for entry in figures) and os.path.exists(os.path.join(directory, "gallery.png")):
        lines += ["", "## The gallery", "",
                  "The benchmark's page in headless Chromium (1400×900) after the timeline was scrolled through:", "",
                  f"![the gallery on the benchmark's library]({os.path.basename(directory)}/gallery.png)"]
    if samples:
        lines += ["", "## Latency distributions", "",
                  f"![latency distributions]({os.path.basename(directory)}/{os.path.basename(distribution_plot(samples, directory))})"]
    notes = written_notes(report)
    with open(report, "w") as output:
        output.write("\n".join(lines) + "\n" + (f"\n{notes}" if notes else ""))


def written_notes(report):
    """The report's hand-written section, kept from one run to the next: everything from its `## Notes` heading on."""
    if not os.path.exists(report):
        return ""
    text = open(report).read()
    start = text.find("\n## Notes\n")
    return text[start + 1:] if start >= 0 else ""


if __name__ == "__main__":
    main()
