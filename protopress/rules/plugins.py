"""A designer's own rules, loaded only when named: `--rules path/to/rules.py[:NAME]`
or `--rules package.module[:NAME]`, or a rules file of data, `--rules path/rules.yaml`
(or .yml, .json: compiled by rules/data, never run; its problems are InvalidInput).

Loading rules runs the designer's Python code; that is its purpose, so it
happens only when a command is given --rules (or an installed package's entry
point is asked for by game id), never because a catalog says so. NAME is the
module's GameSpec (default SPEC), or an engine class with a `spec` attribute.

A rules file is imported under a module name derived from its resolved path,
so worker processes (local or Dask) that load the same reference get the same
module; only the reference text crosses a process boundary.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

from protopress.rules.data.load import is_rules_file
from protopress.rules.data.spec import data_spec
from protopress.rules.guarded import guarded
from protopress.rules.spec import GameSpec

DEFAULT_NAME = "SPEC"


class RulesError(ValueError):
    """A rules reference that cannot be loaded, or does not hold a game spec."""


class RulesNotFound(RulesError):
    """No such rules file or module (a usage error, not a bad file)."""


def _split(reference: str) -> tuple[str, str]:
    """(module or path, attribute name); a Windows drive letter is not a separator."""
    head, colon, name = reference.rpartition(":")
    if colon and name and "/" not in name and "\\" not in name and len(head) > 1:
        return head, name
    return reference, DEFAULT_NAME


def _load_file(path: Path) -> ModuleType:
    resolved = path.resolve()
    digest = hashlib.sha256(str(resolved).encode()).hexdigest()[:12]
    module_name = f"protopress_rules_{resolved.stem.replace('-', '_')}_{digest}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, resolved)
    if spec is None or spec.loader is None:
        raise RulesError(f"{path}: not a Python file protopress can load")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # the designer's code, whatever it raised
        del sys.modules[module_name]
        raise RulesError(f"{path}: the rules file failed while loading: {_what(error)}") from error
    return module


def _load_module(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        raise RulesNotFound(
            f"no rules file or module {name!r} ({error}); give a path ending in .py "
            "or an importable module name"
        ) from None
    except (Exception, SystemExit) as error:
        raise RulesError(
            f"{name}: the rules module failed while loading: {_what(error)}"
        ) from error


def _what(error: BaseException) -> str:
    if isinstance(error, SystemExit):
        return f"it called sys.exit({error.code!r})"
    return f"{type(error).__name__}: {error}"


@cache
def load_rules(reference: str, code: str | None = None) -> GameSpec:
    """The GameSpec a --rules reference names; RulesError saying what is wrong.

    code: a Python file (--rules-code) whose functions a rules file's `call`
    steps run; loading it runs it, so it is loaded only when given."""
    if is_rules_file(reference):  # data: compiled, never run
        if not Path(reference).is_file():
            raise RulesNotFound(f"{reference}: no such rules file")
        functions = _functions(Path(code)) if code is not None else None
        return data_spec(Path(reference), reference, functions)
    if code is not None:
        raise RulesNotFound(
            f"--rules-code {code} goes with a rules file of data (.yaml, .yml, .json); "
            f"{reference} is Python, which holds its own code"
        )
    target, name = _split(reference)
    path = Path(target)
    if target.endswith(".py") or path.is_file():
        if not path.is_file():
            raise RulesNotFound(f"{target}: no such rules file")
        module = _load_file(path)
    else:
        module = _load_module(target)
    found = getattr(module, name, None)
    spec = getattr(found, "spec", None) if isinstance(found, type) else None
    if isinstance(spec, GameSpec):
        found = spec
    if not isinstance(found, GameSpec):
        raise RulesError(
            f"{reference}: expected {name} to be a protopress.rules.spec.GameSpec "
            "(or an engine class with a spec attribute); see docs/own-rules.md"
        )
    try:
        engine = found.engine_class()
    except (Exception, SystemExit) as error:
        raise RulesError(
            f"{reference}: its engine {found.engine!r} cannot be loaded: {_what(error)}"
        ) from error
    return dataclasses.replace(found, engine=guarded(engine, target))


def _functions(path: Path) -> dict[str, Callable[..., object]]:
    """The functions a --rules-code file defines (not those it imports), by name."""
    if not path.is_file():
        raise RulesNotFound(f"{path}: no such rules code file")
    if path.suffix != ".py":
        raise RulesNotFound(f"{path}: --rules-code takes a Python file (.py)")
    module = _load_file(path)
    return {
        name: value
        for name, value in vars(module).items()
        if inspect.isfunction(value) and value.__module__ == module.__name__
        and not name.startswith("_")
    }  # fmt: skip


def resolve_spec(game_id: str, rules: str | None = None, code: str | None = None) -> GameSpec:
    """The spec of game_id: from the rules reference when given, else built-in or installed.

    With rules, the loaded spec's id must be game_id, so a command line never
    plays other rules than the ones it names. code: --rules-code, with a rules file.
    """
    if rules is None:
        if code is not None:
            raise RulesNotFound("--rules-code goes with --rules FILE.yaml: the rules that call it")
        from protopress.games import spec_for

        return spec_for(game_id)
    spec = load_rules(rules, code)
    if spec.id != game_id:
        raise RulesError(f"{rules} holds the rules of {spec.id!r}, not {game_id!r}")
    return spec
