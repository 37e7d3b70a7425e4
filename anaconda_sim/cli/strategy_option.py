"""Strategies given on the command line (``--opponents``, ``--hero``).

The parser keeps them as text; a handler parses them here, after parsing,
so a bad one is reported with the message of
:func:`anaconda_sim.strategies.parse_strategies` (it names the bad name or
parameter and lists the valid ones), not argparse's ``invalid value``.

Examples
--------
>>> parse_option_strategies("--opponents", "sensible:bluf=0.1")
Traceback (most recent call last):
...
ValueError: --opponents 'sensible:bluf=0.1': strategy 'sensible' has no parameter 'bluf'; ...
"""

from __future__ import annotations

from ..strategies.spec import Strategy, parse_strategies

__all__ = ["parse_option_strategies"]


def parse_option_strategies(option: str, text: str) -> list[Strategy]:
    """The strategies of ``option`` (e.g. ``"--opponents"``), or the strategy
    parser's own error after the option and its value."""
    try:
        return parse_strategies(text)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{option} {text!r}: {exc}") from None
