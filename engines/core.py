"""The engine contract every game implements, and the one loop that plays a game.

Modelled on OpenSpiel's small Game/State API: a `Game` is an immutable registry entry
(name, player range, `Rules` dataclass of variant options, heuristic bots), a `State`
is a mutable position driven by small integer actions.  Chance is resolved inside
`apply_action` with the state's own `random.Random`, so a game is a pure function of
(seed, actions) and `replay` can reproduce it.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
import sys
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, final

from engines.errors import BadInput
from engines.kit import FIRST_SEAT_CHOICES, check_seat_bonus

try:  # read by mypyc at build time; at run time the engines need nothing outside stdlib
    from mypy_extensions import mypyc_attr
except ImportError:
    def mypyc_attr(**attrs: object) -> Callable[[type], type]:  # type: ignore[misc]
        return lambda cls: cls

__all__ = [
    "Bot",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "State",
    "make_rules",
    "play_game",
    "replay",
    "rules_to_str",
]

#: Salt that separates the bots' random stream from the state's own stream.
BOT_SEED_SALT = 0x5EED_B075
#: The runner measures which action kinds were legal in every N-th game of a run (game index
#: 0, N, 2N ...): classifying every legal action of a game's decisions costs 28% more
#: instructions in a Ninjato game, so the other games only count the chosen kinds (README,
#: "Game systems used").  Prime, so that the sampled games cycle through the seat rotations.
AVAILABILITY_EVERY = 31


class IllegalActionError(ValueError):
    """An action that is not in `legal_actions()` was applied; the state is unchanged."""


class Bot(Protocol):
    """Anything that picks an action for `state.current_player()`."""

    name: str

    def choose(self, state: State, rng: random.Random) -> int: ...


@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """A game position.  Subclasses implement the underscored hooks and the hidden-info API.

    Subclasses must set `self.num_players`, `self.rules` and `self.rng` (the state's own
    `random.Random`, used for every chance event; declared by each game, with its own types:
    a compiled class cannot retype a field it inherits), and implement:

    - `_legal_actions()`  -> list[int]   (computed; `legal_actions()` caches it per position)
    - `_apply(action)`                    (mutate; never called with an illegal action)
    - `current_player()`, `is_terminal()`, `scores()`
    - `clone()`, `determinize(seat, rng)`, `observation(seat)`, `action_to_str(action)`
    - optionally `winners()` (official tie-breaks), `ranks()`, `score_breakdown()`, `metrics()`,
      and `clone_with_rng(rng)` (a clone without copying the chance stream, for searches).

    `legal_actions()` and `apply_action()` are the contract, held here: a subclass that
    defines either raises TypeError at class creation (and mypy, which compiles the engines,
    refuses it: they are `final`).  What a game needs from them it gets through three hooks.

    - **Phase dispatch**: a game whose rules run in numbered phases (`self.phase`) writes
      `_legal_actions` and `_apply` as a dispatch on the phase to one method per phase (an
      if-chain, commonest phase first: in the compiled build each branch is a direct call).
    - **Caching**: `_apply` may leave the next decision's legal list in `self._legal_cache`
      when it has it at hand (a shared, never-mutated list); `apply_action` clears the cache
      before calling `_apply`, so a game that does nothing is always recomputed.
    - **Forced choices**: a game whose rules say that a decision with one option is no
      decision sets the class attribute `_plays_forced_choices = True`; its `apply_action`
      then plays every sole legal action after the chosen one (`_play_forced_choices`, which a
      constructor may call too), so a bot is only ever asked when it has a choice.

    A subclass that copies itself in `clone()` must reset `_legal_cache` to None (or copy it:
    the cached list is never mutated by callers).

    This class is compiled with the engines (`engines/_build.py`) and may be subclassed by
    interpreted classes (new games, the tests' toy games and deliberately broken engines).
    Its one instance attribute is `_legal_cache`.  A subclass may list it in `__slots__` (a
    game written by hand may): in an interpreted subclass of the compiled
    class that slot would be a second field, hiding core's, so `__init_subclass__` removes
    the slot's descriptor and the name stays core's field.  Per-class settings
    (`_plays_forced_choices`, `kind_table`, `_snapshot_skip`) are class variables, read from
    the class at run time.
    """

    _legal_cache: list[int] | None = None
    _plays_forced_choices: ClassVar[bool] = False

    def __init_subclass__(cls, overrides_contract: bool = False, **kwargs: Any) -> None:
        """Hold the contract: no subclass defines `legal_actions` or `apply_action` (tests may,
        with `overrides_contract=True`, to check that the contract tests catch a broken one);
        a `_legal_cache` slot of an interpreted subclass of the compiled State is dropped, so
        that the subclass and the compiled contract read and write the same field."""
        super().__init_subclass__(**kwargs)
        own = {"legal_actions", "apply_action"} & set(vars(cls))
        if own and not overrides_contract:
            raise TypeError(
                f"{cls.__name__} defines {', '.join(sorted(own))}: the contract is held by "
                "engines.core.State; use the hooks (_legal_actions, _apply, "
                "_plays_forced_choices), see the State docstring"
            )
        slots = vars(cls).get("__slots__", ())
        if (_compiled_state() and "_legal_cache" in ([slots] if isinstance(slots, str) else slots)
                and "__mypyc_attrs__" not in vars(cls)):
            delattr(cls, "_legal_cache")  # the slot's descriptor: the name resolves to core's

    # --- contract: acting -------------------------------------------------------------
    def current_player(self) -> int:
        """Seat to act, -1 when the game is over.

        Against OpenSpiel's conventions: its `current_player()` returns negative sentinels
        when no seat acts (`pyspiel.PlayerId`: CHANCE = -1, SIMULTANEOUS = -2, INVALID = -3,
        TERMINAL = -4).  Here chance is resolved inside `apply_action` (there are no chance
        nodes) and play is sequential, so the only sentinel is -1 = the game is over — the
        value OpenSpiel uses for CHANCE.  An OpenSpiel adapter must therefore map -1 to its
        TERMINAL (-4), never pass it through.
        """
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    @final
    def legal_actions(self) -> list[int]:
        """Small integer actions legal now (empty only when terminal).  Do not mutate the list."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_cache = self._legal_actions()
        return legal

    @final
    def apply_action(self, action: int) -> None:
        """Play `action` for the current player; an illegal action raises and changes nothing."""
        legal = self._legal_cache
        if legal is None:
            legal = self._legal_actions()
        if action not in legal:
            raise self._illegal(action, legal)
        self._legal_cache = None
        self._apply(action)
        if self._plays_forced_choices:
            self._play_forced_choices()

    def _illegal(self, action: int, legal: list[int]) -> IllegalActionError:
        return IllegalActionError(
            f"illegal action {action!r} for seat {self.current_player()}; "
            f"legal: {[self.action_to_str(a) for a in legal][:20]}"
        )

    def _play_forced_choices(self) -> None:
        """Forced-choices hook: play each sole legal action until a real decision (or the
        end), and leave that decision's legal list cached.  Legal lists are recomputed here
        (a constructor or a test may call it after changing the position by hand)."""
        legal = self._legal_actions()
        while len(legal) == 1:
            self._apply(legal[0])
            legal = self._legal_actions()
        self._legal_cache = legal

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    # --- contract: outcome --------------------------------------------------------------
    def scores(self) -> list[float]:
        raise NotImplementedError

    def winners(self) -> list[int]:
        """Seats that share the win.  Default: every seat with the top score (a shared win)."""
        scores = self.scores()
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def ranks(self) -> list[int]:
        """1 = winner(s); the others by score (competition ranking: ties share the better rank)."""
        won = set(self.winners())
        scores = self.scores()
        ranks = []
        for seat, score in enumerate(scores):
            if seat in won:
                ranks.append(1)
            else:
                better = sum(
                    1 for s, o in enumerate(scores) if s in won or (o > score and s != seat)
                )
                ranks.append(1 + better)
        return ranks

    def score_breakdown(self) -> dict[str, list[float]]:
        """Points by source (each list has one entry per seat and they sum to `scores()`)."""
        return {}

    def metrics(self) -> dict[str, float]:
        """Per-game measures for balance tables (rounds played, lead changes, ...)."""
        return {}

    # --- contract: information ------------------------------------------------------------
    def clone(self) -> State:
        raise NotImplementedError

    def clone_with_rng(self, rng: random.Random) -> State:
        """A clone whose chance stream is `rng` (taken, not copied).  Searches give each copy
        of a world its own stream; a game overrides this to skip copying the old one (a
        generator's state is 625 numbers: the copy can cost more than the rest of a clone)."""
        new = self.clone()
        new.rng = rng  # type: ignore[attr-defined]
        return new

    def __deepcopy__(self, memo: dict) -> State:
        """`copy.deepcopy` is `clone()`: as independent, and cheap (OpenSpiel's Python games
        and other frameworks copy states with deepcopy)."""
        return self.clone()

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A clone where all that `seat` cannot see is resampled from `rng`, rng reseeded too."""
        raise NotImplementedError

    def observation(self, seat: int) -> dict:
        raise NotImplementedError

    def action_to_str(self, action: int) -> str:
        return str(action)

    def tensor_spec(self) -> tuple:
        """How `observation(seat)` becomes a fixed-length vector: `(key, spec)` pairs with
        the caps of its lists (see `engines.tensor`, which documents the encoding)."""
        raise NotImplementedError

    def observation_tensor(self, seat: int) -> Any:
        """`observation(seat)` as a float32 numpy vector of fixed length for this game,
        player count and rules; a function of the observation alone.  Layout:
        `engines.tensor.schema_for(state.tensor_spec()).layout()`."""
        from engines.tensor import schema_for  # numpy only for callers that want tensors

        return schema_for(self.tensor_spec()).encode(self.observation(seat))
    def render(self, seat: int | None = None) -> str:
        """What `seat` sees, as compact text for a terminal (None = everything, for transcripts).

        Games override this with their own view (`engines/<game>/render.py`) in the game's own
        words.  The fallback lists `observation(seat)` (or, for None, every attribute) one
        `key: value` line each, so a new game is readable before it has a view of its own.
        """
        view = self.observation(seat) if seat is not None else self.snapshot()
        lines = [f"{type(self).__name__}, seat {self.current_player() + 1} to act"]
        lines += [f"{key}: {value}" for key, value in view.items() if key != "rng"]
        return "\n".join(lines)

    def round_label(self) -> str:
        """The stage of the game in the rules' words ("round 3"), to fold transcripts by."""
        return ""

    def action_kind(self, action: int) -> int:
        """Which of the game's systems `action` uses: an index into `Game.action_kinds`.

        Called on every decision (coverage statistics), so keep it a few comparisons of
        `action` against the game's action offsets.
        """
        raise NotImplementedError

    #: Optional shortcut for `play_game`'s kind counts: action -> its kind where that depends
    #: on the action alone, -1 where `action_kind` must look at the position.  A look-up
    #: instead of a method call on most decisions (README, "Game systems used");
    #: `tests/test_fastpaths.py` checks it against `action_kind` on real playouts.
    kind_table: ClassVar[tuple[int, ...] | None] = None

    #: Attributes that `snapshot` leaves out: caches derived from the rest of the position.
    _snapshot_skip: ClassVar[tuple[str, ...]] = ("_legal_cache",)

    def snapshot(self) -> dict:
        """Everything in the position as a deep, comparable copy (tests use it to compare worlds).

        A deep copy, so that a snapshot taken before a move still shows the old position
        when a list of the state changes in place (a clone sharing a list with its original,
        an illegal action that mutates before it raises).  The random generator is replaced
        by its state; frozen dataclasses (rules, component tables) are immutable and kept.
        """
        names = _slot_names(type(self)) + tuple(getattr(self, "__dict__", ()))  # type: ignore[arg-type]
        skip = self._snapshot_skip
        return {name: _snapshot_value(getattr(self, name))
                for name in names if name not in skip and hasattr(self, name)}

    def __repr__(self) -> str:
        players = getattr(self, "num_players", "?")
        return f"<{type(self).__name__} players={players} to_move={self.current_player()}>"


def _compiled_state() -> bool:
    """Whether this `State` is the compiled (native) class: its attributes are C fields."""
    return "__mypyc_attrs__" in vars(State)


@functools.cache
def _slot_names(cls: type) -> tuple[str, ...]:
    """Every `__slots__` name of `cls` and its bases (a subclass may add `__slots__ = ()`).

    A class compiled by mypyc has no `__slots__` (they vanish); its typed attributes are
    listed in `__mypyc_attrs__` instead, and are neither slots nor in the instance `__dict__`.
    """
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__mypyc_attrs__") or klass.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else [
            n for n in slots if n not in names and n not in ("__dict__", "__weakref__")]
    return tuple(names)


def _snapshot_value(value: Any) -> Any:
    if isinstance(value, random.Random):
        return value.getstate()
    if dataclasses.is_dataclass(value) and value.__dataclass_params__.frozen:  # type: ignore[union-attr]
        return value
    return copy.deepcopy(value)


# --------------------------------------------------------------------------------------------
# Rules: frozen dataclasses of variant options
# --------------------------------------------------------------------------------------------


@functools.cache
def _rule_fields(rules_cls: type) -> dict[str, tuple[dataclasses.Field, Any]]:
    hints = typing.get_type_hints(rules_cls)
    return {f.name: (f, hints[f.name]) for f in dataclasses.fields(rules_cls)}


def _convert(name: str, raw: Any, hint: Any) -> Any:
    """Turn a CLI string (or a Python value) into the field's type, or raise ValueError."""
    args = typing.get_args(hint)
    if type(None) in args:  # Optional[X]
        if raw is None or (isinstance(raw, str) and raw.lower() in ("none", "")):
            return None
        hint = next(a for a in args if a is not type(None))
    if hint is bool:
        if isinstance(raw, bool):
            return raw
        text = str(raw).lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise BadInput(f"rule {name!r} expects true/false, got {raw!r}")
    if hint is int:
        # a typed 2.5 (an experiment file) is no integer either, not 2
        if isinstance(raw, bool) or isinstance(raw, float) and not raw.is_integer():
            raise BadInput(f"rule {name!r} expects an integer, got {raw!r}")
        try:
            return int(raw)
        except (TypeError, ValueError, OverflowError):
            raise BadInput(f"rule {name!r} expects an integer, got {raw!r}") from None
    if hint is float:
        try:
            number = float(raw)
        except (TypeError, ValueError):
            raise BadInput(f"rule {name!r} expects a number, got {raw!r}") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise BadInput(f"rule {name!r} expects a finite number, got {raw!r}")
        return number
    if hint is str:
        return str(raw)
    return raw


#: A rule option that moved to `Game`: asking for it says where it went.
MOVED_OPTION = "max_decisions"


def make_rules(rules_cls: type, options: Mapping[str, Any] | None = None) -> Any:
    """Validate `options` (strings from the CLI or typed values) into a frozen `Rules` instance.

    A field may declare `metadata={"choices": (...), "help": "..."}`, and an integer field
    `"range": (low, high)` (no count, target or cap is unbounded: 10**20 auctions never end);
    `Rules.__post_init__` may raise ValueError for invalid combinations.
    """
    if not options:
        return _default_rules(rules_cls)
    options = dict(options)
    fields = _rule_fields(rules_cls)
    unknown = sorted(set(options) - set(fields))
    if MOVED_OPTION in unknown:
        raise BadInput(
            f"{MOVED_OPTION!r} is no longer a rule option (a safety cap is not a rule of the "
            f"game): it is the game's `Game.max_decisions`; override it per game with "
            f"`play_game(..., max_decisions=N)`")
    if unknown:
        known = ", ".join(fields) or "(none)"
        raise BadInput(f"unknown rule option {unknown[0]!r}; known options: {known}")
    values = {}
    for name, raw in options.items():
        fld, hint = fields[name]
        value = _convert(name, raw, hint)
        choices = fld.metadata.get("choices")
        if choices is not None and value not in choices:
            raise BadInput(
                f"rule {name!r} must be one of {', '.join(map(str, choices))}; got {raw!r}"
            )
        bounds = fld.metadata.get("range")
        if bounds is not None and not bounds[0] <= value <= bounds[1]:
            raise BadInput(f"rule {name!r} must be {bounds[0]:,}..{bounds[1]:,}; got {raw!r}")
        values[name] = value
    try:
        return rules_cls(**values)
    except BadInput:
        raise
    except ValueError as exc:  # `__post_init__`: an invalid combination of the user's options
        raise BadInput(str(exc)) from None


@functools.cache
def _default_rules(rules_cls: type) -> Any:
    """The official rules, built once (new_state is on the hot path of every game)."""
    return rules_cls()


def rule_changes(rules: Any) -> dict[str, Any]:
    """The options of a `Rules` instance that differ from the defaults, by name."""
    if rules is None:
        return {}
    default = type(rules)()
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if getattr(rules, f.name) != getattr(default, f.name)}


def rules_to_str(rules: Any) -> str:
    """`key=value,...` of the options that differ from the defaults ('' = official rules)."""
    return ",".join(f"{name}={value}" for name, value in rule_changes(rules).items())


def rule_options(rules_cls: type) -> list[dict[str, Any]]:
    """Describe each option (name, default, choices, help) for `simulate list`."""
    out = []
    for name, (fld, hint) in _rule_fields(rules_cls).items():
        out.append(
            {
                "name": name,
                "default": fld.default,
                "type": getattr(hint, "__name__", str(hint)),
                "choices": fld.metadata.get("choices"),
                "help": fld.metadata.get("help", ""),
                "lever": bool(fld.metadata.get("lever", False)),
                "unit": fld.metadata.get("unit", ""),
            }
        )
    return out


def lever_option(default: str, choices: tuple[str, ...], help: str) -> Any:
    """A seat-lever rule option (one seat-order mechanism; `simulate explain` replays each of
    its choices): a choice field marked `lever`, its help citing the rule text it touches."""
    return field(default=default, metadata={"choices": choices, "lever": True, "help": help})


def seat_bonus_option(unit: str, what: str, *, most: int | None,
                      most_in_all: Callable[[int], int] | None = None, supply: str = "") -> Any:
    """The compensation variant `seat_bonus=b1,b2,...` (not a rule) in the game's natural
    `unit`; `what` says what each value adds, seat 1 first.

    What the game allows, declared with the option and checked by `kit.check_seat_bonus`:
    `most` is the largest bonus of one seat (points beyond many times a whole game's score
    measure nothing; chips have a cap), `most_in_all(players)` the largest of all seats
    together where the bonus comes out of one `supply` (Ivanhoe's deck)."""
    return field(default="", metadata={
        "unit": unit, "most": most, "most_in_all": most_in_all, "supply": supply,
        "help": f"variant (compensation, not a rule): b1,b2,... {what}, seat 1 first; "
                f"'' = none"})


def seat_levers(rules_cls: type) -> dict[str, tuple[Any, ...]]:
    """The game's seat levers: options marked `metadata={"lever": True}` (each changes one
    seat-order mechanism) with their choices, the default first."""
    out = {}
    for name, (fld, _) in _rule_fields(rules_cls).items():
        if fld.metadata.get("lever"):
            choices = tuple(fld.metadata.get("choices") or ())
            out[name] = (fld.default, *(c for c in choices if c != fld.default))
    return out


def bonus_unit(rules_cls: type) -> str:
    """The unit of the game's `seat_bonus` compensation option ('' when it has none)."""
    fields = _rule_fields(rules_cls)
    if "seat_bonus" not in fields:
        return ""
    return str(fields["seat_bonus"][0].metadata.get("unit", "points"))


# --------------------------------------------------------------------------------------------
# Game: a registry entry
# --------------------------------------------------------------------------------------------


#: Who wins on points (`Game.score_direction`): the most points, or the fewest.
SCORE_DIRECTIONS = ("highest", "lowest")


def official_dataset(rules: Any) -> str:
    """Data-set label of a game whose components are all confirmed."""
    return "official"


@mypyc_attr(native_class=False)  # a plain class, as `Game` below: read once per output
@dataclass(frozen=True)
class Starter:
    """Who takes a game's first turn: `first` (seat 1), `last` (the last seat) or `random` (a
    seat drawn for each game, so that seat numbers are positions at the table, not turn
    order) — the words of `engines.kit.FIRST_SEAT_CHOICES`.

    `option` names the rule option (a seat lever) that decides it and `choices` maps each of
    its values to one of the three; a game whose rules fix the starter leaves `option` empty
    and says `fixed`.  Outputs word their seat labels from it (`Game.who_starts`): "seat 1
    moves first" is true of some games only."""

    option: str = ""
    choices: Mapping[str, str] = field(default_factory=dict)
    fixed: str = "first"

    def __post_init__(self) -> None:
        for value in (self.fixed, *self.choices.values()):
            if value not in FIRST_SEAT_CHOICES:
                raise ValueError(f"a starter is one of {', '.join(FIRST_SEAT_CHOICES)}, "
                                 f"got {value!r}")
        if self.option and not self.choices:
            raise ValueError(f"starter option {self.option!r} needs its choices")


# A plain Python class even in the compiled build: a frozen native class cannot be copied
# (no `__dict__` to restore), and a game is read once per played game, not per decision.
@mypyc_attr(native_class=False)
@dataclass(frozen=True)
class Game:
    """Everything the runner and the CLI need to know about one game.

    `create_state(num_players, seed, rules)` builds the initial position; `heuristics` maps
    variant names to bot factories (`"default"` is what the spec `heuristic` means);
    `dataset(rules)` names the component data set in use, for manifests and reports;
    `mcts_defaults` are `mcts` spec options (strings) that suit this game better than the
    bot's own defaults (a preset or explicit options override them), and `mcts_presets`
    the game's own options for named `mcts` presets (`mcts:strong`); `action_kinds` names
    the game's systems — every distinct kind of decision of its rules, in words a player
    would recognise — and `State.action_kind(action)` indexes into it.  `partnerships` maps a
    player count to its teams (seat tuples) when seats play as partners who win together;
    `teams(n)` gives every count's teams (one seat each when there are no partnerships).
    `replaceable_data` is the game's component data set a user may vary (an
    `engines.datasets.DataSet` from the game's `data_set.py`: defaults and named items with
    provenance), None when every component is official.
    `mcts_evaluation(state)` scores a position where an `mcts` rollout was cut off
    (`rollout_depth` or `rollout_rounds`): one value in [0, 1] per seat, what the search
    backs up instead of its default there, the normalized `scores()` (None: that default).
    A game whose points come late (projects that pay when they mature) can count what is
    on the table; one whose rounds decide it (Ivanhoe's tournaments) its win chances.
    `heuristic_params` documents the default heuristic's weights and switches
    (`engines.bots.options.Param`: default, range, meaning): the options a `heuristic`
    spec takes, which `simulate list` shows and `simulate tune` searches.
    `starter` says who takes the first turn (`Starter`; by default seat 1 always), which
    `who_starts(rules)` reads under given rules: outputs word seat labels from it.
    `max_decisions` is a safety cap, not a rule of the game: `play_game` stops a game that
    reaches it and marks it truncated (None: the game always ends by itself).
    `elements` are the cards, skills and actions a designer may ask about
    (`engines.elements.Element`, declared in the game's `elements.py`): what a restricted
    seat may not do, and the columns that show them played (`simulate elements`).
    `score_direction` says who wins on points — "highest" (the most points) or "lowest" (the
    fewest: points are penalty points) — and `score_range` bounds one seat's final score
    (low, high; None: no bound on that side); the analysis reads both (shares of points by
    source, winning margins, their wording), and the contract tests check the range.
    For adapters (OpenSpiel, PettingZoo): every action id is below `num_actions`, and a game
    without a `max_decisions` cap never takes more than `max_game_length` decisions.
    """

    name: str
    min_players: int
    max_players: int
    Rules: type
    create_state: Callable[[int, int, Any], State]
    heuristics: Mapping[str, Callable[..., Bot]] = field(default_factory=dict)
    description: str = ""
    default_players: int | None = None
    dataset: Callable[[Any], str] = field(default=None)  # type: ignore[assignment]
    mcts_defaults: Mapping[str, str] = field(default_factory=dict)
    mcts_presets: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    mcts_evaluation: Callable[[Any], list[float]] | None = None
    action_kinds: tuple[str, ...] = ()
    num_actions: int = 0
    max_game_length: int = 0
    partnerships: Mapping[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    max_decisions: int | None = None
    replaceable_data: Any = None
    heuristic_params: tuple[Any, ...] = ()
    elements: tuple[Any, ...] = ()
    score_direction: str = "highest"
    score_range: tuple[float | None, float | None] = (None, None)
    starter: Starter = field(default_factory=Starter)

    def __post_init__(self) -> None:
        if self.dataset is None:
            object.__setattr__(self, "dataset", official_dataset)
        if self.max_decisions is not None and self.max_decisions < 1:
            raise ValueError(f"{self.name}: max_decisions must be positive")
        if self.score_direction not in SCORE_DIRECTIONS:
            raise ValueError(f"{self.name}: score_direction must be one of "
                             f"{', '.join(SCORE_DIRECTIONS)}, got {self.score_direction!r}")
        low, high = self.score_range
        if low is not None and high is not None and low > high:
            raise ValueError(f"{self.name}: score_range {self.score_range} is empty")
        option = self.starter.option
        if option:
            fields = _rule_fields(self.Rules)
            if option not in fields or set(self.starter.choices) != set(
                    map(str, fields[option][0].metadata.get("choices") or ())):
                raise ValueError(f"{self.name}: the starter's option {option!r} must be a "
                                 "choice rule option, every choice mapped")

    def who_starts(self, rules: Any = None) -> str:
        """Who takes the first turn (`Starter`: first, last or random) under `rules`: a `Rules`
        instance, a `rules_to_str` text (a manifest's `rules_str`, a frame's `rules` column)
        or None, the official rules."""
        option = self.starter.option
        if not option:
            return self.starter.fixed
        if rules is None or isinstance(rules, str):
            value = _rule_fields(self.Rules)[option][0].default
            prefix = f"{option}="
            for part in (rules or "").split(","):
                if part.startswith(prefix):
                    value = part[len(prefix):]
        else:
            value = getattr(rules, option)
        return self.starter.choices[str(value)]

    def make_rules(self, **options: Any) -> Any:
        """`make_rules`; `components.ITEM` keys (one item of the data set) are folded into
        the `components` option first (`engines.datasets.fold`)."""
        if any(key.startswith("components.") for key in options):
            from engines import datasets

            options = datasets.fold(self.name, options)
        return make_rules(self.Rules, options)

    def checked_rules(self, **options: Any) -> Any:
        """`make_rules`, then load the data set the rules name (`dataset` reads a components
        file with the game's own loader): a bad file fails here, before any run starts."""
        rules = self.make_rules(**options)
        self.dataset(rules)
        source = getattr(rules, "components", "")
        if source and self.replaceable_data is not None:  # a file or items: can it be played?
            from engines import datasets

            plain = {k: v for k, v in options.items() if not k.startswith("components.")}
            datasets.check_playable(self.name, {**plain, "components": source},
                                    f"components {source}")
        return rules

    def check_players(self, num_players: int) -> None:
        if not isinstance(num_players, int) or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise BadInput(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"got {num_players!r}"
            )

    def new_state(self, num_players: int, seed: int, **rules: Any) -> State:
        """Initial position for `num_players` with the given variant options."""
        return self.state_from_rules(num_players, seed, self.make_rules(**rules))

    def state_from_rules(self, num_players: int, seed: int, rules: Any) -> State:
        """Initial position under an already validated `Rules` instance: a run validates its
        options once, not once per game."""
        if not isinstance(rules, self.Rules):
            raise TypeError(f"{self.name} needs its own Rules, got {type(rules).__name__}")
        self.check_players(num_players)
        check_seat_bonus(rules, num_players)
        return self.create_state(num_players, seed, rules)

    def teams(self, num_players: int) -> tuple[tuple[int, ...], ...]:
        """The seats that win together at this player count (singletons without partners)."""
        return tuple(self.partnerships.get(num_players, tuple((s,) for s in range(num_players))))

    @property
    def players_default(self) -> int:
        return self.default_players or self.max_players


# --------------------------------------------------------------------------------------------
# Playing one game
# --------------------------------------------------------------------------------------------


@dataclass
class GameRecord:
    """The outcome of one game, as the runner stores it."""

    scores: list[float]
    winners: list[int]
    ranks: list[int]
    breakdown: dict[str, list[float]]
    decisions: int
    truncated: bool
    branching: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)
    actions: list[int] | None = None
    #: Per seat, per kind of `Game.action_kinds`: how many of the seat's decisions chose it.
    kinds_chosen: list[list[int]] | None = None
    #: Per seat, per kind: at how many of the seat's decisions the kind was legal (only when
    #: `play_game` was asked to measure availability; None otherwise).
    kinds_available: list[list[int]] | None = None


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int,
    num_players: int | None = None,
    rules: Any = None,
    record: bool = False,
    kinds: bool = True,
    availability: bool = False,
    max_decisions: int | None = None,
) -> GameRecord:
    """Play one game to the end (or the decision cap) — a pure function of its inputs.

    `rules` is either option values (validated here) or the game's validated `Rules`.
    The cap is `max_decisions`, else the game's safety cap `game.max_decisions` (None: none);
    a game that reaches it is marked truncated and has no winners.

    With `kinds` (and a game that declares `action_kinds`) the record counts, per seat, the
    kind of every chosen action; with `availability` too, at how many of the seat's decisions
    each kind was legal (classifying every legal action: the runner asks for it in every
    `AVAILABILITY_EVERY`-th game only; see the README, "Game systems used").
    """
    num_players = num_players or len(bots)
    if len(bots) != num_players:
        raise ValueError(f"{len(bots)} bots for {num_players} players")
    if isinstance(rules, game.Rules):  # validated once by the caller
        state = game.state_from_rules(num_players, seed, rules)
    else:
        state = game.new_state(num_players, seed, **dict(rules or {}))
    bot_rng = random.Random(seed ^ BOT_SEED_SALT)
    cap = max_decisions or game.max_decisions or sys.maxsize
    # Bound methods looked up once: this loop runs once per decision of every simulated game.
    choose = [bot.choose for bot in bots]
    actions: list[int] | None = [] if record else None
    chosen: list[list[int]] | None = None
    available: list[list[int]] | None = None
    kind_table: tuple[int, ...] | None = None
    if kinds and game.action_kinds:
        kind_table = state.kind_table
        chosen = [[0] * len(game.action_kinds) for _ in range(num_players)]
        if availability:
            available = [[0] * len(game.action_kinds) for _ in range(num_players)]
    decisions = branching = 0
    truncated = False
    player = state.current_player()  # -1 once the game is over (the contract)
    while player >= 0:
        if decisions == cap:
            truncated = True
            break
        decisions += 1  # the decision being made
        legal = state.legal_actions()
        branching += len(legal)
        action: int = choose[player](state, bot_rng)
        if chosen is not None:
            kind = kind_table[action] if kind_table is not None else -1
            if kind < 0:
                kind = state.action_kind(action)
            chosen[player][kind] += 1
            if available is not None:
                row = available[player]
                for kind in _legal_kinds(state, legal, kind_table):
                    row[kind] += 1
        state.apply_action(action)
        if actions is not None:
            actions.append(action)
        player = state.current_player()
    return GameRecord(
        scores=list(state.scores()),
        winners=[] if truncated else list(state.winners()),
        ranks=list(state.ranks()),
        breakdown=state.score_breakdown(),
        decisions=decisions,
        truncated=truncated,
        branching=branching / decisions if decisions else 0.0,
        metrics=state.metrics(),
        actions=actions,
        kinds_chosen=chosen,
        kinds_available=available,
    )


def _legal_kinds(state: State, legal: list[int], kind_table: tuple[int, ...] | None) -> set[int]:
    """The kinds among a decision's legal actions (`play_game`'s availability counts)."""
    if kind_table is None:
        return {state.action_kind(action) for action in legal}
    kinds = {kind_table[action] for action in legal}
    if -1 in kinds:
        kinds.discard(-1)
        kinds.update(state.action_kind(action) for action in legal if kind_table[action] < 0)
    return kinds


def replay(
    game: Game,
    num_players: int,
    seed: int,
    actions: Sequence[int],
    rules: Mapping[str, Any] | None = None,
) -> State:
    """Rebuild the final state of a recorded game from its seed and actions."""
    state = game.new_state(num_players, seed, **dict(rules or {}))
    for action in actions:
        state.apply_action(action)
    return state
