"""A JSON document written as YAML that protopress (and any YAML 1.1 or 1.2
reader) reads back as the same document: text that a plain scalar would turn
into something else ("no", "1e3", "2024-05-01", "null"), and text with line
breaks or other unprintable characters, is written in double quotes."""

from __future__ import annotations

import yaml

from protopress.components.yamlsource import plain_is_text


class _Dumper(yaml.SafeDumper):
    """SafeDumper, with the quoting rule above and no anchors or aliases."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def _text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # Double quotes escape every character (\n, \x85, \u2028): single quotes and blocks
    # would fold line breaks, so they are left to the emitter only for printable text.
    style = None if plain_is_text(text) and text.isprintable() else '"'
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _text)


def yaml_text(document: object) -> str:
    """document (JSON values only) as block-style YAML, keys in their order."""
    return yaml.dump(
        document,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
