#!/usr/bin/env python3
"""Writes /docs, the API reference, from openapi.yaml: one static HTML page, run by CMake at build time.

    web/docs.py openapi.yaml docs.html

The page holds every operation grouped by tag (each a section whose id is its operationId), its
parameters, request body fields, examples, responses with their error codes and headers, a link to try
it in the playground, then every schema (id `schema-<Name>`) and header (id `header-<Name>`). It is
plain HTML and one style sheet (web/docs.css): no script, so it is interactive as soon as it is drawn
and runs under the pages' strict Content-Security-Policy. Descriptions are CommonMark of a small subset
(markdown() below: paragraphs, bullet and numbered lists, code spans, emphasis, links); everything
else in them is shown as text, and every text of the spec is HTML-escaped on its way in.
tests/web/test_docs.py checks the renderer and checks the built page against the spec.
"""
import html
import json
import re
import sys

import yaml

# ---- Markdown: the subset openapi.yaml's descriptions use ------------------------------------------

CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
LINK = re.compile(r"\[([^\]]+)\]\(((?:https?://|/|#)[^)\s]*)\)")
STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
# A `*` opens emphasis only before a non-space and not inside a word, so `count * max(n, 1)` and
# `rows*cols` stay as they are.
EMPHASIS = re.compile(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])")
LIST_ITEM = re.compile(r"^\s{0,3}([-*+]|\d{1,9}[.)])\s+(.*)$")


def inline(text):
    """One paragraph's text as HTML: code spans verbatim, then links, strong and emphasis."""
    out = []
    at = 0
    for span in CODE_SPAN.finditer(text):
        out.append(_emphasis(text[at:span.start()]))
        code = span.group(2)
        if code.startswith(" ") and code.endswith(" ") and code.strip():
            code = code[1:-1]
        out.append("<code>%s</code>" % html.escape(code.replace("\n", " "), quote=False))
        at = span.end()
    out.append(_emphasis(text[at:]))
    return "".join(out)


def _emphasis(text):
    text = html.escape(text, quote=False)
    text = LINK.sub(lambda m: '<a href="%s">%s</a>' % (m.group(2).replace('"', "&quot;"), m.group(1)), text)
    text = STRONG.sub(r"<strong>\1</strong>", text)
    return EMPHASIS.sub(r"<em>\1</em>", text)


def markdown(text):
    """Blocks separated by blank lines; a block is a paragraph, or a list whose items start with
    `-`, `*`, `+` or `1.` and continue on the following lines, possibly after a paragraph."""
    out = []
    for block in re.split(r"\n[ \t]*\n", text.strip()):
        paragraph, items, ordered = [], [], False
        for line in block.split("\n"):
            item = LIST_ITEM.match(line)
            if item:
                if not items:
                    ordered = item.group(1)[0].isdigit()
                items.append([item.group(2)])
            elif items:
                items[-1].append(line.strip())
            else:
                paragraph.append(line.strip())
        if paragraph:
            out.append("<p>%s</p>" % inline(" ".join(paragraph)))
        if items:
            tag = "ol" if ordered else "ul"
            out.append("<%s>\n%s</%s>" % (tag, "".join("<li>%s</li>\n" % inline(" ".join(lines)) for lines in items), tag))
    return "\n".join(out) + "\n"


# ---- The spec: references, types and error codes ---------------------------------------------------

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class Spec:
    def __init__(self, document):
        self.doc = document
        self.components = document.get("components", {})

    def resolve(self, node):
        """The node a `$ref` names (followed until it is no reference), and that last reference's name."""
        name = None
        while isinstance(node, dict) and "$ref" in node:
            parts = [part.replace("~1", "/").replace("~0", "~") for part in node["$ref"].lstrip("#/").split("/")]
            name = parts[-1]
            node = self.doc
            for part in parts:
                node = node[part]
        return node, name

    def operations(self):
        """(tag, path, method, operation) in the document's order."""
        for path, item in self.doc["paths"].items():
            for method in METHODS:
                if method in item:
                    operation = item[method]
                    yield (operation.get("tags") or ["other"])[0], path, method, operation

    def common_headers(self):
        """The header names every operation's answer with headers carries, in their first order."""
        shared = None
        for _, _, _, operation in self.operations():
            for response in operation.get("responses", {}).values():
                names = list(self.resolve(response)[0].get("headers", {}))
                if names:
                    shared = names if shared is None else [name for name in shared if name in names]
        return shared or []

    def error_codes(self, schema):
        """The `error.code` values a response schema allows: a const or enum, narrowed through allOf,
        joined through oneOf/anyOf; empty for a schema that is no error."""
        schema, _ = self.resolve(schema)
        if not isinstance(schema, dict):
            return []
        if "allOf" in schema:
            found = [codes for codes in (self.error_codes(part) for part in schema["allOf"]) if codes]
            return [code for code in found[-1] if all(code in codes for codes in found)] if found else []
        if "oneOf" in schema or "anyOf" in schema:
            joined = []
            for part in schema.get("oneOf", []) + schema.get("anyOf", []):
                joined += [code for code in self.error_codes(part) if code not in joined]
            return joined
        error, _ = self.resolve(schema.get("properties", {}).get("error", {}))
        code, _ = self.resolve(error.get("properties", {}).get("code", {}))
        if "const" in code:
            return [code["const"]]
        return list(code.get("enum", []))


def esc(text):
    return html.escape(str(text))


def code(text):
    return "<code>%s</code>" % esc(text)


def scalar(value):
    """A JSON value as it is written in a request: strings as they are, the rest as JSON."""
    return value if isinstance(value, str) else json.dumps(value)


def json_text(value, indent=0):
    """Indented JSON, with arrays of plain values (a solution, a grid row) kept on one line."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        inner = ",\n".join("%s%s: %s" % (pad, json.dumps(key), json_text(item, indent + 1)) for key, item in value.items())
        return "{\n%s\n%s}" % (inner, "  " * indent)
    if isinstance(value, list) and any(isinstance(item, (dict, list)) and item for item in value):
        if all(isinstance(item, list) and not any(isinstance(x, (dict, list)) for x in item) for item in value):
            inner = ",\n".join(pad + json.dumps(item, ensure_ascii=False) for item in value)
        else:
            inner = ",\n".join(pad + json_text(item, indent + 1) for item in value)
        return "[\n%s\n%s]" % (inner, "  " * indent)
    return json.dumps(value, ensure_ascii=False)


# The heights (px) a section may be given before it is drawn (docs.css: one `height-N` class each, its
# contain-intrinsic-size). A section off screen is not laid out (content-visibility) and takes this
# height; it must be at least the drawn height at any phone width, or a section measured while skipped
# (axe-core's target sizes in Lighthouse) would overflow onto the next. estimated_height() is fitted on
# this page at 360 px wide (drawn height / estimate at most 1.12 over every section), with a 1.4 margin.
SECTION_HEIGHTS = (300, 400, 500, 650, 800, 1000, 1300, 1600, 2000, 2500, 3200, 4000, 5000, 6400, 8000, 10000,
                   12500, 16000)


def estimated_height(body):
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    blocks = len(re.findall(r"<(?:p|li|tr|dt|dd|pre|h3|h4|caption)[ >]", body))
    pre_lines = sum(block.count("\n") + 1 for block in re.findall(r"<pre>(.*?)</pre>", body, re.S))
    return 1.4 * (0.75 * len(text) + 30 * blocks + 28 * pre_lines + 80)


def height_class(body):
    need = estimated_height(body)
    fits = [height for height in SECTION_HEIGHTS if height >= need]
    if not fits:
        raise ValueError("a section of about %d px: add a larger height to SECTION_HEIGHTS and docs.css" % need)
    return "height-%d" % fits[0]


class Page:
    """The HTML of the reference, built in order into self.out."""

    def __init__(self, spec):
        self.spec = spec
        self.out = []
        self.header_names = {}  # header component -> the HTTP header name responses give it
        self.open_sections = []  # (where in self.out the opening tag goes, its class, its id)
        self.common_headers = spec.common_headers()

    def emit(self, *parts):
        self.out.extend(parts)

    def open_section(self, kind, anchor):
        """A section drawn only near the screen (docs.css); close_section() gives it its height class."""
        self.open_sections.append((len(self.out), kind, anchor))
        self.emit("")

    def close_section(self):
        at, kind, anchor = self.open_sections.pop()
        self.emit("</section>")
        self.out[at] = '<section class="%s %s" id="%s" aria-labelledby="%s-title">' % (
            kind, height_class("".join(self.out[at + 1:])), anchor, anchor)

    # -- types and constraints --

    def type_html(self, schema):
        """A schema's type in a few words, with links to the named schemas it uses."""
        if "$ref" in schema:
            target, name = self.spec.resolve(schema)
            link = '<a href="#schema-%s">%s</a>' % (esc(name), esc(name))
            summary = self.constraints(target)
            return link + (" (%s)" % summary if summary and "properties" not in target else "")
        for joiner in ("oneOf", "anyOf"):
            if joiner in schema and all("required" not in part or len(part) > 1 for part in schema[joiner]):
                return " or ".join(self.type_html(part) for part in schema[joiner])
        if "allOf" in schema:
            return " and ".join(self.type_html(part) for part in schema["allOf"])
        kind = schema.get("type", "any" if "const" not in schema else type(schema["const"]).__name__)
        kind = " or ".join(kind) if isinstance(kind, list) else kind
        if kind == "array" and "items" in schema:
            kind = "array of " + self.type_html(schema["items"])
        else:
            kind = esc(kind)
        summary = self.constraints(schema)
        return kind + (" (%s)" % summary if summary else "")

    @staticmethod
    def constraints(schema):
        said = []
        if "const" in schema:
            said.append("always " + code(scalar(schema["const"])))
        if "enum" in schema:
            said.append("one of " + ", ".join(code(scalar(value)) for value in schema["enum"]))
        for key, words in (("minimum", "at least"), ("maximum", "at most"), ("exclusiveMinimum", "above"),
                           ("exclusiveMaximum", "below"), ("minLength", "length at least"),
                           ("maxLength", "length at most"), ("minItems", "at least %s items"),
                           ("maxItems", "at most %s items"), ("pattern", "matches"), ("format", "format")):
            if key in schema:
                value = code(scalar(schema[key])) if key in ("pattern", "format") else esc(schema[key])
                said.append(words % value if "%s" in words else "%s %s" % (words, value))
        if "default" in schema:
            said.append("default " + code(scalar(schema["default"])))
        return ", ".join(said)

    def description(self, node, fallback=None):
        text = node.get("description") or (fallback or {}).get("description")
        return markdown(text) if text else ""

    # -- fields --

    def field_rows(self, schema, prefix="", depth=0):
        """Table rows for an object schema's properties, nested inline objects as `outer.inner`."""
        schema, _ = self.spec.resolve(schema)
        required = set(schema.get("required", []))
        for name, prop in schema.get("properties", {}).items():
            target, _ = self.spec.resolve(prop)
            flag = ' <span class="required">required</span>' if name in required else ""
            self.emit("<tr><td>%s%s</td><td>%s</td><td>%s</td></tr>" % (
                code(prefix + name), flag, self.type_html(prop), self.description(prop, target)))
            inner = prop.get("items", prop) if prop.get("type") == "array" else prop
            if depth < 3 and "$ref" not in inner and "properties" in inner:
                self.field_rows(inner, prefix + name + ("[]." if inner is not prop else "."), depth + 1)

    def field_table(self, schema, caption):
        self.emit('<table><caption>%s</caption><thead><tr><th scope="col">field</th><th scope="col">type</th>'
                  '<th scope="col">description</th></tr></thead><tbody>' % caption)
        self.field_rows(schema)
        self.emit("</tbody></table>")
        target, _ = self.spec.resolve(schema)
        choices = [part["required"] for part in target.get("oneOf", []) if set(part) == {"required"}]
        if choices:
            self.emit("<p>Exactly one of %s.</p>" % ", ".join(" + ".join(map(code, c)) for c in choices))

    def branches(self, schema):
        """The alternatives of a oneOf or anyOf that say what they are."""
        described = [part for part in schema.get("oneOf", []) + schema.get("anyOf", []) if "description" in part]
        if described:
            self.emit("<ul>%s</ul>" % "".join("<li>%s: %s</li>" % (self.type_html(part), inline(part["description"]))
                                              for part in described))

    def examples(self, media):
        """The example, or each named example, of a media type object."""
        named = [(None, media["example"])] if "example" in media else []
        named += [(item.get("summary", key), item.get("value")) for key, item in media.get("examples", {}).items()]
        for summary, value in named:
            if summary:
                self.emit('<p class="example">%s</p>' % inline(summary))
            text = value if isinstance(value, str) else json_text(value)
            self.emit("<pre>%s</pre>" % esc(text))

    # -- an operation --

    def operation(self, path, method, op, playground):
        anchor = esc(op["operationId"])
        self.open_section("operation", anchor)
        self.emit('<h3 id="%s-title"><span class="method %s">%s</span> %s</h3>' % (
                      anchor, method, method.upper(), code(path)),
                  '<p class="summary">%s <a class="anchor" href="#%s">#<span class="hidden"> %s</span></a></p>' % (
                      inline(op.get("summary", "")), anchor, anchor))
        if op.get("description"):
            self.emit(markdown(op["description"]))
        if playground:
            self.emit('<p><a class="try" href="/#%s">Try it in the playground<span class="hidden">: %s %s</span></a></p>'
                      % (esc(path), method.upper(), esc(path)))
        parameters = [self.spec.resolve(p)[0] for p in op.get("parameters", [])]
        if parameters:
            self.emit('<table><caption>Parameters</caption><thead><tr><th scope="col">name</th><th scope="col">in</th>'
                      '<th scope="col">type</th><th scope="col">description</th></tr></thead><tbody>')
            for p in parameters:
                flag = ' <span class="required">required</span>' if p.get("required") else ""
                schema = p.get("schema", {})
                self.emit("<tr><td>%s%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
                    code(p["name"]), flag, esc(p["in"]), self.type_html(schema),
                    self.description(p, self.spec.resolve(schema)[0])))
            self.emit("</tbody></table>")
            for p in parameters:
                if "example" in p:
                    self.emit('<p class="example">Example: %s=%s</p>' % (code(p["name"]), code(scalar(p["example"]))))
        body, _ = self.spec.resolve(op.get("requestBody", {}))
        for media_type, media in body.get("content", {}).items():
            self.emit("<h4>Request body: %s</h4>" % code(media_type))
            schema = media.get("schema", {})
            target, name = self.spec.resolve(schema)
            if "properties" in target:
                self.field_table(schema, "Fields of %s" % (
                    '<a href="#schema-%s">%s</a>' % (esc(name), esc(name)) if name else "the body"))
            else:
                self.emit("<p>%s</p>" % self.type_html(schema), self.description(schema, target))
            self.examples(media)
        self.emit("<h4>Responses</h4><dl class=\"responses\">")
        for status, response in op.get("responses", {}).items():
            self.response(str(status), response)
        self.emit("</dl>")
        self.close_section()

    def response(self, status, reference):
        """One status of an operation. A shared answer (a response component) is named, with its error
        codes, and described once under Shared answers."""
        response, name = self.spec.resolve(reference)
        self.emit('<dt><span class="status s%s">%s</span></dt><dd>' % (status[0], esc(status)))
        if reference.get("$ref", "").startswith("#/components/responses/"):
            self.emit('<p><a href="#response-%s">%s</a></p>' % (esc(name), esc(name)))
            self.error_codes(response)
        else:
            self.emit(markdown(response.get("description", "")))
            self.response_content(response)
        self.response_headers(response)
        self.emit("</dd>")

    def error_codes(self, response):
        for media in response.get("content", {}).values():
            codes = self.spec.error_codes(media.get("schema", {}))
            if codes:
                self.emit('<p class="codes">Error codes: %s</p>' % ", ".join(map(code, codes)))

    def response_content(self, response):
        for media_type, media in response.get("content", {}).items():
            schema = media.get("schema", {})
            self.emit("<p>%s: %s</p>" % (code(media_type), self.type_html(schema)) if schema else
                      "<p>%s</p>" % code(media_type))
            if "$ref" not in schema or len(schema) > 1:
                self.emit(self.description(schema))
            if "properties" in schema:
                self.field_table(schema, "Fields")
            self.error_codes({"content": {media_type: media}})
            self.examples(media)

    def response_headers(self, response):
        """The headers of an answer beyond those every answer carries (said once, at the top)."""
        links = []
        for name, header in response.get("headers", {}).items():
            component = self.spec.resolve(header)[1] or name
            self.header_names.setdefault(component, name)
            if name not in self.common_headers:
                links.append('<a href="#header-%s">%s</a>' % (esc(component), esc(name)))
        if links:
            self.emit('<p class="headers">Headers: %s</p>' % ", ".join(links))

    def first_header(self, name):
        """The header object an answer first gives `name` (for the link to its description)."""
        for _, _, _, operation in self.spec.operations():
            for response in operation.get("responses", {}).values():
                headers = self.spec.resolve(response)[0].get("headers", {})
                if name in headers:
                    return headers[name]
        return {}

    # -- the whole page --

    def build(self):
        doc = self.spec.doc
        info = doc["info"]
        by_tag = {}
        for tag, path, method, op in self.spec.operations():
            by_tag.setdefault(tag, []).append((path, method, op))
        tags = [t["name"] for t in doc.get("tags", [])]
        tags += [t for t in by_tag if t not in tags]
        tag_text = {t["name"]: t.get("description", "") for t in doc.get("tags", [])}
        playground_paths = {path for path, item in doc["paths"].items() if "post" in item}
        title = "%s API reference" % info["title"]
        self.emit("<!DOCTYPE html>\n<!-- GET /docs: generated from openapi.yaml by web/docs.py at build time; do not edit. -->\n",
                  '<html lang="en"><head><meta charset="utf-8">',
                  '<meta name="viewport" content="width=device-width, initial-scale=1">',
                  "<title>%s</title>" % esc(title),
                  '<meta name="description" content="%s">' % esc(
                      "Every endpoint of %s %s: %s" % (info["title"], info["version"], info.get("summary", ""))),
                  '<meta name="color-scheme" content="light dark">',
                  '<link rel="icon" href="data:,"><link rel="stylesheet" href="/docs.css"></head><body>',
                  '<a class="skip" href="#content">Skip to the reference</a>',
                  '<header class="site"><nav aria-label="Site"><a href="/">Playground</a> '
                  '<a href="/docs" aria-current="page">API reference</a> <a href="/openapi.yaml">openapi.yaml</a></nav></header>',
                  '<div class="layout"><nav class="toc" aria-label="Operations"><h2 id="toc-title">Operations</h2><ul>')
        for tag in tags:
            if tag not in by_tag:
                continue
            self.emit('<li><a href="#tag-%s">%s</a><ul>' % (esc(tag), esc(tag)))
            for path, method, op in by_tag[tag]:
                self.emit('<li><a href="#%s"><span class="method %s">%s</span> %s</a></li>' % (
                    esc(op["operationId"]), method, method.upper(), esc(path)))
            self.emit("</ul></li>")
        self.emit('<li><a href="#unrouted">Other requests</a></li><li><a href="#responses">Shared answers</a></li>'
                  '<li><a href="#schemas">Schemas</a></li>'
                  '<li><a href="#headers">Headers</a></li></ul></nav>',
                  '<main id="content"><h1>%s <span class="version">%s</span></h1>' % (
                      esc(title), esc(info["version"])),
                  '<p class="summary">%s</p>' % inline(info.get("summary", "")), markdown(info.get("description", "")),
                  '<p>Generated from <a href="/openapi.yaml">openapi.yaml</a> (OpenAPI %s), which this service also serves. '
                  "Every answer below with headers carries %s; each lists only its others.</p>" % (
                      esc(doc["openapi"]), ", ".join('<a href="#header-%s">%s</a>' % (
                          esc(self.spec.resolve(self.first_header(name))[1] or name), esc(name))
                          for name in self.common_headers)))
        for tag in tags:
            if tag not in by_tag:
                continue
            self.emit('<section class="tag" id="tag-%s" aria-labelledby="tag-%s-title"><h2 id="tag-%s-title">%s</h2>%s' % (
                esc(tag), esc(tag), esc(tag), esc(tag), markdown(tag_text.get(tag, ""))))
            for path, method, op in by_tag[tag]:
                self.operation(path, method, op, path in playground_paths and method in ("get", "post"))
            self.emit("</section>")
        self.unrouted()
        self.responses()
        self.schemas()
        self.headers()
        self.emit("</main></div></body></html>\n")
        return "".join(self.out)

    def unrouted(self):
        self.emit('<section id="unrouted" aria-labelledby="unrouted-title"><h2 id="unrouted-title">Other requests</h2>'
                  "<p>The answers to requests that match no operation above.</p><dl class=\"responses\">")
        for name, response in self.spec.doc.get("x-unrouted-responses", {}).items():
            self.emit("<dt>%s</dt><dd>" % esc(name.replace("-", " ")))
            target, _ = self.spec.resolve(response)
            self.emit(markdown(target.get("description", "")))
            self.response_content(target)
            self.emit("</dd>")
        self.emit("</dl></section>")

    def responses(self):
        self.emit('<section id="responses" aria-labelledby="responses-title"><h2 id="responses-title">Shared answers</h2>'
                  "<p>Answers several operations give, with their examples.</p>")
        for name, response in self.spec.components.get("responses", {}).items():
            self.open_section("shared", "response-" + esc(name))
            self.emit('<h3 id="response-%s-title">%s</h3>' % (esc(name), esc(name)), markdown(response.get("description", "")))
            self.response_content(response)
            self.response_headers(response)
            self.close_section()
        self.emit("</section>")

    def schemas(self):
        self.emit('<section id="schemas" aria-labelledby="schemas-title"><h2 id="schemas-title">Schemas</h2>')
        for name, schema in self.spec.components.get("schemas", {}).items():
            self.open_section("schema", "schema-" + esc(name))
            self.emit('<h3 id="schema-%s-title">%s</h3>' % (esc(name), esc(name)), self.description(schema))
            if "properties" in schema:
                self.field_table(schema, "Fields")
            else:
                self.emit("<p>%s</p>" % self.type_html(schema))
            self.branches(schema)
            self.close_section()
        self.emit("</section>")

    def headers(self):
        self.emit('<section id="headers" aria-labelledby="headers-title"><h2 id="headers-title">Headers</h2><dl>')
        for name, header in self.spec.components.get("headers", {}).items():
            shown = self.header_names.get(name, name)
            if shown.replace("-", "") != name:
                shown += " (%s)" % name
            self.emit('<dt id="header-%s">%s</dt><dd>%s<p>%s</p></dd>' % (
                esc(name), esc(shown), self.description(header), self.type_html(header.get("schema", {}))))
        self.emit("</dl></section>")


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: web/docs.py openapi.yaml OUTPUT")
    with open(argv[1], encoding="utf-8") as source:
        document = yaml.load(source, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    text = Page(Spec(document)).build()
    with open(argv[2], "w", encoding="utf-8") as output:
        output.write(text)


if __name__ == "__main__":
    main(sys.argv)
