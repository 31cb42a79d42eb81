"""Engines that deal from their own seed, and ``verify`` adopting their deal [EP-seed,
PE-hle-seed, C-serve].

Our engine dealing from a seed (``SeededReference``, served by ``hanabi-ref serve
--deals``) stands for such an engine; variants of it with a fault in what they reveal
are found.  pyhanabi dealing from its own seed is checked where it is installed.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from hanabi_ref.engine.actions import Action
from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import load_trace, replay
from hanabi_ref.tools.protocol.choosing import Chooser
from hanabi_ref.tools.verify.compare import play_compared
from hanabi_ref.tools.verify.run import verify_random_games
from hanabi_ref.tools.protocol.seeded import Deal, NotInStack, SeededReference, adopt_drawn, adopted_deck
from hanabi_ref.tools.protocol.engine import EngineFailure
from hanabi_ref.tools.verify.faulty import LastRoundShort
from tests.shrinking import limit_shrinking
from tests.helpers import scripted_engine
from tests.oracles import oracle
from hanabi_ref.engine.tables import tables_for

CONFIGS = [make_config(players, preset=preset) for preset in ("hle", "hanab-live") for players in (2, 3, 4, 5)]
SERVE = f"{sys.executable} -m hanabi_ref.cli serve"


@pytest.mark.parametrize("games", [20, pytest.param(40, marks=pytest.mark.deep)])
@pytest.mark.parametrize("reveal", ["deck", "drawn"])
@pytest.mark.checks("EP-seed")
def test_an_engine_dealing_from_its_seed_agrees_in_process(reveal: str, games: int) -> None:
    """[EP-seed] our engine dealing from its own seed, revealing the whole stack or each
    card as drawn, agrees with the reference over random games (20 over the eight
    configurations by default, 40 in the deep set): the adopted deal is the engine's game
    card for card."""
    report = verify_random_games(SeededReference(reveal), CONFIGS, games=games, seed=3)
    assert report.divergence is None and report.checked == games


@pytest.mark.checks("EP-seed")
def test_the_adopted_deck_starts_with_the_deal_and_keeps_the_cards() -> None:
    """[EP-seed] the stack is the cards revealed, then the configuration's others in
    canonical order; a card drawn later is moved to where it is drawn; a card the
    configuration has no copy of left is refused (2.16-1-deal)."""
    config = make_config(2, preset="hle")
    deal = deck_from_seed(config, 5)
    deck = adopted_deck(config, deal[:10])
    assert deck[:10] == deal[:10] and Counter(deck) == Counter(tables_for(config).canonical_deck)
    rest = list(tables_for(config).canonical_deck)
    for card in deal[:10]:
        rest.remove(card)
    assert list(deck[10:]) == rest
    from hanabi_ref.engine.transition import initial_state

    state = adopt_drawn(initial_state(config, deck), deal[10:12])
    assert state.deck[:12] == deal[:12] and Counter(state.deck) == Counter(tables_for(config).canonical_deck)
    five = tables_for(config).canonical_deck[-1]  # a 5: one copy
    with pytest.raises(NotInStack, match=r"has only 1 \(2\.16-1-deal\)"):
        adopted_deck(config, (five, five))
    with pytest.raises(NotInStack, match="does not have left"):
        adopt_drawn(initial_state(config, adopted_deck(config, (five,))), (five,))


class RevealsTheWrongCard(SeededReference):
    """Draws one card but reveals the next one of its stack."""

    def drawn(self) -> tuple[int, ...]:
        state = self.current
        return (state.deck[state.next_card],) if self._drawn and state.next_card < len(state.deck) else self._drawn


class RevealsAnImpossibleDeal(SeededReference):
    """Reveals the same 5 twice among the starting hands."""

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        deal = super().new_seeded_game(config, seed)
        five = tables_for(config).canonical_deck[-1]
        return Deal((five, five, *deal.cards[2:]), deal.complete)


@pytest.mark.checks("EP-seed", "EP-compare")
def test_a_card_revealed_wrongly_is_a_difference_of_the_hands() -> None:
    """[EP-seed, EP-compare] an engine that reveals another card than it drew diverges:
    our game draws the card revealed, the engine's hand holds the one drawn."""
    report = verify_random_games(RevealsTheWrongCard("drawn"), CONFIGS, games=40, seed=3, shrink_budget=0)
    assert report.divergence is not None and report.divergence.engine_seed is not None
    assert any(difference.field == "hands" for difference in report.divergence.differences)


@pytest.mark.checks("EP-seed")
def test_a_deal_the_configuration_cannot_have_is_a_divergence() -> None:
    """[EP-seed, 2.16-1-deal] a deal with two copies of a 5 is a divergence at the deal."""
    report = verify_random_games(RevealsAnImpossibleDeal("deck"), CONFIGS, games=5, seed=3, shrink_budget=0)
    assert report.divergence is not None and report.divergence.trace.actions == ()
    assert "but the configuration has only 1 (2.16-1-deal)" in report.divergence.what


class LastRoundShortSeeded(LastRoundShort, SeededReference):
    """Deals from its seed, and ends the game one move early in the last round."""


class Following(Chooser):
    def __init__(self, actions: tuple[Action, ...]) -> None:
        self.actions = list(actions)

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        return self.actions.pop(0)


@pytest.mark.checks("EP-shrink", "EP-repro")
def test_a_divergence_of_a_seed_dealt_game_shrinks_and_names_the_seed() -> None:
    """[EP-seed, EP-shrink, EP-repro] the shrunk game of an engine dealing from its seed
    replays under our rules on the deal it revealed (the trace's deck begins with the
    engine's deal of that seed, D-seed), and the engine started with that seed and those
    moves diverges again."""
    report = verify_random_games(LastRoundShortSeeded("drawn"), CONFIGS, games=100, seed=1, shrink_budget=20)
    divergence = report.divergence
    assert divergence is not None and divergence.engine_seed is not None
    assert report.first_length is not None and len(divergence.trace.actions) <= report.first_length
    trace = divergence.trace
    final = replay(trace)
    dealt = final.next_card
    assert trace.deck[:dealt] == deck_from_seed(trace.config, divergence.engine_seed)[:dealt]
    again = play_compared(LastRoundShortSeeded("drawn"), trace.config, trace.deck, Following(trace.actions),
                          seed=divergence.engine_seed)
    assert again is not None and again.what == divergence.what


@pytest.mark.checks("EP-seed", "C-serve")
def test_verify_through_serve_dealing_from_a_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """[EP-seed, C-serve, C-verify] ``serve --deals seed-drawn`` and ``--deals seed``
    through the protocol: verify adopts the deal, plays no vector (each fixes a deck) and
    says so; ``--deals`` with a peer is a usage error.  (The vectors offered are those of
    one case under every preset: skipping them all is what is checked, and generating
    every vector here would cost seconds.)"""
    from hanabi_ref.tools.vectors import PRESET_NAMES, iter_vectors

    vectors = tuple(iter_vectors(PRESET_NAMES, ("strikeout",)))
    assert any(vector.kind in ("transition", "game") for vector in vectors)
    monkeypatch.setattr("hanabi_ref.tools.vectors.all_vectors", lambda: vectors)
    out = str(tmp_path / "d.json")
    for deals in ("seed", "seed-drawn"):
        code = main(["verify", "--engine", f"{SERVE} --deals {deals}", "--games", "3", "--players", "2,4",
                     "--out", out, "--json"])
        report = json.loads(capsys.readouterr().out)
        assert code == EXIT_OK and report["deals"] == "seed" and report["divergence"] is None
        assert report["vectors"]["checked"] == 0 and report["vectors"]["skipped"] > 0
        assert report["random_games"]["games"] == 3
    assert main(["verify", "--engine", f"{SERVE} --deals seed", "--games", "1", "--players", "2", "--out", out]) == EXIT_OK
    assert "none checked: the engine deals from its own seed" in capsys.readouterr().out
    assert main(["serve", "--engine", "openspiel", "--deals", "seed"]) == EXIT_USAGE
    assert "--deals seed: only for --engine reference" in capsys.readouterr().err


@pytest.mark.parametrize(("new_game", "message"), [
    ('{"ok": true}', "answer to new_game with a seed reveals no card"),
    ('{"ok": true, "dealt": [{"suit": 0, "value": 9}]}', "answer to new_game: dealt[0].value: 9 is not a value"),
    ('{"ok": true, "dealt": [{"suit": 0}]}', "answer to new_game is outside the protocol"),
    ('{"ok": true, "deck": [], "dealt": []}', "answer to new_game is outside the protocol"),
])
@pytest.mark.checks("EP-seed", "EP-failures")
def test_a_seeded_new_game_answer_without_a_deal_is_a_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                new_game: str, message: str) -> None:
    """[EP-seed, EP-failures, EP-schemas] an engine dealing from its seed that reveals no
    card, a card the configuration does not have, or a card outside the schema, fails in
    one line (exit 1)."""
    hello = '{"ok": true, "name": "seedy", "deals": "seed"}'
    command = scripted_engine(tmp_path, [hello, new_game])
    code = main(["verify", "--engine", command, "--no-vectors", "--games", "1", "--players", "2", "--rules", "hle",
                 "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME and message in err and err.count("\n") == 1


@pytest.mark.parametrize("games", [12, pytest.param(30, marks=pytest.mark.deep)])
@pytest.mark.checks("PE-hle-views", "PE-hle-seed", "EP-seed")
def test_pyhanabi_dealing_from_its_own_seed_agrees(games: int) -> None:
    """[PE-hle-seed, EP-seed, PE-hle-views] pyhanabi dealing with ``deal_random_card`` from
    its own seed agrees with the reference over random games of 2 to 5 players (12 by
    default, 30 in the deep set), its observations of every seat included, and deals the
    same game again from the same seed."""
    oracle("hanabi_learning_environment.pyhanabi")
    from hanabi_ref.tools.peers import peer_config
    from hanabi_ref.tools.peers.hle import HLESeedEngine

    configs = [peer_config("hle-seed", players) for players in range(2, 6)]
    from hanabi_ref.tools.verify.report import Coverage

    coverage = Coverage()
    report = verify_random_games(HLESeedEngine(), configs, games=games, seed=2, coverage=coverage, views="all")
    assert report.divergence is None and report.checked == games and coverage.views > 2 * coverage.states > 0
    engine = HLESeedEngine()
    first, again = engine.new_seeded_game(configs[1], 17), engine.new_seeded_game(configs[1], 17)
    assert first == again and len(first.cards) == 3 * 5 and not first.complete
    with pytest.raises(EngineFailure, match="deals from its own seed"):
        engine.new_game(configs[1], tables_for(configs[1]).canonical_deck)


@pytest.mark.checks("EP-repro")
def test_a_reproduction_file_carries_the_engine_seed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-seed, EP-repro, EP-explain] the reproduction of a seed-dealt divergence is a
    trace that replays, with the engine's seed in its divergence object, which the story
    tells."""
    from hanabi_ref.tools.verify import session as verify_session

    monkey = pytest.MonkeyPatch()
    monkey.setattr(verify_session, "make_engine", lambda name: LastRoundShortSeeded("drawn"))
    limit_shrinking(monkey, 20)  # the file and the story are checked here, not how far shrinking gets
    try:
        out = tmp_path / "d.json"
        code = main(["verify", "--against", "hle", "--no-vectors", "--games", "100", "--seed", "1", "--out", str(out)])
    finally:
        monkey.undo()
    text = capsys.readouterr().out
    assert code == EXIT_INVALID_GAME and "the engine's deal of seed" in text
    data = json.loads(out.read_text())
    assert isinstance(data["divergence"]["engine_seed"], int)
    replay(load_trace(str(out)))
    assert main(["explain", str(out)]) == EXIT_OK
    assert f"The engine dealt it from its own seed {data['divergence']['engine_seed']}" in capsys.readouterr().out
