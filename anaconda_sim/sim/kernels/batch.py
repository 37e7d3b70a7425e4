"""Batch-major deal kernels: every phase of a deal played over a batch of deals.

A deal played alone goes through six to nine phase kernels, each called
with about a dozen arrays: the calls, not the work, set its pace, and
inlining the phases into one function would make it too slow to compile.
Here a *batch* of plays (a few hundred deals, each once per forced choice)
moves through the phases together: one kernel call per phase and batch
(dealing, each betting round, each pass, the discard, each reveal, the
declaration, the showdown, the sums), none per deal. Each phase kernel is a
loop over the plays of the batch whose body is the per-deal phase of
:mod:`~anaconda_sim.sim.kernels.deal`, inlined: the very same code, so the
two paths give the same numbers deal by deal, and each kernel is small
enough to compile in a second or two (and separately: phases a table does
not play are never compiled).

Per-play state is kept in one array per field with the play as its first
axis (``pub[e]``, ``owns[e, seat]``, ``states[e, stream]``, ``dec[e, seat]``,
...): a play's row is what the strategy functions read as their views. A
play that has ended (one seat left, R17) is skipped by the ``alive`` mask.

Nothing here validates its input: the public layer does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types

from ..._numba import argument_type, borrow, jit, keep
from ...limits import DECK_SIZE, HAND_SIZE
from ...rng import STREAM_DECK, STREAM_SEAT
from ...strategies.dispatch import decision_jobs, prefetch_seat_pass
from ...table import views as V
from ...warmup import linked_driver
from ..layout import (
    C_DEALER,
    C_DISCARD,
    C_FORCE,
    C_HERO,
    C_HILO,
    C_N,
    C_NPASSES,
    C_RECORD,
    C_REVEAL,
    C_ROTATE,
    DEC_SIZE,
    FORCE_DECLARE,
    FORCE_PASS,
    MAX_ROUNDS,
    PASS_COUNT,
    PASS_DIRECTION,
    RES_SIZE,
    S_NET,
    S_SHARE,
    SEAT_RES_SIZE,
    STATES_ROWS,
    c_array,
)  # fmt: skip
from . import deal as D

#: plays (deal x forced choice) that move through the phases together: enough
#: for the processor to overlap the table lookups of different deals, few
#: enough for a batch's state (about 5 KB a play at 7 seats: 320 KB) to stay
#: in a core's second-level cache (1-2 MB here; 256 plays overflowed it: a
#: 6-player deal 2-5% slower)
PHASE_PLAYS = 64


@jit(inline="always")
def deals_per_batch(n_choices):
    """Deals that move through the phases together, each played once per each
    of ``n_choices`` forced choices: as many as :data:`PHASE_PLAYS` plays
    hold, and at least one (a deal's choices are never split: a deal's 120
    reveal orders are one batch of 120 plays).

    Examples
    --------
    >>> [deals_per_batch.py_func(n) for n in (1, 21, 35, 120)]
    [64, 3, 1, 1]
    """
    return max(1, PHASE_PLAYS // n_choices)


def _inlined(kernel):  # type: ignore[no-untyped-def]
    """The per-deal phase ``kernel`` of :mod:`~anaconda_sim.sim.kernels.deal`,
    compiled again to be inlined into a loop over a batch."""
    return jit(inline="always")(getattr(kernel, "py_func", kernel))


_betting_round = _inlined(D._betting_round)
_checked_round = _inlined(D._checked_round)
discard_inline = _inlined(D.discard_phase)
_declare_phase = _inlined(D.declare_phase)
settle_inline = _inlined(D.settle)
_make_deck = _inlined(D.make_deck)


@jit(inline="always")
def copy_play(source, target, pub, owns, states, dec, seat_res, res, opener):
    """Copy play ``source``'s table and results into play ``target``
    (element loops: a whole-array copy compiles numba's shape checks). Of
    the betting log only its entries are copied: every reader stops at its
    length and every writer appends at it, so the slots beyond it are never
    read (most of the table's slots: 256 of 329)."""
    used = V.P_LOG + min(max(pub[source, V.P_LOG_LEN], 0), pub.shape[1] - V.P_LOG)
    for j in range(used):
        pub[target, j] = pub[source, j]
    for s in range(owns.shape[1]):
        for j in range(owns.shape[2]):
            owns[target, s, j] = owns[source, s, j]
        for j in range(dec.shape[2]):
            dec[target, s, j] = dec[source, s, j]
        for j in range(seat_res.shape[2]):
            seat_res[target, s, j] = seat_res[source, s, j]
    for r in range(states.shape[1]):
        states[target, r, 0] = states[source, r, 0]
    for j in range(res.shape[1]):
        res[target, j] = res[source, j]
    for j in range(opener.shape[1]):
        opener[target, j] = opener[source, j]


@jit(_nrt=False)
def lead_only(plays, n_choices, alive):
    """Leave only the first play of each deal live: until the forced choice,
    the plays of one deal are the same deal on the same random numbers, so
    one of them is played and the others copy it (:func:`follow_lead`)."""
    for e in range(plays):
        if e % n_choices != 0:
            alive[e] = False


@jit(_nrt=False)
def follow_lead(plays, n_choices, pub, owns, states, dec, seat_res, res, opener, alive):
    """Every play of a deal becomes a copy of its first play (see :func:`lead_only`)."""
    for e in range(plays):
        lead = e - e % n_choices
        if e != lead:
            copy_play(lead, e, pub, owns, states, dec, seat_res, res, opener)
            alive[e] = alive[lead]


@jit(_nrt=False)
def deal_phase(
    key, first, plays, n_choices, cfg, fixed, known_mask, decks, dealers, scratch, available,
    pub, owns, states, dec, seat_res, res, opener, alive,
):  # fmt: skip
    """Deals ``first .. first + plays // n_choices - 1``: each deck drawn
    once (R3-R5), then the table at the deal for each of its choices."""
    n = cfg[C_N]
    m = plays // n_choices
    for i in range(m):
        deal = first + i
        dealer = cfg[C_DEALER]
        if cfg[C_ROTATE] != 0:
            dealer = (dealer + deal) % n
        dealers[i] = dealer
        e0 = i * n_choices
        _make_deck(key, deal, cfg, fixed, known_mask, dealer, decks[i], scratch, available,
                   states[e0, STREAM_DECK])  # fmt: skip
        for k in range(n_choices):
            e = e0 + k
            D.start_deal(key, deal, dealer, cfg, decks[i], pub[e], owns[e], states[e], dec[e],
                         seat_res[e], res[e], opener[e])  # fmt: skip
            alive[e] = True


@jit(_nrt=False)
def betting_phase(
    rnd, reveal, plays, n_choices, checks_only, cfg, dealers, pub, owns, kinds, params, states,
    cbet, dec, seat_res, res, opener, alive, with_hilo, with_learned,
):  # fmt: skip
    """Betting round ``rnd`` (R13-R17) of every live play; with ``reveal >= 0``
    the round follows the reveal of card ``reveal`` of every active seat's
    order (R9), and the strongest exposed cards open it (R11, R12); else the
    first active seat after the dealer opens it."""
    n = cfg[C_N]
    for e in range(plays):
        if not alive[e]:
            continue
        dealer = dealers[e // n_choices]
        p = pub[e]
        if reveal >= 0:
            o = owns[e]
            for i in range(n):
                seat = D.seat_after(dealer, i, n)
                if p[V.P_FOLDED + seat] == 0:
                    p[V.P_EXPOSED + 4 * seat + reveal] = o[seat, V.O_CARDS + reveal]
            p[V.P_REVEALED] = reveal + 1
            p[V.P_STAGE] = V.STAGE_REVEAL + reveal + 1
            first = D._reveal_opener(p, n, dealer, reveal + 1)
        else:
            first = D._first_active_left_of_dealer(p, n, dealer)
        opener[e, rnd] = first
        if checks_only:
            ended = _checked_round(rnd, first, n, p, res[e])
        else:
            ended = _betting_round(rnd, first, cfg, p, owns[e], kinds, params, states[e],
                                   cbet, dec[e], seat_res[e], res[e], with_hilo,
                                   with_learned)  # fmt: skip
        alive[e] = not ended


@jit(_nrt=False)
def pass_phase(
    index, count, direction, plays, n_choices, cfg, dealers, pub, owns, kinds, params, states,
    cpass, dec, choices, forced_pass, res, alive, with_hilo, with_learned,
):  # fmt: skip
    """Pass ``index`` of the schedule (R7) at every live play.

    When the hero's first pass is the forced choice, the plays of a deal
    differ only in the hero's packet: every other seat decides on the same
    cards and the same stream in each of them, so its decision (its row of
    ``dec`` and its stream after deciding) is made in the deal's first play
    and copied into the others."""
    n = cfg[C_N]
    hero = cfg[C_HERO]
    shared = index == 0 and n_choices > 1 and cfg[C_FORCE] == FORCE_PASS
    for e in range(plays):
        # the table reads of the first play, then each play starts the next
        # one's (a play whose passes are not made starts none)
        for ahead in range(e if e == 0 else e + 1, min(e + 2, plays)):
            if alive[ahead]:
                _prefetch_passes(n, pub[ahead], owns[ahead], kinds, with_learned,
                                 shared and ahead % n_choices != 0, hero)  # fmt: skip
        if not alive[e]:
            continue
        k = e % n_choices
        lead = e - k
        # a play after the deal's first copies every decision but the hero's
        copies = shared and k != 0
        dealer = dealers[e // n_choices]
        p = pub[e]
        D.start_pass(index, count, direction, p)
        # one call of the decision in this kernel (each inlined copy of the
        # strategy dispatch is typed again: compile time)
        for i in range(n):
            seat = D.seat_after(dealer, i, n)
            if p[V.P_FOLDED + seat] != 0:
                continue
            if copies and seat != hero:
                for j in range(DEC_SIZE):
                    dec[e, seat, j] = dec[lead, seat, j]
                states[e, STREAM_SEAT + seat, 0] = states[lead, STREAM_SEAT + seat, 0]
            else:
                D.decide_pass(index, count, seat, cfg, p, owns[e], kinds, params, states[e], cpass,
                              dec[e], choices[k], forced_pass, res[e], with_hilo,
                              with_learned)  # fmt: skip
        D.move_packets(index, count, direction, n, p, owns[e], dec[e])


@jit(inline="always")
def _prefetch_passes(n, pub, owns, kinds, with_learned, copies, hero):
    """Start the reads each active seat's pass will make of the learned pass
    table (:func:`~anaconda_sim.strategies.dispatch.prefetch_seat_pass`), a
    play ahead of its passes: the reads, mostly from memory, then overlap
    with a play's work instead of each pass waiting for its own. A play
    whose passes are ``copies`` of its deal's first play's reads only the
    ``hero``'s."""
    for seat in range(n):
        if pub[V.P_FOLDED + seat] == 0 and not (copies and seat != hero):
            prefetch_seat_pass(kinds[seat], owns[seat], with_learned)


@jit(_nrt=False)
def discard_phase(
    plays, n_choices, cfg, dealers, pub, owns, kinds, params, states, cdiscard, dec, choices,
    res, alive, with_hilo, with_learned,
):  # fmt: skip
    """R8 at every live play: every active seat discards two and orders its five."""
    for e in range(plays):
        if alive[e]:
            discard_inline(cfg, dealers[e // n_choices], pub[e], owns[e], kinds, params,
                           states[e], cdiscard, dec[e], choices[e % n_choices], res[e],
                           with_hilo, with_learned)  # fmt: skip


@jit(_nrt=False)
def declare_phase(
    plays, n_choices, cfg, dealers, kinds, params, choices, pub, owns, states, seat_res, res,
    alive,
):  # fmt: skip
    """R22 at every live play of a hi-lo table."""
    for e in range(plays):
        if alive[e]:
            _declare_phase(dealers[e // n_choices], cfg, kinds, params, choices[e % n_choices],
                           pub[e], owns[e], states[e], seat_res[e], res[e])  # fmt: skip


@jit(_nrt=False)
def settle_phase(
    b, first_row, plays, n_choices, cfg, dealers, decks, pub, owns, dec, seat_res, res, opener,
    alive, hero_net, hero_share, acc_seat, acc_cat, acc_fold, acc_open, acc_deal, acc_cross,
    rec_deck, rec_dealer, rec_res, rec_seat, rec_own, with_hilo, with_learned,
):  # fmt: skip
    """The end of every play (R10, R17-R20; hi-lo R23-R25), its sums into row
    ``b`` of the accumulators, and, when the run records, its record at row
    ``first_row + deal`` of the record arrays."""
    n = cfg[C_N]
    hero = cfg[C_HERO]
    record = cfg[C_RECORD] != 0
    hilo = cfg[C_HILO] != 0
    m = plays // n_choices
    for i in range(m):
        for k in range(n_choices):
            e = i * n_choices + k
            settle_inline(not alive[e], dealers[i], cfg, pub[e], owns[e], dec[e], seat_res[e],
                          res[e], with_hilo, with_learned)  # fmt: skip
            D.accumulate_play(b, k, n, hilo, res[e], seat_res[e], opener[e], acc_seat, acc_cat,
                              acc_fold, acc_open, acc_deal)  # fmt: skip
            if hero >= 0:
                hero_net[k] = seat_res[e, hero, S_NET]
                hero_share[k] = seat_res[e, hero, S_SHARE]
            if record:
                D._record(first_row + i, k, n, pub[e], res[e], seat_res[e], owns[e], rec_res,
                          rec_seat, rec_own)  # fmt: skip
        if hero >= 0:
            D.accumulate_cross(b, n_choices, hero_net, hero_share, acc_cross)
        if record:
            rec_dealer[first_row + i] = dealers[i]
            for j in range(HAND_SIZE * n):
                rec_deck[first_row + i, j] = decks[i, j]


@jit
def run_batches(
    first_batch, stop_batch, key, first_deal, n_deals, batch_size, cfg, passes, kinds, params,
    fixed, known_mask,
    choices, forced_pass,
    acc_seat, acc_cat, acc_fold, acc_open, acc_deal, acc_cross,
    rec_deck, rec_dealer, rec_res, rec_seat, rec_own,
    cbet, cpass, cdiscard, with_hilo, with_learned,
    deal_phase, lead_only, betting_phase, follow_lead, pass_phase, discard_phase, declare_phase,
    settle_phase,
):  # fmt: skip
    """Play batches ``first_batch .. stop_batch - 1`` of deals ``first_deal ..
    first_deal + n_deals - 1`` (``batch_size`` deals per batch), each deal
    once per row of ``choices`` (one row, ignored, when nothing is forced),
    on the same deck and the same random numbers.

    The phase kernels come last, as function pointers (:func:`batch_runner`
    passes them): this kernel's module holds none of their code, so it
    compiles in about a second and the phases compile once each, apart.

    Batch ``b`` of ``batch_size`` deals adds into row ``b`` of every ``acc_*``
    array; its deals move through the phases :func:`deals_per_batch` at a
    time, each deal once per row of ``choices``.
    """
    n = cfg[C_N]
    n_choices = choices.shape[0]
    group = deals_per_batch(n_choices)
    size = group * n_choices
    checks_only = D.nobody_bets(cfg, kinds, n)
    hilo_declares = cfg[C_HILO] != 0
    force = cfg[C_FORCE]
    pub_ = np.empty((size, V.PUB_SIZE), dtype=np.int32)
    owns_ = np.empty((size, n, V.OWN_SIZE), dtype=np.int32)
    states_ = np.empty((size, STATES_ROWS, 1), dtype=np.uint64)
    dec_ = np.empty((size, n, DEC_SIZE), dtype=np.int64)
    seat_res_ = np.empty((size, n, SEAT_RES_SIZE), dtype=np.int64)
    res_ = np.zeros((size, RES_SIZE), dtype=np.int64)
    opener_ = np.empty((size, MAX_ROUNDS), dtype=np.int64)
    alive_ = np.zeros(size, dtype=np.bool_)
    decks_ = np.empty((group, DECK_SIZE), dtype=np.int64)
    dealers_ = np.empty(group, dtype=np.int64)
    scratch_ = np.empty(DECK_SIZE, dtype=np.int64)
    available_ = np.empty(DECK_SIZE, dtype=np.int64)
    hero_net_ = np.zeros(n_choices, dtype=np.int64)
    hero_share_ = np.zeros(n_choices, dtype=np.int64)
    # borrowed (uncounted) views for the phase calls; the originals above
    # outlive every use (see the end of the body)
    pub = borrow(pub_)
    owns = borrow(owns_)
    states = borrow(states_)
    dec = borrow(dec_)
    seat_res = borrow(seat_res_)
    res = borrow(res_)
    opener = borrow(opener_)
    alive = borrow(alive_)
    decks = borrow(decks_)
    dealers = borrow(dealers_)
    scratch = borrow(scratch_)
    available = borrow(available_)
    hero_net = borrow(hero_net_)
    hero_share = borrow(hero_share_)
    for b in range(first_batch, stop_batch):
        stop = min((b + 1) * batch_size, n_deals)
        start = b * batch_size
        while start < stop:
            m = min(group, stop - start)
            plays = m * n_choices
            deal_phase(key, first_deal + start, plays, n_choices, cfg, fixed, known_mask, decks,
                       dealers, scratch, available, pub, owns, states, dec, seat_res, res,
                       opener, alive)  # fmt: skip
            # the plays of a deal are one play until the phase of the forced choice
            shared = n_choices > 1
            if shared:
                lead_only(plays, n_choices, alive)
            rnd = 0
            betting_phase(rnd, -1, plays, n_choices, checks_only, cfg, dealers, pub, owns, kinds,
                          params, states, cbet, dec, seat_res, res, opener, alive,
                          with_hilo, with_learned)  # fmt: skip
            if shared and force == FORCE_PASS:
                follow_lead(plays, n_choices, pub, owns, states, dec, seat_res, res, opener,
                            alive)  # fmt: skip
                shared = False
            for p in range(cfg[C_NPASSES]):
                pass_phase(p, passes[p, PASS_COUNT], passes[p, PASS_DIRECTION], plays, n_choices,
                           cfg, dealers, pub, owns, kinds, params, states, cpass, dec, choices,
                           forced_pass, res, alive, with_hilo, with_learned)  # fmt: skip
                rnd += 1
                betting_phase(rnd, -1, plays, n_choices, checks_only, cfg, dealers, pub, owns,
                              kinds, params, states, cbet, dec, seat_res, res, opener, alive,
                              with_hilo, with_learned)  # fmt: skip
            if shared and force != FORCE_DECLARE:
                follow_lead(plays, n_choices, pub, owns, states, dec, seat_res, res, opener,
                            alive)  # fmt: skip
                shared = False
            if cfg[C_DISCARD] != 0:
                discard_phase(plays, n_choices, cfg, dealers, pub, owns, kinds, params, states,
                              cdiscard, dec, choices, res, alive, with_hilo,
                              with_learned)  # fmt: skip
                if cfg[C_REVEAL] != 0:
                    for r in range(4):
                        rnd += 1
                        betting_phase(rnd, r, plays, n_choices, checks_only, cfg, dealers, pub,
                                      owns, kinds, params, states, cbet, dec, seat_res, res,
                                      opener, alive, with_hilo, with_learned)  # fmt: skip
            if shared:
                follow_lead(plays, n_choices, pub, owns, states, dec, seat_res, res, opener,
                            alive)  # fmt: skip
            if with_hilo is not None:
                if hilo_declares:
                    declare_phase(plays, n_choices, cfg, dealers, kinds, params, choices, pub,
                                  owns, states, seat_res, res, alive)  # fmt: skip
            settle_phase(b, start, plays, n_choices, cfg, dealers, decks, pub, owns, dec,
                         seat_res, res, opener, alive, hero_net, hero_share, acc_seat, acc_cat,
                         acc_fold, acc_open, acc_deal, acc_cross, rec_deck, rec_dealer, rec_res,
                         rec_seat, rec_own, with_hilo, with_learned)  # fmt: skip
            start += m
    # the scratch arrays stay alive until here (their borrowed views are not counted)
    keep(pub_, owns_, states_, dec_, seat_res_, res_)
    keep(opener_, alive_, decks_, dealers_, scratch_, available_)
    keep(hero_net_, hero_share_, hero_net_, hero_net_, hero_net_, hero_net_)


#: the types of the per-play arrays :func:`run_batches` makes (and of the
#: reveal kernel's, which are the same): ``pub``, ``owns``, ``states``,
#: ``dec``, ``seat_res``, ``res``, ``opener``, ``alive``
PLAY_TYPES = (
    c_array(types.int32, 2), c_array(types.int32, 3), c_array(types.uint64, 3),
    c_array(types.int64, 3), c_array(types.int64, 3), c_array(types.int64, 2),
    c_array(types.int64, 2), c_array(types.boolean, 1),
)  # fmt: skip
#: rough compile seconds of each phase kernel (how they are spread over
#: cores), the built-in decisions excluded (they are jobs of their own:
#: :func:`~anaconda_sim.strategies.dispatch.decision_jobs`)
COMPILE_WEIGHTS = {
    "betting_phase": 3.5, "discard_phase": 1.5, "pass_phase": 1.2, "settle_phase": 2.0,
    "declare_phase": 2.0, "deal_phase": 1.4, "follow_lead": 0.3, "lead_only": 0.05,
}  # fmt: skip


def phase_jobs(args: tuple[Any, ...]) -> list[tuple[Any, tuple[Any, ...], float]]:
    """The phase kernels :func:`run_batches` calls for its arguments ``args``
    (as the driver passes them), each with the argument types it is called
    with: what :func:`anaconda_sim.warmup.compile_on_all_cores` compiles in
    worker processes before the first call."""
    t = [argument_type(a) for a in args]
    (_, _, key, first_deal, _, _, cfg, _, kinds, params, fixed, known_mask, choices,
     forced_pass, acc_seat, acc_cat, acc_fold, acc_open, acc_deal, acc_cross, rec_deck,
     rec_dealer, rec_res, rec_seat, rec_own, cbet, cpass, cdiscard, with_hilo,
     with_learned) = t  # fmt: skip
    i64, boolean = types.int64, types.boolean
    pub, owns, states, dec, seat_res, res, opener, alive = PLAY_TYPES
    ints1, ints2 = c_array(types.int64, 1), c_array(types.int64, 2)
    signatures = {
        "deal_phase": (key, first_deal, i64, i64, cfg, fixed, known_mask, ints2, ints1, ints1,
                       ints1, pub, owns, states, dec, seat_res, res, opener, alive),
        "lead_only": (i64, i64, alive),
        "betting_phase": (i64, i64, i64, i64, boolean, cfg, ints1, pub, owns, kinds, params,
                          states, cbet, dec, seat_res, res, opener, alive, with_hilo,
                          with_learned),
        "follow_lead": (i64, i64, pub, owns, states, dec, seat_res, res, opener, alive),
        "pass_phase": (i64, i64, i64, i64, i64, cfg, ints1, pub, owns, kinds, params, states,
                       cpass, dec, choices, forced_pass, res, alive, with_hilo, with_learned),
        "discard_phase": (i64, i64, cfg, ints1, pub, owns, kinds, params, states, cdiscard, dec,
                          choices, res, alive, with_hilo, with_learned),
        "settle_phase": (i64, i64, i64, i64, cfg, ints1, ints2, pub, owns, dec, seat_res, res,
                         opener, alive, ints1, ints1, acc_seat, acc_cat, acc_fold, acc_open,
                         acc_deal, acc_cross, rec_deck, rec_dealer, rec_res, rec_seat, rec_own,
                         with_hilo, with_learned),
    }  # fmt: skip
    if args[-2] is not None:  # with_hilo: the declaration is compiled in
        signatures["declare_phase"] = (i64, i64, cfg, ints1, kinds, params, choices, pub, owns,
                                       states, seat_res, res, alive)  # fmt: skip
    return [(globals()[name], sig, COMPILE_WEIGHTS[name]) for name, sig in signatures.items()]


def batch_runner(args: tuple[Any, ...]) -> tuple[Any, tuple[Any, ...]]:
    """:func:`run_batches` compiled for the arguments ``args`` (its own, from
    ``first_batch``) with the phase kernels as function pointers, and the
    arguments to call it with after ``first_batch, stop_batch``: ``args``
    without the chunk bounds, then the phases (``None`` for a phase the table
    does not play). The phases missing from the cache compile first, on
    every core (:func:`~anaconda_sim.warmup.linked_driver`)."""
    return linked_driver(run_batches, args[2:], phase_jobs(args), "the deal kernels",
                         also=decision_jobs(args[-2], args[-1]))  # fmt: skip
