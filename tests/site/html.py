"""A small HTML reader for the site tests, on the standard library's parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Element:
    """An element of a document: its tag, its attributes and the text inside it."""

    tag: str
    attrs: dict[str, str]
    text: str = ""
    children_text: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Text:
    """A text node of a document, with the tags of the elements it is in, outermost first."""

    data: str
    within: tuple[str, ...]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.texts: list[Text] = []
        self._open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.elements.append(element)
        if tag not in {"meta", "link", "input", "img", "br", "hr", "source", "mspace", "path"}:
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {name: value or "" for name, value in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        self.texts.append(Text(data, tuple(element.tag for element in self._open)))
        for element in self._open:
            element.children_text.append(data)


class Document:
    """The elements of one HTML page, in document order."""

    def __init__(self, html: str) -> None:
        collector = _Collector()
        collector.feed(html)
        collector.close()
        self.html = html
        self.elements = collector.elements
        self.texts = collector.texts
        """Every text node, in document order: a table's cells never run together."""
        for element in self.elements:
            element.text = "".join(element.children_text)

    def find_all(self, tag: str | None = None, **attrs: str | bool) -> list[Element]:
        """Elements with ``tag`` whose attributes match (``True`` means present)."""
        wanted = {name.rstrip("_").replace("_", "-"): value for name, value in attrs.items()}
        found = []
        for element in self.elements:
            if tag is not None and element.tag != tag:
                continue
            if all(
                (name in element.attrs) if value is True else element.attrs.get(name) == value
                for name, value in wanted.items()
            ):
                found.append(element)
        return found

    def find(self, tag: str | None = None, **attrs: str | bool) -> Element:
        """The first matching element; fails the test if there is none."""
        found = self.find_all(tag, **attrs)
        assert found, f"no <{tag}> with {attrs}"
        return found[0]
