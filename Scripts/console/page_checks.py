"""What no support console page may show people.

Used by console_test.py's `phone_every_page` scenario on every page the scenarios' traffic
reaches, in English and Chinese (which also checks that no page scrolls sideways):

- no epoch milliseconds (`1795872303735`) and no JSON object (`{"coins":-30}`) in the
  text people read (ids and the game's own names are in `code` and not read here);
- no field name left as the machine spells it (`refundedShare`, `revocation_reason`) in a
  label (`dt`, `th`, `label`, headings), no event detail the console has no name for, and,
  on a Chinese page, no English word in a label.
"""

import re

EPOCH_MILLISECONDS = re.compile(r"(?<![\d.,])1[4-9]\d{11}(?![\d.,])")
JSON_OBJECT = re.compile(r'[{\[]\s*"[^"\n]{0,64}"\s*:')
MACHINE_NAME = re.compile(r"\b[a-z]+(?:[A-Z][a-z0-9]*)+\b|\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
ENGLISH_WORD = re.compile(r"\b[A-Za-z][a-z]{3,}\b")
# Names that stay as they are in Chinese: Apple's and the standards' own.
KEPT_IN_CHINESE = {"Apple", "Store", "Xcode", "Family", "Sharing"}

# The text of the page a person reads: text nodes that render, outside code, scripts,
# styles and form fields.
READ_TEXT = """() => {
  const skip = new Set(['CODE', 'SCRIPT', 'STYLE', 'TEXTAREA', 'NOSCRIPT', 'TEMPLATE', 'OPTION']);
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    let element = node.parentElement, hidden = false;
    for (let e = element; e; e = e.parentElement) {
      if (skip.has(e.tagName)) { hidden = true; break; }
    }
    if (hidden || !node.textContent.trim()) continue;
    if (element.checkVisibility && !element.checkVisibility({visibilityProperty: true})) {
      const inClosedDetails = element.closest('details:not([open])');
      if (!inClosedDetails) continue;
    }
    texts.push(node.textContent.trim());
  }
  return texts.join('\\n');
}"""

# The labels of the page: field names and headings, without what they hold in `code`.
READ_LABELS = """() => Array.from(document.querySelectorAll(
    'main dt, main th:not([scope=row]), main label, main legend, main h1, main h2, main h3, main caption, main summary'))
  .map(e => { const copy = e.cloneNode(true);
              copy.querySelectorAll('code, input, select, textarea').forEach(c => c.remove());
              return copy.textContent.replace(/\\s+/g, ' ').trim(); })
  .filter(t => t)"""

# Details of the server's own events named by their key (a key the console has no name for).
UNNAMED_DETAILS = """() => Array.from(document.querySelectorAll(
    'main li[data-event-type]:not([data-event-type=client_event]) dt[data-key] > code')).map(c => c.textContent)"""


def problems(page, chinese: bool) -> list:
    """What the loaded `page` shows that people should not see."""
    found = [f"a detail named by its key: {key!r}" for key in page.evaluate(UNNAMED_DETAILS)]
    text = page.evaluate(READ_TEXT)
    for match in EPOCH_MILLISECONDS.finditer(text):
        found.append(f"epoch milliseconds {match.group(0)!r}")
    for match in JSON_OBJECT.finditer(text):
        start = max(0, match.start() - 20)
        found.append(f"a JSON object {text[start:match.end() + 20]!r}")
    for label in page.evaluate(READ_LABELS):
        for match in MACHINE_NAME.finditer(label):
            found.append(f"a machine name in the label {label!r}: {match.group(0)!r}")
        if chinese:
            words = [w for w in ENGLISH_WORD.findall(label) if w not in KEPT_IN_CHINESE]
            if words:
                found.append(f"English in the Chinese label {label!r}: {words}")
    return found
