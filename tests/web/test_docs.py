#!/usr/bin/env python3
"""Tests of web/docs.py, the writer of /docs: its Markdown renderer on each construct it takes, and the
built page against openapi.yaml, read here on its own terms (YAML in, the page parsed as HTML by the
standard library), so the page cannot drift from the spec: every operation in its tag's section with
its method, path, parameters, body fields, statuses, error codes and examples; every schema with its
fields; every header; every description's words; no Markdown left unrendered.

    tests/web/test_docs.py BUILT_PAGE   (PUZZLED_SOURCE_DIR: the source tree; ctest sets both)
"""
import html.parser
import importlib.util
import json
import os
import re
import sys
import unittest

import yaml

SOURCE = os.environ.get("PUZZLED_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
PAGE = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(SOURCE, "build", "web", "docs.html")

spec_loader = importlib.util.spec_from_file_location("docs", os.path.join(SOURCE, "web", "docs.py"))
docs = importlib.util.module_from_spec(spec_loader)
spec_loader.loader.exec_module(docs)


class MarkdownRenderer(unittest.TestCase):
    def test_paragraphs_are_split_by_blank_lines_and_joined_within(self):
        self.assertEqual(docs.markdown("one\ntwo\n\nthree\n"), "<p>one two</p>\n<p>three</p>\n")

    def test_code_spans_are_verbatim_and_escaped(self):
        self.assertEqual(docs.inline("use `<img src=\"/q?n=8&a=b\">` *now*"),
                         "use <code>&lt;img src=\"/q?n=8&amp;a=b\"&gt;</code> <em>now</em>")
        self.assertEqual(docs.inline("``a`b``"), "<code>a`b</code>")
        self.assertEqual(docs.inline("`*not emphasis*`"), "<code>*not emphasis*</code>")

    def test_html_outside_code_is_text(self):
        self.assertEqual(docs.markdown("a <script>x</script> & b"), "<p>a &lt;script&gt;x&lt;/script&gt; &amp; b</p>\n")

    def test_emphasis_and_strong(self):
        self.assertEqual(docs.inline("**all** of *this*"), "<strong>all</strong> of <em>this</em>")

    def test_a_star_between_spaces_or_inside_a_word_is_text(self):
        self.assertEqual(docs.inline("count * max(n, 1) and rows*cols squares"), "count * max(n, 1) and rows*cols squares")
        self.assertEqual(docs.inline("`*;q=0` or 2 * 3 * 4"), "<code>*;q=0</code> or 2 * 3 * 4")

    def test_links_to_the_web_or_this_page_only(self):
        self.assertEqual(docs.inline("[the spec](/openapi.yaml) and [x](https://a.example/?a=1&b=2)"),
                         '<a href="/openapi.yaml">the spec</a> and <a href="https://a.example/?a=1&amp;b=2">x</a>')
        self.assertEqual(docs.inline("[bad](javascript:alert(1))"), "[bad](javascript:alert(1))")

    def test_a_list_after_a_paragraph_with_continued_items(self):
        text = "Modes:\n\n- `a` lists\n  more of a\n- `b` counts\n"
        self.assertEqual(docs.markdown(text), "<p>Modes:</p>\n<ul>\n<li><code>a</code> lists more of a</li>\n"
                                              "<li><code>b</code> counts</li>\n</ul>\n")
        self.assertEqual(docs.markdown("Two steps:\n1. one\n2. two"),
                         "<p>Two steps:</p>\n<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n")

    def test_a_code_span_may_cross_a_line_break(self):
        self.assertEqual(docs.markdown("a `b\nc` d"), "<p>a <code>b c</code> d</p>\n")


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.text = []
        self.children = []

    def all_text(self):
        return "".join(self.text)

    def within(self, tag):
        node = self
        while node is not None and node.tag != tag:
            node = node.parent
        return node is not None


class PageParser(html.parser.HTMLParser):
    """The page as elements: each with every piece of text inside it; ids and links indexed."""
    VOID = {"meta", "link", "br", "img", "input", "hr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("root", [], None)
        self.open = self.root
        self.by_id = {}
        self.elements = []
        self.prose = []  # text outside <code> and <pre>

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.open)
        self.open.children.append(element)
        self.elements.append(element)
        if "id" in element.attrs:
            assert element.attrs["id"] not in self.by_id, "id %s twice" % element.attrs["id"]
            self.by_id[element.attrs["id"]] = element
        if tag not in self.VOID:
            self.open = element

    def handle_endtag(self, tag):
        assert self.open.tag == tag, "</%s> closes <%s>" % (tag, self.open.tag)
        self.open = self.open.parent

    def handle_data(self, data):
        if not (self.open.within("code") or self.open.within("pre")):
            self.prose.append(data)
        node = self.open
        while node is not None:
            node.text.append(data)
            node = node.parent


def words(text):
    return " ".join(text.split())


def plain(markdown_text):
    """A description's words as a reader sees them: no backticks or emphasis stars."""
    text = re.sub(r"(`+)(.+?)\1", lambda m: m.group(2).strip(), markdown_text, flags=re.S)
    text = re.sub(r"\*\*(\S.*?\S|\S)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(\S.*?\S|\S)\*(?![\w*])", r"\1", text)
    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", text, flags=re.M)
    return words(text)


class BuiltPage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(SOURCE, "openapi.yaml"), encoding="utf-8") as source:
            cls.spec = yaml.safe_load(source)
        parser = PageParser()
        with open(PAGE, encoding="utf-8") as page:
            parser.feed(page.read())
        parser.close()
        assert parser.open is parser.root, "unclosed <%s>" % parser.open.tag
        cls.page = parser

    def deref(self, node):
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            node = self.spec
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def section(self, anchor):
        if anchor not in self.page.by_id:
            self.fail("no element with id %s" % anchor)
        return self.page.by_id[anchor]

    def operations(self):
        for path, item in self.spec["paths"].items():
            for method, operation in item.items():
                if method in ("get", "put", "post", "delete", "options", "head", "patch", "trace"):
                    yield path, method, operation

    def codes(self, schema):
        """The error codes a schema admits: allOf narrows (the codes every branch with codes allows)."""
        schema = self.deref(schema)
        if "allOf" in schema:
            sets = [self.codes(branch) for branch in schema["allOf"]]
            sets = [s for s in sets if s]
            return set.intersection(*sets) if sets else set()
        if "oneOf" in schema or "anyOf" in schema:
            return set().union(*(self.codes(b) for b in schema.get("oneOf", []) + schema.get("anyOf", [])))
        code = self.deref(self.deref(schema.get("properties", {}).get("error", {})).get("properties", {}).get("code", {}))
        return {code["const"]} if "const" in code else set(code.get("enum", []))

    def json_blocks(self, element):
        blocks = []
        for pre in (e for e in self.page.elements if e.tag == "pre" and is_inside(e, element)):
            try:
                blocks.append(json.loads(pre.all_text()))
            except ValueError:
                blocks.append(pre.all_text())
        return blocks

    def test_every_operation_is_in_its_tags_section_with_method_and_path(self):
        count = 0
        for path, method, operation in self.operations():
            section = self.section(operation["operationId"])
            heading = next(c for c in section.children if c.tag == "h3")
            self.assertEqual(words(heading.all_text()), "%s %s" % (method.upper(), path))
            tag = operation.get("tags", ["other"])[0]
            self.assertIs(section.parent, self.section("tag-" + tag), operation["operationId"])
            count += 1
        self.assertGreater(count, 50)

    def test_every_parameter_body_field_and_status_of_an_operation_is_in_its_section(self):
        for path, method, operation in self.operations():
            section = self.section(operation["operationId"])
            cells = {words(c.all_text()) for c in self.page.elements if c.tag == "code" and is_inside(c, section)}
            for parameter in operation.get("parameters", []):
                self.assertIn(self.deref(parameter)["name"], cells, operation["operationId"])
            for media in self.deref(operation.get("requestBody", {})).get("content", {}).values():
                for name in self.deref(media["schema"]).get("properties", {}):
                    self.assertIn(name, cells, "%s body field %s" % (operation["operationId"], name))
            statuses = [words(e.all_text()) for e in self.page.elements if e.tag == "dt" and is_inside(e, section)]
            self.assertEqual(statuses, [str(s) for s in operation["responses"]], operation["operationId"])

    def test_every_error_code_of_an_answer_is_listed_under_its_status(self):
        for path, method, operation in self.operations():
            section = self.section(operation["operationId"])
            answers = [e for e in self.page.elements if e.tag == "dd" and e.parent.parent is section]
            for (status, response), answer in zip(operation["responses"].items(), answers):
                expected = set()
                for media in self.deref(response).get("content", {}).values():
                    expected |= self.codes(media.get("schema", {}))
                listed = {words(c.all_text()) for c in self.page.elements
                          if c.tag == "code" and c.parent.attrs.get("class") == "codes" and is_inside(c, answer)}
                self.assertEqual(listed, expected, "%s %s" % (operation["operationId"], status))

    def test_every_example_is_shown_where_its_answer_or_request_is(self):
        for path, method, operation in self.operations():
            section = self.section(operation["operationId"])
            shown = self.json_blocks(section)
            media_objects = list(self.deref(operation.get("requestBody", {})).get("content", {}).values())
            for status, response in operation["responses"].items():
                if response.get("$ref", "").startswith("#/components/responses/"):
                    name = response["$ref"].rsplit("/", 1)[-1]
                    for media in self.deref(response).get("content", {}).values():
                        for value in examples_of(media):
                            self.assertTrue(value in self.json_blocks(self.section("response-" + name)), name)
                else:
                    media_objects += list(response.get("content", {}).values())
            for media in media_objects:
                for value in examples_of(media):
                    self.assertTrue(value in shown, "%s: %s" % (operation["operationId"], json.dumps(value)[:100]))

    def test_every_schema_has_its_section_with_its_fields(self):
        for name, schema in self.spec["components"]["schemas"].items():
            section = self.section("schema-" + name)
            cells = {words(c.all_text()) for c in self.page.elements if c.tag == "code" and is_inside(c, section)}
            for field in schema.get("properties", {}):
                self.assertIn(field, cells, "%s.%s" % (name, field))

    def test_every_header_and_shared_answer_has_its_entry(self):
        for name in self.spec["components"]["headers"]:
            self.section("header-" + name)
        for name in self.spec["components"]["responses"]:
            self.section("response-" + name)

    def test_the_playground_link_of_every_computing_operation(self):
        for path, method, operation in self.operations():
            section = self.section(operation["operationId"])
            links = [e.attrs["href"] for e in self.page.elements if e.tag == "a" and is_inside(e, section)]
            wanted = "post" in self.spec["paths"][path] and method in ("get", "post")
            self.assertEqual("/#" + path in links, wanted, operation["operationId"])

    def test_every_description_and_summary_is_on_the_page(self):
        text = words(self.page.root.all_text())
        missing = []

        def walk(node, where):
            if isinstance(node, dict):
                for key, value in node.items():
                    if key in ("description", "summary") and isinstance(value, str) and where[-1:] != ["license"]:
                        if plain(value) not in text:
                            missing.append("/".join(where + [key]))
                    elif not str(key).startswith("x-untested"):
                        walk(value, where + [str(key)])
            elif isinstance(node, list):
                for i, value in enumerate(node):
                    walk(value, where + [str(i)])
        walk(self.spec, [])
        self.assertEqual(missing, [], "\n".join(missing))

    def test_no_markdown_is_left_unrendered(self):
        for text in self.page.prose:
            self.assertNotIn("`", text)
            self.assertIsNone(re.search(r"\*\*\S|(?<![\w*])\*\S[^*]*\S\*(?![\w*])", text), text)

    def test_every_section_height_is_one_the_style_sheet_gives(self):
        with open(os.path.join(SOURCE, "web", "docs.css"), encoding="utf-8") as sheet:
            given = {int(h) for h, size in re.findall(r"\.height-(\d+) \{ --height: (\d+)px; \}", sheet.read()) if h == size}
        self.assertEqual(given, set(docs.SECTION_HEIGHTS))
        for element in self.page.elements:
            for name in element.attrs.get("class", "").split():
                if name.startswith("height-"):
                    self.assertIn(int(name[len("height-"):]), given)

    def test_every_link_inside_the_page_has_its_target(self):
        for element in self.page.elements:
            href = element.attrs.get("href", "")
            if element.tag == "a" and href.startswith("#"):
                self.assertIn(href[1:], self.page.by_id, href)


def examples_of(media):
    values = [media["example"]] if "example" in media else []
    return values + [item["value"] for item in media.get("examples", {}).values() if "value" in item]


def is_inside(element, ancestor):
    node = element
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent
    return False


if __name__ == "__main__":
    unittest.main()
