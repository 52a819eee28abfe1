"""Loading a catalog written as YAML against the same catalog written as JSON.

The four built-in catalogs, each written as YAML by components/yamltext.py,
loaded with load_catalog (parse, schema, references, semantic checks), with
libyaml's parser and with PyYAML's pure-Python one. Baseline: load_catalog of
the same catalog as JSON, in the same run. Figures are ratios to it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from figures import Figure, add_json_option, write_json

from protopress.components import BUILTIN_GAMES, builtin_catalog_path, load_catalog, yamlsource
from protopress.components.yamltext import yaml_text


def best_of(path: Path, repeat: int = 5) -> float:
    """The shortest of repeat load_catalog times of path, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        load_catalog(path)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    default = yamlsource._Loader
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'game':<24}{'YAML KiB':>9}{'JSON s':>9}{'libyaml s':>10}{'x':>6}"
              f"{'python s':>10}{'x':>6}")  # fmt: skip
        ratios: dict[str, list[float]] = {"libyaml": [], "python": []}
        for game in BUILTIN_GAMES:
            document = json.loads(builtin_catalog_path(game).read_text())
            as_json = Path(folder) / f"{game}.json"
            as_yaml = Path(folder) / f"{game}.yaml"
            as_json.write_text(json.dumps(document, indent=2))
            as_yaml.write_text(yaml_text(document))
            baseline = best_of(as_json)
            row = []
            for name in ("libyaml", "python"):
                loader = yamlsource.LOADERS[name]
                yamlsource._Loader = loader
                try:
                    seconds = best_of(as_yaml)
                finally:
                    yamlsource._Loader = default
                ratios[name].append(seconds / baseline)
                figures.append(Figure(f"{game}, YAML with {name}", seconds, "s", baseline,
                                      f"{game}, JSON"))  # fmt: skip
                row.append(seconds)
            size = as_yaml.stat().st_size / 1024
            print(f"{game:<24}{size:>9.0f}{baseline:>9.4f}{row[0]:>10.4f}{row[0] / baseline:>6.0f}"
                  f"{row[1]:>10.4f}{row[1] / baseline:>6.0f}")  # fmt: skip
        for name, values in ratios.items():
            print(f"median {name}: {statistics.median(values):.1f}x the JSON load")
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
