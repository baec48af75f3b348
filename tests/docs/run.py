#!/usr/bin/env python3
"""The documentation cannot go stale: tests/docs/run.py build/puzzled checks the README, docs/*.md, the
core and api READMEs and the TypeScript client's README against the tree, openapi.yaml, `puzzled --help` and a live server.

- Every relative link and image (`[text](path#anchor)`) and every repository path quoted in backticks
  (`tests/unit/api/test_fields.c`) exists; every `#anchor` names a heading of its page, slugged as
  GitHub does (lowercase, punctuation dropped, spaces to hyphens, -1, -2 for repeats).
- Every path of openapi.yaml, every error code it lists and every option of --help appears in the docs;
  every `--option` the docs name is one of --help's, unless it is another program's (FOREIGN_OPTIONS).
- The options agree in their two places: --help, printed from the option table (server/options.c) with
  each option's environment variable, values and default, and docs/configuration.md's option table
  (one row per option, and no row of another); a self-test first shows these checks catch a missing
  row, a row or a doc naming no option, and a wrong default. A default the docs or openapi.yaml restate
  in prose beside its flag ("`--max-rank-items` items (default 1,000,000") must be --help's too.
- The docs keep the shape of a reference: every page under docs/ (and the READMEs, CONTRIBUTING.md)
  under PAGE_MAX_LINES lines, the endpoint pages and the option table's rows aside; no heading with a
  date or an issue number, and no sentence under docs/ naming an issue; every page under docs/
  reachable from docs/README.md through relative links; every figure (a number with a decimal point)
  of the README's performance table also in docs/performance.md, whose current figures it quotes. A
  self-test first shows each of these checks catches what it exists to catch.
- Every ```console example reproduces against a fresh server on a free port: each `$ command` is run
  with localhost:8080 replaced by that port, and its output must be the lines shown, volatile headers
  (Date, X-Request-Id, ETag) aside. An example that needs another set-up (a container, another port) is
  preceded by `<!-- console: not reproduced: why -->` and counted as skipped.
"""
import os
import re
import subprocess
import sys

import yaml

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from checks import check, finish, start_puzzled  # noqa: E402

# `--options` the docs name that belong to other programs, with the program, so a typo in one of
# puzzled's options is not mistaken for one of these.
FOREIGN_OPTIONS = {
    "--compressed": "curl", "--data-binary": "curl", "--limit-rate": "curl", "--cacert": "curl", "--http2": "curl",
    "--generate": "qqwing", "--solve": "qqwing", "--count-solutions": "qqwing",
    "--format": "podman", "--read-only": "podman", "--name": "podman", "--stop-timeout": "podman",
    "--signal": "podman", "--build": "podman-compose", "--scale": "podman-compose",
    "--wrap": "ld", "--noout": "xmllint", "--recurse": "git", "--variant": "debootstrap",
    "--seed": "tests/garbage/run.py", "--count": "tests/garbage/run.py", "--parallel": "scripts/fuzz.sh",
    "--merge": "libFuzzer", "--errors": "scripts/fuzz.sh", "--check": "scripts/format.sh",
    "--strict": "tsc", "--init": "tsc", "--module": "tsc", "--bundle": "esbuild", "--outfile": "esbuild", "--alias": "esbuild",
    "--headless": "chromium", "--no-sandbox": "chromium",
    "--for": "kubectl", "--tail": "kubectl", "--max-log-requests": "kubectl",
    "--repeat": "scripts/test.sh", "--jobs": "scripts/test.sh", "--stop-rounds": "scripts/test.sh", "--fail-fast": "scripts/test.sh",
    "--static": "tests/contract/run.sh", "--types": "clients/typescript/test.sh", "--rounds": "tests/stop/run.py",
    "--soak-minutes": "scripts/test.sh", "--minutes": "tests/soak/run.py", "--sanitizer": "tests/soak/run.py",
    "--list": "gnutls-cli", "--priority": "gnutls-cli", "--quiet": "testssl.sh", "--timeout": "wrk, kubectl",
    "--test-dir": "ctest", "--output-on-failure": "ctest", "--filter": "Criterion", "--no-rss": "tests/streams/run.py", "--requests": "tests/race/run.py",
    "--max-threads": "tests/race/run.py", "--no-nginx": "tests/progress/run.py", "--no-direct-calls": "tests/streams/run.py",
}
# Top folders of the repository: a backtick span starting with one of them is a path to check.
TOP_FOLDERS = ("core/", "api/", "server/", "tests/", "bench/", "docs/", "scripts/", "web/", "deploy/",
               "docker/", "cmake/", "clients/")
# What builds and tests make, absent from a fresh checkout: quoted in the docs, not checked.
GENERATED = re.compile(r"node_modules|^bench/results/|^build")
SKIP_MARK = re.compile(r"<!--\s*console:\s*not reproduced:\s*(.+?)\s*-->")
# Headers that change from run to run: the time, the request's id, and the ETag, whose hash covers the
# commit the server was built from (server/etag.h).
VOLATILE_HEADERS = re.compile(r"^(date|x-request-id|etag):", re.IGNORECASE)


def doc_files():
    names = ["README.md", "CONTRIBUTING.md", "base/README.md", "core/README.md", "api/README.md", "clients/typescript/README.md"]
    names += sorted("docs/" + n for n in os.listdir(os.path.join(ROOT, "docs")) if n.endswith(".md"))
    names += sorted(f"core/{d}/README.md" for d in os.listdir(os.path.join(ROOT, "core"))
                    if os.path.isfile(os.path.join(ROOT, "core", d, "README.md")))
    return names


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as f:
        return f.read()


def prose_lines(text):
    """The lines outside fenced code blocks, with their numbers."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def slug(heading):
    """GitHub's anchor for a heading: markup dropped, lowercase, only letters, digits, '-', '_' and
    spaces kept, spaces turned to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def anchors(name):
    """Every anchor of a page: its headings' slugs (repeats numbered) and explicit <a id>/<a name>."""
    seen = {}
    found = set()
    text = read(name)
    for _, line in prose_lines(text):
        heading = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if heading:
            base = slug(heading.group(1))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return found


def check_links_and_paths():
    bad = []
    for name in doc_files():
        here = os.path.dirname(name)
        for number, line in prose_lines(read(name)):
            for target in re.findall(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)", line):
                if re.match(r"^[a-z]+:", target):
                    continue
                path, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(here, path)) if path else name
                if not os.path.exists(os.path.join(ROOT, resolved)):
                    bad.append(f"{name}:{number}: no such path {target}")
                elif anchor and resolved.endswith(".md") and anchor not in anchors(resolved):
                    bad.append(f"{name}:{number}: no anchor #{anchor} in {resolved}")
            for span in re.findall(r"`([^`\s]+)`", line):
                if not span.startswith(TOP_FOLDERS) or re.search(r"[<>*{}$]|\.\.\.", span) or GENERATED.search(span):
                    continue
                path = span.split(":")[0].rstrip(".,")
                if not (os.path.exists(os.path.join(ROOT, path)) or os.path.exists(os.path.join(ROOT, here, path))):
                    bad.append(f"{name}:{number}: no such path `{span}`")
    check("every relative link, image, anchor and quoted path of the docs exists", not bad, "\n  " + "\n  ".join(bad))


# Options whose environment variable is another program's: --part takes the index a Kubernetes
# Indexed Job sets in each of its pods (docs/deployment.md).
FOREIGN_VARIABLES = {"--part": "JOB_COMPLETION_INDEX"}
HELP_VARIABLE = "PUZZLED_[A-Z_]+|" + "|".join(FOREIGN_VARIABLES.values())

# An option's line of --help: flag, environment variable, help text, then "(VALUES; default DEFAULT)",
# which server/config.c appends from the option table (a switch has neither).
HELP_LINE = re.compile(
    r"^  (--[a-z-]+)\s+(" + HELP_VARIABLE + r")?\s*(.*?)(?: \(([^;()]*); default ([^;()]*)\))?$")


def help_options(binary):
    """--help's options: {flag: (environment variable or "", values or "", default or "")}."""
    text = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30).stdout
    options = {}
    for line in text.splitlines():
        match = HELP_LINE.match(line)
        if match:
            options[match.group(1)] = (match.group(2) or "", match.group(4) or "", match.group(5) or "")
    return options


def option_table(text):
    """docs/configuration.md's option table: {flag: (environment variable, values, default)}, the
    cells without their backticks."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and line.strip().startswith("| `--"):
            rows[cells[0]] = tuple(cells[1:4])
    return rows


def table_disagreements(options, table):
    """Where --help's options and the table's rows differ: an option without a row, a row naming no
    option, or a row giving another environment variable, range or default."""
    configurable = set(options) - {"--help"}
    found = [f"{flag}: in --help, no row in the table" for flag in sorted(configurable - set(table))]
    found += [f"{flag}: a row in the table, no such option in --help" for flag in sorted(set(table) - configurable)]
    for flag in sorted(configurable & set(table)):
        for what, shown, written in zip(("environment variable", "values", "default"), options[flag], table[flag]):
            if shown != written:
                found.append(f"{flag}: {what} {written!r} in the table, {shown!r} in --help")
    return found


def wrong_variables(options):
    """The "--flag VARIABLE" of --help's options whose variable is neither PUZZLED_ and the flag's name
    nor the other program's FOREIGN_VARIABLES gives it."""
    return [f"{flag} {env}" for flag, (env, _, _) in options.items()
            if env and env != FOREIGN_VARIABLES.get(flag, "PUZZLED_" + flag[2:].upper().replace("-", "_"))]


def unknown_options(named, options):
    """The (place, --option) pairs of `named` that are neither puzzled's nor another program's."""
    return [f"{place}: {flag}" for place, flag in named if flag not in options and flag not in FOREIGN_OPTIONS]


# A default restated in prose beside its flag: "`--max-rank-items` items (default 1,000,000" or
# "--time-limit-ms` (default 10 s", the seconds of an option in ms.
RESTATED_DEFAULT = re.compile(r"(--[a-z-]+)`? (?:\w+ )?\(default ([0-9][0-9,]*)( s\b)?")


def restated_defaults(pages, options):
    """The defaults the pages ((name, text) pairs) restate beside a flag that are not --help's."""
    wrong = []
    for name, text in pages:
        for number, line in enumerate(text.split("\n"), 1):
            for flag, value, seconds in RESTATED_DEFAULT.findall(line):
                stated = str(int(value.replace(",", "")) * (1000 if seconds else 1))
                default = options.get(flag, ("", "", ""))[2]
                if stated != default:
                    wrong.append(f"{name}:{number}: {flag} (default {value}{seconds}), --help says {default!r}")
    return wrong


def self_test():
    """The option checks report what they exist to catch: an option missing from the table, a row or a
    doc naming an option that does not exist, a default or a variable that differs."""
    options = {"--port": ("PUZZLED_PORT", "0 to 65535", "8080"), "--host": ("PUZZLED_HOST", "1 to 255 characters",
                                                                            "127.0.0.1"), "--help": ("", "", "")}
    text = ("| `--port` | `PUZZLED_PORT` | `0` to `65535` | `8081` | TCP port |\n"
            "| `--colour` | `PUZZLED_COLOUR` | 1 to 7 characters | `red` | no such option |\n")
    found = table_disagreements(options, option_table(text))
    check("self-test: a missing row, a row of no option and a wrong default are reported",
          found == ["--host: in --help, no row in the table", "--colour: a row in the table, no such option in --help",
                    "--port: default '8081' in the table, '8080' in --help"], found)
    lines = ["  --part                 JOB_COMPLETION_INDEX       the part (0 to 7; default 0)",
             "  --parts                JOB_COMPLETION_INDEX       the parts (1 to 8; default 1)",
             "  --port                 PUZZLED_PROT               TCP port (0 to 65535; default 8080)"]
    found = wrong_variables({m.group(1): (m.group(2), m.group(4), m.group(5)) for m in map(HELP_LINE.match, lines)})
    check("self-test: a variable that is neither PUZZLED_ and the flag's name nor --part's JOB_COMPLETION_INDEX "
          "is reported", found == ["--parts JOB_COMPLETION_INDEX", "--port PUZZLED_PROT"], found)
    found = unknown_options([("a.md:1", "--port"), ("a.md:2", "--prot"), ("a.md:3", "--data-binary")], options)
    check("self-test: a doc naming an option that does not exist is reported", found == ["a.md:2: --prot"], found)
    found = restated_defaults([("a.md", "`--port` (default 8080) and `--port` (default 8,081)\n"
                                         "--port` seconds (default 8 s)")], options)
    check("self-test: a default restated beside its flag that is not --help's is reported",
          found == ["a.md:1: --port (default 8,081), --help says '8080'", "a.md:2: --port (default 8 s), --help says '8080'"],
          found)


def check_options(binary):
    self_test()
    options = help_options(binary)
    check("--help lists options", len(options) > 20, options)
    wrong_env = wrong_variables(options)
    check("every option's environment variable is PUZZLED_ and its flag's name (--part's: JOB_COMPLETION_INDEX)",
          not wrong_env, wrong_env)
    without_default = [flag for flag, (env, _, default) in options.items() if env and not default]
    check("--help gives every option with a variable its values and default", not without_default, without_default)
    found = table_disagreements(options, option_table(read("docs/configuration.md")))
    check("docs/configuration.md's option table and --help list the same options with the same environment "
          "variables, values and defaults", not found, "\n  " + "\n  ".join(found))
    pages = [(name, read(name)) for name in doc_files() + ["openapi.yaml"]]
    found = restated_defaults(pages, options)
    check("every default the docs and openapi.yaml restate beside its flag is --help's", not found,
          "\n  " + "\n  ".join(found))
    return options


def check_coverage(options):
    docs = "\n".join(read(name) for name in doc_files())
    with open(os.path.join(ROOT, "openapi.yaml"), encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    missing = [path for path in spec["paths"] if f"`{path}" not in docs and f"{path}`" not in docs
               and f"GET {path}" not in docs]
    check(f"every path of openapi.yaml ({len(spec['paths'])}) is named in the docs", not missing, missing)

    codes = set(spec["components"]["schemas"]["ErrorCode"]["enum"])

    def walk(node):
        if isinstance(node, dict):
            code = node.get("properties", {}).get("code") if isinstance(node.get("properties"), dict) else None
            if isinstance(code, dict) and isinstance(code.get("enum"), list):
                codes.update(code["enum"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(spec)
    missing = sorted(code for code in codes if f"`{code}`" not in docs)
    check(f"every error code of openapi.yaml ({len(codes)}) is named in the docs", len(codes) > 20 and not missing,
          missing)

    missing = [flag for flag in options if not re.search(rf"(?<![\w-]){flag}(?![\w-])", docs)]
    check(f"every option of --help ({len(options)}) is named in the docs", not missing, missing)

    named = [(f"{name}:{number}", flag) for name in doc_files() for number, line in enumerate(read(name).split("\n"), 1)
             for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9])(?![\w*-])", line)]
    unknown = unknown_options(named, options)
    check("every --option the docs name is one of --help's (or another program's)", not unknown,
          "\n  " + "\n  ".join(unknown))


# The shape of the docs: pages a newcomer reads in one sitting. The endpoint pages are each a reference
# for one endpoint, in the same shape, and may be longer; the option table's rows (one per option of
# --help) are not counted either.
PAGE_MAX_LINES = 400
ENDPOINT_PAGES = {"docs/shuffle.md", "docs/permutations.md", "docs/combinations.md", "docs/queens.md",
                  "docs/knight-tour.md", "docs/word-ladder.md", "docs/sudoku.md"}
OPTION_ROW = re.compile(r"^\| `--")
DATE = re.compile(r"\b(?:19|20)\d\d-\d\d(?:-\d\d)?\b")
ISSUE = re.compile(r"\b[Ii]ssues?\s+#?\d+|(?<![\w&/])#\d+\b")
FIGURE = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.]*\d)")
LINK = re.compile(r"\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)")


def long_pages(pages):
    """The (name, lines) of the pages ((name, text) pairs) over PAGE_MAX_LINES lines, endpoint pages
    aside and option rows not counted."""
    found = []
    for name, text in pages:
        lines = [line for line in text.rstrip("\n").split("\n") if not OPTION_ROW.match(line)]
        if name not in ENDPOINT_PAGES and len(lines) >= PAGE_MAX_LINES:
            found.append(f"{name}: {len(lines)} lines")
    return found


def dated_headings(pages):
    """Headings with a date or an issue number, and (under docs/) prose naming an issue."""
    found = []
    for name, text in pages:
        for number, line in prose_lines(text):
            if re.match(r"^#{1,6}\s", line) and (DATE.search(line) or ISSUE.search(line)):
                found.append(f"{name}:{number}: {line.strip()}")
            elif name.startswith("docs/") and ISSUE.search(re.sub(r"\]\([^)]*\)", "]", line)):
                found.append(f"{name}:{number}: names an issue: {line.strip()[:80]}")
    return found


def unreachable(pages, index="docs/README.md"):
    """The pages under docs/ that no chain of relative links from `index` reaches."""
    texts = dict(pages)
    seen, todo = {index}, [index]
    while todo:
        name = todo.pop()
        for target in LINK.findall(texts.get(name, "")):
            linked = os.path.normpath(os.path.join(os.path.dirname(name), target))
            if linked in texts and linked not in seen:
                seen.add(linked)
                todo.append(linked)
    return sorted(name for name in texts if name.startswith("docs/") and name not in seen)


def readme_figures(readme, performance):
    """The figures of the README's performance table that docs/performance.md does not give."""
    section = readme.split("\n## Performance", 1)[-1].split("\n## ", 1)[0]
    rows = [re.sub(r"\]\([^)]*\)", "]", line) for line in section.split("\n") if line.startswith("| ")]
    figures = {figure for row in rows for figure in FIGURE.findall(row)}
    given = set(FIGURE.findall(performance))
    return sorted(figures - given, key=float)


def shape_self_test():
    """Each shape check reports what it exists to catch, on pages made for it."""
    long = "\n".join(["line"] * PAGE_MAX_LINES)
    found = long_pages([("docs/a.md", long), ("docs/queens.md", long), ("docs/b.md", "short\n"),
                        ("docs/c.md", "\n".join(["| `--x` | row |"] * PAGE_MAX_LINES) + "\nprose\n")])
    check("self-test: a page of 400 lines is reported, an endpoint page and option rows are not",
          found == [f"docs/a.md: {PAGE_MAX_LINES} lines"], found)
    found = dated_headings([("docs/a.md", "# Title\n## Runs of 2026-11-27\n## Issue 32's goals\n## Fixed (#12)\n"
                                          "text of issue 17\n```\n## 2026-11-27 in a block\n```\nplain text\n"),
                            ("README.md", "issue 5 in prose outside docs/\n")])
    check("self-test: a dated heading, headings and prose naming an issue are reported",
          [f.split(":")[1] for f in found] == ["2", "3", "4", "5"], found)
    found = unreachable([("docs/README.md", "[a](a.md)"), ("docs/a.md", "[b](b.md#x)"), ("docs/b.md", ""),
                         ("docs/c.md", "[a](a.md)")])
    check("self-test: a page no link from docs/README.md reaches is reported", found == ["docs/c.md"], found)
    found = readme_figures("# R\n## Performance\n| m | 8.23x, 0.92-0.93x ([p](p.md#1.5)) |\n## Next\n| 9.99 |\n",
                           "| 8.23 | 0.92 |")
    check("self-test: a README figure missing from docs/performance.md is reported", found == ["0.93"], found)


def check_shape():
    shape_self_test()
    pages = [(name, read(name)) for name in doc_files()]
    found = long_pages(pages)
    check(f"every page is under {PAGE_MAX_LINES} lines (endpoint pages and option rows aside)", not found,
          "\n  " + "\n  ".join(found))
    found = dated_headings(pages)
    check("no heading has a date or an issue number, and no sentence under docs/ names an issue", not found,
          "\n  " + "\n  ".join(found))
    found = unreachable(pages)
    check("every page under docs/ is reachable from docs/README.md", not found, found)
    found = readme_figures(read("README.md"), read("docs/performance.md"))
    check("every figure of the README's performance table is in docs/performance.md", not found, found)


def console_examples():
    """Every ```console block: (file, line, skip reason or None, [(command, expected output)])."""
    for name in doc_files():
        lines = read(name).split("\n")
        for index, line in enumerate(lines):
            if line.strip() != "```console":
                continue
            before = next((l for l in reversed(lines[:index]) if l.strip()), "")
            skip = SKIP_MARK.search(before)
            steps = []
            for body in lines[index + 1:]:
                if body.strip() == "```":
                    break
                if body.startswith("$ "):
                    steps.append((body[2:], []))
                elif steps and not steps[-1][1] and steps[-1][0].endswith(("\\", "|", "&&")):
                    steps[-1] = (steps[-1][0] + "\n" + body, [])
                elif steps:
                    steps[-1][1].append(body)
            yield name, index + 1, skip.group(1) if skip else None, steps


def comparable(text):
    lines = [line.rstrip("\r") for line in text.rstrip("\n").split("\n")]
    return [line for line in lines if not VOLATILE_HEADERS.match(line)]


def check_console(binary):
    # --time-limit-ms 60000: an example that computes for a second or two on an idle machine (a
    # 60-step ladder search that finds none) must not hit the default 10 s limit on a loaded one, or
    # under the sanitizers; a computation that never ends still ends there.
    process, port = start_puzzled(binary, ["--client-rate", "0", "--time-limit-ms", "60000"])
    here = f"127.0.0.1:{port}"
    run = skipped = 0
    try:
        for name, line, skip, steps in console_examples():
            if skip:
                skipped += 1
                print(f"skip  {name}:{line}: {skip}")
                continue
            for command, expected in steps:
                run += 1
                result = subprocess.run(["bash", "-c", command.replace("localhost:8080", here)], cwd=ROOT,
                                        capture_output=True, text=True, timeout=60)
                want = comparable("\n".join(expected).replace("localhost:8080", here))
                got = comparable(result.stdout)
                check(f"{name}:{line}: $ {command[:90]}", got == want,
                      f"\n  expected: {want}\n  got:      {got}\n  stderr: {result.stderr[:300]}")
    finally:
        process.terminate()
        process.wait(timeout=30)
    print(f"console examples: {run} commands run, {skipped} blocks skipped (marked not reproduced)")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/docs/run.py build/puzzled")
    binary = os.path.abspath(sys.argv[1])
    check_links_and_paths()
    check_shape()
    options = check_options(binary)
    check_coverage(options)
    check_console(binary)
    finish()


if __name__ == "__main__":
    main()
