"""The public layer: :class:`Strategy`, :func:`get_strategy` and the text
spelling of strategies (``"name"`` or ``"name:key=value,..."``), read by one
parser (:func:`parse_spec`) wherever a strategy is given."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import types

from ..limits import MAX_PLAYERS, MIN_PLAYERS
from ..table import views as V
from ..warmup import compile_on_all_cores
from .dispatch import (
    SEAT_TYPES,
    builtin_bet,
    builtin_discard,
    builtin_pass,
    decision_jobs,
    no_custom_bet,
)
from .kinds import (
    BOARD_READING,
    BUILTIN_NAMES,
    KIND_CUSTOM,
    KIND_LEARNED,
    KIND_SENSIBLE,
    PARAM_SLOTS,
    kernel_extras,
)
from .learned.fielddata import board_reading_sources
from .learned.params import (
    EQUITY0,
    EQUITY_SIZE,
    LEARNED_DEFAULTS,
    LEARNED_RANGES,
    READ0,
    READ_BET_NAMES,
    READ_DEFAULTS,
    READ_PARAM_NAMES,
    READ_RANGES,
    READS_MODE,
    SHOW_ARRAY_SIZE,
    SHOW_MODE,
    SHOW_TAU,
    WIN_TABLE_SIZE,
    as_array,
    shipped_params,
    shipped_win_table,
)
from .learned.passtables import fill_pass_tables
from .learned.readbet import fill_bet_bounds
from .learned.show import fill_discard_tables
from .ranges import check_parameter
from .sensible import SENSIBLE_DEFAULTS, SENSIBLE_RANGES


@dataclass(frozen=True)
class Strategy:
    """A seat's strategy: a built-in kind with parameters, or user functions.

    Use :func:`get_strategy` for built-ins and :meth:`Strategy.custom` for
    your own numba functions.

    Examples
    --------
    >>> get_strategy("sensible", bluff=0.05).param_dict()["bluff"]
    0.05
    >>> get_strategy("call-down").name
    'call-down'
    """

    name: str
    kind: int
    params: tuple[float, ...] = ()
    param_names: tuple[str, ...] = ()
    bet_fn: Callable[..., Any] | None = field(default=None, compare=False)
    pass_fn: Callable[..., Any] | None = field(default=None, compare=False)
    discard_fn: Callable[..., Any] | None = field(default=None, compare=False)
    #: ``"learned-v1"`` only: a win table of its own (flat,
    #: :data:`~anaconda_sim.strategies.learned.params.WIN_TABLE_SIZE`) instead of the one
    #: shipped for the table size (:func:`~anaconda_sim.learning.learn` makes these)
    win_table: tuple[float, ...] = field(default=(), repr=False)
    #: ``"learned"`` and ``"learned-v2"`` only: equity tables of its own (flat,
    #: :data:`~anaconda_sim.strategies.learned.params.EQUITY_SIZE`) instead of the ones
    #: shipped for the table size (:func:`~anaconda_sim.learning.estimate_equity` makes these)
    equity: tuple[float, ...] = field(default=(), repr=False)
    #: ``"learned"`` and ``"learned-v2"`` only: a show array of its own (its reveal order
    #: and discard, :mod:`~anaconda_sim.strategies.learned.show`: the temperature of the
    #: order's draw, the show table, flat, the keep table, then the temperature of the
    #: discard's draw;
    #: :data:`~anaconda_sim.strategies.learned.params.SHOW_ARRAY_SIZE`) instead of
    #: the one shipped for the table size (:mod:`anaconda_sim.learning.showfit`
    #: makes these)
    show: tuple[float, ...] = field(default=(), repr=False)

    def param_dict(self) -> dict[str, float]:
        """Parameters by name."""
        return dict(zip(self.param_names, self.params, strict=True))

    def spec(self) -> str:
        """The strategy with all its parameters, as text: ``"name"`` or
        ``"name:key=value,..."`` (what tables record in their model).

        Examples
        --------
        >>> get_strategy("sensible", bluff=0.1).spec()
        'sensible:aggressive_at=6,continue_early=1,continue_late=4,respect_exposed=1,bluff=0.1'
        >>> get_strategy("random-pass").spec()
        'random-pass'
        """
        values = [f"{k}={v:g}" for k, v in self.param_dict().items()]
        # a table of its own (from learning) is named by a digest of its numbers
        for label, table in (("win_table", self.win_table), ("equity", self.equity),
                             ("show", self.show)):  # fmt: skip
            if table:
                digest = hashlib.sha256(np.asarray(table).tobytes()).hexdigest()[:12]
                values.append(f"{label}={digest}")
        return f"{self.name}:{','.join(values)}" if values else self.name

    def param_array(self, players: int | None = None) -> np.ndarray:
        """Parameters as the float64 array the kernels receive (padded).

        The learned family's parameters depend on the table size: the vector
        shipped for ``players``
        (:func:`~anaconda_sim.strategies.learned.params.shipped_params`; for
        ``"learned"`` and ``"learned-v2"`` the card play, betting, equity
        tables and show array of
        :func:`~anaconda_sim.strategies.learned.fielddata.board_reading_sources`)
        with ``"learned-v1"``'s win table, this strategy's parameters (and
        tables, if it has its own) in their place. The array is built once
        per strategy and table size (the engines ask for it at every
        decision); each call returns a copy.

        Examples
        --------
        >>> from anaconda_sim.strategies.learned.params import BLUFF, BOARD_BLUFF0
        >>> float(get_strategy("learned-v1", bluff=0.25).param_array(6)[BLUFF])
        0.25
        >>> float(get_strategy("learned", bluff_weak=0.1).param_array(6)[BOARD_BLUFF0 + 1])
        0.1
        """
        return _param_array(self, None if players is None else int(players)).copy()

    @classmethod
    def custom(
        cls,
        name: str,
        *,
        bet: Callable[..., Any] | None = None,
        pass_cards: Callable[..., Any] | None = None,
        discard: Callable[..., Any] | None = None,
        params: Mapping[str, float] | None = None,
    ) -> Strategy:
        """A user strategy from numba functions with the signatures of this module.

        A decision left as ``None`` falls back to ``"sensible"`` card play or
        passive betting.
        """
        params = dict(params or {})
        if len(params) > PARAM_SLOTS:
            raise ValueError(
                f"strategy {name!r} has {len(params)} parameters; at most {PARAM_SLOTS} fit"
            )
        for label, fn in (("bet", bet), ("pass_cards", pass_cards), ("discard", discard)):
            if fn is not None and not hasattr(fn, "py_func"):
                raise TypeError(
                    f"custom {label} function {fn!r} is not compiled with numba; "
                    "decorate it with @numba.njit"
                )
        return cls(
            name, KIND_CUSTOM, tuple(float(v) for v in params.values()), tuple(params),
            bet, pass_cards, discard,
        )  # fmt: skip

    # Engines call these three; they run the same numba code as the kernels.
    def decide_bet(self, pub, own, rng) -> int:
        """Betting intent for the seat whose view is ``(pub, own)``."""
        if self.kind == KIND_CUSTOM:
            fn = self.bet_fn or no_custom_bet
            return int(fn(pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng))
        return int(builtin_bet(self.kind, pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng))

    def decide_pass(self, pub, own, rng) -> np.ndarray:
        """The cards to pass, as an int64 array of ``pub[P_PASS_COUNT]`` cards."""
        out = np.full(7, -1, dtype=np.int64)
        if self.kind == KIND_CUSTOM and self.pass_fn is not None:
            self.pass_fn(pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng, out)
        else:
            kind = KIND_SENSIBLE if self.kind == KIND_CUSTOM else self.kind
            params = self.param_array(int(pub[V.P_PLAYERS]))
            builtin_pass(kind, pub, own, params, rng, out,
                         *kernel_extras(bool(pub[V.P_HILO]), [kind], params))  # fmt: skip
        return out[: pub[V.P_PASS_COUNT]].copy()

    def decide_discard(self, pub, own, rng) -> tuple[np.ndarray, np.ndarray]:
        """``(discards, reveal_order)`` as int64 arrays of 2 and 5 cards."""
        out = np.full(7, -1, dtype=np.int64)
        if self.kind == KIND_CUSTOM and self.discard_fn is not None:
            self.discard_fn(pub, own, self.param_array(int(pub[V.P_PLAYERS])), rng, out)
        else:
            kind = KIND_SENSIBLE if self.kind == KIND_CUSTOM else self.kind
            params = self.param_array(int(pub[V.P_PLAYERS]))
            builtin_discard(kind, pub, own, params, rng, out,
                            *kernel_extras(bool(pub[V.P_HILO]), [kind], params))  # fmt: skip
        return out[:2].copy(), out[2:7].copy()


#: the rule sets (hi-lo or not) whose built-in decisions this process made sure of
_ENGINE_READY: set[bool] = set()


def compile_engine_decisions(hilo: bool) -> None:
    """The built-in bet, pass and discard (every family's, with the argument
    types an engine calls them with: :data:`~.dispatch.SEAT_TYPES`) compiled
    on every core at once (:func:`~anaconda_sim.warmup.compile_on_all_cores`)
    for a game under the hi-lo rules or not: what an engine that plays a
    whole deal with built-in strategies calls before its first decision,
    instead of compiling each as the deal first reaches it. Cached ones cost
    a lookup, and the check is made once per process.

    Examples
    --------
    >>> compile_engine_decisions(False)
    """
    if hilo in _ENGINE_READY:
        return
    _ENGINE_READY.add(hilo)
    bet = (builtin_bet, (types.int64, *SEAT_TYPES[:4]), 2.0)
    compile_on_all_cores([*decision_jobs(*kernel_extras(hilo, [])), bet], "the decisions")


def get_strategy(spec: str | Strategy, **params: float) -> Strategy:
    """A built-in strategy from its spec (with parameter overrides), or ``spec`` itself.

    ``spec`` is a :class:`Strategy`, a built-in name (``"sensible"``) or a
    name with parameters, ``"name:key=value,..."``, as :meth:`Strategy.spec`
    writes it; ``params`` give (more) parameters by keyword. Every function
    of the library that takes a strategy reads it here, so every one takes
    the same three spellings.

    Raises
    ------
    ValueError
        An unknown name or parameter (the message lists the built-ins and
        their parameters), a parameter without a number, or one given twice.
    TypeError
        ``spec`` is neither text nor a :class:`Strategy`.

    Examples
    --------
    >>> get_strategy("sensible", aggressive_at=5).param_dict()["aggressive_at"]
    5.0
    >>> get_strategy("sensible:bluff=0.1") == get_strategy("sensible", bluff=0.1)
    True
    >>> get_strategy("bluffer")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown strategy 'bluffer'; built-ins are 'random', 'call-down', 'random-pass',
    'sensible', 'learned', 'learned-v2', 'learned-v1' (parameters of sensible: aggressive_at, ...)
    >>> get_strategy("sensible:bluf=0.1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: strategy 'sensible' has no parameter 'bluf'; its parameters: aggressive_at, ...
    """
    if isinstance(spec, Strategy):
        if params:
            raise ValueError(
                f"parameters {sorted(params)} can only be given with a built-in strategy's "
                f"name; write get_strategy({spec.name!r}, ...) or change the Strategy itself"
            )
        return spec
    name, given = parse_spec(spec)
    for key, value in params.items():
        if key in given:
            raise ValueError(
                f"strategy parameter {key!r} is given twice, in {spec!r} and as a keyword; "
                "give it once"
            )
        given[key] = _number(name, key, value)
    return _builtin(name, given)


def parse_spec(spec: str) -> tuple[str, dict[str, float]]:
    """One strategy's text, ``"name"`` or ``"name:key=value,..."``, as its
    built-in name and its parameters (checked: known names and numbers).

    Examples
    --------
    >>> parse_spec("sensible: bluff=0.1, continue_late=2")
    ('sensible', {'bluff': 0.1, 'continue_late': 2.0})
    >>> parse_spec("sensible:bluff")
    Traceback (most recent call last):
    ...
    ValueError: strategy parameter 'bluff' has no value; write it as bluff=VALUE
    """
    if not isinstance(spec, str):
        raise TypeError(
            f"strategy {spec!r} must be a built-in name ('sensible'), a spec with parameters "
            "('sensible:bluff=0.1') or a Strategy object"
        )
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in BUILTIN_NAMES:
        raise ValueError(
            f"unknown strategy {name!r}; built-ins are {_catalogue()}"
        )
    params: dict[str, float] = {}
    for item in (part.strip() for part in rest.split(",")):
        if not item:
            continue
        key, equals, value = (part.strip() for part in item.partition("="))
        if not equals:
            raise ValueError(f"strategy parameter {key!r} has no value; write it as {key}=VALUE")
        if key in params:
            raise ValueError(
                f"strategy parameter {key!r} is given twice in {spec!r}; give it once"
            )
        try:
            number = float(value)
        except ValueError:
            raise ValueError(
                f"strategy parameter {key}={value!r} is not a number; write it as {key}=0.1"
            ) from None
        params[key] = _number(name, key, number)
    return name, params


def _parameters(name: str) -> tuple[str, ...]:
    """The parameter names of built-in ``name``."""
    if name in BOARD_READING:
        return READ_PARAM_NAMES
    if name == "learned-v1":
        return tuple(LEARNED_DEFAULTS)
    return tuple(SENSIBLE_DEFAULTS) if BUILTIN_NAMES[name] == KIND_SENSIBLE else ()


def _catalogue() -> str:
    """Every built-in, then the parameters of those that have a few (a long
    list, the learned family's, is named by where to read it), for the error
    of an unknown name."""
    names = ", ".join(repr(name) for name in BUILTIN_NAMES)
    # built-ins that share one list of parameters are named together
    lists: dict[str, list[str]] = {}
    for name in BUILTIN_NAMES:
        params = _parameters(name)
        if not params:
            continue
        if len(params) <= _LISTED_PARAMETERS:
            text = ", ".join(params)
        else:
            text = f"{len(params)}, named in {_FULL_LIST[name]}"
        lists.setdefault(text, []).append(name)
    listed = [f"{' and '.join(group)}: {text}" for text, group in lists.items()]
    return f"{names} (parameters of {'; '.join(listed)})"


#: a built-in with more parameters than this has them counted, not listed, in errors
_LISTED_PARAMETERS = 8
#: where a built-in's long list of parameters is written
_FULL_LIST = {"learned": "strategies.learned.params.READ_PARAM_NAMES",
              "learned-v2": "strategies.learned.params.READ_PARAM_NAMES",
              "learned-v1": "strategies.learned.params.LEARNED_DEFAULTS"}


def _number(name: str, key: str, value: Any) -> float:
    """A parameter's value as a float, after its name is checked."""
    allowed = _parameters(name)
    if key not in allowed:
        raise ValueError(
            f"strategy {name!r} has no parameter {key!r}; its parameters: "
            f"{', '.join(allowed) or 'none'}"
        )
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"strategy parameter {key}={value!r} must be a number")
    return check_parameter(name, key, float(value), _RANGES[name][key])


#: the range of every parameter of every built-in that has parameters
_RANGES = {"sensible": SENSIBLE_RANGES, "learned": READ_RANGES, "learned-v2": READ_RANGES,
           "learned-v1": LEARNED_RANGES}


def _builtin(name: str, params: dict[str, float]) -> Strategy:
    """The built-in ``name`` with ``params`` (checked) over its defaults."""
    kind = BUILTIN_NAMES[name]
    if kind == KIND_LEARNED:
        # only the parameters given are fixed; the others are the shipped
        # vector of the table size (Strategy.param_array)
        ordered = {k: params[k] for k in _parameters(name) if k in params}
        return Strategy(name, kind, tuple(ordered.values()), tuple(ordered))
    defaults = SENSIBLE_DEFAULTS if kind == KIND_SENSIBLE else {}
    merged = {**defaults, **params}
    return Strategy(name, kind, tuple(merged.values()), tuple(merged))


@functools.lru_cache(maxsize=256)
def _param_array(strategy: Strategy, players: int | None) -> np.ndarray:
    out = np.zeros(PARAM_SLOTS, dtype=np.float64)
    if strategy.kind != KIND_LEARNED:
        out[: len(strategy.params)] = strategy.params
    elif strategy.name in BOARD_READING:
        out = _reads_array(strategy, players)
    else:
        given = strategy.param_dict()
        if players is None and (len(given) < len(LEARNED_DEFAULTS) or not strategy.win_table):
            raise ValueError(
                f"strategy {strategy.spec()!r} takes the learned parameters of the table "
                f"size; give players= ({MIN_PLAYERS}-{MAX_PLAYERS})"
            )
        if len(given) < len(LEARNED_DEFAULTS):
            given = {**shipped_params(int(players)), **given}  # type: ignore[arg-type]
        if strategy.win_table:
            table = np.asarray(strategy.win_table, dtype=np.float64)
        else:
            table = shipped_win_table(int(players))  # type: ignore[arg-type]
        out = as_array(given, table, PARAM_SLOTS)
        fill_pass_tables(out)  # derived from the weights: the pass reads them
    out.setflags(write=False)
    return out


def _reads_array(strategy: Strategy, players: int | None) -> np.ndarray:
    """The array of a board-reading built-in (``"learned"``, ``"learned-v2"``):
    the card play's weights of the table size (or given) with their pass
    tables, the mode slot set, the betting's parameters, the equity tables
    and the show array of the table size (or its own;
    :func:`~anaconda_sim.strategies.learned.fielddata.board_reading_sources`
    says which vectors each name ships)."""
    given = strategy.param_dict()
    if players is None and (len(given) < len(READ_PARAM_NAMES) or not strategy.equity):
        raise ValueError(
            f"strategy {strategy.spec()!r} takes the learned parameters of the table "
            f"size; give players= ({MIN_PLAYERS}-{MAX_PLAYERS})"
        )
    sources = None if players is None else board_reading_sources(strategy.name, players)
    card_play = shipped_params(players) if players is not None else dict(LEARNED_DEFAULTS)
    betting = dict(READ_DEFAULTS)
    if sources is not None:
        card_play.update(sources.card)
        betting.update(sources.betting)
    card_play.update((k, v) for k, v in given.items() if k in card_play)
    betting.update((k, v) for k, v in given.items() if k in betting)
    # the win table is not read by this betting; the table size's keeps the array whole
    table = shipped_win_table(players) if players is not None else np.full(WIN_TABLE_SIZE, 0.5)
    out = as_array(card_play, table, PARAM_SLOTS)
    fill_pass_tables(out)
    out[READS_MODE] = 1.0
    out[READ0 : READ0 + len(READ_BET_NAMES)] = [betting[k] for k in READ_BET_NAMES]
    if strategy.equity:
        out[EQUITY0 : EQUITY0 + EQUITY_SIZE] = np.asarray(strategy.equity, dtype=np.float64)
    else:
        out[EQUITY0 : EQUITY0 + EQUITY_SIZE] = sources.equity  # type: ignore[union-attr]
    fill_bet_bounds(out)  # derived from the equity tables: the kernels' bets read them
    # the reveal order: its own show table, or the table size's, or (none
    # shipped) the order weights
    show = sources.show if sources is not None and not strategy.show else None
    if strategy.show:
        show = np.asarray(strategy.show, dtype=np.float64)
        if show.shape == (SHOW_ARRAY_SIZE - 1,):  # written before the discard's temperature
            show = np.append(show, 0.0)
        if (show.shape != (SHOW_ARRAY_SIZE,) or not np.isfinite(show).all() or show[0] < 0
                or show[-2] < 0 or show[-1] < 0):  # fmt: skip
            raise ValueError(
                f"strategy {strategy.name!r} has a show array of {show.size} numbers; it takes "
                f"{SHOW_ARRAY_SIZE} finite ones: a temperature (0 or more), the show table "
                "(anaconda_sim.strategies.learned.params.SHOW_SHAPE, flat), the keep table "
                "(a score per own bucket and a show weight, 0 or more), then the discard's "
                "temperature (0 or more; 0: the five of best score)"
            )
    if show is not None:
        out[SHOW_MODE] = 1.0
        out[SHOW_TAU : SHOW_TAU + SHOW_ARRAY_SIZE] = show
        fill_discard_tables(out)  # derived from the show table: the discard reads them
    return out


def parse_strategies(text: str) -> list[Strategy]:
    """Strategies written as text, as :meth:`Strategy.spec` writes them.

    ``"name"`` or ``"name:key=value,key=value"``; several strategies are
    separated by commas (an item holding ``=`` continues the parameters of
    the strategy before it).

    Examples
    --------
    >>> [s.spec() for s in parse_strategies("random-pass, call-down")]
    ['random-pass', 'call-down']
    >>> parse_strategies("sensible:bluff=0.1,continue_late=2")[0].param_dict()["continue_late"]
    2.0
    >>> parse_strategies("sensible:bluff")
    Traceback (most recent call last):
    ...
    ValueError: strategy parameter 'bluff' has no value; write it as bluff=VALUE
    """
    if not isinstance(text, str):
        raise TypeError(f"strategies {text!r} must be text like 'sensible:bluff=0.1'")
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if "=" in item.partition(":")[0]:  # another parameter of the previous strategy
            if not specs:
                raise ValueError(f"{item!r} names a parameter before any strategy")
            specs[-1] += ("," if ":" in specs[-1] else ":") + item
        else:
            specs.append(item)
    if not specs:
        raise ValueError(f"no strategy in {text!r}; name one, e.g. 'sensible' or 'random-pass'")
    return [get_strategy(spec) for spec in specs]


def short_spec(spec: str) -> str:
    """A strategy spec with only the parameters that differ from the defaults
    (for chart subtitles; tables keep the full spec).

    Examples
    --------
    >>> short_spec(get_strategy("sensible", continue_late=2).spec())
    'sensible:continue_late=2'
    >>> short_spec("random-pass")
    'random-pass'
    """
    name = spec.partition(":")[0]
    if name not in BUILTIN_NAMES:
        return spec
    given = get_strategy(spec).param_dict()
    defaults = get_strategy(name).param_dict()
    changed = ",".join(f"{k}={v:g}" for k, v in given.items() if defaults.get(k) != v)
    return f"{name}:{changed}" if changed else name
