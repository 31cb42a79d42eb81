"""The library's face [API-names, API-stable, API-game, API-config, API-card, API-knowledge]
and readable values [SH-card, SH-knowledge, SH-move, SH-parse, SH-board].

Expected values come from the engine's functions called directly, from brute force over
every identity and action of a configuration, or from reading the text back with a parser
written here, never from the text the code under test printed before.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import sys
from pathlib import Path

import pytest

import hanabi_ref
from hanabi_ref import Card, Config, Discard, Game, Hint, Knowledge, Play
from hanabi_ref.engine.cards import as_identities, identity
from hanabi_ref.base.errors import ConfigError, IllegalActionError, TraceError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.serial import state_to_json
from hanabi_ref.engine.show import ParseError, action_text, card_name, knowledge_text, parse_action, parse_card
from hanabi_ref.engine.state import GameState, score
from hanabi_ref.players.strategies import STRATEGIES, factory_for
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.engine.view import make_view
from tests.processes import run_process
from hanabi_ref.engine.tables import tables_for

ROOT = Path(__file__).resolve().parents[1]

CONFIGS = [
    make_config(3, "hle"),
    make_config(4, "hanab-live", "6 Suits"),
    make_config(2, "hanab-live", "Rainbow (6 Suits)"),
    make_config(5, "hanab-live", "Black (6 Suits)"),
    make_config(3, "thesis", "Dutch Rainbow (Example 2.12)"),
    make_config(2, composition=[[3, 2, 1], [2, 2, 1], [1, 1, 1]]),
]


def _random_game(config: GameConfig, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    states = [new_game(config, seed)]
    while not states[-1].terminal:
        states.append(apply(states[-1], rng.choice(legal_actions(states[-1]))))
    return states


# --- names -------------------------------------------------------------------------


def test_the_public_names_import_from_the_package() -> None:
    """[API-names, API-stable] every name of ``__all__`` is importable from ``hanabi_ref``
    and is the object of its home module; the issue's own example works."""
    assert set(hanabi_ref.__all__) == {"__version__", *hanabi_ref._HOMES}
    for name in hanabi_ref.__all__:
        assert getattr(hanabi_ref, name) is not None
    assert hanabi_ref.Game is Game and hanabi_ref.PlayerView.__module__ == "hanabi_ref.engine.view"
    g = Game.new(Config.preset("hle", players=3), seed=7)
    assert g.legal_actions() and not g.terminal and g.current_player == 0 and g.score == 0


@pytest.mark.checks("API-names")
def test_importing_the_package_imports_no_engine_module() -> None:
    """[API-names, B-compiled] ``import hanabi_ref`` loads no engine module, so the compiled
    build can still be chosen after it; the first use of a name loads its module."""
    code = ("import sys, hanabi_ref; assert 'hanabi_ref.engine.transition' not in sys.modules, 'early'; "
            "hanabi_ref.Game; assert 'hanabi_ref.engine.transition' in sys.modules; print('ok')")
    done = run_process([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_unknown_names_are_attribute_errors() -> None:
    """[API-names] a name outside ``__all__`` is an AttributeError, as for any module."""
    with pytest.raises(AttributeError):
        hanabi_ref.nonexistent  # noqa: B018


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.preset}-{c.variant}-{c.players}")
def test_the_json_names_are_attributes_of_state_view_and_game(config: GameConfig) -> None:
    """[API-names, T-state] for every state of a random game, each scalar of the JSON state
    object is the attribute of the same name on the state, on every seat's view (where the
    seat may see it) and on the game object."""
    for state in _random_game(config, 3)[::7]:
        data = state_to_json(state)
        game = Game(state)
        for key in ("clue_tokens", "strikes", "fireworks", "deck_size", "turns", "score"):
            expected = data[key]
            assert list(getattr(state, key)) == expected if key == "fireworks" else getattr(state, key) == expected
            got = getattr(game, key)
            assert (list(got) if key == "fireworks" else got) == expected
            for seat in range(config.players):
                seen = getattr(make_view(state, seat), key)
                assert (list(seen) if key == "fireworks" else seen) == expected
        assert state.current_player == game.current_player == data["current"]


def test_colour_is_read_in_both_spellings() -> None:
    """[API-names, T-actions] ``Hint(t, "color", c)`` is the colour hint, and a trace file
    whose hint says ``"color"`` replays as one saying ``"colour"``."""
    assert Hint(1, "color", 2) == Hint(1, "colour", 2) and Hint(1, "color", 2).kind == "colour"
    g = Game.new(Config.preset("hle", players=3), seed=7)
    colour = next(a for a in g.legal_actions() if isinstance(a, Hint) and a.kind == "colour")
    data = g.apply(colour).to_json()
    assert data["actions"][0]["kind"] == "colour"
    data["actions"][0]["kind"] = "color"
    assert Game.from_json(data).state == g.apply(colour).state
    assert parse_action(g.config, f"hint {colour.target} color {g.config.colours[colour.subject]}") == colour


# --- the game object -----------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["thesis", "hat"])
@pytest.mark.checks("API-game")
def test_a_game_object_plays_the_engines_games_action_for_action(strategy: str) -> None:
    """[API-game] a game driven through ``Game`` with a strategy's actions is the game
    ``play_game`` plays: the same actions, the same final state, the same trace file."""
    config = Config.preset("hle", players=4)
    for seed in range(3):
        record = play_game(config, STRATEGIES[strategy], seed=seed)
        game = Game.new(config, seed)
        for action in record.trace.actions:
            game = game.apply(action)
        assert game.state == record.final and game.terminal and game.score == score(record.final)
        from hanabi_ref.formats.trace import trace_to_json

        assert game.to_json() == trace_to_json(record.trace)


@pytest.mark.checks("API-game")
def test_apply_leaves_the_game_as_it_was_and_refuses_illegal_actions() -> None:
    """[API-game, 2.16-2] ``apply`` returns a new game; the old one is unchanged and can be
    continued another way; an illegal action raises naming its clause, for an action the
    caller built and for one outside the legal list alike."""
    g = Game.new(Config.preset("hle", players=2), seed=1)
    before = (g.state, g.turns, g.clue_tokens)
    a, b = g.legal_actions()[0], g.legal_actions()[-1]
    after_a, after_b = g.apply(a), g.apply(b)
    assert (g.state, g.turns, g.clue_tokens) == before
    assert after_a.state == apply(g.state, a) and after_b.state == apply(g.state, b)
    with pytest.raises(IllegalActionError) as error:
        g.apply(Play(7))
    assert "2.16" in str(error.value)
    g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply(Hint(0, "value", 1))  # a hint to oneself, though the legal list was just asked
    mutated = g.legal_actions()
    mutated.append(Discard(9))
    with pytest.raises(IllegalActionError):
        g.apply(mutated[-1])  # the caller's list is its own: adding to it makes nothing legal


@pytest.mark.checks("API-game")
def test_a_given_deck_and_the_game_files() -> None:
    """[API-game, T-trace] a game of a given deck equals the engine's; ``to_json`` /
    ``from_json`` and ``save`` / ``load`` give the same game; a malformed object is a
    TraceError naming the place."""
    config = Config.preset("thesis", players=3)
    deck = new_game(config, 5).deck
    g = Game.new(config, deck=deck)
    assert g.seed is None and g.state == new_game(config, 5)
    for _ in range(9):
        g = g.apply(g.legal_actions()[3])
    assert Game.from_json(json.dumps(g.to_json())).state == g.state
    assert Game.from_json(g.to_json()).actions == g.actions
    data = g.to_json()
    data["actions"][2]["slot"] = "x"
    with pytest.raises(TraceError) as error:
        Game.from_json(data)
    assert "actions[2]" in str(error.value)
    with pytest.raises(TraceError):
        Game.from_json("{not json")


def test_save_and_load(tmp_path: Path) -> None:
    """[API-game, OUT-atomic] ``save`` writes the trace file ``load`` reads back."""
    g = Game.new(Config.preset("hle", players=2), seed=11)
    for _ in range(12):
        g = g.apply(g.legal_actions()[0])
    g.save(tmp_path / "g.json")
    again = Game.load(tmp_path / "g.json")
    assert again.state == g.state and again.seed == 11


@pytest.mark.checks("API-game")
def test_views_hands_knowledge_and_discard_read_the_state() -> None:
    """[API-game, API-card, API-knowledge, 2.17-view] the game's hands and discard pile are
    the state's identities as cards; its knowledge the state's masks; its view the view
    ``make_view`` builds."""
    config = Config.preset("hle", players=3)
    states = _random_game(config, 8)
    state = states[len(states) // 2]
    g = Game(state)
    assert [[c.identity(config) for c in hand] for hand in g.hands] == \
        [[state.deck[c] for c in hand] for hand in state.hands]
    assert [c.identity(config) for c in g.discard] == [state.deck[c] for c in state.discard]
    assert [[k.mask for k in known] for known in g.knowledge] == [list(known) for known in state.knowledge]
    assert g.view(1) == make_view(state, 1)
    assert g.actions == tuple(e.action for e in state.history) and g.history == state.history


@pytest.mark.checks("API-config")
def test_config_builds_game_configs_and_is_not_instantiated() -> None:
    """[API-config, P-presets] ``Config.preset`` is ``make_config``; a bad value is a
    ConfigError naming the field; ``Config()`` is refused."""
    assert Config.preset("hanab-live", players=4, variant="6 Suits") == make_config(4, "hanab-live", "6 Suits")
    assert Config.composition([[2, 1], [1, 1]], players=2, hand_size=2) == \
        make_config(2, composition=[[2, 1], [1, 1]], hand_size=2)
    assert Config.from_json(json.loads(json.dumps(Game.new(Config.preset("hle", players=2)).to_json()["config"]))) \
        == make_config(2, "hle")
    with pytest.raises(ConfigError):
        Config.preset("nope", players=2)
    with pytest.raises(TypeError):
        Config()


# --- readable values -----------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.preset}-{c.variant}-{c.players}")
@pytest.mark.checks("API-card", "SH-card")
def test_card_names_are_unique_and_read_back(config: GameConfig) -> None:
    """[SH-card, API-card] every identity of the configuration has its own name, made of
    its suit's letter and its value; the name and ``Card`` read back to the identity."""
    names = {}
    for suit, suit_def in enumerate(config.suits):
        for value in range(1, config.values + 1):
            card = identity(value, suit, config.values)
            name = card_name(config, card)
            letter = suit_def.abbreviation.lower()
            assert name == (f"{letter}{value}" if len(letter) == 1 else f"{letter}-{value}")
            assert parse_card(config, name.upper()) == card
            as_card = Card.of(config, card)
            assert str(as_card) == name and eval(repr(as_card)) == as_card  # noqa: S307
            assert Card.parse(name) == as_card and as_card.identity(config) == card
            names[name] = card
    assert len(names) == config.values * config.suit_count
    with pytest.raises(ParseError):
        parse_card(config, "x9")


def _read_knowledge(config: GameConfig, text: str) -> set[int]:
    """The identities a knowledge text of SH-knowledge names, read by a parser of its own."""
    letters = [suit.abbreviation.lower() for suit in config.suits]
    if text == "{}":
        return set()
    if re.fullmatch(r"\{[a-z]+\d+(,[a-z]+\d+)*\}", text):
        found: set[int] = set()
        for name in text[1:-1].split(","):
            found.add(identity(int(name[-1]), letters.index(name[:-1]), config.values))
        return found
    match = re.fullmatch(r"(\?|[a-z]|\{[a-z,]+\})(\?|\d|\{[\d,]+\})", text)
    assert match, text
    suits_part, values_part = match.groups()
    suits = range(config.suit_count) if suits_part == "?" else \
        [letters.index(x) for x in suits_part.strip("{}").split(",")]
    values = range(1, config.values + 1) if values_part == "?" else [int(x) for x in values_part.strip("{}").split(",")]
    return {identity(v, s, config.values) for s in suits for v in values}


@pytest.mark.parametrize("config", CONFIGS[:5], ids=lambda c: f"{c.preset}-{c.variant}-{c.players}")
@pytest.mark.checks("API-knowledge", "SH-knowledge")
def test_knowledge_text_names_exactly_the_set(config: GameConfig) -> None:
    """[SH-knowledge, API-knowledge] for every knowledge set met in random games and for
    every product of a random subset of suits and values, the text read back by a parser
    of its own names exactly the set's identities; ``Knowledge`` carries the mask, the
    text and the cards."""
    rng = random.Random(4)
    masks = {mask for seed in range(3) for state in _random_game(config, seed) for known in state.knowledge
             for mask in known}
    for _ in range(200):
        suits = [s for s in range(config.suit_count) if rng.random() < 0.5] or [0]
        values = [v for v in range(1, 6) if rng.random() < 0.5] or [1]
        masks.add(sum(1 << identity(v, s, 5) for s in suits for v in values))
    for mask in masks:
        text = knowledge_text(config, mask)
        cards = {c for c in range(config.values * config.suit_count) if mask >> c & 1}
        assert _read_knowledge(config, text) == cards, text
        known = Knowledge.of(config, mask)
        assert known.mask == mask and str(known) == text
        assert {c.identity(config) for c in known.cards} == cards
    assert knowledge_text(config, tables_for(config).all_cards_mask) == "??"
    assert knowledge_text(config, 1 << identity(3, 0, 5)) == f"{config.suits[0].abbreviation.lower()}3"
    assert knowledge_text(config, 0) == "{}"


@pytest.mark.checks("SH-knowledge")
def test_knowledge_that_is_not_a_product_lists_its_cards() -> None:
    """[SH-knowledge] a set no hint could make is written card by card."""
    config = make_config(2)
    mask = 1 << identity(1, 0, 5) | 1 << identity(2, 2, 5)
    assert knowledge_text(config, mask) == "{r1,g2}"


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.preset}-{c.variant}-{c.players}")
@pytest.mark.checks("SH-parse", "SH-move")
def test_every_action_reads_back_from_its_text(config: GameConfig) -> None:
    """[SH-parse, SH-move] every action of the configuration's catalogue, typed as
    ``action_text`` writes it, is read back as the same action."""
    catalogue = tables_for(config).action_catalogue
    actions = [hint for target in catalogue.hints for hint, _ in target] + list(catalogue.discards) + \
        list(catalogue.plays)
    for action in actions:
        assert parse_action(config, action_text(config, action)) == action
        assert parse_action(config, action_text(config, action).upper()) == action


@pytest.mark.parametrize("text", ["", "jump 2", "play", "play x", "discard 1 2", "hint", "hint 1",
                                  "hint x red", "hint 1 mauve", "hint 1 value red", "hint 1 colour 3"])
@pytest.mark.checks("SH-parse")
def test_bad_moves_are_one_line_reasons(text: str) -> None:
    """[SH-parse] text that is no move is refused with one line saying what was expected."""
    with pytest.raises(ParseError) as error:
        parse_action(make_config(3), text)
    assert "\n" not in str(error.value) and str(error.value)


@pytest.mark.checks("SH-parse")
def test_a_colour_letter_shared_by_two_colours_is_refused() -> None:
    """[SH-parse] a first letter two clue colours share names neither (a custom
    composition's colours all begin with 's'); the suit's letter or the colour's name
    without its space names one."""
    config = make_config(2, composition=[[2, 1], [1, 1]], hand_size=2)
    with pytest.raises(ParseError):
        parse_action(config, "hint 1 s")
    assert parse_action(config, "hint 1 s2") == parse_action(config, "hint 1 suit2") == Hint(1, "colour", 1)


def _board_rows(board: str) -> dict[int, tuple[list[str], list[str]]]:
    lines = board.splitlines()
    rows = {}
    for index, line in enumerate(lines):
        match = re.match(r"^[> ] seat (\d+)( you)?\s+(.*)$", line)
        if match:
            rows[int(match.group(1))] = (match.group(3).split(), lines[index + 1].split())
    return rows


@pytest.mark.parametrize("config", CONFIGS[:4], ids=lambda c: f"{c.preset}-{c.variant}-{c.players}")
@pytest.mark.checks("SH-board", "SH-order")
def test_the_board_shows_the_state(config: GameConfig) -> None:
    """[SH-board, 2.17-view] on states of a random game, the board's numbers are the
    state's, each hand row names its cards and the row under it their knowledge, the seat
    to act is marked; a seat's view shows ``#`` for every own card and never the
    identities of that seat's own cards in their row, and the other rows face up."""
    states = _random_game(config, 2)
    for state in states[:: max(1, len(states) // 6)]:
        board = str(state)
        first = board.splitlines()[0]
        assert f"clue tokens {state.clue_tokens}/{config.max_hints}" in first and f"strikes {state.strikes}" in first
        assert f"deck {len(state.deck) - state.next_card}" in first and f"score {score(state)}/" in first
        assert ("game over" in first) == state.terminal
        fireworks = board.splitlines()[1].split()[1:]
        assert [int(item[-1]) for item in fireworks] == list(state.fireworks)
        rows = _board_rows(board)
        for seat, hand in enumerate(state.hands):
            names, knowledge = rows[seat]
            # [SH-order] hanab.live's players read the newest card (the highest card id) first
            slots = sorted(range(len(hand)), key=lambda slot: -hand[slot]) if config.preset == "hanab-live" \
                else range(len(hand))
            assert [parse_card(config, name) for name in names] == [state.deck[hand[slot]] for slot in slots]
            assert [_read_knowledge(config, _uncompact(text)) for text in knowledge] == \
                [{c for c in range(config.values * config.suit_count) if state.knowledge[seat][slot] >> c & 1}
                 for slot in slots]
        if not state.terminal:
            assert re.search(rf"^> seat {state.current_player} ", board, re.M)
        discard_line = board.splitlines()[-1]
        shown = [parse_card(config, name) for name in discard_line.split()[1:] if name not in ("·", "-")]
        assert sorted(shown) == sorted(state.deck[c] for c in state.discard)
        for seat in range(config.players):
            view_rows = _board_rows(str(make_view(state, seat)))
            assert view_rows[seat][0] == ["#"] * len(state.hands[seat])
            assert view_rows[seat][1] == rows[seat][1]
            assert all(view_rows[j] == rows[j] for j in range(config.players) if j != seat)


def _uncompact(text: str) -> str:
    """The board's compact knowledge (``{rg}{12}``) in the commas form."""
    return re.sub(r"\{([a-z\d]+)\}", lambda m: "{" + ",".join(m.group(1)) + "}", text)


def test_reprs_are_one_line_and_short() -> None:
    """[SH-board, API-game] ``repr`` of a state, a view and a game is one short line."""
    states = _random_game(make_config(5, "hle"), 1)
    state = states[len(states) // 2]
    for thing in (state, make_view(state, 2), Game(state, 1)):
        text = repr(thing)
        assert "\n" not in text and len(text) < 160


@pytest.mark.checks("SH-move")
def test_move_sentences_name_what_happened() -> None:
    """[SH-move] each move's sentence names the actor, the card played or discarded with
    its outcome, and a hint's receiver, subject and the slots of the cards it touched."""
    config = make_config(3, "hle")
    states = _random_game(config, 6)
    texts = Game(states[-1]).move_texts()
    assert len(texts) == len(states) - 1
    for number, (before, after, text) in enumerate(zip(states, states[1:], texts), start=1):
        event = after.history[-1]
        assert text.startswith(f"{number}. seat {event.player} ")
        action = event.action
        if isinstance(action, Hint):
            slots = [i for i, c in enumerate(after.hands[action.target]) if c in event.touched]
            subject = config.colours[action.subject].lower() if action.kind == "colour" else f"{action.subject}s"
            assert f"hints seat {action.target} {subject}: " in text
            assert text.endswith(f": touches {'slots' if len(slots) > 1 else 'slot'} {', '.join(map(str, slots))}"
                                 if slots else ": touches no card")
        else:
            card = card_name(config, before.deck[before.hands[event.player][action.slot]])
            verb = "plays" if isinstance(action, Play) else "discards"
            assert f"{verb} {card} from slot {action.slot}" in text
            if isinstance(action, Play):
                assert f"({'success' if event.success else 'fails: a strike'})" in text
            drew = after.next_card > before.next_card
            assert text.endswith(f", draws {card_name(config, as_identities(after.deck)[after.next_card - 1])}") == drew


def test_every_player_count_and_variant_prints() -> None:
    """[SH-board] the board prints for every preset and variant at 2 and 5 players, every
    line of it short enough for a terminal."""
    for preset, variant, players in itertools.product(("thesis", "hle", "hanab-live"),
                                                      ("No Variant", "6 Suits", "Rainbow (6 Suits)"), (2, 5)):
        try:
            config = make_config(players, preset, variant)
        except ConfigError:
            continue
        states = _random_game(config, 0)
        board = str(states[min(20, len(states) - 1)])
        assert max(len(line) for line in board.splitlines()) <= 100


@pytest.mark.checks("API-config")
def test_a_configurations_repr_builds_it_again() -> None:
    """[API-config, SH-board] ``repr`` of a configuration is one line, the ``Config`` call
    that builds an equal one, for every preset and variant, custom compositions and
    changed options, hints, errors and hand sizes; suits no preset makes print a summary."""
    import attrs

    from hanabi_ref.engine.presets import PRESETS

    configs = [make_config(players, preset, variant) for preset in PRESETS
               for variant in ("No Variant", "6 Suits", "Rainbow (6 Suits)", "Black (6 Suits)")
               for players in (2, 5) if _makes(players, preset, variant)]
    configs += [make_config(1, composition=[[1, 1, 1, 1]], hand_size=4, errors=None),
                make_config(3, "hle", hints=5, hand_size=3), make_config(4, "hanab-live", empty_hints=True),
                make_config(2, "thesis", "Dutch Rainbow (Example 2.12)", deal="round-robin")]
    for config in configs:
        text = repr(config)
        assert "\n" not in text and len(text) < 200
        assert eval(text, {"Config": Config}) == config, text  # noqa: S307
    odd = attrs.evolve(make_config(2, composition=[[2, 1], [1, 1]], hand_size=2), colours=("x", "y"))
    assert repr(odd).startswith("<GameConfig thesis 2p Custom")


def _makes(players: int, preset: str, variant: str) -> bool:
    try:
        make_config(players, preset, variant)
    except ConfigError:
        return False
    return True


# ------------------------------------------------------------------ moves as people write them


@pytest.mark.checks("API-moves", "SH-parse")
@pytest.mark.parametrize("preset, variant", [("hle", "No Variant"), ("hanab-live", "Black (6 Suits)")])
def test_apply_reads_text_and_colour_names(preset: str, variant: str) -> None:
    """[API-moves] every legal move, written in words from the configuration's own names
    (not the engine's writer), or as a hint naming its colour, is that move."""
    config = make_config(3, preset=preset, variant=variant)
    game, rng = Game.new(config, seed=11), random.Random(5)
    while game.turns < 12 and not game.terminal:
        for action in game.legal_actions():
            if isinstance(action, Hint):
                subject = config.colours[action.subject] if action.kind == "colour" else str(action.subject)
                texts = [f"hint {action.target} {subject}", f"HINT {action.target} {action.kind} {subject}"]
                if action.kind == "colour":
                    named = Hint(action.target, "colour", subject)  # type: ignore[arg-type]
                    assert game.action(named) == action and game.is_legal(named)
                    assert game.apply(named).actions[-1] == action
            else:
                texts = [f"{'play' if isinstance(action, Play) else 'discard'} {action.slot}"]
            for text in texts:
                assert game.action(text) == action and game.is_legal(text), text
                assert game.apply(text).actions[-1] == action
        game = game.apply(rng.choice([action for action in game.legal_actions() if not isinstance(action, Play)]))
    assert game.turns == 12
    with pytest.raises(ParseError, match="unknown move 'jump'"):
        game.apply("jump 3")
    with pytest.raises(IllegalActionError):
        game.apply(f"hint {game.current_player} 1")  # to oneself: a move, not a legal one


@pytest.mark.checks("API-play")
@pytest.mark.parametrize("players", [2, 4])
def test_play_out_plays_the_game_the_runner_plays(players: int) -> None:
    """[API-play] one name, or one per seat, with parameters: the very game ``play_game``
    plays with those strategies and that seed, move for move."""
    config = make_config(players, preset="hanab-live")
    for seed in (0, 7):
        alone = Game.new(config, seed=seed).play_out("thesis")
        assert alone.terminal and alone.actions == play_game(config, STRATEGIES["thesis"], seed=seed).trace.actions
        mixed = Game.new(config, seed=seed).play_out(["simple"] + ["natural"] * (players - 1))
        seats = [STRATEGIES["simple"]] + [STRATEGIES["natural"]] * (players - 1)
        assert mixed.actions == play_game(config, lambda c, seat, s: seats[seat](c, seat, s), seed=seed).trace.actions
    careful = Game.new(config, seed=3).play_out("thesis:omega_p=1")
    assert careful.actions == play_game(config, factory_for("thesis", {"omega_p": "1"}), seed=3).trace.actions
    with pytest.raises(ConfigError, match="strategies play a game from its deal"):
        Game.new(config, seed=3).apply(Game.new(config, seed=3).legal_actions()[0]).play_out("thesis")
    with pytest.raises(ConfigError, match=f"1 strategies for {players} seats"):
        Game.new(config, seed=3).play_out(["thesis"])
