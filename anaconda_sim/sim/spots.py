"""Spots on the fast path: posterior draws of the rivals' hidden cards and
the deal played on from a spot, over the kernels of
:mod:`anaconda_sim.sim.kernels.spot`.

The layer above (:mod:`anaconda_sim.spots`) reads a spot out of a game and
fills a :class:`SpotArrays`; the functions here check nothing about the
deal itself (that layer did) but run the kernels on every core and keep
the results reproducible: draw ``i`` uses stream ``i`` of the seed's key,
whatever the thread count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._numba import run_chunks
from ..limits import HAND_SIZE
from ..strategies.dispatch import decision_jobs
from ..strategies.families import family_of_kind
from ..strategies.kinds import kernel_extras
from ..strategies.spec import Strategy
from ..table import views as V
from ..table.rules import Rules
from ..warmup import compile_on_all_cores, driver_jobs, linked_driver
from . import layout as L
from .driver import custom_functions, make_cfg, seat_param_rows
from .kernels import spot as K

REACHED_DEAL, REACHED_PASS, REACHED_DISCARD = K.REACHED_DEAL, K.REACHED_PASS, K.REACHED_DISCARD
VIEW_DEALT, VIEW_PASSED, VIEW_KEPT = K.VIEW_DEALT, K.VIEW_PASSED, K.VIEW_KEPT
SPOT_BET, SPOT_PASS = K.SPOT_BET, K.SPOT_PASS
SPOT_DISCARD, SPOT_ORDER = K.SPOT_DISCARD, K.SPOT_ORDER

#: draws per kernel call of a thread (small enough that two cores share a
#: short run evenly)
CHUNK = 64


@dataclass(frozen=True)
class SpotArrays:
    """What the hero knows at a spot, as the kernels read it.

    ``order``: the rivals in drawing order (the pass chain backwards from
    the hero's right neighbour, then the seats that never passed);
    ``reached``/``source``/``target``: per seat, ``REACHED_*``, the seat
    whose packet it received and the seat that received its packet (-1:
    none); ``exposed``/``n_exposed``: the cards each seat turned up;
    ``unseen``: every card the hero has not seen; ``d_*``: the rivals'
    recorded decisions in the order they were taken (``V.D_*`` kind, the
    ``VIEW_*`` own view it was taken on, the ``A_*`` action of a bet, the
    public view it was taken on).
    """

    hero: int
    order: np.ndarray
    reached: np.ndarray
    source: np.ndarray
    target: np.ndarray
    hero_pass: np.ndarray
    hero_recv: np.ndarray
    exposed: np.ndarray
    n_exposed: np.ndarray
    unseen: np.ndarray
    d_seat: np.ndarray
    d_kind: np.ndarray
    d_view: np.ndarray
    d_action: np.ndarray
    d_pub: np.ndarray
    pub: np.ndarray
    own: np.ndarray
    pending: int


@dataclass(frozen=True)
class Draws:
    """Weighted posterior draws: ``cards[i, s]`` (seven per seat; a seat
    that discarded: its five in reveal order then its two discards),
    ``received``/``passed`` its packets, ``weight[i]``, and ``dead[i]``:
    for a zero weight, the recorded decision most candidates failed at."""

    cards: np.ndarray
    received: np.ndarray
    passed: np.ndarray
    weight: np.ndarray
    dead: np.ndarray
    #: per draw and step of the drawing order: the mean candidate weight
    #: (the rival's estimated likelihood; NaN after a step with none)
    rate: np.ndarray

    def take(self, rows: np.ndarray) -> Draws:
        """The draws of ``rows`` (indices or a mask)."""
        return Draws(self.cards[rows], self.received[rows], self.passed[rows],
                     self.weight[rows], self.dead[rows], self.rate[rows])  # fmt: skip

    def alive(self) -> Draws:
        """The draws with a positive weight."""
        return self.take(self.weight > 0)


def free_kinds(strategies: list[Strategy], spot: SpotArrays) -> np.ndarray:
    """``spot.d_kind`` with the decisions whose likelihood is the same for
    every hidden card marked free (``+ FREE``): their strategy draws them
    uniformly or reads them off the public table, so they are a constant
    factor of the posterior and the samplers skip them."""
    kinds = spot.d_kind.copy()
    for m, (seat, kind) in enumerate(zip(spot.d_seat, spot.d_kind, strict=True)):
        if kind in family_of_kind(strategies[seat].kind).free_decisions:
            kinds[m] = kind + K.FREE
    return kinds


def passive_action(pub: np.ndarray, seat: int) -> int:
    """The action of passive betting (call when facing a bet, else check)."""
    to_call = int(pub[V.P_LEVEL]) * int(pub[V.P_BET_SIZE]) - int(pub[V.P_IN_ROUND + seat])
    return V.A_CALL if to_call > 0 else V.A_CHECK


def _tables(rules: Rules, strategies: list[Strategy]) -> tuple:
    n = rules.players
    cbet, cpass, cdiscard, has_cpass, has_cdiscard = custom_functions(strategies)
    cfg = make_cfg(rules, dealer=0, rotate=False, betting=True, hero=-1, force=L.FORCE_NONE,
                   random_cards=0, has_cpass=has_cpass, has_cdiscard=has_cdiscard,
                   record=False)  # fmt: skip
    kinds = np.array([s.kind for s in strategies], dtype=np.int64)
    params = seat_param_rows(cfg, strategies, n)
    extras = kernel_extras(bool(rules.hilo_showdown), kinds, params)
    return cfg, kinds, params, (cbet, cpass, cdiscard), extras


def sample_rivals(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, key: np.uint64, draws: int,
    tries: np.ndarray, first: int = 0, fallback: bool = False,
) -> Draws:  # fmt: skip
    """``draws`` posterior draws (draw indices ``first ..``) of the rivals'
    hidden cards, ``tries[step]`` candidates for the rival drawn at each
    step of ``spot.order``
    (:func:`~anaconda_sim.sim.kernels.spot.sample_rivals`)."""
    args, jobs, drawn = _sampler(rules, strategies, spot, key, draws, tries, first, fallback)
    kernel, call_args = _linked(K.sample_rivals, args, jobs)
    _run(kernel, first, first + draws, call_args)
    return drawn


def _sampler(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, key: np.uint64, draws: int,
    tries: np.ndarray, first: int, fallback: bool,
) -> tuple[tuple, list[Any], Draws]:  # fmt: skip
    """:func:`sample_rivals`' kernel arguments, its pointer jobs and its output."""
    n = rules.players
    cfg, kinds, params, funcs, extras = _tables(rules, strategies)
    cards = np.full((draws, n, HAND_SIZE), -1, dtype=np.int64)
    received = np.full((draws, n, 3), -1, dtype=np.int64)
    passed = np.full((draws, n, 3), -1, dtype=np.int64)
    weight = np.zeros(draws, dtype=np.float64)
    dead = np.full(draws, -1, dtype=np.int64)
    rate = np.full((draws, len(spot.order)), np.nan)
    # the built-in decisions read only the held cards, never the packets, so
    # the way a seven splits into own four and packet matters to the pass only
    split_free = not any(family_of_kind(s.kind).reads_packets for s in strategies)
    s = spot
    d_kind = free_kinds(strategies, s)
    args = (key, first, np.ascontiguousarray(tries, np.int64), split_free, fallback, cfg, kinds,
            params,
            s.hero, s.order, s.reached, s.source, s.target,
            s.hero_pass, s.hero_recv, s.exposed, s.n_exposed, s.unseen,
            s.d_seat, d_kind, s.d_view, s.d_action, s.d_pub,
            cards, received, passed, weight, dead, rate, *funcs, *extras)  # fmt: skip
    jobs = [_consistency(cfg, kinds, params, s, d_kind, funcs, extras)]
    return args, jobs, Draws(cards, received, passed, weight, dead, rate)


def walk_rivals(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, key: np.uint64, start: Draws,
    length: int, burn: int, thin: int, max_search: int = 0,
) -> tuple[Draws, np.ndarray]:  # fmt: skip
    """``length`` draws of each of ``len(start.weight)`` Metropolis chains
    started at the draws ``start`` (:func:`~anaconda_sim.sim.kernels.spot.walk_rivals`):
    the draws (chain ``c``'s in rows ``c * length ..``, weight 1) and the
    moves each chain kept (-1: no consistent state found from its start in
    ``max_search`` moves; a negative ``max_search``: the starts are
    consistent, and not checked again)."""
    args, jobs, (drawn, moves) = _walker(rules, strategies, spot, key, start, length, burn, thin,
                                         max_search)  # fmt: skip
    kernel, call_args = _linked(K.walk_rivals, args, jobs)
    run_chunks(kernel, len(start.weight), *call_args)
    return drawn, moves


def _walker(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, key: np.uint64, start: Draws,
    length: int, burn: int, thin: int, max_search: int,
) -> tuple[tuple, list[Any], tuple[Draws, np.ndarray]]:  # fmt: skip
    """:func:`walk_rivals`' kernel arguments, its pointer jobs and its outputs."""
    n = rules.players
    cfg, kinds, params, funcs, extras = _tables(rules, strategies)
    chains = len(start.weight)
    rows = chains * length
    cards = np.full((rows, n, HAND_SIZE), -1, dtype=np.int64)
    received = np.full((rows, n, 3), -1, dtype=np.int64)
    passed = np.full((rows, n, 3), -1, dtype=np.int64)
    moves = np.zeros(chains, dtype=np.int64)
    s = spot
    d_kind = free_kinds(strategies, s)
    args = (key, length, burn, thin, max_search, cfg, kinds, params, s.hero, s.order, s.reached,
            s.source,
            s.target, s.hero_pass, s.hero_recv, s.exposed, s.n_exposed, s.unseen,
            np.ascontiguousarray(start.cards), np.ascontiguousarray(start.received),
            s.d_seat, d_kind, s.d_view, s.d_action, s.d_pub,
            cards, received, passed, moves, *funcs, *extras)  # fmt: skip
    jobs = [_consistency(cfg, kinds, params, s, d_kind, funcs, extras)]
    drawn = Draws(cards, received, passed, np.ones(rows), np.full(rows, -1, dtype=np.int64),
                  np.ones((rows, len(spot.order))))  # fmt: skip
    return args, jobs, (drawn, moves)


def play_spot(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, kind: int, choices: np.ndarray,
    drawn: Draws, key: np.uint64,
) -> np.ndarray:  # fmt: skip
    """The hero's net chips of the whole deal, ``[draw, choice]``, each
    drawn deal played on from the spot once per row of ``choices``
    (:func:`~anaconda_sim.sim.kernels.spot.play_spot`)."""
    args, jobs, out = _player(rules, strategies, spot, kind, choices, drawn, key)
    kernel, call_args = _linked(K.play_spot, args, jobs)
    _run(kernel, 0, len(drawn.weight), call_args)
    return out


def _player(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, kind: int, choices: np.ndarray,
    drawn: Draws, key: np.uint64,
) -> tuple[tuple, list[Any], np.ndarray]:  # fmt: skip
    """:func:`play_spot`'s kernel arguments, its pointer jobs and its output."""
    cfg, kinds, params, funcs, extras = _tables(rules, strategies)
    passes = np.array(rules.passes, dtype=np.int64).reshape(-1, L.PASS_FIELDS)
    out = np.zeros((len(drawn.weight), len(choices)), dtype=np.int64)
    s = spot
    args = (key, cfg, passes, kinds, params, kind, s.hero, s.pending, s.pub, s.own, s.reached,
            drawn.cards, drawn.received, drawn.passed, np.ascontiguousarray(choices, np.int64),
            out, *funcs, *extras)  # fmt: skip
    return args, K.play_jobs((cfg, passes, kinds, params, *funcs, *extras)), out


def compile_spot_kernels(
    rules: Rules, strategies: list[Strategy], spot: SpotArrays, kind: int, choices: np.ndarray,
    drawing: bool = True,
) -> None:  # fmt: skip
    """Compile what :func:`play_spot` (and, when ``drawing``, the posterior's
    :func:`sample_rivals` and :func:`walk_rivals`) need at ``spot`` and are
    missing, in one round on every core
    (:func:`~anaconda_sim.warmup.compile_on_all_cores`), before the first of
    them runs: each would otherwise compile its own kernels in a round of its
    own, the second core idle for most of it. Kernels already compiled or
    cached cost a lookup."""
    key = np.uint64(0)
    tries = np.ones(len(spot.order), dtype=np.int64)
    sampler = _sampler(rules, strategies, spot, key, 0, tries, 0, False)
    none = sampler[2]  # no draws: the arrays have the types of real ones
    drivers: list[tuple[Any, tuple[tuple, list[Any], Any]]] = [
        (K.play_spot, _player(rules, strategies, spot, kind, choices, none, key)),
    ]
    if drawing:
        drivers += [(K.sample_rivals, sampler),
                    (K.walk_rivals, _walker(rules, strategies, spot, key, none, 1, 0, 1, -1))]
    jobs: list[Any] = []
    for driver, (args, pointers, _) in drivers:
        jobs += driver_jobs(driver, args, pointers, K.POINTER_RETURNS,
                            K.DRIVER_WEIGHTS[driver.py_func.__name__])  # fmt: skip
    jobs += decision_jobs(*_tables(rules, strategies)[4])
    unique = {(job[0], tuple(job[1])): job for job in jobs}
    compile_on_all_cores(list(unique.values()), "the spot kernels")


def _consistency(cfg: np.ndarray, kinds: np.ndarray, params: np.ndarray, spot: SpotArrays,
                 d_kind: np.ndarray, funcs: tuple, extras: tuple) -> Any:  # fmt: skip
    return K.consistency_job((cfg, kinds, params, spot.exposed, spot.n_exposed, spot.d_seat,
                              d_kind, spot.d_view, spot.d_action, spot.d_pub, *funcs,
                              *extras))  # fmt: skip


def _linked(kernel: Any, args: tuple, jobs: list[Any]) -> tuple[Any, tuple]:
    """``kernel`` with its callees ``jobs`` as function pointers (compiled
    apart, on every core; see :func:`~anaconda_sim.warmup.linked_driver`)."""
    return linked_driver(kernel, args, jobs, "the spot kernels", K.POINTER_RETURNS)


def _run(kernel, first: int, stop: int, args: tuple) -> None:  # type: ignore[no-untyped-def]
    """``kernel(lo, hi, *args)`` over ``first .. stop - 1`` in chunks, on every core."""
    size = stop - first
    if size <= 0:
        return
    n_chunks = -(-size // CHUNK)

    def chunk(lo: int, hi: int, *rest: object) -> None:
        kernel(first + lo * CHUNK, min(stop, first + hi * CHUNK), *rest)

    run_chunks(chunk, n_chunks, *args)
