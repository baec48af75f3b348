#!/usr/bin/env python3
"""The documentation cannot go stale: tests/docs/run.py build/puzzled checks the README, docs/*.md, the
core and api READMEs and the TypeScript client's README against the tree, openapi.yaml, `puzzled --help` and a live server.

- Every relative link and image (`[text](path#anchor)`) and every repository path quoted in backticks
  (`tests/unit/api/test_fields.c`) exists; every `#anchor` names a heading of its page, slugged as
  GitHub does (lowercase, punctuation dropped, spaces to hyphens, -1, -2 for repeats).
- Every path of openapi.yaml, every error code it lists and every option of --help appears in the docs;
  every `--option` the docs name is one of --help's, unless it is another program's (FOREIGN_OPTIONS).
- The options agree in their three places: --help (flag, environment variable, "(default X)"),
  docs/operations.md's configuration table (one row per option), and the defaults server/config.c sets.
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
    "--compressed": "curl", "--data-binary": "curl", "--limit-rate": "curl", "--cacert": "curl",
    "--generate": "qqwing", "--solve": "qqwing", "--count-solutions": "qqwing",
    "--format": "podman", "--read-only": "podman", "--name": "podman", "--stop-timeout": "podman",
    "--signal": "podman", "--build": "podman-compose", "--scale": "podman-compose",
    "--wrap": "ld", "--noout": "xmllint", "--recurse": "git", "--variant": "debootstrap",
    "--seed": "tests/garbage/run.py", "--count": "tests/garbage/run.py", "--parallel": "scripts/fuzz.sh",
    "--merge": "libFuzzer", "--errors": "scripts/fuzz.sh", "--check": "scripts/format.sh",
    "--strict": "tsc", "--bundle": "esbuild", "--outfile": "esbuild", "--alias": "esbuild",
    "--headless": "chromium", "--no-sandbox": "chromium",
    "--repeat": "scripts/test.sh", "--stop-rounds": "scripts/test.sh", "--rounds": "tests/stop/run.py",
    "--list": "gnutls-cli", "--priority": "gnutls-cli", "--quiet": "testssl.sh", "--timeout": "wrk",
    "--test-dir": "ctest",
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
    names = ["README.md", "core/README.md", "api/README.md", "clients/typescript/README.md"]
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


def help_options(binary):
    """--help's options: {flag: (environment variable or "", default text or None)}."""
    text = subprocess.run([binary, "--help"], capture_output=True, text=True, timeout=30).stdout
    options = {}
    for line in text.splitlines():
        match = re.match(r"^  (--[a-z-]+)\s+(PUZZLED_[A-Z_]+)?\s*(.*)$", line)
        if match:
            default = re.search(r"\(default:? ([^);]*)", match.group(3))
            options[match.group(1)] = (match.group(2) or "", default.group(1) if default else None)
    return options


def operations_table():
    """docs/operations.md's configuration table: {flag: (environment variable, default text)}."""
    rows = {}
    for line in read("docs/operations.md").split("\n## Under load")[0].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`--"):
            rows[cells[0].strip("`")] = (cells[1].strip("`"), cells[2].replace("`", ""))
    return rows


def config_defaults():
    """The defaults server/config.c's set_defaults gives, by flag: the option table maps each flag to
    its member, set_defaults assigns the member a number or prints a string into it."""
    source = read("server/config.c")
    member_of = dict(re.findall(r"(?:TEXT|NUMBER)\(\s*\"(--[a-z-]+)\",\s*\"PUZZLED_[A-Z_]+\",\s*([a-z_.]+),", source))
    body = source[source.index("static void set_defaults"):]
    body = body[:body.index("\n}\n")]
    defaults = {}
    for member, value in re.findall(r"config->([a-z_.]+)\s*=\s*([0-9 <]+);", body):
        defaults[member] = str(eval(value))  # a literal or a shift such as 1 << 20
    for member, value in re.findall(r"snprintf\(config->([a-z_.]+),\s*sizeof config->[a-z_.]+,\s*\"([^\"]*)\"\);", body):
        defaults[member] = value
    return {flag: defaults.get(member) for flag, member in member_of.items()}


def check_options(binary):
    options = help_options(binary)
    check("--help lists options", len(options) > 20, options)
    wrong_env = [f"{flag} {env}" for flag, (env, _) in options.items()
                 if env and env != "PUZZLED_" + flag[2:].upper().replace("-", "_")]
    check("every option's environment variable is PUZZLED_ and its flag's name", not wrong_env, wrong_env)

    table = operations_table()
    configurable = set(options) - {"--help"}
    check("docs/operations.md's configuration table has a row for every option of --help and no other",
          set(table) == configurable, f"missing {sorted(configurable - set(table))}, "
                                      f"extra {sorted(set(table) - configurable)}")
    disagree = []
    for flag in sorted(set(table) & set(options)):
        env, default = options[flag]
        table_env, table_default = table[flag]
        if table_env != env:
            disagree.append(f"{flag}: environment {table_env!r} in the table, {env!r} in --help")
        if (default or "none") != table_default and not (default is None and table_default == ""):
            disagree.append(f"{flag}: default {table_default!r} in the table, {default!r} in --help")
    check("--help and docs/operations.md give each option the same environment variable and default",
          not disagree, "\n  " + "\n  ".join(disagree))

    set_by_code = config_defaults()
    check("server/config.c's option table is read whole (every option of --help but --help, --health-check)",
          set(set_by_code) == set(options) - {"--help", "--health-check"},
          sorted(set(set_by_code) ^ (set(options) - {"--help", "--health-check"})))
    disagree = []
    for flag, value in sorted(set_by_code.items()):
        shown = options.get(flag, ("", None))[1]
        if value is not None and shown is not None and not shown.startswith(value):
            disagree.append(f"{flag}: config.c sets {value!r}, --help says {shown!r}")
        if value is not None and shown is None:
            disagree.append(f"{flag}: config.c sets {value!r}, --help gives no default")
    check("the defaults server/config.c sets are the ones --help shows", not disagree,
          "\n  " + "\n  ".join(disagree))
    return options


def check_coverage(options):
    docs = "\n".join(read(name) for name in doc_files())
    with open(os.path.join(ROOT, "openapi.yaml"), encoding="utf-8") as f:
        spec = yaml.safe_load(f)
    missing = [path for path in spec["paths"] if f"`{path}" not in docs and f"{path}`" not in docs
               and f"GET {path}" not in docs]
    check(f"every path of openapi.yaml ({len(spec['paths'])}) is named in the docs", not missing, missing)

    codes = set()

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

    unknown = []
    for name in doc_files():
        for number, line in enumerate(read(name).split("\n"), 1):
            for flag in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*[a-z0-9])(?![\w*-])", line):
                if flag not in options and flag not in FOREIGN_OPTIONS:
                    unknown.append(f"{name}:{number}: {flag}")
    check("every --option the docs name is one of --help's (or another program's)", not unknown,
          "\n  " + "\n  ".join(unknown))


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
    options = check_options(binary)
    check_coverage(options)
    check_console(binary)
    finish()


if __name__ == "__main__":
    main()
