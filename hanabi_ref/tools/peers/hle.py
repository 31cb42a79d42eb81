"""DeepMind's Hanabi Learning Environment (``pyhanabi``) behind the
:class:`~hanabi_ref.tools.protocol.engine.Engine` interface [PE-hle, PE-hle-deal, PE-hle-actions,
PE-hle-state].

pyhanabi plays our ``hle`` preset (:mod:`hanabi_ref.tools.peers.hle_rules`) and reports its
state through structured getters, including each card's knowledge.  Its public API
deals only random cards (``deal_random_card``); the C++ engine underneath accepts any
legal deal move, so the adapter builds that move itself [PE-hle-deal] and checks after
every deal that the card dealt is the one asked for.
"""

from __future__ import annotations

import struct
from typing import Any, Final

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import as_identities, suit_of, value_of
from hanabi_ref.tools.peers import import_peer
from hanabi_ref.tools.peers.hle_observation import CardLine, parse_observation
from hanabi_ref.tools.peers.hle_rules import (
    HLEMove,
    card_json,
    from_hle_move,
    hle_parameters,
    hle_unsupported,
    knowledge_json,
    life_tokens,
    to_hle_move,
)
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.tools.protocol.engine import EngineFailure, check_supported, started
from hanabi_ref.tools.protocol.seeded import Deal
from hanabi_ref.engine.tables import tables_for

# hanabi_lib/hanabi_move.h: ``HanabiMove`` holds ``Type move_type_`` (an int-sized enum),
# then int8 card_index_, target_offset_, color_, rank_; kDeal is type 5.
DEAL_MOVE_LAYOUT: Final = "<ibbbb"
DEAL_MOVE_TYPE: Final = 5
MOVE_KINDS: Final = {1: "play", 2: "discard", 3: "reveal_color", 4: "reveal_rank"}
INT8: Final = range(-128, 128)


class HLEEngine:
    """pyhanabi's ``HanabiState``, dealt our deck card by card [PE-hle]."""

    name = "hle"
    shows_views = True  # [PE-hle-views] read from pyhanabi's observations

    def __init__(self) -> None:
        self._pyhanabi = import_peer(
            "hle", "hanabi_learning_environment.pyhanabi", "hanabi-learning-environment (pyhanabi)"
        )
        self._game: Any = None
        self._state: Any = None
        self._config: GameConfig | None = None
        self._deck: tuple[int, ...] = ()
        self._dealt = 0
        self._card_lines: dict[tuple[GameConfig, str], CardLine] = {}

    def unsupported(self, config: GameConfig) -> str | None:
        """[PE-hle-players, PE-hle-variants] and the rule options of the hle preset."""
        return hle_unsupported(config)

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        """A new ``HanabiGame`` with HLE's parameters for ``config``; deal ``deck`` [PE-hle-deal]."""
        check_supported(self, config)
        parameters: dict[str, object] = {**hle_parameters(config), "seed": 0, "random_start_player": 0}
        # observation_type 1 is CARD_KNOWLEDGE: observations carry each card's knowledge.
        parameters["observation_type"] = 1
        self._game = self._pyhanabi.HanabiGame(parameters)
        self._state = self._game.new_initial_state()
        self._config, self._deck, self._dealt = config, tuple(deck), 0
        self._deal()

    @property
    def config(self) -> GameConfig:
        """The configuration of the game being played."""
        return started(self._config, "hle adapter")

    @property
    def game_state(self) -> Any:
        """The peer's state object of the game being played."""
        return started(self._state, "hle adapter")

    def _deal(self) -> None:
        """[PE-hle-deal] while HLE waits for a chance move, deal it the next card of S0."""
        chance = self._pyhanabi.CHANCE_PLAYER_ID
        while not self.game_state.is_terminal() and self.game_state.cur_player() == chance:
            if self._dealt >= len(self._deck):
                raise EngineFailure("hle adapter: HLE asks for a card but every card of the deck is dealt")
            card = as_identities(self._deck)[self._dealt]
            self._deal_card(suit_of(card, self.config.values), value_of(card, self.config.values) - 1)
            self._dealt += 1

    def _deal_card(self, color: int, rank: int) -> None:
        """[PE-hle-deal] apply HLE's deal move for (color, rank), built in memory with the
        layout of ``hanabi_move.h``, and check that exactly this card reached a hand."""
        ffi, lib = self._pyhanabi.ffi, self._pyhanabi.lib
        before = self.game_state.player_hands()
        buffer = ffi.new("char[8]", struct.pack(DEAL_MOVE_LAYOUT, DEAL_MOVE_TYPE, -1, -1, color, rank))
        move = ffi.new("pyhanabi_move_t*")
        move.move = ffi.cast("void*", buffer)
        if not lib.MoveIsLegal(self.game_state._state, move):
            raise EngineFailure(f"hle adapter: HLE refuses to deal deck[{self._dealt}] (colour {color}, rank {rank})")
        lib.StateApplyMove(self.game_state._state, move)
        grown = [
            (len(old), new) for old, new in zip(before, self.game_state.player_hands()) if len(new) != len(old)
        ]
        if len(grown) != 1 or len(grown[0][1]) != grown[0][0] + 1 or _pair(grown[0][1][-1]) != (color, rank):
            raise EngineFailure(
                "hle adapter: this pyhanabi build did not deal the chosen card; "
                "its HanabiMove layout differs from hanabi_move.h"
            )

    def apply(self, action: Action) -> str | None:
        """Apply ``action`` if HLE's ``MoveIsLegal`` accepts it, then deal [PE-hle-actions]."""
        if self.game_state.is_terminal():
            return "HLE: the game is over"
        move = self._move(action)
        if isinstance(move, str):
            return f"not expressible as an HLE move: {move}"
        if not self.game_state.move_is_legal(move):
            return f"HLE: MoveIsLegal is false for {move}"
        self.game_state.apply_move(move)
        self._deal()
        return None

    def _move(self, action: Action) -> Any:
        """pyhanabi's ``HanabiMove`` for ``action`` [PE-hle-actions]."""
        move = to_hle_move(action, self.game_state.cur_player(), self.config.players)
        if isinstance(move, str):
            return move
        fields = (move.card_index, move.target_offset, move.color, move.rank)
        if any(field not in INT8 for field in fields):
            return f"a field of {move} does not fit HLE's 8-bit move fields"
        factory = self._pyhanabi.HanabiMove
        if move.kind == "discard":
            return factory.get_discard_move(move.card_index)
        if move.kind == "play":
            return factory.get_play_move(move.card_index)
        if move.kind == "reveal_color":
            return factory.get_reveal_color_move(move.target_offset, move.color)
        return factory.get_reveal_rank_move(move.target_offset, move.rank)

    def legal_actions(self) -> list[Action]:
        """HLE's ``legal_moves``, as our actions [PE-hle-actions]."""
        if self.game_state.is_terminal():
            return []
        current, players = self.game_state.cur_player(), self.config.players
        return [from_hle_move(_hle_move(move), current, players) for move in self.game_state.legal_moves()]

    def state(self) -> dict[str, Any]:
        """The T-state object from pyhanabi's getters [PE-hle-state]."""
        config, state = self.config, self.game_state
        deck_size = int(state.deck_size())
        report: dict[str, Any] = {
            "hands": [[card_json(*_pair(card)) for card in hand] for hand in state.player_hands()],
            "knowledge": [self._knowledge(seat) for seat in range(config.players)],
            "fireworks": [int(height) for height in state.fireworks()],
            "discard": [card_json(*_pair(card)) for card in state.discard_pile()],
            "clue_tokens": int(state.information_tokens()),
            "strikes": life_tokens(config) - int(state.life_tokens()),
            "deck_size": deck_size,
            # [PE-hle-state] HLE's history holds every move and every deal.
            "turns": int(self._pyhanabi.lib.StateLenMoveHistory(state._state)) - (tables_for(config).deck_size - deck_size),
            "terminal": bool(state.is_terminal()),
            "score": int(state.score()),
        }
        if state.cur_player() >= 0:
            report["current"] = int(state.cur_player())
        return report

    def _knowledge(self, seat: int) -> list[dict[str, list[int]]]:
        """[PE-hle-state] the knowledge seat ``seat`` has of its own cards."""
        config = self.config
        observation = self.game_state.observation(seat)  # kept alive while its knowledge is read
        return [
            knowledge_json(
                [c for c in range(config.suit_count) if card.color_plausible(c)],
                [r for r in range(config.values) if card.rank_plausible(r)],
            )
            for card in observation.card_knowledge()[0]
        ]

    def observe(self, seat: int) -> dict[str, Any] | None:
        """The T-view object of ``seat`` read from ``str(observation(seat))``, HLE's
        ``HanabiObservation::ToString``, the text OpenSpiel's observation strings also are
        [PE-hle-views, PE-openspiel-views]."""
        players = self.config.players
        if not 0 <= seat < players:
            raise EngineFailure(f"hle adapter: seat {seat} is not a seat of this game (0..{players - 1})")
        text = str(self.game_state.observation(seat))
        return parse_observation(text, self.config, seat, True, self._card_lines)

    def close(self) -> None:
        """Forget the game (pyhanabi runs in this process)."""
        self._state, self._game, self._config = None, None, None


def _pair(card: Any) -> tuple[int, int]:
    return int(card.color()), int(card.rank())


def _hle_move(move: Any) -> HLEMove:
    """[PE-hle-actions] a pyhanabi ``HanabiMove`` as an :class:`HLEMove`."""
    kind = MOVE_KINDS.get(int(move.type()))
    if kind is None:
        raise EngineFailure(f"hle adapter: HLE lists a move of type {move.type()!r} for a player")
    return HLEMove(kind, int(move.card_index()), int(move.target_offset()), int(move.color()), int(move.rank()))


class HLESeedEngine(HLEEngine):
    """pyhanabi dealing from its own seed through its public API (``deal_random_card``)
    and revealing each card as it is drawn [PE-hle-seed, EP-seed]: the adapter for the
    DeepMind environment as it is used, with no deal of ours forced on it.

    The game's ``seed`` parameter seeds HLE's own generator; the cards dealt to the
    hands (seat 0's first, slot by slot, as HLE deals them) are revealed when the game
    starts, then each card drawn after a play or a discard."""

    name = "hle-seed"
    deals_from_seed = True

    def __init__(self) -> None:
        super().__init__()
        self._drawn: tuple[int, ...] = ()

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        """Not for this adapter: HLE deals from its own seed here (the ``hle`` adapter is
        handed our deck)."""
        raise EngineFailure("hle-seed adapter: deals from its own seed; it is not handed a deck (EP-seed)")

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        """A new ``HanabiGame`` with HLE's parameters for ``config`` and ``seed``, dealt by
        HLE [PE-hle-seed]; the cards in the hands, seat by seat."""
        check_supported(self, config)
        parameters: dict[str, object] = {**hle_parameters(config), "seed": seed, "random_start_player": 0}
        parameters["observation_type"] = 1
        self._game = self._pyhanabi.HanabiGame(parameters)
        self._state = self._game.new_initial_state()
        self._config, self._deck, self._dealt = config, (), 0
        self._deal_randomly()
        self._drawn = ()
        n = config.values
        return Deal(tuple(color * n + rank for hand in self.game_state.player_hands()
                          for color, rank in map(_pair, hand)), False)

    def _deal_randomly(self) -> tuple[int, ...]:
        """[PE-hle-seed] while HLE waits for a chance move, let it deal; the cards dealt."""
        chance, n = self._pyhanabi.CHANCE_PLAYER_ID, self.config.values
        dealt: list[int] = []
        while not self.game_state.is_terminal() and self.game_state.cur_player() == chance:
            before = [len(hand) for hand in self.game_state.player_hands()]
            self.game_state.deal_random_card()
            hands = self.game_state.player_hands()
            grown = [hand for size, hand in zip(before, hands) if len(hand) == size + 1]
            if len(grown) != 1:
                raise EngineFailure("hle-seed adapter: HLE's deal did not add one card to one hand")
            color, rank = _pair(grown[0][-1])
            dealt.append(color * n + rank)
        return tuple(dealt)

    def _deal(self) -> None:
        self._drawn = self._deal_randomly()

    def apply(self, action: Action) -> str | None:
        self._drawn = ()
        return super().apply(action)

    def drawn(self) -> tuple[int, ...]:
        """[PE-hle-seed] the cards HLE dealt after the last accepted action."""
        return self._drawn

    @property
    def game_config(self) -> GameConfig:
        return self.config
