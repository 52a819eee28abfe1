"""What the docs show works."""

import re
from pathlib import Path

from click.testing import CliRunner

from protopress.cli import cli
from protopress.components import load_catalog

ROOT = Path(__file__).resolve().parent.parent


def test_readme_catalog_example_is_valid(tmp_path):
    readme = (ROOT / "README.md").read_text()
    example = re.search(r"```json\n(.*?)```", readme, re.S).group(1)
    path = tmp_path / "example.json"
    path.write_text(example)
    catalog = load_catalog(path)
    assert catalog.copies("room-tile") == 1


def test_every_command_in_the_readme_exists():
    readme = (ROOT / "README.md").read_text()
    documented = set(re.findall(r"`protopress (\w[\w-]*)", readme))
    assert documented <= set(cli.commands) | {"--version", "--help"}
    for command in documented & set(cli.commands):
        assert CliRunner().invoke(cli, [command, "--help"]).exit_code == 0


def test_every_option_of_every_command_is_documented():
    cli_doc = (ROOT / "docs" / "cli.md").read_text()
    for name, command in cli.commands.items():
        assert f"## protopress {name}" in cli_doc, name
        for param in command.params:
            for option in param.opts:
                if option.startswith("-"):
                    assert option in cli_doc, f"{name} {option}"


FENCED_BLOCK = re.compile(r"```.*?```", re.S)
LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.M)


def heading_anchors(markdown: str) -> set[str]:
    """The anchors a Markdown renderer gives the headings (GitHub's rule: lower
    case, punctuation other than - dropped, spaces to -, repeats numbered)."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCED_BLOCK.sub("", markdown)):
        anchor = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        repeats = seen.get(anchor, 0)
        seen[anchor] = repeats + 1
        anchors.add(anchor if repeats == 0 else f"{anchor}-{repeats}")
    return anchors


def broken_links(document: Path) -> list[str]:
    """Each relative link of a Markdown file whose file or heading does not exist."""
    broken = []
    for target in LINK.findall(FENCED_BLOCK.sub("", document.read_text())):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (document.parent / path) if path else document
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif (
            anchor and linked.suffix == ".md" and anchor not in heading_anchors(linked.read_text())
        ):
            broken.append(f"{target}: no such heading")
    return broken


def test_heading_anchors_follow_the_renderers_rule():
    markdown = (
        "# The CLI\n## `--pdfx 1a`: PDF/X-1a:2003\n## Usage\n## Usage\n```\n# not a heading\n```\n"
    )
    assert heading_anchors(markdown) == {"the-cli", "--pdfx-1a-pdfx-1a2003", "usage", "usage-1"}


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "other.md").write_text("# Present\n")
    document = tmp_path / "doc.md"
    document.write_text(
        "[ok](other.md#present) [gone](missing.md) [bad](other.md#absent) [web](https://example.org)\n"
        "```\n[in code](nowhere.md)\n```\n"
    )
    assert broken_links(document) == [
        "missing.md: no such file",
        "other.md#absent: no such heading",
    ]


def documents() -> list[Path]:
    """Every Markdown file a reader of the checkout meets."""
    return [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "examples").rglob("*.md")),
        *sorted((ROOT / "benchmarks").rglob("*.md")),
    ]


def test_every_relative_link_in_the_docs_resolves():
    broken = [
        f"{doc.relative_to(ROOT)}: {link}" for doc in documents() for link in broken_links(doc)
    ]
    assert broken == []


ROOTED_PATH = re.compile(r"`((?:protopress|tests|benchmarks|docs|examples)/[\w./-]*[\w/])`")


def test_every_path_of_the_checkout_the_docs_name_exists():
    """A file or folder written in code font from the checkout's root
    (`protopress/games/gem_rush/catalog.json`) is there."""
    missing = [
        f"{doc.relative_to(ROOT)}: {path}"
        for doc in documents()
        for path in ROOTED_PATH.findall(doc.read_text())
        if not (ROOT / path).exists()
    ]
    assert missing == []
