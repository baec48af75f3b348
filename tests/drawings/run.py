#!/usr/bin/env python3
"""The answers drawn as SVG (format=svg of /queens, /knight-tour, /sudoku/generate, /sudoku/solve),
looked at as pictures: each is fetched from a running puzzled, must be image/svg+xml that xmllint
accepts, is rendered to PNG by librsvg's rsvg-convert (a renderer apart from any browser), and the PNG
must be a picture of the expected size holding the board's colours and the blue of what was drawn on
it (queens, the knight's path, filled-in digits; on large boards thin blue lines blended with the
squares), not a blank or broken image. Then, when Debian's chromium is installed, a page on another
origin (a file) shows small drawings with <img src="http://...&format=svg"> and headless chromium's
screenshot must show each of them where it was placed. The PNGs are kept as artifacts next to the
binary (BUILD_DIR/artifacts/drawings/) to be looked at.
    tests/drawings/run.py PUZZLED_BIN
Prints one line per check and `N passed, M failed` last; exits 1 when a check failed.
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import urllib.request
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import check, finish  # noqa: E402

BLUE = (0x1F, 0x5F, 0xBF)
LIGHT, DARK = (0xF0, 0xD9, 0xB5), (0xB5, 0x88, 0x63)
# name, path, expected pixel size of the PNG (the SVG's displayed size), colours that must be drawn
DRAWINGS = [
    ("queens-8-first", "/queens?n=8&mode=first&format=svg", (328, 328), [LIGHT, DARK, BLUE]),
    ("queens-10-solution-100", "/queens?n=10&offset=100&format=svg", (408, 408), [LIGHT, DARK, BLUE]),
    ("queens-200-first", "/queens?n=200&mode=first&format=svg", (1024, 1024), [LIGHT, DARK, BLUE]),
    ("knight-8-closed", "/knight-tour?n=8&closed=true&start=3,4&format=svg", (328, 328), [LIGHT, DARK, BLUE]),
    ("knight-5x9-open", "/knight-tour?rows=5&cols=9&start=2,4&format=svg", (368, 208), [LIGHT, DARK, BLUE]),
    ("knight-200-open", "/knight-tour?n=200&format=svg", (1024, 1024), [LIGHT, DARK]),
    ("sudoku-solved", "/sudoku/solve?puzzle=.....4.1....3.2.&format=svg", (168, 168), [BLUE]),
]


def start(binary):
    server = subprocess.Popen([binary, "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    for line in server.stdout:
        if line.startswith("listening on "):
            return server, line.split()[-1]
    raise SystemExit("puzzled did not start")


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG, decoded by the PNG spec
    (zlib stream of filtered scanlines: None, Sub, Up, Average, Paeth)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        chunk = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unexpected PNG format {header}"
    channels = 4 if colour == 6 else 3
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def near(a, b):
    return all(abs(x - y) <= 6 for x, y in zip(a, b))


def colour_counts(rows, left=0, top=0, width=None, height=None):
    counts = {}
    for row in rows[top:None if height is None else top + height]:
        for pixel in row[left:None if width is None else left + width]:
            counts[pixel] = counts.get(pixel, 0) + 1
    return counts


def check_colours(name, counts, colours):
    for colour in colours:
        drawn = sum(n for pixel, n in counts.items() if near(pixel, colour))
        check(f"{name}: #{bytes(colour).hex()} drawn ({drawn} pixels)", drawn >= 20, drawn)
    # what is drawn on the board is blue, the board itself brown: blue must show even where thin
    # lines are blended with the squares
    bluish = sum(n for pixel, n in counts.items() if pixel[2] > pixel[0] + 40)
    check(f"{name}: blue shapes drawn ({bluish} pixels)", bluish >= 50, bluish)


def check_in_a_browser(url, artifacts):
    """Drawings as <img> in a page of another origin, screenshot by headless chromium."""
    browser = shutil.which("chromium")
    if browser is None:
        print("skip  drawings in a browser: Debian's chromium is not installed")
        return
    shown = [d for d in DRAWINGS if d[2][0] <= 410 and d[2][1] <= 410 and d[0] != "sudoku-solved"]
    # in rows at most 800 pixels wide (headless chromium's window is not much wider by default)
    places, left, top, row_height = [], 0, 0, 0
    for name, path, size, colours in shown:
        if left + size[0] > 800:
            left, top, row_height = 0, top + row_height + 20, 0
        places.append((name, path, left, top, size, colours))
        left, row_height = left + size[0] + 20, max(row_height, size[1])
    page = os.path.join(artifacts, "page.html")
    with open(page, "w") as f:
        f.write("<!doctype html><html><body style='margin:0;background:white'>\n")
        for name, path, left, top, size, _ in places:
            f.write(f"<img alt='{name}' src='{url}{path}' style='position:absolute;left:{left}px;top:{top}px'>\n")
        f.write("</body></html>\n")
    shot = os.path.join(artifacts, "browser.png")
    window = f"800,{max(p[3] + p[4][1] for p in places)}"
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                              f"--user-data-dir={profile}", f"--window-size={window}", f"--screenshot={shot}",
                              "file://" + page], capture_output=True, text=True, timeout=120)
    check("chromium took a screenshot of the page", run.returncode == 0 and os.path.exists(shot), run.stderr[-300:])
    if run.returncode != 0:
        return
    with open(shot, "rb") as f:
        _, _, rows = png_pixels(f.read())
    for name, path, left, top, size, colours in places:
        check_colours(f"{name} in chromium as <img>", colour_counts(rows, left, top, size[0], size[1]), colours)


def main():
    binary = os.path.abspath(sys.argv[1])
    artifacts = os.path.join(os.path.dirname(binary), "artifacts", "drawings")
    os.makedirs(artifacts, exist_ok=True)
    server, url = start(binary)
    try:
        for name, path, size, colours in DRAWINGS:
            with urllib.request.urlopen(url + path) as answer:
                body, kind = answer.read(), answer.headers.get("Content-Type")
            check(f"{name}: image/svg+xml", kind == "image/svg+xml", kind)
            svg = os.path.join(artifacts, name + ".svg")
            with open(svg, "wb") as f:
                f.write(body)
            lint = subprocess.run(["xmllint", "--noout", svg], capture_output=True, text=True)
            check(f"{name}: well-formed XML (xmllint)", lint.returncode == 0, lint.stderr[:300])
            png = os.path.join(artifacts, name + ".png")
            render = subprocess.run(["rsvg-convert", "-o", png, svg], capture_output=True, text=True)
            check(f"{name}: rendered by rsvg-convert", render.returncode == 0 and os.path.getsize(png) > 0,
                  render.stderr[:300])
            if render.returncode != 0:
                continue
            with open(png, "rb") as f:
                width, height, rows = png_pixels(f.read())
            check(f"{name}: {size[0]} x {size[1]} pixels", (width, height) == size, (width, height))
            counts = colour_counts(rows)
            white = sum(n for pixel, n in counts.items() if min(pixel) >= 250)
            check(f"{name}: not blank ({len(counts)} colours, {100 - 100 * white // (width * height)}% not white)",
                  len(counts) >= 3 and white < width * height * 0.9, len(counts))
            check_colours(name, counts, colours)
        check_in_a_browser(url, artifacts)
    finally:
        server.terminate()
        server.wait()
    finish()


if __name__ == "__main__":
    main()
