"""The default field shipped for each table size
(``anaconda_sim/strategies/learned/data/field.npz``): the ``"learned"``
family as :func:`anaconda_sim.learning.learn_field` learned it whole, its
pass and card weights, its reveal order's show table and its discard's keep
table (:mod:`~.show`), its board-reading betting and the equity tables that
betting reads. The file holds each size's command, the settings and each
iteration's history (:func:`shipped_field_model`)::

    python -m anaconda_sim.learning.fieldfit --players 2,6 --iterations 20 --out field-fit
    python -m anaconda_sim.learning.fieldfit --players 3 --iterations 20 --keep-temperature 0.3 \
        --out field-fit
    python -m anaconda_sim.learning.fieldfit --players 4,5 --iterations 20 --temperature 0.5 \
        --keep-temperature 0.3 --out field-fit
    python -m anaconda_sim.learning.fieldfit --players 7 --iterations 20 --temperature 0.5 \
        --keep-temperature 0.3 --order-situations 900 --out field-fit
    python -m anaconda_sim.learning.fieldfit --ship field-fit/field.npz

(at three, four, five and seven players the discard is drawn at a
temperature: by argmax the three-player loop did not stop; at four, five
and seven the reveal order is drawn at 0.5, not 0.3: at 0.3 those fields'
orders gave away 1.7 and five times more at four and five; at seven the
order is screened on 900 situations an iteration, where on 300 its fit
followed its noise).

A table size the file does not hold plays ``"learned-v2"``'s vectors (the
board-reading betting with the card play of ``"learned-v1"``,
:func:`board_reading_sources`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ...checks import check_players
from .equitydata import shipped_equity, shipped_equity_model
from .packaged import packaged_arrays, packaged_model
from .params import BET0, PARAM_NAMES, READ_BET_NAMES, shipped_params, shipped_read_params
from .reads import EQUITY_SIZE
from .showdata import shipped_show

__all__ = ["FIELD_FILE", "FieldVectors", "board_reading_sources", "shipped_field",
           "shipped_field_model"]  # fmt: skip

#: the shipped fields, inside the package
FIELD_FILE = "data/field.npz"
#: the card play's weights a learned field fits (the pass, order and discard
#: weights of the parameter vector: everything before the win-table betting)
CARD_NAMES = PARAM_NAMES[:BET0]


@dataclasses.dataclass(frozen=True)
class FieldVectors:
    """What a board-reading strategy of one table size plays by default.

    Attributes
    ----------
    card
        The card play's weights by name (:data:`CARD_NAMES`).
    betting
        The board-reading betting's parameters by name
        (:data:`~.params.READ_BET_NAMES`).
    equity
        The flat equity tables (:data:`~.reads.EQUITY_SIZE`).
    show
        The show array (temperature, show table, keep table), or ``None``:
        the reveal order by the order weights and the discard of the best
        five.
    source
        Where they come from, for messages and ``attrs``.
    equity_model
        How the equity tables were estimated (the field, the deals, the
        seed), as their file records it.
    """

    card: dict[str, float]
    betting: dict[str, float]
    equity: np.ndarray
    show: np.ndarray | None
    source: str
    equity_model: dict[str, Any]


def _shipped() -> dict[str, np.ndarray]:
    # the iterations' histories stay in the file: nothing plays them
    return packaged_arrays(FIELD_FILE, skip="history")


def shipped_field_model(players: int) -> dict[str, Any] | None:
    """How the field of ``players`` was learned (the command, the settings,
    whether the stopping rule stopped it, each iteration's history), or
    ``None`` when no field is shipped for that size.

    Examples
    --------
    >>> model = shipped_field_model(6)
    >>> model is None or model["command"].startswith("python -m anaconda_sim.learning.fieldfit")
    True
    """
    players = check_players(players)
    data = _shipped()
    return packaged_model(data, f"model_{players}") if f"model_{players}" in data else None


def shipped_field(players: int) -> FieldVectors | None:
    """The field shipped for ``players`` (2-7), or ``None`` when the package
    holds none for that size.

    Examples
    --------
    >>> field = shipped_field(6)
    >>> field is None or field.equity.shape == (4176,)
    True
    """
    players = check_players(players)
    data = _shipped()
    if f"card_{players}" not in data:
        return None
    card, betting = data[f"card_{players}"], data[f"betting_{players}"]
    factor, curve = data[f"factor_{players}"], data[f"curve_{players}"]
    equity = np.concatenate([factor.ravel(), curve.ravel()]).astype(np.float64)
    # a field learned before the discard had a temperature keeps its best five
    keep_temperature = float(data.get(f"keep_temperature_{players}", 0.0))
    show = np.concatenate([[float(data[f"temperature_{players}"])],
                           data[f"show_{players}"].ravel(), data[f"keep_{players}"],
                           [keep_temperature]])  # fmt: skip
    if card.shape != (len(CARD_NAMES),) or betting.shape != (len(READ_BET_NAMES),) \
            or equity.shape != (EQUITY_SIZE,):  # fmt: skip
        raise ValueError(
            f"the shipped field for players={players} does not fit this version's parameters "
            f"({card.size} card weights, {betting.size} betting parameters, {equity.size} "
            "equity entries); regenerate it with python -m anaconda_sim.learning.fieldfit"
        )
    for array in (equity, show):
        array.setflags(write=False)
    return FieldVectors(dict(zip(CARD_NAMES, map(float, card), strict=True)),
                        dict(zip(READ_BET_NAMES, map(float, betting), strict=True)),
                        equity, show, f"{FIELD_FILE} (players={players})",
                        packaged_model(data, f"tables_model_{players}"))  # fmt: skip


def board_reading_sources(name: str, players: int) -> FieldVectors:
    """The vectors a board-reading built-in plays at ``players`` seats when
    its spec gives none of its own.

    ``"learned"``: the field shipped for that size (:func:`shipped_field`),
    or, where none is shipped, ``"learned-v2"``'s. ``"learned-v2"``: the
    board-reading betting fitted against the card play of ``"learned-v1"``
    (``readbet.json``, ``equity.npz``; the reveal order by the order weights
    unless a show table is shipped in ``show.npz``).

    Examples
    --------
    >>> sorted(board_reading_sources("learned-v2", 6).betting) == sorted(READ_BET_NAMES)
    True
    """
    players = check_players(players)
    if name == "learned":
        field = shipped_field(players)
        if field is not None:
            return field
    elif name != "learned-v2":
        raise ValueError(f"{name!r} is not a board-reading built-in; give 'learned' or "
                         "'learned-v2'")  # fmt: skip
    card = {k: v for k, v in shipped_params(players).items() if k in CARD_NAMES}
    return FieldVectors(card, shipped_read_params(players), shipped_equity(players),
                        shipped_show(players), "learned.json, readbet.json and equity.npz",
                        shipped_equity_model(players))  # fmt: skip
