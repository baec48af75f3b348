// The small Markdown of openapi.yaml's descriptions turned into DOM nodes: paragraphs (blank lines),
// bullet and numbered lists, `code`, **strong**, *emphasis* / _emphasis_ and [links](url). Nodes are
// built with createElement and text nodes only, never innerHTML, so no text of the spec can become
// markup or script (no sanitizer needed); links go only to http(s) or to this site. Anything else is
// shown as the text it is. Tested in tests/browser/browser.js ("Markdown").
'use strict';

const Markdown = (() => {
  // `code` first (nothing inside it is Markdown), then links, strong, emphasis.
  const INLINE = /`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*|(?<![\w*])[*_]([^*_\s](?:[^*_]*[^*_\s])?)[*_](?![\w*])/g;

  function inline(text, into) {
    let at = 0;
    for (const match of text.matchAll(INLINE)) {
      if (match.index > at) into.append(text.slice(at, match.index));
      const [whole, code, linkText, href, strong, emphasis] = match;
      let node;
      if (code !== undefined) {
        node = document.createElement('code');
        node.textContent = code;
      } else if (linkText !== undefined) {
        if (/^(https?:\/\/|\/(?!\/)|#)/.test(href)) {
          node = document.createElement('a');
          node.href = href;
          inline(linkText, node);
        } else {
          node = document.createTextNode(whole);
        }
      } else {
        node = document.createElement(strong !== undefined ? 'strong' : 'em');
        inline(strong ?? emphasis, node);
      }
      into.append(node);
      at = match.index + whole.length;
    }
    if (at < text.length) into.append(text.slice(at));
    return into;
  }

  const BULLET = /^\s*[-*+]\s+/, NUMBERED = /^\s*\d+[.)]\s+/;

  // A DocumentFragment of the blocks of `text`.
  function render(text) {
    const fragment = document.createDocumentFragment();
    let paragraph = null, list = null;
    const close = () => { paragraph = null; list = null; };
    for (const line of String(text ?? '').split('\n')) {
      if (line.trim() === '') { close(); continue; }
      const kind = BULLET.test(line) ? 'ul' : NUMBERED.test(line) ? 'ol' : null;
      if (kind) {
        if (!list || list.tagName.toLowerCase() !== kind) {
          list = fragment.appendChild(document.createElement(kind));
          paragraph = null;
        }
        list.appendChild(inline(line.replace(kind === 'ul' ? BULLET : NUMBERED, ''), document.createElement('li')));
      } else if (list && /^\s+/.test(line)) { // a list item's continuation line
        list.lastChild.append(' ');
        inline(line.trim(), list.lastChild);
      } else {
        list = null;
        if (paragraph) paragraph.append(' ');
        else paragraph = fragment.appendChild(document.createElement('p'));
        inline(line.trim(), paragraph);
      }
    }
    return fragment;
  }

  return {render};
})();
