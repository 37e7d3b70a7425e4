"""History files: the format version, and clear errors for every bad file (never a bare
KeyError/TypeError); replay checks of cards (R1, R5), moves (R13-R17) and results (R18-R20)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from anaconda_sim.game.history import (
    FORMAT_VERSION,
    History,
    HistoryError,
    HistoryFormatError,
    ReplayMismatchError,
    describe_stage,
    format_history,
)
from anaconda_sim.game.play import play_deal
from anaconda_sim.game.replayer import replay, verify
from anaconda_sim.rng import MAX_DEAL_INDEX
from anaconda_sim.table.rules import Rules
from anaconda_sim.table.views import STAGE_REVEAL


@pytest.fixture(scope="module")
def showdown() -> dict[str, Any]:
    """A 3-seat deal that reaches the showdown, as :meth:`History.to_dict` writes it."""
    game = play_deal(Rules(players=3), ["call-down"] * 3, seed=4)
    assert game.result is not None and not game.result.ended_early
    return game.history.to_dict()


@pytest.fixture
def data(showdown: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(showdown)


def first(data: dict[str, Any], kind: str) -> tuple[int, dict[str, Any]]:
    return next((i, e) for i, e in enumerate(data["events"]) if e["type"] == kind)


# ------------------------------------------------------------- version --
def test_format_version_is_written_first(data: dict[str, Any]) -> None:
    assert FORMAT_VERSION == 2
    assert next(iter(data)) == "format" and data["format"] == FORMAT_VERSION
    assert json.loads(History.from_dict(data).to_json())["format"] == 2


@pytest.mark.parametrize("version", [0, 3, 99])
def test_another_version_is_refused_naming_both(data: dict[str, Any], version: int) -> None:
    data["format"] = version
    with pytest.raises(HistoryFormatError, match=f"history format {version} is not supported"
                       ) as info:  # fmt: skip
        History.from_dict(data)
    assert "reads formats 1, 2" in str(info.value)


@pytest.mark.parametrize("version", ["1", 1.0, True, None])
def test_a_version_of_the_wrong_type_is_refused(data: dict[str, Any], version: Any) -> None:
    data["format"] = version
    with pytest.raises(HistoryFormatError, match="'format' must be an integer"):
        History.from_dict(data)


def test_a_history_without_the_version_is_read_as_version_1(data: dict[str, Any]) -> None:
    # decision (module docstring): histories written before the key existed have
    # exactly the layout of format 1
    original = History.from_dict(data)
    del data["format"]
    old = verify(History.from_dict(data))
    # format 1 has no model: the keys of format 2 are not read
    assert (old.strategies, old.seed, old.key) == (None, None, None)
    original.strategies = original.seed = original.key = None
    assert old == original
    assert old.to_dict()["format"] == 2


# ------------------------------------------------------- missing keys --
@pytest.mark.parametrize("key", ["rules", "dealer", "deck", "events"])
def test_a_missing_key_is_named(data: dict[str, Any], key: str) -> None:
    del data[key]
    with pytest.raises(HistoryFormatError, match=f"history has no key '{key}'"):
        History.from_dict(data)


def test_a_missing_event_key_names_the_event_and_key(data: dict[str, Any]) -> None:
    index, action = first(data, "action")
    del action["seat"]
    with pytest.raises(HistoryFormatError,
                       match=rf"history event {index} \(action\) has no key 'seat'"):  # fmt: skip
        History.from_dict(data)


def test_every_missing_or_mistyped_value_is_a_history_error(showdown: dict[str, Any]) -> None:
    """Delete each key of each event, or set it to a string: always a HistoryError."""
    events = showdown["events"]
    for index, event in enumerate(events):
        for key in [k for k in event if k != "type"]:
            for change in ("delete", "string"):
                data = copy.deepcopy(showdown)
                if change == "delete":
                    del data["events"][index][key]
                else:
                    data["events"][index][key] = "oops"
                with pytest.raises(HistoryError) as info:
                    verify(History.from_dict(data))
                assert f"event {index}" in str(info.value), (index, key, change)


# ----------------------------------------------------------- bad types --
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(dealer="0"), "'dealer' must be an integer, not str"),
        (lambda d: d.update(dealer=3), "'dealer' is 3; it must be 0..2"),
        (lambda d: d["deck"].__setitem__(2, "Kc"), r"'deck'\[2\] must be an integer"),
        (lambda d: d["deck"].__setitem__(2, 52), r"'deck'\[2\] is 52; it must be 0..51"),
        (lambda d: d.update(deck=d["deck"][:20]), "'deck' has 20 cards; 3 players need 21"),
        (lambda d: d.update(deal_index=-1), "'deal_index' is -1"),
        (lambda d: d.update(deal_index=MAX_DEAL_INDEX + 1), "'deal_index' is 9223"),
        (lambda d: d.update(events={}), "'events' must be a list, not dict"),
        (lambda d: d["events"].append(7), "history event 49 must be a JSON object"),
        (lambda d: d["events"].append({"type": "bluff"}), "unknown type 'bluff'"),
        (lambda d: d["events"].append({"seat": 1}), "history event 49 has no key 'type'"),
        (lambda d: d.update(rules=[]), "'rules' must be a JSON object"),
        (lambda d: d["rules"].update(colour=1), "'rules' is not valid rules: unknown rules"),
        (lambda d: d["rules"].update(players="3"), "'rules' is not valid rules: players="),
    ],
)
def test_wrong_types_and_values_are_named(data: dict[str, Any], change: Any, message: str) -> None:
    assert len(data["events"]) == 49
    change(data)
    with pytest.raises(HistoryFormatError, match=message):
        History.from_dict(data)


def test_not_an_object_and_not_json() -> None:
    with pytest.raises(HistoryFormatError, match="history must be a JSON object, not list"):
        History.from_json("[1, 2]")
    with pytest.raises(HistoryFormatError, match=r"history is not valid JSON: .* line 1"):
        History.from_json('{"format": 1,')


# ------------------------------------------------------ cards and moves --
def test_a_card_dealt_twice_is_refused(data: dict[str, Any]) -> None:  # R1
    data["deck"][5] = data["deck"][0]
    with pytest.raises(HistoryFormatError, match=r"'deck' has the card .* twice, at positions 0 "
                       "and 5"):  # fmt: skip
        History.from_dict(data)


def test_a_card_dealt_twice_in_the_deal_event_is_refused(data: dict[str, Any]) -> None:
    hands = data["events"][0]["hands"]
    hands[1][0] = hands[0][0]
    with pytest.raises(HistoryFormatError, match=r"event 0 \(deal\) key 'hands' has the card"):
        History.from_dict(data)


def test_a_tampered_card_is_found_by_the_replay(data: dict[str, Any]) -> None:  # R5
    # swap a dealt card for an undealt one: a valid deck, but not the one recorded
    data["deck"][0], data["deck"][40] = data["deck"][40], data["deck"][0]
    History.from_dict(data)  # the layout is fine
    with pytest.raises(ReplayMismatchError,
                       match=r"at event 0 \(deal, before the first move\) \(the cards dealt "
                             r"differ\): key 'deck'\[0\]"):  # fmt: skip
        verify(History.from_dict(data))


def test_an_illegal_replayed_move_names_the_move(data: dict[str, Any]) -> None:  # R13
    index, action = first(data, "action")
    assert action["action"] == "check"
    action["action"] = "raise"  # nothing to raise: no bet is pending
    with pytest.raises(ReplayMismatchError) as info:
        verify(History.from_dict(data))
    text = str(info.value)
    assert f"move 1 of the history (event {index}: seat {action['seat']} raise)" in text
    assert "is illegal when replayed" in text and "legal: check, bet" in text


def test_a_passed_card_not_held_names_the_move(data: dict[str, Any]) -> None:  # R7
    moves = [i for i, e in enumerate(data["events"]) if e["type"] in
             ("action", "pass_commit", "discard_commit")]  # fmt: skip
    index, commit = first(data, "pass_commit")
    held = set(data["events"][0]["hands"][commit["seat"]])
    commit["cards"][0] = next(c for c in range(52) if c not in held and c not in commit["cards"])
    with pytest.raises(ReplayMismatchError,
                       match=rf"move {moves.index(index) + 1} of the history \(event {index}: "
                             "seat .* passes .*\\) is illegal when replayed: .* not in its hand"
                       ):  # fmt: skip
        verify(History.from_dict(data))


def test_a_final_result_that_differs_is_named(data: dict[str, Any]) -> None:  # R18-R20
    data["events"][-1]["net"] = [0, 0, 0]
    with pytest.raises(ReplayMismatchError,
                       match=r"event 48 \(end, after move \d+\) \(the final result differs\): "
                             r"key 'net' is \[0, 0, 0\] in the history but"):  # fmt: skip
        replay(History.from_dict(data))


def test_missing_and_extra_events(data: dict[str, Any]) -> None:
    short = copy.deepcopy(data)
    del short["events"][-1]
    with pytest.raises(ReplayMismatchError, match="replay has a 'end' event that the history"):
        verify(History.from_dict(short))
    data["events"].append({"type": "discard"})
    with pytest.raises(ReplayMismatchError, match="history has a 'discard' event that the re"):
        verify(History.from_dict(data))


def test_save_and_load(tmp_path: Path, data: dict[str, Any]) -> None:
    history = History.from_dict(data)
    path = tmp_path / "deal.json"
    history.save(path)
    assert History.load(path) == history
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(HistoryFormatError, match=re.escape(f"{path}: not UTF-8 text")):
        History.load(path)
    data["format"] = 3
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(HistoryFormatError, match=re.escape(f"{path}: history format 3")):
        History.load(path)
    with pytest.raises(FileNotFoundError):
        History.load(tmp_path / "missing.json")


# ----------------------------------------------- round numbers (text) --
@pytest.mark.parametrize("rules", [Rules(players=3), Rules.bicycle(3)])
def test_text_counts_rounds_passes_and_reveals_from_1(rules: Rules) -> None:
    game = play_deal(rules, ["call-down"] * 3, seed=4)
    assert game.result is not None and not game.result.ended_early
    text = format_history(game.history)
    rounds = [int(n) for n in re.findall(r"-- Betting round (\d+)", text)]
    assert rounds == list(range(1, rules.betting_rounds + 1))
    passes = [int(n) for n in re.findall(r"-- Pass (\d+)", text)]
    assert passes == list(range(1, len(rules.passes) + 1))
    reveals = [int(n) for n in re.findall(r"-- Reveal (\d+)", text)]
    assert reveals == (list(range(1, 5)) if rules.progressive_reveal else [])
    assert not re.search(r"(round|pass|reveal|Pass|Reveal) 0\b", text)
    # the JSON keeps the engine's 0-based indices (format 1)
    assert [e["round"] for e in game.history.events if e["type"] == "round"] == list(
        range(rules.betting_rounds)
    )


def test_describe_stage_counts_from_1() -> None:
    bicycle = Rules.bicycle(3)
    assert [describe_stage(s, bicycle) for s in range(4)] == [
        "before the passes", "after pass 1", "after pass 2", "after pass 3",
    ]  # fmt: skip
    pagat = Rules(players=3)
    assert describe_stage(1, pagat) == "after the pass"
    assert describe_stage(STAGE_REVEAL + 4, pagat) == "after reveal 4"
