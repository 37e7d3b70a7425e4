"""The sweep specification: a validated grid of analyses, and its work units.

A :class:`SweepSpec` names a grid: analysis kinds x player counts x opponent
strategies x stopping rules x seeds x hands (explicit hands, starting-hand
classes, or both). It is cut into *work units*: one grid point and a block
of ``unit_size`` hands. Every hand of a unit is analysed with its own seed,
derived from the spec seed and the hand's grid coordinates only (never from
the unit it falls in, the order units run or the worker running it), so a
sweep gives the same numbers on any backend and any number of workers.

A spec is written in Python or in TOML (the same keys, see
:meth:`SweepSpec.from_toml`); both are validated, and an error names the bad
key and value.

Examples
--------
>>> spec = SweepSpec(kind="equity", players=[2, 6], hands=["Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣"],
...                  deals=2000, seed=1)
>>> spec.players, spec.hands, len(spec.units())
((2, 6), ('Qs Qh 9c 8d 3s 4h 2c',), 2)
>>> SweepSpec(kind="equity", players=9, hands=["Qs Qh 9c 8d 3s 4h 2c"])
Traceback (most recent call last):
...
ValueError: sweep spec: players=9 is outside 2..7 (R2); use table sizes from 2 to 7
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..analysis import registry
from ..analysis.driver import ANALYSIS_RULES
from ..cards import CardError, format_cards, parse_cards
from ..hands.classes import N_CLASSES, lookup_classes
from ..limits import DEFAULT_DEALS, DEFAULT_MAX_DEALS
from ..strategies.spec import parse_strategies, short_spec

__all__ = [
    "DEFAULT_HERO",
    "DEFAULT_OPPONENTS",
    "DEFAULT_UNIT_SIZE",
    "KINDS",
    "Slot",
    "SweepSpec",
    "Unit",
    "derive_seed",
    "load_spec",
]

#: the analyses a sweep runs (:data:`anaconda_sim.analysis.registry.KINDS`)
KINDS = tuple(k.name for k in registry.KINDS if k.sweep)
#: hand sizes each analysis accepts
HAND_SIZES = {"equity": (7, 5), "pass": (7,), "discard": (7,), "reveal": (5,)}
#: hands per work unit when ``unit_size`` is not given (a few seconds of work
#: at the default 20,000 deals on one core)
DEFAULT_UNIT_SIZE = {"equity": 32, "pass": 4, "discard": 4, "reveal": 1}
#: opponents when the spec names none. Not the analysis functions' default
#: ("learned"): a spec naming no opponents hashes with ``opponents = None``
#: and its units resolve this default into every hand's seed, so changing it
#: would change the numbers behind an unchanged spec hash (and a resumed
#: results folder would mix the two). These strategies have no parameters
#: outside the spec; "learned"'s parameter vector ships with the package and
#: is re-fitted from time to time, so a sweep against it names it:
#: ``opponents = "learned"``.
DEFAULT_OPPONENTS = {"equity": "random-pass", "pass": "random-pass", "discard": "random-pass",
                     "reveal": "sensible"}  # fmt: skip
#: the hero's strategy when the spec names none, for the same reason: not the
#: analysis functions' default ("learned"), which is re-fitted from time to time
DEFAULT_HERO = "sensible"
#: the rule set of a spec that names none
DEFAULT_RULES = "pagat"
#: keys left out of the spec hash (they change no number)
UNHASHED = ("description",)
SPEC_VERSION = 1


def _fail(key: str, value: Any, problem: str) -> ValueError:
    return ValueError(f"sweep spec: {key}={value!r} {problem}")


def _as_tuple(value: Any) -> tuple:
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,)


def _whole(key: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise _fail(key, value, f"is not a whole number; use an integer >= {low}")
    if value < low:
        raise _fail(key, value, f"is below {low}")
    return int(value)


@dataclass(frozen=True)
class Slot:
    """One hand of a unit: an explicit hand, or a class representative or sample.

    ``hand_class`` is ``None`` for an explicit hand; ``sample`` is ``None``
    for explicit hands and class representatives.
    """

    hand: str | None = None
    hand_class: int | None = None
    sample: int | None = None


@dataclass(frozen=True)
class Unit:
    """A work unit: one grid point and a block of hands (the numbers of a
    unit depend only on its coordinates and the spec)."""

    index: int
    kind: str
    players: int
    opponents: str
    deals: int | None
    precision: float | None
    seed: int
    slots: tuple[Slot, ...]
    rules: str = "pagat"

    def coordinates(self) -> dict[str, Any]:
        """The grid point (without the hands)."""
        return {
            "kind": self.kind, "rules": self.rules, "players": self.players,
            "opponents": self.opponents,
            "target_deals": self.deals, "target_precision": self.precision, "seed": self.seed,
        }  # fmt: skip


@dataclass(frozen=True)
class SweepSpec:
    """A grid of analyses to run over many hands.

    Every field accepts a single value or a list (a grid axis); lists become
    tuples. Give ``hands``, ``hand_classes`` or both.

    Parameters
    ----------
    kind
        ``"equity"``, ``"pass"``, ``"discard"`` or ``"reveal"`` (or a list):
        :func:`~anaconda_sim.analysis.equity`, ``pass_values``,
        ``discard_values``, ``reveal_values``.
    players
        Table sizes, 2 to 7.
    rules
        The rule set every analysis plays: ``"pagat"`` (the default rules) or
        ``"hi-lo"`` (declarations and a split pot, R21-R26).
    hands
        Card texts: seven cards for equity, pass and discard (for discard:
        the seven held after the pass), five for reveal (and equity after
        the discard).
    hand_classes
        Starting-hand classes of :mod:`anaconda_sim.hands.classes`: ``"all"``,
        family names (``"pair"``), class names (``"QQ/A F4"``) or ids.
    samples_per_class
        ``None``: each class is played by its representative hand. ``m``:
        by ``m`` hands drawn uniformly from the class (the same hands at
        every grid point; a class average over them is an unbiased
        estimate for the whole class, see
        :func:`~anaconda_sim.sweep.summarize_classes`).
    opponents
        Opponent strategies: each entry a built-in strategy for every
        opponent seat, or a comma list with one per seat, left neighbour
        first. A strategy may carry parameters, ``"sensible:bluff=0.1"`` or
        ``"sensible:bluff=0.1,continue_late=2, random-pass"`` (a comma item
        holding ``=`` continues the parameters of the strategy before it,
        :func:`~anaconda_sim.strategies.parse_strategies`); they are kept as
        the parameters that differ from the defaults.
        ``None``: :data:`DEFAULT_OPPONENTS` (``"random-pass"``; for
        reveal, ``"sensible"``), the sweeps' fixed defaults, which are not
        the analysis functions' ``"learned"``: name ``"learned"`` to sweep
        against it.
    hero
        The hero's strategy (with parameters, as ``opponents``) for its
        decisions other than the one valued: its pass at the deal (equity),
        its betting (pass and reveal with betting), its declaration (hi-lo).
        ``None``: :data:`DEFAULT_HERO` (``"sensible"``), the sweeps' fixed
        default, which is not the analysis functions' ``"learned"``.
    betting
        Passed to pass and reveal analyses (``None``: their default).
    deals, precision, max_deals
        Stopping rule of each analysis: ``deals`` (default 20,000) or
        ``precision`` (a target standard error, capped by ``max_deals``).
    seed
        Base seed(s); every hand's seed derives from it and the hand's grid
        coordinates (:func:`derive_seed`).
    unit_size
        Hands per work unit (default by kind: :data:`DEFAULT_UNIT_SIZE`).
    unicode
        Card text in the results as ``Q♠`` instead of ``Qs``.
    description
        Free text, kept in the manifest (not part of the spec hash).
    """

    kind: tuple[str, ...] | str = "equity"
    players: tuple[int, ...] | int = (6,)
    rules: str = "pagat"
    hands: tuple[str, ...] | str = ()
    hand_classes: tuple[int, ...] | str = ()
    samples_per_class: int | None = None
    opponents: tuple[str, ...] | str | None = None
    hero: str | None = None
    betting: bool | None = None
    deals: tuple[int, ...] | int | None = None
    precision: tuple[float, ...] | float | None = None
    max_deals: int = DEFAULT_MAX_DEALS
    seed: tuple[int, ...] | int = (1,)
    unit_size: int | None = None
    unicode: bool = False
    description: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        kinds = _as_tuple(self.kind)
        for k in kinds:
            if k not in KINDS:
                raise _fail("kind", k, f"is not an analysis; use one of {', '.join(KINDS)}")
        if not kinds or len(set(kinds)) != len(kinds):
            raise _fail("kind", self.kind, "must list each analysis once")
        set_(self, "kind", kinds)

        if self.rules not in ANALYSIS_RULES:
            raise _fail("rules", self.rules,
                        f"is not a rule set the analyses model; use one of "
                        f"{', '.join(map(repr, ANALYSIS_RULES))}")  # fmt: skip

        players = tuple(_whole("players", p, 2) for p in _as_tuple(self.players))
        for p in players:
            if p > 7:
                raise _fail("players", p, "is outside 2..7 (R2); use table sizes from 2 to 7")
        if not players or len(set(players)) != len(players):
            raise _fail("players", self.players, "must list each table size once")
        set_(self, "players", players)

        set_(self, "hands", self._check_hands(kinds))
        set_(self, "hand_classes", self._check_classes(kinds))
        if self.samples_per_class is not None:
            _whole("samples_per_class", self.samples_per_class, 1)
            if not self.hand_classes:
                raise _fail("samples_per_class", self.samples_per_class,
                            "needs hand_classes to sample from")  # fmt: skip
        if not self.hands and not self.hand_classes:
            raise ValueError(
                "sweep spec: no hands; give hands (a list of card texts) or hand_classes "
                "('all', family names, class names or ids)"
            )

        if self.opponents is not None:
            set_(self, "opponents", self._check_opponents(players))
        if self.hero is not None:
            set_(self, "hero", self._check_strategy("hero", self.hero))
            if set(kinds) == {"discard"} and self.rules != "hi-lo":
                raise _fail("hero", self.hero,
                            "plays no decision of a high-only discard sweep (it declares in "
                            "hi-lo)")  # fmt: skip
        if self.betting is not None:
            if not isinstance(self.betting, bool):
                raise _fail("betting", self.betting, "is not true or false")
            if not {"pass", "reveal"} & set(kinds):
                raise _fail("betting", self.betting, "applies to pass and reveal sweeps only")

        if self.deals is not None and self.precision is not None:
            raise ValueError("sweep spec: give deals or precision, not both")
        if self.precision is not None:
            precision = tuple(self._check_precision(v) for v in _as_tuple(self.precision))
            set_(self, "precision", precision)
        else:
            deals = DEFAULT_DEALS if self.deals is None else self.deals
            set_(self, "deals", tuple(_whole("deals", d, 2) for d in _as_tuple(deals)))
        set_(self, "max_deals", _whole("max_deals", self.max_deals, 2))
        seeds = tuple(_whole("seed", s, 0) for s in _as_tuple(self.seed))
        if not seeds or len(set(seeds)) != len(seeds):
            raise _fail("seed", self.seed, "must list each seed once")
        set_(self, "seed", seeds)
        if self.unit_size is not None:
            set_(self, "unit_size", _whole("unit_size", self.unit_size, 1))
        if not isinstance(self.unicode, bool):
            raise _fail("unicode", self.unicode, "is not true or false")
        if not isinstance(self.description, str):
            raise _fail("description", self.description, "is not text")

    # ---------------------------------------------------------- checks --
    def _check_hands(self, kinds: tuple[str, ...]) -> tuple[str, ...]:
        texts = self.hands
        if isinstance(texts, str):
            texts = (texts,)
        if not isinstance(texts, (list, tuple)):
            raise _fail("hands", texts, "is not a list of card texts")
        out: list[str] = []
        for i, text in enumerate(texts):
            try:
                cards = parse_cards(text, what="hand")
            except CardError as error:
                raise ValueError(f"sweep spec: hands[{i}]={text!r}: {error}") from None
            for k in kinds:
                if len(cards) not in HAND_SIZES[k]:
                    need = " or ".join(str(n) for n in HAND_SIZES[k])
                    raise ValueError(
                        f"sweep spec: hands[{i}]={text!r} has {len(cards)} cards; "
                        f"kind {k!r} needs {need}-card hands"
                    )
            canonical = format_cards(cards)
            if canonical in out:
                raise ValueError(
                    f"sweep spec: hands[{i}]={text!r} repeats hands[{out.index(canonical)}]"
                )
            out.append(canonical)
        return tuple(out)

    def _check_classes(self, kinds: tuple[str, ...]) -> tuple[int, ...] | str:

        selection = self.hand_classes
        if isinstance(selection, (list, tuple)) and not selection:
            return ()
        if isinstance(selection, str) and selection.strip().lower() == "all":
            ids: tuple[int, ...] | str = "all"
        else:
            try:
                chosen = lookup_classes(selection)
            except ValueError as error:
                raise ValueError(f"sweep spec: hand_classes: {error}") from None
            ids = tuple(sorted(set(chosen)))
            if len(ids) == N_CLASSES:
                ids = "all"
        if "reveal" in kinds:
            raise _fail(
                "hand_classes", self.hand_classes,
                "classifies seven-card hands; kind 'reveal' needs five-card hands",
            )  # fmt: skip
        return ids

    @staticmethod
    def _parse_strategies(key: str, text: Any) -> list[str]:
        """The strategies of ``text`` (``"name"`` or ``"name:key=value,..."``,
        several separated by commas, :func:`~anaconda_sim.strategies.parse_strategies`),
        each as its short text: the name alone when every parameter has its
        default (so a plain name keeps its text, the spec hash and the seeds)."""

        if not isinstance(text, str):
            raise _fail(key, text, "is not a strategy name or a comma list of names")
        try:
            strategies = parse_strategies(text)
        except ValueError as error:
            raise ValueError(f"sweep spec: {key}={text!r}: {error}") from None
        return [short_spec(s.spec()) for s in strategies]

    def _check_strategy(self, key: str, text: Any) -> str:
        names = self._parse_strategies(key, text)
        if len(names) != 1:
            raise _fail(key, text, f"names {len(names)} strategies; give one")
        return names[0]

    def _check_opponents(self, players: tuple[int, ...]) -> tuple[str, ...]:
        out: list[str] = []
        for i, entry in enumerate(_as_tuple(self.opponents)):
            key = f"opponents[{i}]"
            if isinstance(entry, str) and not entry.strip(", "):
                raise _fail(key, entry, "names no strategy")
            names = self._parse_strategies(key, entry)
            if len(names) > 1:
                for p in players:
                    if len(names) != p - 1:
                        raise _fail(
                            key, entry,
                            f"lists {len(names)} strategies, but players={p} has {p - 1} "
                            "opponents; give one name for every seat, or one per seat",
                        )  # fmt: skip
            out.append(",".join(names))
        if not out or len(set(out)) != len(out):
            raise _fail("opponents", self.opponents, "must list each opponent set once")
        return tuple(out)

    @staticmethod
    def _check_precision(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating)):
            raise _fail("precision", value, "is not a number; give a target standard error")
        if not (math.isfinite(value) and value > 0):
            raise _fail("precision", value, "must be a positive standard error")
        return float(value)

    # ------------------------------------------------------ constructors --
    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepSpec:
        """A spec from a mapping of keys (unknown keys are refused).

        Examples
        --------
        >>> SweepSpec.from_dict({"kind": "pass", "player": 6, "hands": []})
        Traceback (most recent call last):
        ...
        ValueError: sweep spec: unknown key 'player' (did you mean 'players'?); keys are kind, ...
        """
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                close = difflib.get_close_matches(str(key), names, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise ValueError(
                    f"sweep spec: unknown key {key!r}{hint}; keys are {', '.join(names)}"
                )
        return cls(**dict(data))

    @classmethod
    def from_toml(cls, path: str | Path) -> SweepSpec:
        """A spec from a TOML file: the keys of :class:`SweepSpec` at the top level.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> folder = pathlib.Path(tmp.name)
        >>> _ = (folder / "s.toml").write_text('kind = "pass"\\nplayers = [4, 6]\\n'
        ...                                    'hands = ["Qs Qh 9c 8d 3s 4h 2c"]\\n')
        >>> SweepSpec.from_toml(folder / "s.toml").players
        (4, 6)
        >>> _ = (folder / "bad.toml").write_text('kind = "pass"\\nhands = ["Qs Qh Xs"]')
        >>> SweepSpec.from_toml(folder / "bad.toml")
        Traceback (most recent call last):
        ...
        ValueError: ...bad.toml: sweep spec: hands[0]='Qs Qh Xs': unknown rank 'X' in card 'Xs'; ...
        >>> tmp.cleanup()
        """
        try:
            import tomllib
        except ModuleNotFoundError:  # pragma: no cover - Python 3.10
            import tomli as tomllib

        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot read sweep spec {str(path)!r}: {error.strerror}") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ValueError(f"{path}: not valid TOML: {error}") from None
        if "sweep" in data and isinstance(data["sweep"], dict) and len(data) == 1:
            data = data["sweep"]  # a [sweep] table is accepted too
        try:
            return cls.from_dict(data)
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None

    # ------------------------------------------------------------ hashing --
    def to_dict(self) -> dict[str, Any]:
        """Normalised plain values (lists, not tuples): the manifest's copy of the spec."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @property
    def spec_hash(self) -> str:
        """16 hex digits identifying the numbers this spec produces.

        Examples
        --------
        >>> a = SweepSpec(kind="equity", hands=["Qs Qh 9c 8d 3s 4h 2c"], deals=1000)
        >>> b = SweepSpec(kind=["equity"], hands="Q♠ Q♥ 9♣ 8♦ 3♠ 4♥ 2♣", deals=[1000],
        ...               description="same numbers")
        >>> a.spec_hash == b.spec_hash
        True
        """
        data = {k: v for k, v in self.to_dict().items() if k not in UNHASHED}
        if data["rules"] == DEFAULT_RULES:
            # specs of the default rules keep the hash they had before rules were a key
            del data["rules"]
        text = json.dumps({"spec_version": SPEC_VERSION, **data}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    # -------------------------------------------------------------- units --
    def class_ids(self) -> tuple[int, ...]:
        """The starting-hand class ids swept (empty without classes)."""

        if isinstance(self.hand_classes, str):  # "all", once validated
            return tuple(range(N_CLASSES))
        return tuple(self.hand_classes)

    def slots(self) -> list[Slot]:
        """The hands of every grid point: explicit hands, then classes in id order."""
        out = [Slot(hand=h) for h in self.hands]
        for cid in self.class_ids():
            if self.samples_per_class is None:
                out.append(Slot(hand_class=cid))
            else:
                out.extend(Slot(hand_class=cid, sample=j) for j in range(self.samples_per_class))
        return out

    def units(self) -> list[Unit]:
        """All work units, in a fixed order (their ``index`` names their files)."""
        slots = self.slots()
        stops: list[tuple[int | None, float | None]] = (
            [(d, None) for d in _as_tuple(self.deals)]
            if self.precision is None
            else [(None, p) for p in _as_tuple(self.precision)]
        )
        units: list[Unit] = []
        for kind in _as_tuple(self.kind):
            size = self.unit_size or DEFAULT_UNIT_SIZE[kind]
            for opponents in _as_tuple(self.opponents or DEFAULT_OPPONENTS[kind]):
                for deals, precision in stops:
                    for seed in _as_tuple(self.seed):
                        for players in _as_tuple(self.players):
                            for start in range(0, len(slots), size):
                                units.append(Unit(
                                    len(units), kind, players, opponents, deals, precision,
                                    seed, tuple(slots[start : start + size]), self.rules,
                                ))  # fmt: skip
        return units


def load_spec(spec: SweepSpec | Mapping[str, Any] | str | Path) -> SweepSpec:
    """A :class:`SweepSpec` from itself, a mapping, or a TOML file path."""
    if isinstance(spec, SweepSpec):
        return spec
    if isinstance(spec, Mapping):
        return SweepSpec.from_dict(spec)
    if isinstance(spec, (str, Path)):
        return SweepSpec.from_toml(spec)
    raise TypeError(f"cannot read a sweep spec from {type(spec).__name__}; give a path or a dict")


def derive_seed(seed: int, *coordinates: Any) -> int:
    """A 63-bit seed from a base seed and coordinates (JSON-able values).

    Built with ``numpy.random.SeedSequence`` from the base seed and a
    SHA-256 of the coordinates: stable across processes, platforms and
    Python versions (Python's ``hash`` is not used).

    Examples
    --------
    >>> derive_seed(1, "equity", 6, "random-pass") == derive_seed(1, "equity", 6, "random-pass")
    True
    >>> derive_seed(1, "equity", 6) != derive_seed(2, "equity", 6)
    True
    """
    text = json.dumps(list(coordinates), separators=(",", ":"), sort_keys=True)
    digest = hashlib.sha256(text.encode()).digest()
    words = np.frombuffer(digest[:16], dtype="<u4").tolist()
    state = np.random.SeedSequence(entropy=int(seed), spawn_key=tuple(words))
    high, low = (int(x) for x in state.generate_state(2, dtype=np.uint32))
    return (high << 31) | (low >> 1)
