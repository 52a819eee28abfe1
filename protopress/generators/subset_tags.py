"""Font subset tags that tell subsets apart.

A PDF names an embedded font subset ``TAG+FontName``, where TAG is six
capital letters that should differ between different subsets. reportlab
numbers subsets within each font (``AAAAAA+`` for the first subset of every
font), so every file it writes repeats the same tag for different glyph sets,
which confuses tools that merge or impose files. :class:`TaggedTTFont` tags
each subset with letters derived from a hash of the font's name, the font
file's bytes and the subset's characters: the same inputs give the same tag
(and the same bytes), different subsets get different tags.

``addObjects`` follows reportlab's own ``TTFont.addObjects`` (reportlab 4)
with the tag as the only change.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from reportlab.pdfbase import pdfdoc
from reportlab.pdfbase.ttfonts import TTFont, makeToUnicodeCMap

TAG_LETTERS = 6


def subset_tag(font_name: str, file_digest: str, index: int, characters: list[int]) -> str:
    """Six capital letters from a hash of the font, the subset's place and its characters."""
    digest = hashlib.sha256(
        f"{font_name}\0{file_digest}\0{index}\0{','.join(map(str, characters))}".encode()
    ).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(TAG_LETTERS):
        number, letter = divmod(number, 26)
        letters.append(chr(ord("A") + letter))
    return "".join(letters)


class TaggedTTFont(TTFont):
    """A TrueType font whose subsets carry hash-derived tags (see the module docstring)."""

    def __init__(self, name: str, filename: str, **options) -> None:
        super().__init__(name, filename, **options)
        self.file_digest = hashlib.sha256(Path(filename).read_bytes()).hexdigest()

    def addObjects(self, doc) -> None:  # noqa: N802 - reportlab's name
        try:
            state = self.state[doc]
        except KeyError:
            state = self.state[doc] = TTFont.State(self._asciiReadable)
        state.frozen = 1
        used = doc.__dict__.setdefault("_protopress_subset_tags", set())
        face_name = self.face.name.decode("pdfdoc") + self.face.subfontNameX.decode("pdfdoc")
        for n, subset in enumerate(state.subsets):
            internal_name = self.getSubsetInternalName(n, doc)[1:]
            tag, salt = subset_tag(face_name, self.file_digest, n, subset), 0
            while (tag, face_name) in used:  # a clash of hashes within one file
                salt += 1
                tag = subset_tag(face_name, f"{self.file_digest}/{salt}", n, subset)
            used.add((tag, face_name))
            base_font_name = f"{tag}+{face_name}"

            pdf_font = pdfdoc.PDFTrueTypeFont()
            pdf_font.__Comment__ = f"Font {self.fontName} subset {n}"
            pdf_font.Name = internal_name
            pdf_font.BaseFont = base_font_name
            pdf_font.FirstChar = 0
            pdf_font.LastChar = len(subset) - 1
            pdf_font.Widths = pdfdoc.PDFArray(list(map(self.face.getCharWidth, subset)))

            cmap = pdfdoc.PDFStream()
            cmap.content = makeToUnicodeCMap(base_font_name, subset)
            if doc.compression:
                cmap.filters = [pdfdoc.PDFZCompress]
            pdf_font.ToUnicode = doc.Reference(cmap, "toUnicodeCMap:" + base_font_name)
            pdf_font.FontDescriptor = self.face.addSubsetObjects(doc, base_font_name, subset)

            doc.Reference(pdf_font, internal_name)
            doc.idToObject["BasicFonts"].dict[internal_name] = pdf_font
        del self.state[doc]
