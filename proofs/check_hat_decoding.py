"""Machine check of proofs/hat_decoding.md [H-budget, H-feasible, H-last-to-first, H-reclue-decode].

Lemma 2 is checked exhaustively as arithmetic on hint tokens, from the budget rules as
spec/hat.md states them (not from the strategy's code). Lemma 1 and the strategy's
adherence to the budgets are checked on random clues over real deals.
"""

from __future__ import annotations

import itertools
import random

from hanabi_ref.dealing import deck_from_seed
from hanabi_ref.game import play_game
from hanabi_ref.rules import GameConfig, make_config
from hanabi_ref.strategies.hat.player import CLUE, DISCARD, DecodeLog, Snapshot, standard_values
from hanabi_ref.strategies.hat.reclue import ReclueHatPlayer

T0 = 8
KINDS = ("play", "play5", "discard", "clue")


def _delta(kind: str, tokens: int) -> int | None:
    """Tokens after an action of ``kind`` with ``tokens`` before, or None if the action
    cannot be carried out (a clue without a token, a discard with all tokens)."""
    if kind == "clue":
        return tokens - 1 if tokens >= 1 else None
    if kind == "discard":
        return tokens + 1 if tokens < T0 else None
    if kind == "play5":
        return min(tokens + 1, T0)
    return tokens


def _allowed_sequences(h: int, members: int) -> list[tuple[str, ...]]:
    """Every sequence of kinds for j_2 .. j_k that H-budget allows, chosen last to first:
    a clue only while the clues after it leave a token of h, a discard only while
    h + (its position) < t0 (positions counted from j_1 = 0)."""
    result = []
    for kinds in itertools.product(KINDS, repeat=members):
        clues_after = 0
        ok = True
        for index in range(members - 1, -1, -1):
            position = index + 1
            kind = kinds[index]
            if kind == "clue" and not clues_after + 1 <= h:
                ok = False
            if kind == "discard" and not h + position < T0:
                ok = False
            clues_after += kind == "clue"
        if ok:
            result.append(kinds)
    return result


def _executable(h: int, first: str, rest: tuple[str, ...]) -> bool:
    tokens: int | None = h
    for kind in (first, *rest):
        assert tokens is not None
        tokens = _delta(kind, tokens)
        if tokens is None:
            return False
    return True


def test_budgets_make_every_clue_executable() -> None:
    """[H-budget, H-feasible] Lemma 2: for every h and every number of clued seats, every
    sequence the budgets allow is executable after every first action that takes no
    token (below t0) or after a play or a clue (at t0), and those first actions are
    at least four whatever the hand size (3 or 4)."""
    cases = 0
    for h in range(T0 + 1):
        for members in range(0, 4):  # clued seats after the first: k - 1 = 0 .. 3 (5 players: 4 clued)
            for rest in _allowed_sequences(h, members):
                firsts = ("play", "play5", "discard") if h < T0 else ("play", "play5", "clue")
                for first in firsts:
                    assert _executable(h, first, rest), (h, first, rest)
                    cases += 1
                for hand_size in (3, 4):
                    # h < t0: every play and every discard; h = t0: every play and the clue.
                    options = 2 * hand_size if h < T0 else hand_size + 1
                    assert options >= 4
    assert cases > 1000


def _random_clue(rng: random.Random, config: GameConfig) -> tuple[Snapshot, list[list[int]]]:
    """A snapshot and k hands from a real deal: fields and discards from a prefix of the
    deck, hands from what follows."""
    deck = list(deck_from_seed(config, rng.randrange(2**32)))
    n = config.values
    fields = [0] * config.suit_count
    discarded = [0] * (n * config.suit_count)
    cursor = 0
    for _ in range(rng.randrange(0, 30)):
        card = deck[cursor]
        cursor += 1
        if fields[card // n] == card % n:
            fields[card // n] += 1
        else:
            discarded[card] += 1
    members = rng.randrange(1, config.players)
    hands = [deck[cursor + 4 * m : cursor + 4 * m + 4] for m in range(members)]
    snap = Snapshot(tuple(fields), tuple(discarded), rng.randrange(T0 + 1), rng.randrange(0, 20), 0)
    return snap, hands


def test_standard_actions_never_depend_on_earlier_seats_and_keep_the_budgets() -> None:
    """[H-last-to-first, H-budget] Lemma 1 on random clues: changing the hand of a seat
    before j_l never changes j_l's action; the actions keep the budgets."""
    rng = random.Random(20261122)
    configs = [make_config(p, preset="hanab-live", variant=v) for p in (4, 5) for v in ("no-variant", "rainbow", "black", "6-suits")]
    changed_later = 0
    for trial in range(3000):
        config = configs[trial % len(configs)]
        snap, hands = _random_clue(rng, config)
        position = 1  # the clued seats after the first, as the cluer computes them
        values = standard_values(config, snap, hands, position)
        assert sum(v == CLUE for v in values) <= snap.tokens
        for index, value in enumerate(values):
            if DISCARD <= value < CLUE:
                assert snap.tokens + position + index < T0
        if len(hands) < 2:
            continue
        # change one hand: an earlier seat's change must not move any later value
        victim = rng.randrange(len(hands))
        _, other_hands = _random_clue(rng, config)
        altered = [list(hand) for hand in hands]
        altered[victim] = other_hands[0]
        new_values = standard_values(config, snap, altered, position)
        assert new_values[victim + 1 :] == values[victim + 1 :]
        changed_later += new_values[:victim] != values[:victim]
    assert changed_later > 0  # later hands do steer earlier actions: the order matters


def test_every_recluing_value_is_resolved_as_encoded() -> None:
    """Part 2 (Theorem 2, Lemmas 4-6): in 40 real games per configuration every seat
    resolves every value of every clue as its cluer encoded it."""
    setups = [(p, "hanab-live", v) for p in (4, 5) for v in ("no-variant", "6-suits", "rainbow", "black")]
    setups += [(4, "thesis", "no-variant"), (5, "thesis", "no-variant")]
    for players, preset, variant in setups:
        config = make_config(players, preset=preset, variant=variant)
        for seed in range(40):
            log = DecodeLog(strict=True)
            play_game(config, lambda config, seat, seed, log=log: ReclueHatPlayer(config, seat, log), seed=seed)
            assert log.compared > 0
