"""The playtest table's speed: the first page after `protopress play GAME --web`, and a
bot's move as the page waits for it.

- first page: from starting the command to the page and its first /api/state
  answered over HTTP (what a browser asks first), against two baselines: the
  same process reaching its own `--help` (Python and the command line loading),
  and a bare process that imports nothing of ours, benchmarks/bare/starlette_page.py,
  answering the same page and state bytes through the same web libraries (uvicorn,
  starlette) with the same token and cookie exchange: what the page costs with no
  game behind it;
- a bot's move: the round trip of each POST /api/bot of whole games against the
  default bot (greedy), people's moves taken by the first action listed; against
  the baseline of the bot choosing the same moves in process, without the page
  (the view of the seat, its twins and the save are the difference). A bot's move
  has no bare baseline: one would be each game's rules and greedy bot written again
  outside the kit (five games), which is the kit's own work, not a library's.

Each figure is the worst of the --repeats starts, or the 95th percentile and the
worst move of the games: the page must answer within its bound every time.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from figures import BARE, Figure, add_json_option, write_json

from protopress.cli.common import game_spec
from protopress.components import builtin_catalog_path, load_catalog
from protopress.rules.bot_names import make_bot
from protopress.rules.core import derive_seed

ROOT = Path(__file__).resolve().parents[1]
URL = re.compile(rb"(http://\S+\?token=\S+)")
GAMES = {
    "cottage-market": [
        "--rules",
        str(ROOT / "examples" / "cottage-market" / "rules.py"),
        "--catalog",
        str(ROOT / "examples" / "cottage-market" / "catalog.json"),
    ],
    "dragonstone-mine": ["--option", "level=1"],
    "gem-rush": [],
    "stonespine-architects": [],
    "gemstone-caverns": [],
}


@dataclass
class Started:
    """A serving process, its URL with the token, the seconds from its start to the
    first page and state answered, and those answers."""

    process: subprocess.Popen
    url: str
    seconds: float
    page: bytes
    state: bytes

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def start(game: str, save: Path, seed: int) -> Started:
    """`protopress play GAME --web` started."""
    command = [sys.executable, "-m", "protopress", "play", game, *GAMES[game], "--seed",
               str(seed), "--save", str(save), "--web", "--port", "0"]  # fmt: skip
    return first_page(command)


def first_page(command: list[str]) -> Started:
    """A command that prints its URL started, and its page and state asked for."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert process.stdout is not None
    while True:
        line = process.stdout.readline()
        found = URL.search(line)
        if found:
            url = found.group(1).decode()
            break
        if not line:
            raise SystemExit(f"no URL from {' '.join(command)}")
    opener = visitor(url)
    base = url.split("/?")[0]
    page = opener.open(base + "/").read()
    state = opener.open(base + "/api/state").read()
    return Started(process, url, time.perf_counter() - began, page, state)


def visitor(url: str) -> urllib.request.OpenerDirector:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    opener.addheaders = [("Origin", url.split("/?")[0])]
    opener.open(url).close()
    return opener


def post(opener: urllib.request.OpenerDirector, url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with opener.open(request) as response:
        return json.loads(response.read())


def bare_first_page(kit: Started, folder: Path) -> float:
    """Seconds from starting benchmarks/bare/starlette_page.py to the same page and state
    as the kit's answered, over HTTP as the kit's are asked for."""
    page, state = folder / "bare-page.html", folder / "bare-state.json"
    page.write_bytes(kit.page)
    state.write_bytes(kit.state)
    bare = first_page([sys.executable, str(BARE / "starlette_page.py"), str(page), str(state)])
    bare.stop()
    if (bare.page, bare.state) != (kit.page, kit.state):
        raise SystemExit("the bare server answered other bytes than the kit's")
    return bare.seconds


def help_seconds() -> float:
    began = time.perf_counter()
    subprocess.run([sys.executable, "-m", "protopress", "play", "--help"], check=True,
                   capture_output=True)  # fmt: skip
    return time.perf_counter() - began


def bot_moves(game: str, seed: int, folder: Path) -> tuple[list[float], list[float]]:
    """(page round trips, in-process choices) of every bot move of one game."""
    started = start(game, folder / f"{game}-{seed}.json", seed)
    trips: list[float] = []
    try:
        opener = visitor(started.url)
        base = started.url.split("/?")[0]
        with opener.open(base + "/api/state") as response:
            state = json.loads(response.read())
        while not state["over"]:
            if state["bot_to_move"]:
                began = time.perf_counter()
                state = post(opener, base + "/api/bot", {"after": state["moves"]})
                trips.append(time.perf_counter() - began)
            else:
                act = state["actions"][0]["encoded"]
                state = post(opener, base + "/api/play", {"action": act, "after": state["moves"]})
    finally:
        started.stop()
    saved = json.loads((folder / f"{game}-{seed}.json").read_text())
    return trips, in_process(game, saved)


def in_process(game_id: str, saved: dict) -> list[float]:
    """The same bot moves chosen without the page: the baseline."""
    rules = saved.get("rules")
    spec = game_spec(game_id, rules)
    catalog_ref = saved["catalog"]
    catalog = load_catalog(
        builtin_catalog_path(catalog_ref) if catalog_ref == game_id and not rules else catalog_ref
    )
    game = spec.new_game()

    state = game.setup(catalog, len(saved["seats"]), random.Random(saved["seed"]),
                       saved["options"])  # fmt: skip
    codec = getattr(game, "actions", None)
    times = []
    for number, raw in enumerate(saved["actions"]):
        seat = game.to_move(state)
        who = saved["seats"][seat]
        act = codec.decode(raw) if codec is not None else tuple(raw)
        if who != "person":
            bot = make_bot(who, derive_seed(saved["seed"], "bot", seat, number))
            began = time.perf_counter()
            bot.choose(game, state, game.legal_actions(state))
            times.append(time.perf_counter() - began)
        game.apply(state, act)
    return times


def p95(values: list[float]) -> float:
    return (
        statistics.quantiles(values, n=20, method="inclusive")[-1] if len(values) > 1 else values[0]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    add_json_option(parser)
    args = parser.parse_args()
    figures = []
    baseline = max(help_seconds() for _ in range(args.repeats))
    with tempfile.TemporaryDirectory() as folder:
        for game in args.games:
            firsts = []
            for repeat in range(args.repeats):
                started = start(game, Path(folder) / f"first-{game}-{repeat}.json", repeat)
                started.stop()
                firsts.append(started.seconds)
            figures.append(Figure(f"{game}: first page (worst)", max(firsts), "s", baseline,
                                  "play --help"))  # fmt: skip
            bare = max(bare_first_page(started, Path(folder)) for _ in range(args.repeats))
            figures.append(Figure(f"{game}: first page against bare (worst)", max(firsts), "s",
                                  bare, "bare starlette, same answers"))  # fmt: skip
            trips, chosen = bot_moves(game, args.seed, Path(folder))
            figures.append(Figure(f"{game}: bot move p95 ({len(trips)} moves)", p95(trips), "s",
                                  p95(chosen), "the bot alone"))  # fmt: skip
            figures.append(Figure(f"{game}: bot move worst", max(trips), "s", max(chosen),
                                  "the bot alone"))  # fmt: skip
    width = max(len(f.name) for f in figures)
    for f in figures:
        ratio = f"{f.ratio:.2f}x" if f.ratio is not None else ""
        print(f"{f.name:<{width}}  {f.value:8.3f} {f.unit}  baseline {f.baseline:8.3f}  {ratio}")
    write_json(args.json, figures)


if __name__ == "__main__":
    main()
