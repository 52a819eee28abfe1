"""Card art: only formats decoded in-process, recognised by content; damaged files named."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from protopress.generators.images import ALLOWED_FORMATS, image_format

EPS = b"""%!PS-Adobe-3.0 EPSF-3.0
%%BoundingBox: 0 0 10 10
%%EndComments
(ran) print
0 0 moveto 10 10 lineto stroke
showpage
%%EOF
"""
LAYOUT = {
    "kind": "card",
    "size": {"width": "63mm", "height": "88mm"},
    "front": [{"type": "image", "x": 0, "y": 0, "w": 10, "h": 10, "path": "art/{id}.{ext}"}],
}


def _deck(root: Path, ext: str) -> Path:
    catalog = {"game": "t", "title": "T", "version": "1",
               "cards": [{"id": "c1", "title": "C", "ext": ext, "count": 1}]}  # fmt: skip
    (root / "deck.json").write_text(json.dumps(catalog))
    (root / "layouts").mkdir()
    (root / "layouts" / "card.json").write_text(json.dumps(LAYOUT))
    (root / "art").mkdir()
    return root / "deck.json"


def _fake_ghostscript(root: Path) -> tuple[dict, Path]:
    """A `gs` first on PATH that leaves a mark when anything runs it."""
    bin_dir, mark = root / "bin", root / "ghostscript-ran"
    bin_dir.mkdir()
    gs = bin_dir / "gs"
    gs.write_text(f"#!/bin/sh\ntouch {mark}\nexit 1\n")
    gs.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}, mark


@pytest.mark.skipif(sys.platform == "win32", reason="a shell script stands in for gs")
@pytest.mark.parametrize("ext", ["eps", "png"])
@pytest.mark.parametrize("png", [False, True])
def test_an_eps_image_is_refused_by_content_and_ghostscript_never_runs(tmp_path, ext, png):
    catalog = _deck(tmp_path, ext)
    (tmp_path / "art" / f"c1.{ext}").write_bytes(EPS)
    env, mark = _fake_ghostscript(tmp_path)
    args = [sys.executable, "-m", "protopress", "render", str(catalog),
            "--layouts", str(tmp_path / "layouts"), "-o", str(tmp_path / "out")]  # fmt: skip
    run = subprocess.run(args + (["--png", "--dpi", "72"] if png else []), env=env,
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 1, run.stderr
    assert f"/front/0/path: card 'c1': image 'art/c1.{ext}' is not a PNG, JPEG" in run.stdout
    assert "checked from its content, not its name" in run.stdout
    assert not mark.exists()


def test_pillow_tries_only_the_allowed_formats(tmp_path):
    path = tmp_path / "picture.png"
    path.write_bytes(EPS)
    with pytest.raises(Image.UnidentifiedImageError):
        Image.open(path)  # what reportlab does: EPS is no longer reachable at all


@pytest.mark.parametrize("name", ALLOWED_FORMATS)
def test_every_allowed_format_is_recognised_from_its_bytes(tmp_path, name):
    path = tmp_path / "picture.bin"
    Image.new("RGB", (4, 4), "red").save(path, format=name)
    assert image_format(path) == name


def _render(catalog: Path, *extra: str) -> subprocess.CompletedProcess:
    root = catalog.parent
    args = [sys.executable, "-m", "protopress", "render", str(catalog),
            "--layouts", str(root / "layouts"), "-o", str(root / "out"), *extra]  # fmt: skip
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def test_a_truncated_png_is_reported_naming_the_file_and_the_component(tmp_path):
    catalog = _deck(tmp_path, "png")
    Image.effect_noise((200, 200), 64).save(tmp_path / "art" / "whole.png")
    data = (tmp_path / "art" / "whole.png").read_bytes()
    (tmp_path / "art" / "c1.png").write_bytes(data[: len(data) // 2])
    run = _render(catalog)
    assert run.returncode == 1, run.stderr
    assert "/front/0/path: card 'c1': image 'art/c1.png' cannot be read" in run.stdout
    assert "ImageReader@" not in run.stderr and "internal error" not in run.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_an_image_symlink_loop_is_a_located_problem(tmp_path):
    catalog = _deck(tmp_path, "png")
    (tmp_path / "art" / "c1.png").symlink_to(tmp_path / "art" / "c1.png")
    run = _render(catalog)
    assert run.returncode == 1, run.stderr
    assert "/front/0/path: card 'c1': image 'art/c1.png'" in run.stdout
    assert "internal error" not in run.stderr


def test_an_image_name_too_long_for_the_file_system_names_the_component(tmp_path):
    """Found by the deep fuzzing: a list field bound into a path made a name over
    255 bytes, and the OSError left the render without naming card or image."""
    catalog = _deck(tmp_path, "png, " * 200)
    run = _render(catalog)
    assert run.returncode == 1, run.stderr
    assert "/front/0/path: card 'c1': image 'art/c1.png, png, " in run.stdout
    assert "cannot be used" in run.stdout, run.stdout
