"""The render's closing summary: games, files, PDF pages, total size, where."""

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from protopress.generators.summary import Written, closing_summary, game_line, human_size


def pdf(path: Path, pages: int) -> Path:
    canvas = Canvas(str(path), invariant=1)
    for _ in range(pages):
        canvas.showPage()
    canvas.save()
    return path


def test_sizes_read_as_a_file_manager_shows_them():
    assert [human_size(n) for n in (0, 999, 1000, 1_234_567, 5 * 10**9)] == [
        "0 bytes", "999 bytes", "1.0 kB", "1.2 MB", "5.0 GB",
    ]  # fmt: skip


def test_a_game_line_and_the_closing_summary_count_files_pages_and_bytes(tmp_path):
    one, two = tmp_path / "out" / "one", tmp_path / "out" / "two"
    one.mkdir(parents=True)
    two.mkdir()
    files_one = (pdf(one / "a-sheets.pdf", 3), pdf(one / "a-print-shop.pdf", 2))
    (two / "README.txt").write_text("hello\n")
    files_two = (pdf(two / "b-sheets.pdf", 1), two / "README.txt")
    size_one = sum(p.stat().st_size for p in files_one)
    size_all = size_one + sum(p.stat().st_size for p in files_two)
    written = [Written("one", one, files_one), Written("two", two, files_two)]
    assert game_line(written[0]) == f"one: 2 files, 5 PDF pages, {human_size(size_one)} in {one}"
    assert closing_summary(written) == (
        f"done: 2 games, 4 files, 6 PDF pages, {human_size(size_all)} in {tmp_path / 'out'}/ "
        "(a folder per game)"
    )
    assert closing_summary(written[1:]) == (
        f"done: 1 game, 2 files, 1 PDF page, {human_size(sum(p.stat().st_size for p in files_two))}"
        f" in {two}"
    )
