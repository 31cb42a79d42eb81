"""Building blocks of the case functions: what a preset admits, hand-built decks and
simple open rules that reach interesting states by legal play [VEC-cases, P-presets].

The rules here look at the mover's own cards (they are "open"): they exist to steer a
game to the state a clause is about, not to play well or fairly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, identity, rank_of, suit_of
from hanabi_ref.engine.dealing import SplitMix64
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.engine.validation import VARIANT_NAMES
from hanabi_ref.engine.state import GameState
from hanabi_ref.tools.vectors.model import Run, expect
from hanabi_ref.engine.tables import tables_for

RED, YELLOW, GREEN, BLUE, PURPLE, SIXTH = range(6)
Card = tuple[int, int]  # (value, suit), value first as in Definition 2.9 [E-3]

# Example 2.8's hands: John holds red 1, green 4, green 5, purple 1, purple 4.
JOHN: Final[tuple[Card, ...]] = ((1, RED), (4, GREEN), (5, GREEN), (1, PURPLE), (4, PURPLE))
MARY: Final[tuple[Card, ...]] = ((2, YELLOW), (3, YELLOW), (2, BLUE), (3, BLUE), (2, RED))
SIXTH_HAND: Final[tuple[Card, ...]] = ((1, SIXTH), (2, RED), (3, YELLOW), (4, GREEN), (5, BLUE))
NAMED_VARIANTS: Final = tuple(name for name in VARIANT_NAMES.values() if name != "Custom")
THESIS_PLAYERS: Final = (1, 2, 3, 4, 5, 6, 7)

Rule = Callable[[GameState], Action]


def variants_of(preset: str) -> tuple[str, ...]:
    """The named variants a preset admits [P-presets]."""
    return PRESETS[preset].variants or NAMED_VARIANTS


def players_of(preset: str) -> tuple[int, ...]:
    """The player counts a preset admits (thesis: 1 to 7 of its unbounded range) [2.9-p]."""
    preset_ = PRESETS[preset]
    if preset_.max_players is None:
        return THESIS_PLAYERS
    return tuple(range(preset_.min_players, preset_.max_players + 1))


def slug(variant: str) -> str:
    """The short name of a variant [V-names]."""
    return next(short for short, name in VARIANT_NAMES.items() if name == variant)


# ------------------------------------------------------------------ decks


def stacked(config: GameConfig, top: Sequence[Card]) -> tuple[Identity, ...]:
    """A deck whose first cards are ``top`` (value, suit) and whose rest is the remaining
    composition in canonical order [D-explicit, D-canonical]."""
    tables = tables_for(config)
    rest = Counter(tables.canonical_deck)
    deck = []
    for value, suit in top:
        card = identity(value, suit, config.values)
        expect(rest[card] > 0, f"D-explicit: ({value}, {suit}) is not left in the composition")
        rest[card] -= 1
        deck.append(card)
    deck.extend(card for card in tables.canonical_deck if _take(rest, card))
    return tuple(deck)


def _take(rest: Counter[Identity], card: Identity) -> bool:
    if rest[card] <= 0:
        return False
    rest[card] -= 1
    return True


def start(config: GameConfig, *hands: Sequence[Card], then: Sequence[Card] = ()) -> Run:
    """The game dealing ``hands`` in blocks, seat 0 first, with ``then`` on the stack."""
    return Run.start(config, stacked(config, [card for hand in hands for card in hand] + list(then)))


def runs_first(config: GameConfig) -> tuple[int, ...]:
    """A deck holding one copy of every identity first, suit by suit, values 1 to n,
    then the remaining copies: open play can reach the maximum score from it."""
    top = [(value, suit) for suit, s in enumerate(config.suits) for value in range(1, config.values + 1) if s.counts[value - 1]]
    return stacked(config, top)


# ------------------------------------------------------------------ open rules


def is_playable(state: GameState, slot: int) -> bool:
    """Whether the mover's card in ``slot`` extends its field [2.16-2c-success]."""
    card = state.deck[state.hands[state.current_player][slot]]
    n = state.config.values
    return state.fireworks[suit_of(card, n)] == rank_of(card, n)


def is_dead(state: GameState, slot: int) -> bool:
    """Whether the mover's card in ``slot`` is already on its field."""
    card = state.deck[state.hands[state.current_player][slot]]
    n = state.config.values
    return state.fireworks[suit_of(card, n)] > rank_of(card, n)


def greedy(state: GameState) -> Action:
    """Play a playable card; else hint; else discard a card already played, or slot 0;
    else the first legal action."""
    legal = legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play) and is_playable(state, a.slot)]
    hints = [a for a in legal if isinstance(a, Hint)]
    discards = [a for a in legal if isinstance(a, Discard)]
    dead = [a for a in discards if is_dead(state, a.slot)]
    return (plays or hints or dead or discards or legal)[0]


def thrifty(state: GameState) -> Action:
    """Like :func:`greedy`, but hint only while more than half the tokens are left and
    prefer discarding otherwise: shorter games that still often reach a high score."""
    legal = legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play) and is_playable(state, a.slot)]
    hints = [a for a in legal if isinstance(a, Hint)]
    discards = [a for a in legal if isinstance(a, Discard)]
    dead = [a for a in discards if is_dead(state, a.slot)]
    spare = hints if state.clue_tokens > state.config.max_hints // 2 else []
    return (plays or dead or spare or discards or hints or legal)[0]


def discarder(state: GameState) -> Action:
    """Discard slot 0 when legal, else give the first legal hint, else play slot 0: runs
    through the stack without scoring much."""
    legal = legal_actions(state)
    discards = [a for a in legal if isinstance(a, Discard)]
    hints = [a for a in legal if isinstance(a, Hint)]
    return (discards or hints or legal)[0]


def random_rule(seed: int) -> Rule:
    """A uniformly random legal action from a seeded SplitMix64 [D-seed]."""
    generator = SplitMix64(seed)

    def choose(state: GameState) -> Action:
        return generator.choice(legal_actions(state))

    return choose


def careful_rule(seed: int) -> Rule:
    """Random among the hints, the discards and the playable plays (never a misplay)."""
    generator = SplitMix64(seed)

    def choose(state: GameState) -> Action:
        legal = legal_actions(state)
        safe = [a for a in legal if not isinstance(a, Play) or is_playable(state, a.slot)]
        return generator.choice(safe or legal)

    return choose


def drive(run: Run, rule: Rule, until: Callable[[Run], bool] = lambda run: False) -> Run:
    """Play ``rule`` until ``until`` holds or the game stops."""
    while not run.state.terminal and not until(run):
        run = run.then(rule(run.state))
    return run


def drive_to_end(run: Run, rule: Rule) -> Run:
    """Play ``rule`` until the game stops."""
    return drive(run, rule)
