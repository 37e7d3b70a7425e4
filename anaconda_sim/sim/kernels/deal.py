"""Kernels of the batch simulator (private; the public layer is :mod:`anaconda_sim.sim.simulator`).

The phases of one deal (start, betting rounds, passes, discard and reveal
order, reveals, declaration, showdown, sums), each on one deal's arrays with
the same ``pub``/``own`` views, the same strategy functions and the same
random streams as the reference engine (:mod:`anaconda_sim.game.engine`), so
the two agree deal by deal. The batch-major phase kernels of
:mod:`~anaconda_sim.sim.kernels.batch` inline them in loops over a batch of
plays; the spot kernels (:mod:`~anaconda_sim.sim.kernels.spot`) play a deal
on from a spot with them.

Nothing here validates its input: the public layer does.
"""

from __future__ import annotations

import numpy as np
from numba import types

from ..._numba import jit
from ...hands.evaluator import eval5, eval7, exposed_value_at, value_category
from ...hands.hilo import SWING_FAILED, WON_HIGH, WON_LOW, split_hilo_seats
from ...limits import DISCARD_SIZE, HAND_SIZE, KEPT_SIZE
from ...rng import STREAM_DECK, STREAM_SEAT, card_bit, deal_cards_into, stream_state
from ...stats import SHARE_SCALE
from ...strategies.common import intent_to_action
from ...strategies.declare import builtin_declare_at
from ...strategies.dispatch import (
    bets_passively,
    declares_as,
    forget_cards,
    forget_shown,
    kept_five,
    seat_bet,
    seat_discard,
    seat_pass,
)
from ...strategies.hilo import low_hand_value
from ...table import views as V
from ..layout import (
    AD_DEALS,
    AD_MISSED,
    AD_POT,
    AD_POT_SQ,
    AD_SHOWDOWNS,
    AS_DECLARE,
    AS_HIGH_SHARE,
    AS_HIGH_WINS,
    AS_LOW_SHARE,
    AS_LOW_WINS,
    AS_NET,
    AS_NET_SQ,
    AS_SHARE,
    AS_SHOWDOWNS,
    AS_SOLE_WINS,
    AS_SPLIT_WINS,
    AS_SWING_FAILED,
    AX_NET,
    AX_SHARE,
    C_ANTE,
    C_BET,
    C_BETTING,
    C_DISCARD,
    C_FORCE,
    C_HAS_CDISCARD,
    C_HAS_CPASS,
    C_HERO,
    C_HILO,
    C_MAX_LEVEL,
    C_N,
    C_NROUNDS,
    C_PARAM_ROW,
    C_RANDOM_CARDS,
    C_REVEAL,
    DEC_CACHE,
    DEC_CACHE_END,
    DEC_OUT,
    DEC_VALUE,
    FORCE_DECLARE,
    FORCE_DISCARD,
    FORCE_ORDER,
    FORCE_ORDER_DECLARE,
    FORCE_PASS,
    MAX_ROUNDS,
    R_MISSED,
    R_POT,
    R_ROUNDS,
    R_SHOWDOWN,
    R_WINNERS,
    REC_LOG,
    REC_LOG_LEN,
    RES_SIZE,
    S_CAT,
    S_DECLARE,
    S_FLAGS,
    S_FOLD,
    S_HIGH_SHARE,
    S_LOW_SHARE,
    S_LOW_VALUE,
    S_NET,
    S_SHARE,
    S_VALUE,
    SEAT_RES_SIZE,
)  # fmt: skip

#: C signatures of user strategy functions inside the kernel (first-class
#: function arguments): ``bet(pub, own, params, rng) -> intent`` and
#: ``pass_cards/discard(pub, own, params, rng, out)``. The kernel is compiled
#: once for these types, whatever the user functions are.
_I32 = types.int32[::1]
BET_SIGNATURE = types.int64(_I32, _I32, types.float64[::1], types.uint64[::1])
CARDS_SIGNATURE = types.void(_I32, _I32, types.float64[::1], types.uint64[::1], types.int64[::1])


@jit
def make_deck(key, deal, cfg, fixed, known_mask, dealer, deck, scratch, available, state):
    """The deal order of deal ``deal``: fixed cards in their seats' slots, the
    rest drawn from stream 0 of the deal (R5 order: ``deck[k]`` goes to seat
    ``(dealer + 1 + k) mod n``, slot ``k // n``)."""
    n = cfg[C_N]
    state[0] = stream_state(key, deal, STREAM_DECK)
    if cfg[C_RANDOM_CARDS] == HAND_SIZE * n:
        # no fixed card: the k-th card drawn is deck[k], so draw into the deck
        deal_cards_into(state, known_mask, HAND_SIZE * n, deck, available)
        return
    deal_cards_into(state, known_mask, cfg[C_RANDOM_CARDS], scratch, available)
    pos = 0
    k = 0
    for slot in range(HAND_SIZE):
        for i in range(n):
            seat = seat_after(dealer, i, n)
            card = fixed[seat, slot]
            if card >= 0:
                deck[k] = card
            else:
                deck[k] = scratch[pos]
                pos += 1
            k += 1


@jit(inline="always")
def seat_after(dealer, i, n):
    """``(dealer + 1 + i) % n`` for ``0 <= dealer, i < n``, without a division."""
    seat = dealer + 1 + i
    return seat - n if seat >= n else seat


@jit(inline="always")
def _next_active(pub, n, seat, direction):
    other = seat
    for _ in range(n):
        other += direction
        if other >= n:
            other -= n
        elif other < 0:
            other += n
        if pub[V.P_FOLDED + other] == 0:
            return other
    return -1  # pragma: no cover


@jit(inline="always")
def _holds(own, card):
    for i in range(own[V.O_NCARDS]):
        if own[V.O_CARDS + i] == card:
            return True
    return False


#: the betting-log encoding of :func:`anaconda_sim.table.views.log_entry`, compiled
log_entry = jit(inline="always")(V.log_entry)
@jit(inline="always")
def append_log(pub, entry):
    """Log ``entry`` after the betting log's last."""
    length = pub[V.P_LOG_LEN]
    pub[V.P_LOG + length] = entry
    pub[V.P_LOG_LEN] = length + 1


@jit(inline="always")
def _forget_strengths(n, dec):
    for seat in range(n):
        forget_cards(dec[seat, DEC_CACHE:DEC_CACHE_END])


@jit(inline="always")
def _close_round(pub, n):
    """Clear the public table's round state once a betting round is over (no
    round, no bet level, nobody to act, no opener, nobody in the round)."""
    pub[V.P_ROUND] = -1
    pub[V.P_LEVEL] = 0
    pub[V.P_TO_ACT] = -1
    pub[V.P_OPENER] = -1
    for s in range(n):
        pub[V.P_IN_ROUND + s] = 0


@jit(inline="always")
def seat_bet_action(
    seat, cfg, pub, owns, kinds, params, states, cbet, dec, with_hilo, with_learned
):
    """The action of seat ``seat``, to act now: its strategy's intent, made legal."""
    if cfg[C_BETTING] == 0:
        return V.A_CHECK
    kind = kinds[seat]
    if bets_passively(kind):
        # the passive intent, without the seat's views
        to_call = pub[V.P_LEVEL] * cfg[C_BET] - pub[V.P_IN_ROUND + seat]
        return V.A_CALL if to_call > 0 else V.A_CHECK
    own = owns[seat]
    intent = seat_bet(kind, pub, own, params[cfg[C_PARAM_ROW + seat]], states[STREAM_SEAT + seat],
                      cbet, dec[:, DEC_CACHE:DEC_CACHE_END], seat, with_hilo,
                      with_learned)  # fmt: skip
    return intent_to_action(pub, own, intent)


@jit(inline="always")
def apply_bet_action(rnd, seat, action, pending, bet, pub, seat_res):
    """Seat ``seat``'s ``action`` into the public table and the log (R13-R16);
    returns how many seats must still act in the round."""
    if action == V.A_FOLD:
        pub[V.P_FOLDED + seat] = 1
        pub[V.P_ACTIVE] -= 1
        seat_res[seat, S_FOLD] = rnd
        pending -= 1
    elif action == V.A_CHECK or action == V.A_CALL:
        amount = pub[V.P_LEVEL] * bet - pub[V.P_IN_ROUND + seat]
        pub[V.P_IN_ROUND + seat] += amount
        pub[V.P_INVESTED + seat] += amount
        pub[V.P_POT] += amount
        pending -= 1
    else:  # bet or raise
        pub[V.P_LEVEL] += 1
        amount = pub[V.P_LEVEL] * bet - pub[V.P_IN_ROUND + seat]
        pub[V.P_IN_ROUND + seat] += amount
        pub[V.P_INVESTED + seat] += amount
        pub[V.P_POT] += amount
        pending = pub[V.P_ACTIVE] - 1
    append_log(pub, log_entry(rnd, seat, action))
    return pending


@jit(inline="always")
def betting_loop(
    rnd, seat, pending, cfg, pub, owns, kinds, params, states, cbet, dec, seat_res,
    with_hilo, with_learned,
):  # fmt: skip
    """The rest of betting round ``rnd`` from seat ``seat``, to act, with
    ``pending`` seats still to act (R13-R17). Returns True if the deal ended
    (one seat left)."""
    n = cfg[C_N]
    bet = cfg[C_BET]
    ended = False
    while True:
        pub[V.P_TO_ACT] = seat
        action = seat_bet_action(seat, cfg, pub, owns, kinds, params, states, cbet, dec,
                                 with_hilo, with_learned)  # fmt: skip
        pending = apply_bet_action(rnd, seat, action, pending, bet, pub, seat_res)
        if pub[V.P_ACTIVE] == 1:
            ended = True
            break
        if pending == 0:
            break
        seat = _next_active(pub, n, seat, 1)
    _close_round(pub, n)
    return ended


@jit
def _betting_round(
    rnd, opener, cfg, pub, owns, kinds, params, states, cbet, dec, seat_res, res,
    with_hilo, with_learned
):
    """One betting round (R13-R17). Returns True if the deal ended (one seat left)."""
    n = cfg[C_N]
    pub[V.P_ROUND] = rnd
    pub[V.P_LEVEL] = 0
    pub[V.P_OPENER] = opener
    for s in range(n):
        pub[V.P_IN_ROUND + s] = 0
    res[R_ROUNDS] = rnd + 1
    return betting_loop(rnd, opener, pub[V.P_ACTIVE], cfg, pub, owns, kinds, params, states,
                        cbet, dec, seat_res, with_hilo, with_learned)  # fmt: skip


@jit(inline="always")
def nobody_bets(cfg, kinds, n):
    """True when no seat can bet, raise or fold in any round: betting is off,
    or every seat plays ``"call-down"`` or ``"random-pass"`` (whose intent is
    always passive, so nobody ever faces a bet and every action is a check)."""
    if cfg[C_BETTING] == 0:
        return True
    for seat in range(n):
        if not bets_passively(kinds[seat]):
            return False
    return True


@jit
def _checked_round(rnd, opener, n, pub, res):
    """:func:`_betting_round` when :func:`nobody_bets`: every active seat
    checks once, from ``opener`` clockwise; the log, the round count and the
    public table end as that function leaves them (nothing goes into the
    pot). Returns True if the deal ended (one seat left).

    The deal kernels call this one instead when nobody can bet: with five
    arguments rather than twelve arrays, and no decisions, a round costs a
    few nanoseconds, not a call of the full betting loop."""
    res[R_ROUNDS] = rnd + 1
    active = pub[V.P_ACTIVE]
    seat = opener
    for k in range(active):
        append_log(pub, log_entry(rnd, seat, V.A_CHECK))
        if k + 1 < active:
            seat = _next_active(pub, n, seat, 1)
    _close_round(pub, n)
    return active == 1


@jit(inline="always")
def _first_active_left_of_dealer(pub, n, dealer):
    return _next_active(pub, n, dealer, 1)


@jit(inline="always")
def start_pass(p, count, direction, pub):
    """The public table during pass ``p`` (R7): how many cards, which way."""
    pub[V.P_PASS_COUNT] = count
    pub[V.P_PASS_DIR] = direction
    pub[V.P_PASS_INDEX] = p


@jit(inline="always")
def decide_pass(
    p, count, seat, cfg, pub, owns, kinds, params, states, cpass, dec, force_row, forced_pass,
    res, with_hilo, with_learned,
):  # fmt: skip
    """Seat ``seat``'s packet of pass ``p``, into ``dec[seat, DEC_OUT:]``: the
    hero's forced choice when it holds those cards, a forced packet of
    ``forced_pass``, else its strategy's choice (on its own stream)."""
    hero = cfg[C_HERO]
    own = owns[seat]
    out = dec[seat]
    done = False
    if p == 0:
        if seat == hero and cfg[C_FORCE] == FORCE_PASS:
            ok = True
            for j in range(count):
                if not _holds(own, force_row[j]):
                    ok = False
            if ok:
                for j in range(count):
                    out[j] = force_row[j]
                done = True
            else:
                res[R_MISSED] = 1
        elif forced_pass[seat, 0] >= 0:
            ok = True
            for j in range(count):
                if not _holds(own, forced_pass[seat, j]):
                    ok = False
            if ok:
                for j in range(count):
                    out[j] = forced_pass[seat, j]
                done = True
    if not done:
        seat_pass(kinds[seat], pub, own, params[cfg[C_PARAM_ROW + seat]],
                  states[STREAM_SEAT + seat], out, dec[seat, DEC_CACHE:DEC_CACHE_END], cpass,
                  cfg[C_HAS_CPASS] != 0, with_hilo, with_learned)  # fmt: skip


@jit(inline="always")
def move_packets(p, count, direction, n, pub, owns, dec):
    """All packets of pass ``p`` move at once to the next active seat in the
    pass direction (R7); the public table leaves the pass."""
    # move the packets: seat s keeps its unpassed cards (in order), then
    # receives its source's packet (the source is the next active seat
    # against the pass direction). Indexing the 2-D arrays directly (no
    # per-seat row views) keeps these loops free of reference-count calls.
    for seat in range(n):
        if pub[V.P_FOLDED + seat] != 0:
            continue
        given = np.uint64(0)
        npassed = owns[seat, V.O_NPASSED]
        for j in range(count):
            card = dec[seat, DEC_OUT + j]
            given |= card_bit(card)
            owns[seat, V.O_PASSED + npassed + j] = card
        owns[seat, V.O_NPASSED] = npassed + count
        # the kept cards close up in place (k <= i), without a branch
        k = 0
        for i in range(HAND_SIZE):
            card = owns[seat, V.O_CARDS + i]
            owns[seat, V.O_CARDS + k] = card
            k += 1 if (given & card_bit(card)) == np.uint64(0) else 0
    kept = HAND_SIZE - count
    for seat in range(n):
        if pub[V.P_FOLDED + seat] != 0:
            continue
        source = _next_active(pub, n, seat, -direction)
        nrec = owns[seat, V.O_NRECEIVED]
        for j in range(count):
            card = dec[source, DEC_OUT + j]
            owns[seat, V.O_CARDS + kept + j] = card
            owns[seat, V.O_RECEIVED + nrec + j] = card
        owns[seat, V.O_NRECEIVED] = nrec + count
    pub[V.P_PASS_COUNT] = 0
    pub[V.P_PASS_DIR] = 0
    pub[V.P_PASS_INDEX] = 0
    pub[V.P_STAGE] = p + 1
    _forget_strengths(n, dec)


@jit
def _pass_phase(
    p, count, direction, cfg, dealer, pub, owns, kinds, params, states, cpass, dec,
    force_row, forced_pass, res, with_hilo, with_learned,
):  # fmt: skip
    """Pass ``p`` of the schedule (R7): every active seat commits, then all
    packets move at once to the next active seat in the pass direction."""
    n = cfg[C_N]
    start_pass(p, count, direction, pub)
    for i in range(n):
        seat = seat_after(dealer, i, n)
        if pub[V.P_FOLDED + seat] == 0:
            decide_pass(p, count, seat, cfg, pub, owns, kinds, params, states, cpass, dec,
                        force_row, forced_pass, res, with_hilo, with_learned)  # fmt: skip
    move_packets(p, count, direction, n, pub, owns, dec)


@jit(inline="always")
def decide_discard(
    seat, cfg, pub, owns, kinds, params, states, cdiscard, dec, force_row, res,
    with_hilo, with_learned,
):  # fmt: skip
    """Seat ``seat``'s two discards and reveal order (R8), into ``dec[seat]``:
    the hero's forced choice when it holds those cards, else its strategy's
    (on its own stream)."""
    hero = cfg[C_HERO]
    force = cfg[C_FORCE]
    own = owns[seat]
    out = dec[seat]
    done = False
    if seat == hero and force == FORCE_DISCARD:
        ok = True
        for j in range(HAND_SIZE):
            if not _holds(own, force_row[j]):
                ok = False
        if ok:
            for j in range(HAND_SIZE):
                out[j] = force_row[j]
            done = True
        else:
            res[R_MISSED] = 1
    elif seat == hero and (force == FORCE_ORDER or force == FORCE_ORDER_DECLARE):
        ok = True
        for j in range(KEPT_SIZE):
            if not _holds(own, force_row[j]):
                ok = False
        if ok:
            k = 0
            for c in range(own[V.O_NCARDS]):
                card = own[V.O_CARDS + c]
                inside = False
                for j in range(KEPT_SIZE):
                    if force_row[j] == card:
                        inside = True
                if not inside and k < DISCARD_SIZE:
                    out[V.OUT_DISCARDS + k] = card
                    k += 1
            for j in range(KEPT_SIZE):
                out[V.OUT_FIVE + j] = force_row[j]
            done = True
        else:
            res[R_MISSED] = 1
    value = np.int64(-1)
    if not done:
        value = seat_discard(kinds[seat], pub, own, params[cfg[C_PARAM_ROW + seat]],
                             states[STREAM_SEAT + seat], out, dec[seat, DEC_CACHE:DEC_CACHE_END],
                             cdiscard, cfg[C_HAS_CDISCARD] != 0, with_hilo,
                             with_learned)  # fmt: skip
    # written after the decision (a custom one may write anywhere in its row)
    dec[seat, DEC_VALUE] = value


@jit(inline="always")
def apply_discard(seat, owns, dec):
    """Seat ``seat`` keeps the five of its decision, in reveal order (R8)."""
    owns[seat, V.O_DISCARDS] = dec[seat, DEC_OUT + V.OUT_DISCARDS]
    owns[seat, V.O_DISCARDS + 1] = dec[seat, DEC_OUT + V.OUT_DISCARDS + 1]
    for j in range(KEPT_SIZE):
        owns[seat, V.O_CARDS + j] = dec[seat, DEC_OUT + V.OUT_FIVE + j]
    for j in range(KEPT_SIZE, HAND_SIZE):
        owns[seat, V.O_CARDS + j] = -1
    owns[seat, V.O_NCARDS] = KEPT_SIZE


@jit
def discard_phase(
    cfg, dealer, pub, owns, kinds, params, states, cdiscard, dec, force_row, res,
    with_hilo, with_learned
):
    """R8: every active seat discards two and orders its kept five."""
    n = cfg[C_N]
    for i in range(n):
        seat = seat_after(dealer, i, n)
        if pub[V.P_FOLDED + seat] == 0:
            decide_discard(seat, cfg, pub, owns, kinds, params, states, cdiscard, dec, force_row,
                           res, with_hilo, with_learned)  # fmt: skip
    for seat in range(n):
        if pub[V.P_FOLDED + seat] == 0:
            apply_discard(seat, owns, dec)
    # what each seat holds changed: its cached strength goes, or is read off
    # the value its discard found
    for seat in range(n):
        kept_five(kinds[seat], pub, dec[seat, DEC_CACHE:DEC_CACHE_END], dec[seat, DEC_VALUE],
                  with_learned)  # fmt: skip


@jit(inline="always")
def _reveal_opener(pub, n, dealer, revealed):
    """R11/R12: strongest exposed cards open; ties go to the first seat
    clockwise after the dealer."""
    best_seat = -1
    best_value = np.int64(-1)
    for i in range(n):
        seat = seat_after(dealer, i, n)
        if pub[V.P_FOLDED + seat] != 0:
            continue
        value = exposed_value_at(pub, V.P_EXPOSED + 4 * seat, revealed)
        if value > best_value:
            best_value = value
            best_seat = seat
    return best_seat


@jit(inline="always")
def _final_value(owns, seat):
    """The high value of seat ``seat``'s held cards (read from the 2-D ``owns``
    itself: a row view would cost a reference-count call on the hot path)."""
    b = V.O_CARDS
    if owns[seat, V.O_NCARDS] == KEPT_SIZE:
        return np.int64(eval5(
            np.int64(owns[seat, b]), np.int64(owns[seat, b + 1]), np.int64(owns[seat, b + 2]),
            np.int64(owns[seat, b + 3]), np.int64(owns[seat, b + 4]),
        ))  # fmt: skip
    return np.int64(eval7(
        np.int64(owns[seat, b]), np.int64(owns[seat, b + 1]), np.int64(owns[seat, b + 2]),
        np.int64(owns[seat, b + 3]), np.int64(owns[seat, b + 4]), np.int64(owns[seat, b + 5]),
        np.int64(owns[seat, b + 6]),
    ))  # fmt: skip


@jit(inline="always")
def pub_at_deal(cfg, dealer, pub):
    """The public table right after the antes (R3): no card shown, no bet."""
    n = cfg[C_N]
    ante = cfg[C_ANTE]
    pub[:] = 0
    for j in range(28):
        pub[V.P_EXPOSED + j] = -1
    pub[V.P_PLAYERS] = n
    pub[V.P_DEALER] = dealer
    pub[V.P_ROUND] = -1
    pub[V.P_NROUNDS] = cfg[C_NROUNDS]
    pub[V.P_POT] = n * ante
    pub[V.P_MAX_LEVEL] = cfg[C_MAX_LEVEL]
    pub[V.P_BET_SIZE] = cfg[C_BET]
    pub[V.P_TO_ACT] = -1
    pub[V.P_OPENER] = -1
    pub[V.P_ACTIVE] = n
    pub[V.P_FIVE_CARD] = cfg[C_DISCARD]
    pub[V.P_HILO] = cfg[C_HILO]
    for seat in range(n):
        pub[V.P_INVESTED + seat] = ante


@jit(inline="always")
def reset_results(n, seat_res, res, opener, rounds_started):
    """Empty results before a deal is played (from its start, or from a later
    point after ``rounds_started`` betting rounds): nobody folded, won or
    showed down; no forced choice missed; no round opened."""
    for seat in range(n):
        seat_res[seat, S_NET] = 0
        seat_res[seat, S_FOLD] = -1
        seat_res[seat, S_SHARE] = 0
        seat_res[seat, S_CAT] = -1
        seat_res[seat, S_VALUE] = -1
        seat_res[seat, S_DECLARE] = -1
        seat_res[seat, S_HIGH_SHARE] = 0
        seat_res[seat, S_LOW_SHARE] = 0
        seat_res[seat, S_LOW_VALUE] = -1
        seat_res[seat, S_FLAGS] = 0
    res[R_MISSED] = 0
    res[R_ROUNDS] = rounds_started
    for r in range(MAX_ROUNDS):
        opener[r] = -1


@jit(inline="always")
def start_deal(key, deal, dealer, cfg, deck, pub, owns, states, dec, seat_res, res, opener):
    """The table right after the deal (R3-R5): what the engine's
    ``_fill_pub``/``_fill_own`` give, every seat's decision stream started,
    the results empty."""
    n = cfg[C_N]
    pub_at_deal(cfg, dealer, pub)
    for seat in range(n):
        for j in range(V.OWN_SIZE):
            owns[seat, j] = -1
        owns[seat, V.O_SEAT] = seat
        owns[seat, V.O_NCARDS] = HAND_SIZE
        owns[seat, V.O_NPASSED] = 0
        owns[seat, V.O_NRECEIVED] = 0
        dec[seat, DEC_VALUE] = -1
        forget_shown(dec[seat, DEC_CACHE:DEC_CACHE_END])
        states[STREAM_SEAT + seat, 0] = stream_state(key, deal, STREAM_SEAT + seat)
    k = 0
    for slot in range(HAND_SIZE):
        for i in range(n):
            owns[seat_after(dealer, i, n), V.O_CARDS + slot] = deck[k]
            k += 1
    reset_results(n, seat_res, res, opener, 0)
    _forget_strengths(n, dec)


@jit
def play_from_discard(
    rnd, dealer, cfg, kinds, params, force_row, pub, owns, states, dec, seat_res, res, opener,
    cbet, cdiscard, with_hilo, with_learned,
):  # fmt: skip
    """The discard (R8) and, with progressive reveal, the four reveals and
    their betting rounds (R9, R11, R12), after betting round ``rnd``.

    Returns True if the deal ended early (R17). Also the entry point of
    analyses that start a deal at the discard with known hands.
    """
    discard_phase(cfg, dealer, pub, owns, kinds, params, states, cdiscard, dec, force_row, res,
                   with_hilo, with_learned)  # fmt: skip
    if cfg[C_REVEAL] == 0:
        return False
    return play_reveals(rnd, dealer, cfg, kinds, params, pub, owns, states, dec, seat_res, res,
                        opener, cbet, with_hilo, with_learned)  # fmt: skip


@jit
def play_reveals(
    rnd, dealer, cfg, kinds, params, pub, owns, states, dec, seat_res, res, opener, cbet,
    with_hilo, with_learned,
):  # fmt: skip
    """The four reveals and their betting rounds (R9, R11, R12) after the
    discard, which followed betting round ``rnd``. Returns True if the deal
    ended early (R17)."""
    n = cfg[C_N]
    checks_only = nobody_bets(cfg, kinds, n)
    # from the reveals already made: none after the discard, some when a spot resumes
    for r in range(pub[V.P_REVEALED], 4):
        for i in range(n):
            seat = seat_after(dealer, i, n)
            if pub[V.P_FOLDED + seat] == 0:
                pub[V.P_EXPOSED + 4 * seat + r] = owns[seat, V.O_CARDS + r]
        pub[V.P_REVEALED] = r + 1
        pub[V.P_STAGE] = V.STAGE_REVEAL + r + 1
        rnd += 1
        opener[rnd] = _reveal_opener(pub, n, dealer, r + 1)
        if checks_only:
            if _checked_round(rnd, opener[rnd], n, pub, res):
                return True
        elif _betting_round(rnd, opener[rnd], cfg, pub, owns, kinds, params, states, cbet, dec,
                            seat_res, res, with_hilo, with_learned):  # fmt: skip
            return True
    return False


@jit(inline="always")
def _value_final_cards(owns, seat_res, seat):
    """The high value and category and the low value of a seat's final
    cards, into ``S_VALUE``, ``S_CAT`` and ``S_LOW_VALUE``."""
    value = _final_value(owns, seat)
    seat_res[seat, S_VALUE] = value
    seat_res[seat, S_CAT] = value_category(value)
    seat_res[seat, S_LOW_VALUE] = np.int64(low_hand_value(owns[seat]))


@jit
def declare_phase(dealer, cfg, kinds, params, force_row, pub, owns, states, seat_res, res):
    """The hi-lo declaration (R22) after the last betting round: every active
    seat declares (into ``seat_res[seat, S_DECLARE]``) seeing nobody else's,
    with its built-in's :func:`~anaconda_sim.strategies.builtin_declare` (a
    custom strategy declares as ``"sensible"``, as in the reference engine)
    on its own stream; then every declaration is public (``P_DECLARED``).
    The hero's declaration is ``force_row[0]`` when it is forced
    (``FORCE_DECLARE``), ``force_row[5]`` after its forced reveal order
    (``FORCE_ORDER_DECLARE``).

    Every active seat's final cards are valued here, once, for its
    declaration and for the showdown (``S_VALUE``, ``S_CAT``, ``S_LOW_VALUE``;
    :func:`_settle_hilo` reads them)."""
    n = cfg[C_N]
    hero = cfg[C_HERO]
    pub[V.P_DECLARING] = 1
    for i in range(n):
        seat = seat_after(dealer, i, n)
        if pub[V.P_FOLDED + seat] != 0:
            continue
        _value_final_cards(owns, seat_res, seat)
        if seat == hero and cfg[C_FORCE] == FORCE_DECLARE:
            seat_res[seat, S_DECLARE] = force_row[0]
            continue
        if seat == hero and cfg[C_FORCE] == FORCE_ORDER_DECLARE:
            seat_res[seat, S_DECLARE] = force_row[5]
            continue
        kind = declares_as(kinds[seat])
        # builtin_declare, on the values just computed
        seat_res[seat, S_DECLARE] = builtin_declare_at(
            kind, states[STREAM_SEAT + seat], seat_res[seat, S_CAT], seat_res[seat, S_LOW_VALUE]
        )
    packed = 0
    for seat in range(n):
        if pub[V.P_FOLDED + seat] == 0:
            packed += (seat_res[seat, S_DECLARE] + 1) << (2 * seat)
    pub[V.P_DECLARED] = packed
    pub[V.P_DECLARING] = 0


@jit
def _settle_hilo(dealer, cfg, pub, owns, seat_res, pot):
    """R23-R25: high and low values (those of :func:`declare_phase`),
    :func:`~anaconda_sim.hands.hilo.split_hilo_seats` on the columns of
    ``seat_res``, chips into ``S_NET`` and shares into
    ``S_HIGH_SHARE``/``S_LOW_SHARE``/``S_SHARE``; nothing allocated.

    A half's share is ``SHARE_SCALE // 2`` (the whole ``SHARE_SCALE`` when
    only one half is won) split evenly among its tied winners, odd chips
    ignored, as for the high showdown; ``SHARE_SCALE`` is even and a multiple
    of 1..7, so every share is whole. Returns the winners' bit mask (seats
    taking chips).
    """
    n = cfg[C_N]
    active = 0
    for seat in range(n):
        if pub[V.P_FOLDED + seat] == 0:
            active |= 1 << seat
            if seat_res[seat, S_LOW_VALUE] < 0:  # not valued by declare_phase
                _value_final_cards(owns, seat_res, seat)
    # payouts into S_NET, flags into S_FLAGS
    split_hilo_seats(n, seat_res[:, S_VALUE], seat_res[:, S_LOW_VALUE], seat_res[:, S_DECLARE],
                     active, dealer, pot, seat_res[:, S_NET], seat_res[:, S_FLAGS])  # fmt: skip
    high_winners = 0
    low_winners = 0
    for seat in range(n):
        if seat_res[seat, S_FLAGS] & WON_HIGH:
            high_winners += 1
        if seat_res[seat, S_FLAGS] & WON_LOW:
            low_winners += 1
    half = SHARE_SCALE // 2 if high_winners > 0 and low_winners > 0 else SHARE_SCALE
    winners = 0
    for seat in range(n):
        f = seat_res[seat, S_FLAGS]
        if seat_res[seat, S_NET] > 0:
            winners |= 1 << seat
        high_share = half // high_winners if f & WON_HIGH else 0
        low_share = half // low_winners if f & WON_LOW else 0
        seat_res[seat, S_HIGH_SHARE] = high_share
        seat_res[seat, S_LOW_SHARE] = low_share
        seat_res[seat, S_SHARE] = high_share + low_share
    return winners


@jit
def _settle_high(dealer, n, pub, owns, dec, seat_res, pot):
    """R10, R18-R20: the high showdown among the active seats. Chips into
    ``S_NET`` (odd chips to the first winners clockwise after the dealer),
    shares into ``S_SHARE``; returns the winners' bit mask."""
    best = np.int64(-1)
    count = 0
    for seat in range(n):
        if pub[V.P_FOLDED + seat] != 0:
            continue
        value = dec[seat, DEC_VALUE]
        if value < 0 or owns[seat, V.O_NCARDS] != KEPT_SIZE:
            value = _final_value(owns, seat)
        seat_res[seat, S_VALUE] = value
        seat_res[seat, S_CAT] = value_category(value)
        if value > best:
            best = value
            count = 1
        elif value == best:
            count += 1
    share = pot // count
    odd = pot - share * count
    winners = 0
    for i in range(n):
        seat = seat_after(dealer, i, n)
        if pub[V.P_FOLDED + seat] == 0 and seat_res[seat, S_VALUE] == best:
            winners |= 1 << seat
            seat_res[seat, S_NET] = share + (1 if odd > 0 else 0)
            seat_res[seat, S_SHARE] = SHARE_SCALE // count
            odd -= 1
    return winners


@jit
def settle(ended, dealer, cfg, pub, owns, dec, seat_res, res, with_hilo, with_learned):
    """The end of a deal: early win (R17) or showdown (R10, R18-R20; hi-lo:
    R23-R25 after :func:`declare_phase`). A seat holding the five it kept
    at the discard shows down with the value found there
    (``dec[seat, DEC_VALUE]``) when there is one."""
    n = cfg[C_N]
    pot = pub[V.P_POT]
    res[R_POT] = pot
    winners = 0
    if ended:
        res[R_SHOWDOWN] = 0
        for seat in range(n):
            if pub[V.P_FOLDED + seat] == 0:
                winners = 1 << seat
                seat_res[seat, S_NET] = pot
                seat_res[seat, S_SHARE] = SHARE_SCALE
    else:
        res[R_SHOWDOWN] = 1
        # the branch on with_hilo is decided when the kernel is compiled
        if with_hilo is None:
            winners = _settle_high(dealer, n, pub, owns, dec, seat_res, pot)
        elif cfg[C_HILO] != 0:
            winners = _settle_hilo(dealer, cfg, pub, owns, seat_res, pot)
        else:
            winners = _settle_high(dealer, n, pub, owns, dec, seat_res, pot)
    res[R_WINNERS] = winners
    for seat in range(n):
        seat_res[seat, S_NET] -= pub[V.P_INVESTED + seat]


@jit
def _record(i, k, n, pub, res, seat_res, owns, rec_res, rec_seat, rec_own):
    """Copy deal ``i``'s results for choice ``k`` into the record arrays
    (element loops: a slice assignment compiles numba's shape-mismatch error
    path, several seconds of a cold start), and its betting log when the
    result rows are wide enough to hold it (``layout.REC_RES_LOGGED``)."""
    for j in range(RES_SIZE):
        rec_res[i, k, j] = res[j]
    if rec_res.shape[2] > RES_SIZE:
        length = pub[V.P_LOG_LEN]
        rec_res[i, k, REC_LOG_LEN] = length
        for j in range(length):
            rec_res[i, k, REC_LOG + j] = pub[V.P_LOG + j]
    for s in range(n):
        for j in range(SEAT_RES_SIZE):
            rec_seat[i, k, s, j] = seat_res[s, j]
        for j in range(V.OWN_SIZE):
            rec_own[i, k, s, j] = owns[s, j]


@jit(inline="always")
def accumulate_play(b, k, n, hilo, res, seat_res, opener, acc_seat, acc_cat, acc_fold, acc_open,
                    acc_deal):  # fmt: skip
    """Add one play (choice ``k`` of a deal) into row ``b`` of the accumulators."""
    showdown = res[R_SHOWDOWN]
    for s in range(n):
        net = seat_res[s, S_NET]
        acc_seat[b, k, s, AS_NET] += net
        acc_seat[b, k, s, AS_NET_SQ] += net * net
        acc_seat[b, k, s, AS_SHARE] += seat_res[s, S_SHARE]
        if (res[R_WINNERS] >> s) & 1:
            if res[R_WINNERS] == (1 << s):
                acc_seat[b, k, s, AS_SOLE_WINS] += 1
            else:
                acc_seat[b, k, s, AS_SPLIT_WINS] += 1
        cat = seat_res[s, S_CAT]
        if cat >= 0:
            acc_seat[b, k, s, AS_SHOWDOWNS] += 1
            acc_cat[b, k, s, cat] += 1
        fold = seat_res[s, S_FOLD]
        if fold >= 0:
            acc_fold[b, k, s, fold] += 1
    if hilo:
        for s in range(n):
            acc_seat[b, k, s, AS_HIGH_SHARE] += seat_res[s, S_HIGH_SHARE]
            acc_seat[b, k, s, AS_LOW_SHARE] += seat_res[s, S_LOW_SHARE]
            flags = seat_res[s, S_FLAGS]
            if flags & WON_HIGH:
                acc_seat[b, k, s, AS_HIGH_WINS] += 1
            if flags & WON_LOW:
                acc_seat[b, k, s, AS_LOW_WINS] += 1
            if flags & SWING_FAILED:
                acc_seat[b, k, s, AS_SWING_FAILED] += 1
            declaration = seat_res[s, S_DECLARE]
            if declaration >= 0:
                acc_seat[b, k, s, AS_DECLARE + declaration] += 1
    for r in range(res[R_ROUNDS]):
        acc_open[b, k, opener[r], r] += 1
    acc_deal[b, k, AD_POT] += res[R_POT]
    acc_deal[b, k, AD_SHOWDOWNS] += showdown
    acc_deal[b, k, AD_MISSED] += res[R_MISSED]
    acc_deal[b, k, AD_DEALS] += 1
    acc_deal[b, k, AD_POT_SQ] += res[R_POT] * res[R_POT]


@jit(inline="always")
def accumulate_cross(b, n_choices, hero_net, hero_share, acc_cross):
    """Add the hero's cross-products between the choices of one deal into row
    ``b`` (the paired differences and their SEs come from these)."""
    for k in range(n_choices):
        for j in range(n_choices):
            acc_cross[b, AX_NET, k, j] += hero_net[k] * hero_net[j]
            acc_cross[b, AX_SHARE, k, j] += hero_share[k] * hero_share[j]
