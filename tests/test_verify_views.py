"""What an engine shows each seat: the view object, the optional ``observe`` request and
``verify``'s check of every seat's view against ours [T-view, EP-observe, EP-views,
2.17-view, PE-openspiel-views].

The negative controls are engines of the test suite's own (``tests/engines/peeking.py``:
our engine behind the protocol with its views altered) run as processes: each leak
(an own card shown, a member that shows the stack, knowledge the hints do not give) and
each wrong public field must be found, with the seat and the clause named.  Expected
cards are read off the deck by the deal's rule (blocks of h from seat 0, 2.16-1-deal),
not from our output.
"""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Hint
from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.serial import state_to_json, view_state_to_json
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import load_trace
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.protocol.choosing import Chooser
from hanabi_ref.tools.verify.compare import play_compared
from hanabi_ref.tools.protocol.engine import EngineFailure, ReferenceEngine
from hanabi_ref.tools.verify.explain import explain
from hanabi_ref.tools.verify.process import ProcessEngine
from hanabi_ref.tools.verify.report import Coverage
from hanabi_ref.tools.verify.serve import answer_request
from hanabi_ref.engine.view import make_view
from tests.helpers import scripted_engine, suit_and_value
from tests.oracles import oracle

ENGINES = Path(__file__).resolve().parent / "engines"
SERVE = f"{sys.executable} -m hanabi_ref.cli serve"
CONFIG = make_config(3, preset="hle")
DECK = deck_from_seed(CONFIG, 7)
HAND = CONFIG.hand_size  # 5 for three players (2.9-h)


def peeking(turn: int, *changes: str) -> str:
    """The command of tests/engines/peeking.py altering views from move ``turn`` on."""
    return " ".join(shlex.quote(part) for part in (sys.executable, str(ENGINES / "peeking.py"), str(turn), *changes))


def name(config: GameConfig, identity: int) -> str:
    """A card by name as reports write it: the suit's letter, lower case, and the value."""
    suit, value = suit_and_value(config, identity)
    return f"{config.suits[suit].abbreviation.lower()}{value}"


def dealt(seat: int, slot: int) -> int:
    """The card of ``seat``'s slot ``slot`` after the deal: blocks of h, seat 0 first (2.16-1-deal)."""
    return DECK[seat * HAND + slot]


def card(identity: int) -> dict[str, int]:
    suit, value = suit_and_value(CONFIG, identity)
    return {"suit": suit, "value": value}


class Script(Chooser):
    """The given actions, then the first legal one."""

    def __init__(self, *actions: Action) -> None:
        self._actions = list(actions)

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        return self._actions.pop(0) if self._actions else legal[0]


# Two hints that draw nothing: seat 0 tells seat 1 the value of its slot 0, seat 1 tells
# seat 2 the value of its slot 0.
HINTS = (Hint(1, "value", suit_and_value(CONFIG, dealt(1, 0))[1]), Hint(2, "value", suit_and_value(CONFIG, dealt(2, 0))[1]))


def compared(command: str, *actions: Action) -> Any:
    """The divergence of one game of CONFIG and DECK played on ``command``'s engine."""
    engine = ProcessEngine(command, timeout=20)
    try:
        return play_compared(engine, CONFIG, DECK, Script(*actions), views="all")
    finally:
        engine.close()


# ------------------------------------------------------------------ the view object


@pytest.mark.parametrize(("players", "preset", "variant"), [(2, "hle", "No Variant"), (3, "thesis", "Rainbow (6 Suits)"),
                                                            (5, "hanab-live", "Black (6 Suits)")])
@pytest.mark.checks("T-view")
def test_our_view_is_the_state_with_the_seats_own_cards_hidden(players: int, preset: str, variant: str) -> None:
    """[T-view, 2.17-view] along a random game, the view object of every seat, built from
    the player view, is the state object with ``seat`` added and that seat's own cards
    replaced by null, slot for slot, and nothing else."""
    config = make_config(players, preset=preset, variant=variant)
    state = initial_state(config, deck_from_seed(config, players))
    choices = random.Random(players)
    while True:
        expected_state = state_to_json(state)
        for seat in range(players):
            expected = dict(expected_state, seat=seat)
            expected["hands"] = [[None] * len(hand) if j == seat else hand for j, hand in enumerate(expected_state["hands"])]
            assert view_state_to_json(make_view(state, seat)) == expected
        if state.terminal:
            break
        state = apply(state, choices.choice(legal_actions(state)))


@pytest.mark.checks("EP-observe")
def test_serve_announces_and_answers_observe() -> None:
    """[EP-observe, EP-serve] our engine says in hello that it answers observe, answers
    it with our view, and refuses a seat the game does not have."""
    engine = ReferenceEngine()
    hello = answer_request(engine, {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1})
    assert hello["observe"] is True
    engine.new_game(CONFIG, DECK)
    answer = answer_request(engine, {"op": "observe", "seat": 2})
    assert answer["ok"] is True and answer["view"]["seat"] == 2
    assert answer["view"]["hands"][2] == [None] * HAND and answer["view"]["hands"][0][0] == card(dealt(0, 0))
    for seat in (3, -1, "1"):
        refused = answer_request(engine, {"op": "observe", "seat": seat})
        assert refused["ok"] is False and "seat" in refused["error"]


# ------------------------------------------------------------------ leaks and wrong fields


@pytest.mark.checks("EP-views")
def test_a_seat_shown_its_own_card_is_a_leak() -> None:
    """[EP-views, 2.17-view] an engine that shows every seat the identity of its own slot 1
    (the right identity) diverges at the deal, every seat named, leaks all."""
    divergence = compared(peeking(0, "own-slot=1"))
    assert divergence is not None and divergence.trace.actions == ()
    assert [d.field for d in divergence.differences] == ["view[0].hands", "view[1].hands", "view[2].hands"]
    for seat, difference in enumerate(divergence.differences):
        assert difference.note == f"leak (2.17-view): seat {seat} is shown its own slot 1 as {name(CONFIG, dealt(seat, 1))}"
        assert difference.engine[seat][1] == card(dealt(seat, 1)) and difference.reference[seat] == [None] * HAND
    assert divergence.what == (f"after the deal: view[0].hands: leak (2.17-view): seat 0 is shown its own slot 1 as "
                               f"{name(CONFIG, dealt(0, 1))}; 2 more field(s) differ: view[1].hands, view[2].hands")


@pytest.mark.checks("EP-views")
def test_a_member_that_shows_the_next_card_is_a_leak() -> None:
    """[EP-views, 2.17-view, T-view] from move 2 on, a member ``next`` holds the top card of
    the stack: after two hints (which draw nothing) that is deck[3h], the first card the
    deal left (2.16-1-deal); each seat's view is named."""
    divergence = compared(peeking(2, "next-card"), *HINTS)
    assert divergence is not None and divergence.trace.actions == HINTS
    assert [d.field for d in divergence.differences] == ["view[0].next", "view[1].next", "view[2].next"]
    assert all(d.engine == card(DECK[3 * HAND]) and d.reference is None for d in divergence.differences)
    assert all(d.note.startswith("leak (2.17-view): not a view field") for d in divergence.differences)
    assert divergence.what.startswith(f"after actions[1] (hint 2 value {HINTS[1].subject}): view[0].next: reference (none), "
                                      f"engine {json.dumps(card(DECK[3 * HAND]), sort_keys=True)}")


@pytest.mark.checks("EP-views")
def test_knowledge_beyond_the_hints_is_a_leak_and_less_is_wrong() -> None:
    """[EP-views, 2.17-view, 2.14] after seat 0's value hint to seat 1 (which touches seat
    1's slot 0): each seat's own slot 1 narrowed to its card is a leak for every seat;
    own slot 0 widened to every card is wrong only for seat 1, the one seat whose slot
    0 the hint narrowed (the others' slot 0 already allows every card)."""
    divergence = compared(peeking(1, "narrow-own=1", "widen-own=0"), HINTS[0])
    assert divergence is not None and divergence.trace.actions == HINTS[:1]
    assert [d.field for d in divergence.differences] == ["view[0].knowledge", "view[1].knowledge", "view[2].knowledge"]
    notes = [d.note for d in divergence.differences]
    assert notes[0] == "leak (2.17-view): seat 0 is told more about its own slot 1 than the hints give"
    assert notes[1] == ("leak (2.17-view): seat 1 is told more about its own slot 1 than the hints give; "
                        "wrong (EP-views): the knowledge of seat 1 differs")
    suit, value = suit_and_value(CONFIG, dealt(2, 1))
    assert divergence.differences[2].engine[2][1] == {"suits": [suit], "values": [value]}


@pytest.mark.checks("EP-views")
def test_a_wrong_public_field_or_a_hidden_teammate_is_wrong() -> None:
    """[EP-views] nine clue tokens shown (eight at the deal, 2.16-1) and seat 2's cards
    hidden from its teammates: wrong fields, named seat by seat in T-view's order; seat
    2's own view hides its hand anyway, so only its tokens differ."""
    divergence = compared(peeking(0, "clue_tokens=9", "hide-seat=2"))
    assert divergence is not None
    assert [d.field for d in divergence.differences] == [
        "view[0].hands", "view[0].clue_tokens", "view[1].hands", "view[1].clue_tokens", "view[2].clue_tokens"]
    assert all(d.note.startswith("wrong (EP-views)") for d in divergence.differences)
    assert divergence.differences[0].note == "wrong (EP-views): the hand of seat 2 differs"
    tokens = divergence.differences[1]
    assert (tokens.reference, tokens.engine) == (CONFIG.max_hints, 9) and tokens.reference == 8


# ------------------------------------------------------------------ the command


def test_verify_finds_a_leak_reports_it_and_explain_tells_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-views, EP-report, EP-explain, C-verify] ``verify`` on an engine that shows each
    seat its own slot 0: exit 1, the divergence names the leak and the seat, the hands
    are drawn slot by slot with the hidden card; the reproduction's story says which
    card the engine showed (read off the reproduction's deck by the deal's rule)."""
    repro = tmp_path / "repro.json"
    code = main(["verify", "--engine", peeking(0, "own-slot=0"), "--no-vectors", "--games", "3", "--players", "3",
                 "--rules", "hle", "--out", str(repro)])
    out = capsys.readouterr().out
    assert code == EXIT_INVALID_GAME, out
    assert "DIVERGENCE      random game: after the deal: view[0].hands: leak (2.17-view): seat 0 is shown its own slot 0 as" in out
    assert "view[0].hands: seat by seat, slot by slot (* differs)" in out and "*0: hidden | " in out
    trace = load_trace(repro)
    assert trace.actions == ()
    shown = name(trace.config, trace.deck[0])
    story = explain(repro)
    assert f"  the engine shows seat 0 its own slot 0 as {shown}; the rules hide it (2.17-view)" in story
    assert f"  the engine shows seat 2 its own slot 0 as {name(trace.config, trace.deck[2 * HAND])}; the rules hide it (2.17-view)" in story


@pytest.mark.checks("EP-observe", "EP-views", "EP-coverage")
def test_verify_no_views_and_an_engine_without_observe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-views, EP-observe, EP-coverage] with ``--no-views`` the leaking engine passes and
    the report says the views were not checked; our engine behind serve passes, by
    default with the view of the seat to move at every compared state and every seat's
    after the deal and at the end (3 seats: 2 more views at each end of each of the 3
    games), with ``--views all`` one view per seat at every compared state; an engine
    whose hello does not announce observe (the test suite's small engine) is never asked
    and is reported so."""
    out = str(tmp_path / "d.json")
    common = ["--no-vectors", "--games", "3", "--players", "3", "--rules", "hle", "--out", out]
    assert main(["verify", "--engine", peeking(0, "own-slot=0"), "--no-views", *common, "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    assert report["views"] == {"offered": True, "checked": False, "mode": "none"} and report["coverage"]["views"] == 0
    assert main(["verify", "--engine", SERVE, *common, "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    coverage = report["coverage"]
    assert report["views"] == {"offered": True, "checked": True, "mode": "acting"}
    assert coverage["views"] == coverage["states"] + 2 * 2 * 3
    assert main(["verify", "--engine", SERVE, *common, "--views", "all", "--json"]) == EXIT_OK
    report = json.loads(capsys.readouterr().out)
    coverage = report["coverage"]
    assert report["views"]["mode"] == "all" and coverage["views"] == 3 * coverage["states"] > 0
    assert main(["verify", "--engine", f"{sys.executable} {ENGINES / 'buggy.py'}", *common]) == EXIT_OK
    assert "views           not checked: the engine does not answer observe (EP-observe)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("view", "message"),
    [
        ('{"seat": "0"}', 'at $.view.seat: "0" is not of type "integer" (schema trace.schema.json#/$defs/view/properties/seat/type)'),
        ('{"hands": []}', 'at $.view: "seat" is missing (schema trace.schema.json#/$defs/view/required)'),
    ],
)
@pytest.mark.checks("EP-observe", "EP-failures")
def test_a_malformed_observe_answer_is_a_one_line_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str], view: str,
                                                         message: str) -> None:
    """[EP-observe, EP-schemas, EP-failures, C-exit] an engine that announces observe and
    answers it outside the schema: exit 1, one line naming the request, no traceback."""
    lines = ['{"ok": true, "name": "scripted", "observe": true}', '{"ok": true}', '{"ok": true, "state": {}}',
             '{"ok": true, "view": ' + view + "}"]
    code = main(["verify", "--engine", scripted_engine(tmp_path, lines), "--no-vectors", "--games", "1",
                 "--rules", "hle", "--players", "2", "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME
    assert err == f"hanabi-ref: scripted: answer to observe is outside the protocol: {message} (stopped)\n", err


# ------------------------------------------------------------------ OpenSpiel's observations


OBSERVED = "\n".join([
    "Life tokens: 2", "Info tokens: 7", "Fireworks: R1 Y0 G0 W0 B0 ", "Hands:",
    "XX || XX|RYGWB12345", "XX || X3|RYGWB3",
    "-----", "Cur player", "W3 || XX|RYGWB1245", "R4 || R4|R4",
    "-----", "B2 || WX|RYGWB125",
    "Deck size: 30", "Discards: Y3 B1",
])
"""An observation of seat 1 in HLE's format, written by hand: its own hand first, then
seat 2 (to move), then seat 0."""


@pytest.mark.checks("PE-openspiel-views")
def test_an_observation_string_read_as_a_view() -> None:
    """[PE-openspiel-views] the hand-written observation of seat 1: hands turned back to
    seat order (seat 1's own cards null), the seat marked ``Cur player`` is 1 + 1,
    strikes are f0 = 3 minus two lives, HLE colour i is our suit i, and a colour revealed
    directly narrows the plausible colours; turns, score and terminal are not shown."""
    from hanabi_ref.tools.peers.hle_observation import parse_observation

    everything = {"suits": [0, 1, 2, 3, 4], "values": [1, 2, 3, 4, 5]}
    assert parse_observation(OBSERVED, CONFIG, 1) == {
        "seat": 1, "current": 2, "clue_tokens": 7, "strikes": 1, "fireworks": [1, 0, 0, 0, 0], "deck_size": 30,
        "hands": [[{"suit": 4, "value": 2}], [None, None], [{"suit": 3, "value": 3}, {"suit": 0, "value": 4}]],
        "knowledge": [[{"suits": [3], "values": [1, 2, 5]}], [everything, {"suits": [0, 1, 2, 3, 4], "values": [3]}],
                      [{"suits": [0, 1, 2, 3, 4], "values": [1, 2, 4, 5]}, {"suits": [0], "values": [4]}]],
        "discard": [{"suit": 1, "value": 3}, {"suit": 4, "value": 1}],
    }
    assert "knowledge" not in parse_observation(OBSERVED, CONFIG, 1, knowledge=False)


@pytest.mark.parametrize(
    ("old", "new", "line", "what"),
    [
        ("Fireworks: R1 Y0 G0 W0 B0 ", "Fireworks: R1 Y0 G0 W0", 3, "'Fireworks: ' with the heights of RYGWB"),
        ("XX || X3|RYGWB3", "Q3 || X3|RYGWB3", 6, "a card line"),
        ("XX || X3|RYGWB3", "XX || X3|RYGWB36", 6, "a card line"),
        ("XX || X3|RYGWB3", "XX || X3|YRGWB3", 6, "a card line"),
        ("-----\nB2", "B2", 12, "'-----' before hand 2 of 3"),
        ("Discards: Y3 B1", "Discards: Y3 B", 14, "'Discards:' followed by cards"),
        ("Discards: Y3 B1", "Discards: Y3 B1\n", 15, "the end of the observation"),
    ],
)
@pytest.mark.checks("PE-openspiel-views")
def test_an_unreadable_observation_line_is_named(old: str, new: str, line: int, what: str) -> None:
    """[PE-openspiel-views] strict reading: a line that is not of HLE's form is an
    EngineFailure naming its number, the seat and what was expected."""
    from hanabi_ref.tools.peers.hle_observation import parse_observation

    with pytest.raises(EngineFailure) as failure:
        parse_observation(OBSERVED.replace(old, new), CONFIG, 1)
    assert f"line {line} of OpenSpiel's observation string for seat 1 is not {what}" in str(failure.value)


@pytest.mark.checks("PE-openspiel-views", "EP-views")
def test_openspiel_observations_agree_and_a_shown_card_is_found() -> None:
    """[PE-openspiel-views, EP-views] OpenSpiel's observation strings agree with our views
    over random games of 2 to 5 players; an observation with one own card shown (the
    first ``XX`` replaced by a card) is reported as a leak of that seat."""
    oracle("pyspiel")
    from hanabi_ref.tools.peers import peer_config
    from hanabi_ref.tools.peers.hle_observation import parse_observation
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine
    from hanabi_ref.tools.verify.run import verify_random_games

    coverage = Coverage()
    configs = [peer_config("openspiel", players) for players in range(2, 6)]
    report = verify_random_games(OpenSpielEngine(), configs, games=12, seed=3, coverage=coverage, views="all")
    assert report.divergence is None and report.checked == 12 and coverage.views > 2 * coverage.states > 0

    class ShowsOwnCard(OpenSpielEngine):
        def observe(self, seat: int) -> dict[str, Any] | None:
            text = self.game_state.observation_string(seat).replace("XX || ", "R1 || ", 1)
            return parse_observation(text, self.config, seat)

    divergence = play_compared(ShowsOwnCard(), CONFIG, DECK, Script())
    assert divergence is not None and divergence.differences[0].field == "view[0].hands"
    assert divergence.differences[0].note == "leak (2.17-view): seat 0 is shown its own slot 0 as r1"


@pytest.mark.checks("EP-views")
def test_the_seats_whose_views_each_mode_compares() -> None:
    """[EP-views] ``acting`` (the default): every seat after the deal and once the game is
    over, the seat to move in between; ``all``: every seat at every state; ``none``: no
    seat."""
    from hanabi_ref.engine.legality import legal_actions
    from hanabi_ref.engine.transition import apply, initial_state
    from hanabi_ref.tools.verify.views import viewed_seats

    state = initial_state(CONFIG, DECK)
    assert list(viewed_seats(state, "acting")) == [0, 1, 2] == list(viewed_seats(state, "all"))
    state = apply(state, HINTS[0])
    assert list(viewed_seats(state, "acting")) == [1] and list(viewed_seats(state, "all")) == [0, 1, 2]
    assert list(viewed_seats(state, "none")) == []
    while not state.terminal:
        state = apply(state, legal_actions(state)[-1])  # the last slot played: errors end the game
    assert list(viewed_seats(state, "acting")) == [0, 1, 2]


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.integers(0, 2**32), st.lists(st.tuples(st.integers(0, 10**6), st.characters()), max_size=6))
@pytest.mark.checks("PE-openspiel-views")
def test_the_plain_observation_reader_agrees_with_the_strict_one(players: int, seed: int,
                                                                 edits: list[tuple[int, str]]) -> None:
    """[PE-openspiel-views] the one-pass reader gives, for every observation it reads, the
    strict reader's object, and reads nothing the strict reader refuses: over every seat's
    observation of a random OpenSpiel game, as printed and with characters replaced."""
    oracle("pyspiel")
    from hanabi_ref.tools.peers import peer_config
    from hanabi_ref.tools.peers.hle_observation import CardLine, _read_plainly, _read_strictly
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine
    from hanabi_ref.tools.protocol.engine import EngineFailure

    config = peer_config("openspiel", players)
    engine = OpenSpielEngine()
    engine.new_game(config, deck_from_seed(config, seed))
    rng = random.Random(seed)
    cache: dict[tuple[Any, str], CardLine] = {}
    while True:
        for seat in range(players):
            text = engine.game_state.observation_string(seat)
            for texts in (text, _edited(text, edits)):
                try:
                    strict: Any = _read_strictly(texts, config, seat, True, {})
                except EngineFailure:
                    strict = None
                assert _read_plainly(texts, config, seat, True, cache) in (None, strict)
                if texts == text:
                    assert strict is not None and _read_plainly(texts, config, seat, True, cache) == strict
        legal = engine.legal_actions()
        if not legal:
            break
        engine.apply(legal[rng.randrange(len(legal))])


def _edited(text: str, edits: list[tuple[int, str]]) -> str:
    """``text`` with the character at each position (taken modulo its length) replaced."""
    characters = list(text)
    for position, character in edits:
        characters[position % len(characters)] = character
    return "".join(characters)
