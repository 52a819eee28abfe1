"""PNGs are rasterised from PDFs of many faces each: a face comes out pixel for
pixel the same whichever faces share its PDF (so a re-render of only the
changed faces matches a full one), and one face to a PDF as before."""

from __future__ import annotations

import pytest

from protopress.components import builtin_catalog_path, load_catalog
from protopress.generators import render as render_module
from protopress.generators.png_surface import BATCH, face_image, face_images, pixel_size
from protopress.generators.render import RenderOptions, render_catalog


def faces_of(game: str, tmp_path, monkeypatch) -> list:
    """Every face the PNG export of a built-in game draws, in order."""
    faces: list = []

    def keep(copies, kind, options, changed=None):
        for copy in copies:
            faces.extend(face for face in (copy.front, copy.back) if face is not None)
        return []

    monkeypatch.setattr(render_module, "write_pngs", keep)
    render_catalog(load_catalog(builtin_catalog_path(game)),
                   RenderOptions(output_dir=tmp_path, png=True, dpi=72))  # fmt: skip
    return faces


@pytest.mark.parametrize("game", ["gem-rush", "stonespine-architects"])
def test_a_face_is_the_same_in_a_batch_as_alone(game, tmp_path, monkeypatch):
    faces = faces_of(game, tmp_path, monkeypatch)
    # different kinds, texts and icons share the batches; more than one batch
    chosen = faces[:: max(1, len(faces) // (BATCH + 5))][: BATCH + 5]
    assert len(chosen) > BATCH
    batched = list(face_images(chosen, 72))
    assert len(batched) == len(chosen)
    for face, image in zip(chosen, batched, strict=True):
        alone = face_image(face, 72)
        assert image.size == alone.size == pixel_size(face, 72)
        assert image.tobytes() == alone.tobytes(), face.name
    # and in another order, with other neighbours
    for face, image in zip(chosen[::-1], face_images(chosen[::-1], 72), strict=True):
        assert image.tobytes() == face_image(face, 72).tobytes(), face.name


def test_no_faces_give_no_images():
    assert list(face_images([], 72)) == []
