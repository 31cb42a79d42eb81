"""Our engine as an OpenSpiel game, ``hanabi_ref`` [RL-os-game, RL-os-chance, RL-os-actions,
RL-os-observation, RL-os-strings, RL-os-rewards, RL-os-serialize, RL-os-checks].

Importing this module registers the game with ``pyspiel.register_game``; then
``pyspiel.load_game("hanabi_ref", {"players": 3, "rules": "hle"})`` loads it and every
algorithm of OpenSpiel runs on it.  The cards come from chance nodes, one card each, as in
OpenSpiel's ``hanabi``: the p*h cards of the deal, then the card each move draws.  Our
engine is handed the deck those outcomes make (EP-seed's adoption: the cards dealt so far,
then the configuration's other cards in canonical order, each later outcome moved to the
top of the stack when it is drawn), so its game is the one the chance nodes chose.

Under the ``hle`` preset the action ids, the observation tensor and the strings are those
of OpenSpiel's ``hanabi``: the plain action space (RL-plain), the ``canonical`` encoder
(RL-canonical) and HLE's texts (:mod:`hanabi_ref.tools.peers.hle_text`).

It is written for OpenSpiel's own checks [RL-os-checks]: ``pyspiel.random_sim_test`` with
serialization (clones share the immutable :class:`Position`, serialization replays the
actions), and its algorithms (``terminal_rewards`` gives the reward model OpenSpiel's MCTS
requires).

pyspiel is needed (the ``openspiel`` extra, with numpy); without it importing this module
raises one ``ImportError`` that names the extra [C-extras].
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs
import numpy as np

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.base.extras import missing_import

try:
    import pyspiel
except ImportError:  # [C-extras] one line naming the extra, not a traceback
    raise missing_import("the OpenSpiel game (hanabi_ref.tools.rl.openspiel_game)",
                         ModuleNotFoundError(name="pyspiel"), "openspiel") from None

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json, config_to_json, make_config, max_moves
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.engine.state import GameState, score
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.transition import apply_legal, initial_state
from hanabi_ref.engine.validation import LIMITS, VARIANT_NAMES, resolve_variant
from hanabi_ref.engine.view import PlayerView, ViewMaker
from hanabi_ref.tools.peers.hle_rules import life_tokens
from hanabi_ref.tools.peers.hle_text import CardText, TableText, deal_text, move_text, seat_order, table_text
from hanabi_ref.tools.protocol.seeded import adopt_drawn, adopted_deck
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.encoders import encode, revealed
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import ENCODINGS, layout

__all__ = ["GAME_NAME", "PARAMETERS", "HanabiRefGame", "HanabiRefState", "game_config", "load_game"]

GAME_NAME: Final = "hanabi_ref"
"""The name the game is registered under [RL-os-game]."""

PARAMETERS: Final[Mapping[str, Any]] = MappingProxyType(
    {"players": 2, "rules": "hle", "variant": "no-variant", "terminal_rewards": False})
"""[RL-os-game] the game's parameters and their defaults.  No seed: the cards are chance nodes."""

UNWRITABLE: Final = "(),="
"""Characters an OpenSpiel game string cannot carry inside a parameter's value."""


def game_config(params: dict[str, Any]) -> tuple[GameConfig, dict[str, Any]]:
    """[RL-os-game] the configuration of the parameters ``params`` (defaults filled in), and
    the parameters as the game keeps them (the variant by its short name when it has one).
    Refused with :class:`RLError` naming the parameter: an unknown one, a preset or
    variant we do not have, a player count the preset does not admit, a variant name an
    OpenSpiel game string cannot carry, or a configuration the encodings cannot represent
    (RL-configs)."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise RLError("RL-os-game", f"unknown parameter {unknown[0]!r} (known: {', '.join(PARAMETERS)})")
    given = {**PARAMETERS, **params}
    rules, variant = given["rules"], given["variant"]
    if not isinstance(rules, str) or not isinstance(variant, str):
        raise RLError("RL-os-game", f"rules and variant are strings, got rules={rules!r} variant={variant!r}")
    try:
        name = resolve_variant(variant)
        config = make_config(given["players"], rules, name)
    except ConfigError as error:
        raise RLError("RL-os-game", str(error)) from None
    slug = {canonical: short for short, canonical in VARIANT_NAMES.items()}.get(name, name)
    if any(character in slug for character in UNWRITABLE):
        raise RLError("RL-os-game", f"variant {name!r}: OpenSpiel's game strings cannot carry the characters "
                      f"{UNWRITABLE!r} (variants by short name: {', '.join(s for s in VARIANT_NAMES if s != 'custom')})")
    layout("canonical", config)  # [RL-configs] refuses a variant the encodings cannot represent
    return config, {**given, "rules": rules, "variant": slug}


def game_type(terminal_rewards: bool) -> Any:
    """[RL-os-game, RL-os-rewards] the game's type: sequential, explicit chance, imperfect
    information, identical utilities; rewards after every move, or only at the end under
    ``terminal_rewards`` (what OpenSpiel's MCTS asks for)."""
    model = pyspiel.GameType.RewardModel
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="hanabi_ref: the reference engine of Hanabi",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.IDENTICAL,
        reward_model=model.TERMINAL if terminal_rewards else model.REWARDS,
        max_num_players=LIMITS["players"],
        min_num_players=min(preset.min_players for preset in PRESETS.values()),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(PARAMETERS),
    )


def game_info(config: GameConfig) -> Any:
    """[RL-os-game] the sizes: the plain actions (RL-plain), one chance outcome per card
    identity, scores from 0 to the maximum, and at most L-moves moves of the players."""
    return pyspiel.GameInfo(
        num_distinct_actions=plain_actions(config).size,
        max_chance_outcomes=config.suit_count * config.values,
        num_players=config.players,
        min_utility=0.0,
        max_utility=float(tables_for(config).max_score),
        utility_sum=None,
        max_game_length=max_moves(config),
    )


def load_game(name: str, params: dict[str, Any]) -> Any:
    """``pyspiel.load_game(name, params)``: any OpenSpiel game, ``hanabi_ref`` included."""
    return pyspiel.load_game(name, params)


# --------------------------------------------------------------- the position [RL-os-chance]


@functools.lru_cache(maxsize=64)
def _counts(config: GameConfig) -> tuple[int, ...]:
    """The copies of each card identity in the deck."""
    counter = Counter(int(card) for card in tables_for(config).canonical_deck)
    return tuple(counter[index] for index in range(config.suit_count * config.values))


@attrs.frozen(slots=False)
class Position:
    """Where a game of the OpenSpiel game stands [RL-os-chance]: immutable, so a clone
    shares it (``__deepcopy__``), and pickled as the actions that made it
    (``__reduce__``), which OpenSpiel's serialization replays.

    ``dealt``: the chance outcomes so far (the top of S0).  ``settled``: the engine's state
    (None until the deal is complete).  ``pending``: a player's move waiting for the cards
    it draws, ``shown`` that move applied to a stack whose unknown cards are placeholders
    (the configuration's remaining cards in canonical order).  ``before``: the score before
    the last player's move.  ``actions``: every OpenSpiel action applied."""

    config: GameConfig
    dealt: tuple[int, ...] = ()
    settled: GameState | None = None
    pending: Action | None = None
    shown: GameState | None = None
    before: int = 0
    actions: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str, tuple[int, ...]]]:
        return replayed, (json.dumps(config_to_json(self.config), sort_keys=True), self.actions)

    @property
    def is_chance(self) -> bool:
        return self.settled is None or self.pending is not None

    @property
    def is_terminal(self) -> bool:
        return self.settled is not None and self.pending is None and self.settled.terminal

    @functools.cached_property
    def table(self) -> GameState:
        """The state shown: the settled one, or the pending move on placeholders, or during
        the deal the first state of a deck made of the cards dealt and placeholders
        (computed once, when first asked for)."""
        if self.shown is not None:
            return self.shown
        if self.settled is not None:
            return self.settled
        return initial_state(self.config, adopted_deck(self.config, self.dealt))

    def current_player(self) -> int:
        if self.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.is_chance:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.settled is not None
        return self.settled.current_player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """[RL-os-chance] each identity still in the stack, with its share of the stack."""
        left = list(_counts(self.config))
        for card in self.dealt:
            left[card] -= 1
        total = sum(left)
        return [(card, count / total) for card, count in enumerate(left) if count > 0]

    def legal_moves(self) -> list[int]:
        """[RL-os-actions] the plain indices of the legal actions of the player to move, ascending."""
        if self.is_chance or self.is_terminal:
            return []
        state = self.settled
        assert state is not None
        space = plain_actions(self.config)
        return sorted(space.index(action, state.current_player) for action in legal_actions(state))

    def after(self, action: int) -> Position:
        """The position after OpenSpiel's ``action``: a chance outcome or a player's move."""
        if self.is_terminal:
            raise RLError("RL-os-chance", f"action {action}: the game is over")
        step = self._dealt_card if self.is_chance else self._moved
        return attrs.evolve(step(action), actions=(*self.actions, action))

    def _dealt_card(self, card: int) -> Position:
        """[RL-os-chance] a chance outcome: the card ``card`` is dealt, or drawn by the pending move."""
        if card not in dict(self.chance_outcomes()):
            raise RLError("RL-os-chance", f"chance outcome {card} is not a card left in the stack")
        dealt = (*self.dealt, card)
        if self.settled is None:
            if len(dealt) < self.config.players * self.config.hand_size:
                return attrs.evolve(self, dealt=dealt)
            return attrs.evolve(self, dealt=dealt, settled=initial_state(self.config, adopted_deck(self.config, dealt)))
        return self._drawn(dealt)

    def _drawn(self, dealt: tuple[int, ...]) -> Position:
        """The pending move replayed on a stack whose drawn cards are the outcomes so far;
        settled once it draws no more cards than the outcomes give."""
        base, move, shown = self.settled, self.pending, self.shown
        assert base is not None and move is not None and shown is not None
        drawn = dealt[base.next_card:]
        if shown.deck[base.next_card: base.next_card + len(drawn)] != drawn:  # the placeholders were other cards
            shown = apply_legal(adopt_drawn(base, drawn), move)
        if shown.next_card - base.next_card > len(drawn):
            return attrs.evolve(self, dealt=dealt, shown=shown)
        return attrs.evolve(self, dealt=dealt, settled=shown, pending=None, shown=None)

    def _moved(self, index: int) -> Position:
        """[RL-os-actions] a player's move, plain index ``index``; a chance node follows it
        while it draws cards not yet dealt."""
        state = self.settled
        assert state is not None
        action = plain_actions(self.config).action(index, state.current_player)  # [RL-plain] refuses a non-index
        problem = illegality(state, action)
        if problem is not None:
            raise RLError("RL-os-actions", f"action {index} ({move_text(self.config, action, state.current_player)}) "
                          f"is illegal: {problem[0]}: {problem[1]}")
        after, before = apply_legal(state, action), score(state)
        if after.next_card == state.next_card:
            return attrs.evolve(self, settled=after, before=before)
        return attrs.evolve(self, pending=action, shown=after, before=before)

    def score(self) -> int:
        """The engine's score of the state shown (0 during the deal) [RL-os-rewards]."""
        return 0 if self.settled is None else score(self.table)


def replayed(config_text: str, actions: tuple[int, ...]) -> Position:
    """[RL-os-serialize] the position that ``actions`` make from the start of a game of the
    configuration ``config_text`` (its JSON)."""
    position = Position(config_from_json(json.loads(config_text)))
    for action in actions:
        position = position.after(int(action))
    return position


# ------------------------------------------------------------ what a seat sees [RL-os-observation]


def trimmed_view(view: PlayerView, dealt: int) -> PlayerView:
    """[RL-os-observation] ``view`` without the cards not yet dealt: a card whose id (its
    place in S0) is ``dealt`` or more leaves the hands, and the stack still holds it.
    Nothing else of a view depends on those cards."""
    if view.deck_size + dealt >= len(view.tables.canonical_deck):
        return view
    keep = [[slot for slot, card in enumerate(hand) if card < dealt] for hand in view.hands]
    return attrs.evolve(
        view,
        hands=tuple(tuple(hand[slot] for slot in slots) for hand, slots in zip(view.hands, keep)),
        cards=tuple(tuple(hand[slot] for slot in slots) for hand, slots in zip(view.cards, keep)),
        knowledge=tuple(tuple(hand[slot] for slot in slots) for hand, slots in zip(view.knowledge, keep)),
        deck_size=len(view.tables.canonical_deck) - dealt,
    )


def marked_seat(position: Position) -> int | None:
    """[RL-os-strings] the seat HLE's texts mark ``Cur player``: the player to move; at the
    end, the seat that would move next unless a card is still to be dealt (a hand is short
    while the stack is not empty); none at a chance node."""
    if position.is_chance:
        return None
    state = position.table
    if state.terminal and state.deck_size > 0 and any(len(hand) < state.config.hand_size for hand in state.hands):
        return None
    return state.current_player


def card_texts(state: GameState, seat: int, hands: tuple[tuple[int, ...], ...], knowledge: tuple[tuple[int, ...], ...],
               hidden: bool, named: dict[int, list[int]]) -> tuple[CardText, ...]:
    """The card lines of seat ``seat``'s hand (``hidden``: its cards face down)."""
    lines = []
    for card_id, mask in zip(hands[seat], knowledge[seat]):
        colour, rank = named.get(card_id, (-1, -1))
        lines.append(CardText(None if hidden else state.deck[card_id], mask, None if colour < 0 else colour,
                              None if rank < 0 else rank))
    return tuple(lines)


class Observer:
    """[RL-os-observation, RL-os-strings] OpenSpiel's observer of the game: ``tensor`` the
    encoding of a seat's view (``canonical`` by default, any of RL-encodings by the
    observer parameter ``encoding``), ``dict`` its sections by name, ``string_from`` HLE's
    observation text."""

    def __init__(self, config: GameConfig, encoding: str) -> None:
        if encoding not in ENCODINGS:
            raise RLError("RL-encodings", f"unknown encoding {encoding!r} (known: {', '.join(ENCODINGS)})")
        lay = layout(encoding, config)
        self.config, self.encoding = config, encoding
        self.tensor = np.zeros(lay.size, np.float32)
        self.dict = {section.name: self.tensor[section.start: section.stop] for section in lay.sections
                     if section.length}
        self.views = ViewMaker(config, sealed=False)

    def view(self, state: HanabiRefState, seat: int) -> PlayerView:
        """What ``seat`` sees of the position of ``state``."""
        position = state.position
        view = self.views.views(position.table, (seat,))[0]
        return trimmed_view(view, len(position.dealt))

    def set_from(self, state: HanabiRefState, player: int) -> None:
        self.tensor[:] = encode(self.encoding, self.view(state, player))

    def string_from(self, state: HanabiRefState, player: int) -> str:
        """HLE's ``HanabiObservation::ToString`` for seat ``player``."""
        view = self.view(state, player)
        marked = marked_seat(state.position)
        table = state.position.table
        named = revealed(view.history)
        hands = [card_texts(table, seat, view.hands, view.knowledge, seat == player, named)
                 for seat in range(self.config.players)]
        return table_text(self.config, TableText(
            life_tokens(self.config) - view.strikes, view.clue_tokens, view.fireworks, seat_order(hands, player),
            None if marked is None else (marked - player) % self.config.players, view.deck_size,
            tuple(card for _, card in view.discard)))


# ------------------------------------------------------------------- the OpenSpiel classes


class HanabiRefGame(pyspiel.Game):  # type: ignore[misc]
    """[RL-os-game] the game ``hanabi_ref``: parameters ``players``, ``rules`` (a preset),
    ``variant`` and ``terminal_rewards``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        config, kept = game_config(dict(params or {}))
        super().__init__(game_type(bool(kept["terminal_rewards"])), game_info(config), kept)
        self.config = config
        self.terminal_rewards = bool(kept["terminal_rewards"])

    def new_initial_state(self, *args: Any) -> HanabiRefState:
        """The start of a game: the first chance node of the deal."""
        return HanabiRefState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> Observer:
        """[RL-os-observation] the observer of one seat: OpenSpiel's default observation type
        (a seat's own view, no perfect recall) and no information state; the observer
        parameter ``encoding`` names another of our encodings."""
        if isinstance(iig_obs_type, dict) and params is None:  # called as f(params)
            iig_obs_type, params = None, iig_obs_type
        if iig_obs_type is not None and (iig_obs_type.perfect_recall or not iig_obs_type.public_info
                                         or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise RLError("RL-os-observation", "only the default observation type (a seat's own view, no perfect "
                          "recall) is provided; there is no information state")
        options = dict(params or {})
        unknown = sorted(set(options) - {"encoding"})
        if unknown:
            raise RLError("RL-os-observation", f"unknown observer parameter {unknown[0]!r} (known: encoding)")
        return Observer(self.config, str(options.get("encoding", "canonical")))


class HanabiRefState(pyspiel.State):  # type: ignore[misc]
    """[RL-os-chance, RL-os-actions, RL-os-rewards] one state of ``hanabi_ref``.  Its only
    attribute is the immutable :class:`Position`."""

    def __init__(self, game: HanabiRefGame) -> None:
        super().__init__(game)
        self.position = Position(game.config)
        self.terminal_rewards = game.terminal_rewards

    def current_player(self) -> int:
        return self.position.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.legal_moves() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes() if self.position.is_chance else []

    def _apply_action(self, action: int) -> None:
        self.position = self.position.after(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """[RL-os-strings] HLE's texts: ``(Deal R1)`` for a chance outcome, else the move."""
        config = self.position.config
        if player == pyspiel.PlayerId.CHANCE:
            return deal_text(config, Identity(action))
        return move_text(config, plain_actions(config).action(action, player), player)

    def is_terminal(self) -> bool:
        return self.position.is_terminal

    def returns(self) -> list[float]:
        """[RL-os-rewards] the engine's score for every player (under ``terminal_rewards``: 0 until the end)."""
        if self.terminal_rewards and not self.position.is_terminal:
            return [0.0] * self.position.config.players
        return [float(self.position.score())] * self.position.config.players

    def rewards(self) -> list[float]:
        """[RL-os-rewards] the score now minus the score before the last player's move, as
        OpenSpiel's ``hanabi`` (under ``terminal_rewards``: the returns)."""
        if self.terminal_rewards:
            return self.returns()
        return [float(self.position.score() - self.position.before)] * self.position.config.players

    def __str__(self) -> str:
        """[RL-os-strings] HLE's ``HanabiState::ToString``: every hand face up, in seat order."""
        position = self.position
        state, config = position.table, position.config
        view = trimmed_view(ViewMaker(config, sealed=False).views(state, (0,))[0], len(position.dealt))
        named = revealed(state.history)
        hands = tuple(card_texts(state, seat, view.hands, view.knowledge, False, named) for seat in range(config.players))
        return table_text(config, TableText(
            life_tokens(config) - state.strikes, state.clue_tokens, state.fireworks, hands, marked_seat(position),
            view.deck_size, tuple(state.deck[card] for card in state.discard)))


pyspiel.register_game(game_type(False), HanabiRefGame)
