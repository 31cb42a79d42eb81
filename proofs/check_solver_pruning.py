"""Machine check of proofs/solver_pruning.md [SV-bounds, SV-late, SV-hold, SV-relax,
SV-dead, SV-warmup, SV-restarts].

For every distinct order of the decks of small compositions, under the thesis' and
hle's rule options (with the early end and the final draw switched), a brute force over
the engine's states that prunes nothing (every legal action of
:func:`hanabi_ref.engine.legality.legal_actions`, a memory of positions only) gives the best
score each deck reaches.  The solver must reach every target up to it and none above;
the relaxed game must never call lost a target the brute force reaches; and each of the
solver's ideas switched off in turn must give the same answers.  The check also asserts
that its cases make the claims delicate: winnable and lost decks both occur, the
late-draws and holders' rules cut positions, and relaxed lines that break the real rules
occur.
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.solver import core
from hanabi_ref.tools.solver.search import solve_deck
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply_legal, initial_state
from hanabi_ref.engine.tables import tables_for

COMPOSITIONS = ([[1, 1, 1]], [[2, 1, 1]], [[1, 1], [1, 1]], [[2, 1], [1, 1]], [[1, 1, 1], [1, 1, 0]])
RULES: dict[str, dict[str, object]] = {
    "thesis": {},
    "hle": {"discard_at_max_hints": False, "empty_hints": False, "draw_after_final_move": False},
    "hle-early-end": {"discard_at_max_hints": False, "empty_hints": False, "end_when_no_points_possible": True},
}


def position_key(state: GameState) -> tuple[object, ...]:
    """Everything a state holds but the three parts no rule reads (the knowledge sets,
    the turn number and the history; solver_pruning.md, "The brute force"): hands are
    the card ids slot by slot, so no symmetry between slots or between copies is used."""
    return (state.fireworks, state.hands, state.next_card, state.clue_tokens, state.strikes, state.current_player,
            state.remaining, state.terminal, state.played, state.discard)


def brute_best(state: GameState, check_key: bool = False) -> int:
    """The highest the fields ever sum to on any line from ``state``: every legal action
    tried, positions remembered by :func:`position_key` (no rule of the solver used).
    With ``check_key``, every state that meets a remembered position is checked to have
    the same legal actions, leading to the same positions, as the remembered one: the
    key step of the proof that the memory loses nothing."""
    memo: dict[tuple[object, ...], tuple[int, tuple[object, ...]]] = {}

    def moves(state: GameState) -> tuple[object, ...]:
        if state.terminal:
            return ()
        return tuple((action, position_key(apply_legal(state, action))) for action in legal_actions(state))

    def best(state: GameState) -> int:
        key = position_key(state)
        if key in memo:
            value, seen = memo[key]
            assert not check_key or moves(state) == seen, (key, state.knowledge, state.turns)
            return value
        value = sum(state.fireworks)
        if not state.terminal:
            for action in legal_actions(state):
                value = max(value, best(apply_legal(state, action)))
        memo[key] = (value, moves(state) if check_key else ())
        return value

    return best(state)


def cases(compositions: tuple[list[list[int]], ...] = COMPOSITIONS) -> Iterator[tuple[str, GameConfig, tuple[int, ...]]]:
    for composition, rules, players, hand, hints, errors in itertools.product(
            compositions, RULES, (2, 3), (1, 2), (0, 1, 2), (1, 2, None)):
        cards = [suit * len(counts) + value for suit, counts in enumerate(composition)
                 for value, count in enumerate(counts) for _ in range(count)]
        if players * hand > len(cards) or (hints, errors) not in ((1, 1), (2, 2), (0, None), (2, None), (1, 2)):
            continue
        options: dict[str, Any] = RULES[rules]
        config = make_config(players, composition=composition, hand_size=hand, hints=hints, errors=errors, **options)
        for deck in sorted(set(itertools.permutations(cards))):
            yield rules, config, deck


WITHOUT_WARMUP = frozenset({"warmup"})

SMALL = COMPOSITIONS[:2]
"""The compositions of the default run (one suit, decks of 3 and 4 cards: the deck of 4
already reaches every rule the check asks for); the deep set adds the three with two
suits (decks of 4 and 5 cards)."""


@pytest.mark.checks("SV-bounds", "SV-late", "SV-hold", "SV-relax", "SV-dead", "SV-warmup", "SV-restarts")
@pytest.mark.parametrize(("compositions", "every_idea"), [
    pytest.param(SMALL, False, id="small"),
    pytest.param(SMALL, True, id="small-every-idea", marks=pytest.mark.deep),
    pytest.param(COMPOSITIONS[2:], True, id="larger", marks=pytest.mark.deep),
])
def test_the_solver_reaches_exactly_the_targets_the_brute_force_reaches(
        compositions: tuple[list[list[int]], ...], every_idea: bool) -> None:
    """[SV-bounds, SV-late, SV-hold, SV-relax, SV-dead, SV-warmup, SV-restarts] every target of every deck:
    the solver's answer is the brute force's, and so is its answer with an idea left out
    (each idea on every deck with ``every_idea``, as in the deep set; else the ideas in
    turn, one per deck, each on a fifth of the decks); the relaxed game never loses a
    target the brute force reaches."""
    seen: Counter[str] = Counter()
    for index, (rules, config, deck) in enumerate(cases(compositions)):
        best = brute_best(initial_state(config, deck))
        game = core.OpenGame(config, deck)
        left_out = core.IDEAS if every_idea else core.IDEAS[index % len(core.IDEAS):][:1]
        for target in range(max(0, tables_for(config).max_score - 2), tables_for(config).max_score + 1):
            reachable = best >= target
            seen["winnable" if reachable else "lost"] += 1
            # the whole solver, and without its warm-up pass (which settles most small decks
            # alone), so that the rules the passes use cut on these decks too
            for without in [frozenset[str](), WITHOUT_WARMUP] + [frozenset({idea}) for idea in left_out]:
                solution = solve_deck(config, deck, target, max_nodes=10**7, without=without)
                assert solution.reachable is reachable, (rules, config.players, deck, target, sorted(without))
                if without in (frozenset(), WITHOUT_WARMUP):
                    seen.update(rule for rule, count in solution.cuts.items() if count)
            if game.start_terminal:
                continue
            line = core.search(game, target, 10**7, None, core.Stats(), relaxed=True)
            assert line is not None or not reachable, (rules, deck, target)
            if line is not None and not core._real_line(game, line):
                seen["relaxed line not real"] += 1
    dead = ("SV-dead",) if compositions is not SMALL else ()  # one suit: no hand holds a dead card and another
    for needed in ("winnable", "lost", "SV-late", "SV-hold", "SV-relax", "relaxed line not real") + dead:
        assert seen[needed] > 0, (needed, seen)


@pytest.mark.checks("SV-dead")
def test_one_dead_discard_stands_for_every_discard() -> None:
    """[SV-dead] on two-suit decks, where a hand can hold a dead card beside others: the
    relaxed game with the rule reaches exactly the targets it reaches without it, and
    the rule cuts (the default run's decks have one suit, where it never applies)."""
    cuts = 0
    for index, (rules, config, deck) in enumerate(cases(COMPOSITIONS[3:4])):
        if index % 5 or config.players != 2:
            continue
        game = core.OpenGame(config, deck)
        if game.start_terminal:
            continue
        for target in range(tables_for(config).max_score - 2, tables_for(config).max_score + 1):
            stats = core.Stats()
            with_rule = core.search(game, target, 10**7, None, stats, relaxed=True)
            without = core.search(game, target, 10**7, None, core.Stats(), relaxed=True, without=frozenset({"dead"}))
            assert (with_rule is None) == (without is None), (rules, deck, target)
            cuts += stats.cuts.get("SV-dead", 0)
    assert cuts > 0


@pytest.mark.checks("SV-key")
@pytest.mark.parametrize("compositions", [
    pytest.param(COMPOSITIONS[:1], id="small"),
    pytest.param(COMPOSITIONS, id="all", marks=pytest.mark.deep),
])
def test_the_memory_of_the_brute_force_loses_nothing(compositions: tuple[list[list[int]], ...]) -> None:
    """[SV-bounds] the key step of "The brute force" in solver_pruning.md: two states with
    one position (they differ at most in knowledge, turn number and history) have the
    same legal actions, each leading to one position again, and the same fields."""
    hits = 0
    for _, config, deck in cases(compositions):
        brute_best(initial_state(config, deck), check_key=True)
        hits += 1
    assert hits > 100


def test_the_memory_check_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key that forgets the tokens merges states with different futures: the check of
    the memory must fail."""
    def forgetful(state: GameState) -> tuple[object, ...]:
        return (state.fireworks, state.hands, state.next_card, state.strikes, state.current_player, state.remaining, state.terminal)
    monkeypatch.setattr(sys.modules[__name__], "position_key", forgetful)
    with pytest.raises(AssertionError):
        for _, config, deck in cases(COMPOSITIONS[:1]):
            brute_best(initial_state(config, deck), check_key=True)


@pytest.mark.parametrize("rules", sorted(RULES))
def test_the_cases_cover_every_rule_set(rules: str) -> None:
    """The grid reaches every rule set with decks of each composition."""
    compositions = {tuple(map(tuple, (suit.counts for suit in config.suits))) for name, config, _ in cases()
                    if name == rules}
    assert len(compositions) == len(COMPOSITIONS)
