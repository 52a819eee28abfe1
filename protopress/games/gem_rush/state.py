"""Gem Rush's state: what stays fixed during a game (Table), what changes
(GemRushState, cheap to copy), and the rulebook's numbers they start from. The
rules that change a state are in rules.py."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from protopress.games.gem_rush import effects, skills
from protopress.games.gem_rush.actions import GemRushAction
from protopress.games.gem_rush.mine import Cell, Mine, RoomTile
from protopress.games.gem_rush.spec import DIFFICULTY_TARGETS
from protopress.rules.chance import SharedChance

DIFFICULTIES = {name.lower(): points for name, points in DIFFICULTY_TARGETS.items()}
APPRENTICE, JOURNEYMAN, ARTISAN, EXPERT, MASTER, GRANDMASTER = DIFFICULTIES.values()
RUSH_TARGET, RUSH_TARGET_LARGE = 20, 15  # up to 4 players; 5 players or more
HAND, DEAL, STEPS, BURN = 4, 4, 3, 3
CHOICE_DEAL = 2  # skills dealt to each player in the Choice of Skills variant
FREE_USES = 3  # free-room abilities a turn (ruling: repeating them gains nothing more)
FREE_RIDES = 3  # moves a turn that cost no step (mine carts; ruling: a bound keeps turns finite)
START: Cell = (0, 0)


class Building(NamedTuple):
    """A drawn room tile waiting for its rotation."""

    cell: Cell
    entry: str  # the table edge that must show a door (back the way the builder came)
    tile: RoomTile
    origin: Cell  # the room built from (where the dwarf stays if no tile is left)


class SeatSkills(NamedTuple):
    """What a seat's skills give it for moving and paying (seat_skills.py)."""

    steps: int
    flags: tuple[bool, bool]  # Spelunker, Tunnel Rat
    subs: tuple[tuple[str, tuple[str, ...]], ...]  # skills.substitutes


NO_SKILLS = SeatSkills(STEPS, (False, False), ())


@dataclass(frozen=True)
class Table:
    """What stays fixed during a game."""

    players: int
    mode: str
    target: int
    variant: str
    stop_at_target: bool
    skills: tuple[skills.Skill, ...]  # every skill card in play, by index
    abilities: dict[str, tuple[effects.Step, ...]]  # by room tile id
    cards: int  # gem cards in the game
    gems: tuple[str, ...]  # the catalog's gems, standard then special (for "name a gem")
    # seat_skills's answers, by what they read (a seat's skills and their uses)
    held: dict[tuple, SeatSkills] = field(default_factory=dict, compare=False, repr=False)

    @property
    def crisis(self) -> bool:
        return self.mode == "crisis"


class GemRushState:
    """One game. Copies are cheap: lists are copied, the Mine and the random
    generator are shared until one of the copies changes or uses them.

    Legal actions are cached until the next apply; code that edits a state by
    hand (tests, puzzles) calls touch() afterwards.
    """

    __slots__ = (
        "chance", "table", "legal", "mine", "mine_shared", "view", "stack", "deck",
        "pile", "hands", "pos", "points", "seat", "turns", "phase", "steps", "spent", "free_uses", "rides", "burn_left",
        "burnt", "burnt_from", "effect", "building", "skills", "skill_deck", "dealt",
        "used_turn", "used_game", "skill_used", "reached", "over", "built", "reshuffles",
        "peeked", "_rooms_used",
    )  # fmt: skip

    def __init__(self, table: Table, rng: random.Random):
        players = table.players
        self.table = table
        self.chance = SharedChance(rng)  # a copy shares the generator until one of them draws
        self.legal: list[GemRushAction] | None = None  # cached legal actions
        self.mine = Mine()
        self.mine_shared = False  # a copy shares the Mine until one of them changes it
        self.view = effects.MineView(self.mine)
        self.stack: list[RoomTile] = []  # the room stack; the last tile is drawn next
        self.deck: list[tuple[str, ...]] = []  # the last card is the top
        self.pile: list[tuple[str, ...]] = []  # the discard pile; the last card is the top
        self.hands: list[list[tuple[str, ...]]] = [[] for _ in range(players)]
        self.pos: list[Cell] = [START] * players
        self.points = [0] * players
        self.seat = 0
        self.turns = 0  # completed turns
        self.phase = "move"
        self.steps = STEPS  # movement steps left this turn
        self.spent = 0  # movement steps spent this turn
        self.free_uses = 0
        self.rides = 0  # moves this turn that cost no step
        self.burn_left = 0
        self.burnt = 0
        self.burnt_from = [0, 0, 0]  # deck, discard pile, hands
        self.effect: effects.Run | None = None
        self.building: Building | None = None
        self.skills: list[tuple[int, ...]] = [()] * players  # skill cards each seat may use
        self.skill_deck: list[int] = []
        self.dealt: list[tuple[int, ...]] = [()] * players  # Choice of Skills: cards to pick from
        self.used_turn = 0  # bit k: skill card k used this turn
        self.used_game = 0  # bit seat * 64 + k: used this game
        self.skill_used = False  # the current player used a skill this turn (Chaos Magic)
        self.reached: dict[str, int] = {}  # Crisis difficulty (or "target") -> turn first reached
        self.over = False
        self.built = 0  # constructions
        self.reshuffles = 0
        self.peeked: tuple = ()  # the cards a free room last showed
        # per seat, the room tiles it built or whose ability it used: the record's `used`
        # (kept out of the table's view: a statistic, replaced whole, shared by copies)
        self._rooms_used: tuple[frozenset[str], ...] = (frozenset(),) * players

    def copy(self) -> GemRushState:
        new = object.__new__(GemRushState)
        # every slot, one by one (a loop over the slot names costs a third of a copy);
        # values that are immutable or shared by design are not copied
        new.table, new.legal, new.view = self.table, self.legal, self.view
        new.mine, self.mine_shared, new.mine_shared = self.mine, True, True
        new.chance = self.chance.share()
        new.stack, new.deck, new.pile = self.stack[:], self.deck[:], self.pile[:]
        new.hands = [hand[:] for hand in self.hands]
        new.pos, new.points, new.seat, new.turns = (
            self.pos[:],
            self.points[:],
            self.seat,
            self.turns,
        )
        new.phase, new.steps, new.spent = self.phase, self.steps, self.spent
        new.free_uses, new.burn_left, new.burnt = self.free_uses, self.burn_left, self.burnt
        new.rides = self.rides
        new.burnt_from = self.burnt_from[:]
        new.effect = None if self.effect is None else self.effect.copy()
        new.building, new.skills, new.skill_deck = self.building, self.skills[:], self.skill_deck[:]
        new.dealt, new.used_turn, new.used_game = self.dealt[:], self.used_turn, self.used_game
        new.skill_used, new.reached, new.over = self.skill_used, dict(self.reached), self.over
        new.built, new.reshuffles, new.peeked = self.built, self.reshuffles, self.peeked
        new._rooms_used = self._rooms_used
        return new

    @property
    def rooms_used(self) -> tuple[frozenset[str], ...]:
        """Per seat, the ids of the room tiles it built or whose ability it used."""
        return self._rooms_used

    def note_room(self, seat: int, tile_id: str) -> None:
        """Seat built the room tile tile_id, or used its ability (see rooms_used)."""
        rooms = self._rooms_used
        if tile_id not in rooms[seat]:
            self._rooms_used = (*rooms[:seat], rooms[seat] | {tile_id}, *rooms[seat + 1 :])

    def touch(self) -> None:
        """Forget cached legal actions (after editing the state by hand)."""
        self.legal = None

    # --- for tests and puzzles ---------------------------------------------

    def stack_deck(self, cards_top_first: Iterable[Sequence[str]]) -> None:
        """Replace the gem deck: the first card given is drawn first."""
        self.deck = [tuple(card) for card in reversed(list(cards_top_first))]
        self.legal = None

    def set_mine(self, mine: Mine) -> None:
        """Replace the mine (a hand-built one)."""
        self.mine = mine
        self.mine_shared = False
        effects.mine_changed(self)
        self.legal = None
