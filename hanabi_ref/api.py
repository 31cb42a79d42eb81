"""The library's face: a game object in the style of python-chess and OpenSpiel, readable
cards and knowledge [API-game, API-config, API-card, API-knowledge].

    >>> from hanabi_ref import Game, Config, Play
    >>> g = Game.new(Config.preset("hle", players=3), seed=7)
    >>> g = g.apply(g.legal_actions()[0])

A :class:`Game` holds one immutable :class:`~hanabi_ref.engine.state.GameState` and calls the
engine's own functions (:func:`~hanabi_ref.engine.legality.legal_actions`,
:func:`~hanabi_ref.engine.transition.apply`, :func:`~hanabi_ref.engine.view.make_view`, the trace
format); it computes nothing of the rules itself.  ``apply`` returns a new game and
leaves the old one as it was, so a search can keep every position it visits.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from hanabi_ref.engine.actions import Action, Hint
from hanabi_ref.engine.cards import Identity, members, suit_of, value_of
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.legality import legal_actions as _legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json, make_config
from hanabi_ref.engine.show import knowledge_parts, knowledge_text, parse_card, state_board, suit_letter
from hanabi_ref.engine.state import GameState, History, score, deck_size
from hanabi_ref.engine.transition import apply as _apply
from hanabi_ref.engine.transition import apply_legal as _apply_legal
from hanabi_ref.engine.transition import initial_state, new_game, successor
from hanabi_ref.engine.view import PlayerView, make_view

if TYPE_CHECKING:
    from hanabi_ref.players.strategy import Strategy


class Config:
    """[API-config] Building game configurations.  A configuration is a
    :class:`~hanabi_ref.engine.config.GameConfig` (Definition 2.9 with the rule options); this
    class is the place to get one, as ``Config.preset("hle", players=3)``."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Config:
        raise TypeError("Config is not instantiated: use Config.preset(...), Config.composition(...) "
                        "or Config.from_json(...), which return a GameConfig")

    @staticmethod
    def preset(name: str = "thesis", players: int = 2, variant: str = "No Variant", *,
               hand_size: int | None = None, **options: Any) -> GameConfig:
        """The configuration of rule preset ``name`` (``thesis``, ``hle``, ``hanab-live``,
        see ``hanabi-ref rules --list``) for ``players`` players, in ``variant`` (a slug
        or a hanab.live name), with single rule options overridden by keyword [P-presets].
        A bad value is a :class:`~hanabi_ref.base.errors.ConfigError` naming the field."""
        return make_config(players, preset=name, variant=variant, hand_size=hand_size, **options)

    @staticmethod
    def composition(composition: Sequence[Sequence[int]], players: int, preset: str = "thesis", *,
                    hand_size: int | None = None, **options: Any) -> GameConfig:
        """A custom deck: one list of copies per value for each suit, as in the thesis'
        small games [2.9-composition]."""
        counts = [list(suit) for suit in composition]
        return make_config(players, preset=preset, composition=counts, hand_size=hand_size, **options)

    @staticmethod
    def from_json(data: object) -> GameConfig:
        """The configuration of a trace's ``config`` object [T-trace]."""
        return config_from_json(data)


@attrs.frozen(repr=False)
class Card:
    """[API-card] A card identity for people: its suit's letter and its value.  ``str`` is
    ``r3``; ``repr`` is ``Card('r', 3)``, which builds it again; :meth:`parse` reads
    ``r3``.  :meth:`of` and :meth:`identity` convert to and from the engine's integer
    identity, which needs the configuration (the letters are the variant's)."""

    suit: str
    value: int

    def __str__(self) -> str:
        return f"{self.suit}{self.value}" if len(self.suit) == 1 else f"{self.suit}-{self.value}"

    def __repr__(self) -> str:
        return f"Card({self.suit!r}, {self.value!r})"

    @classmethod
    def of(cls, config: GameConfig, identity: Identity) -> Card:
        """The card of an integer identity of ``config`` [2.9-cards]."""
        return cls(suit_letter(config, suit_of(identity, config.values)), value_of(identity, config.values))

    @classmethod
    def parse(cls, text: str) -> Card:
        """A card from its name: ``r3`` (or ``s2-3`` for a suit named by more than a
        letter); :class:`~hanabi_ref.engine.show.ParseError` if it is none."""
        from hanabi_ref.engine.show import ParseError

        name = text.strip().lower()
        suit, _, value = name.rpartition("-") if "-" in name else (name[:-1], "", name[-1:])
        if not suit or not value.isdigit():
            raise ParseError(f"{text!r} is not a card name (a suit letter and a value, like r3)")
        return cls(suit, int(value))

    def identity(self, config: GameConfig) -> int:
        """This card's integer identity in ``config``; a card the variant does not have is
        a :class:`~hanabi_ref.engine.show.ParseError`."""
        return parse_card(config, str(self))


@attrs.frozen(repr=False)
class Knowledge:
    """[API-knowledge, 2.14] What is known of one card in hand: the knowledge set K_c as
    its bitmask over identities (:attr:`mask`) and as a person reads it (``str``:
    ``{r,g}{1,2}``, see :func:`~hanabi_ref.engine.show.knowledge_text`)."""

    mask: int
    text: str
    suits: tuple[str, ...]
    """the letters of the suits the card may be (empty if the set is not a product)"""
    values: tuple[int, ...]
    """the values the card may have (empty if the set is not a product)"""
    cards: tuple[Card, ...]
    """every identity the card may be"""

    @classmethod
    def of(cls, config: GameConfig, mask: int) -> Knowledge:
        """The knowledge set ``mask`` of ``config`` [2.14]."""
        parts = knowledge_parts(config, mask) or ((), ())
        cards = tuple(Card.of(config, card) for card in members(mask))
        return cls(mask, knowledge_text(config, mask), tuple(suit_letter(config, s) for s in parts[0]), parts[1], cards)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<Knowledge {self.text} mask={self.mask:#x}>"


def _named(text: str) -> tuple[str, dict[str, str]]:
    """``name`` or ``name:key=value,key=value`` as a strategy name and its parameters."""
    name, _, rest = text.partition(":")
    params = dict(item.split("=", 1) for item in rest.split(",") if "=" in item) if rest else {}
    return name.strip(), {key.strip(): value.strip() for key, value in params.items()}


class Game:
    """[API-game] One game at one moment: an immutable state and the seed it was dealt
    from.  :meth:`apply` returns the next game; nothing changes this one.

    Names are the JSON's (spec/trace.md, T-state): ``clue_tokens``, ``strikes``,
    ``fireworks``, ``deck_size``, ``turns``, ``score``; ``current_player`` as in
    OpenSpiel; ``terminal``, step 3's STOP, as the state and the views name it.
    :attr:`state` is the engine's state, whose fields have the same names."""

    __slots__ = ("_state", "_seed", "_legal")

    _state: GameState
    _seed: int | None
    _legal: list[Action]
    """the list :meth:`legal_actions` last computed (its actions need no second check);
    unset before"""

    def __init__(self, state: GameState, seed: int | None = None) -> None:
        self._state, self._seed = state, seed

    @classmethod
    def new(cls, config: GameConfig, seed: int = 0, *, deck: Sequence[int] | None = None) -> Game:
        """A game dealt from ``seed`` [D-seed], or from the given ``deck`` of identities,
        top card first [2.16-1]."""
        if deck is not None:
            return cls(initial_state(config, deck), None)
        return cls(new_game(config, seed), seed)

    # --- moves -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to move may take; empty once the game is over
        [2.16-actions]."""
        legal = self._legal = _legal_actions(self._state)
        return legal[:]  # the caller's own list: what it does to it changes nothing here

    def is_legal(self, action: Action | str) -> bool:
        """Whether the player to move may take ``action`` [2.16-2]; text and colour names as
        :meth:`apply` reads them."""
        from hanabi_ref.engine.legality import is_legal

        return is_legal(self._state, self.action(action))

    def action(self, move: Action | str) -> Action:
        """[API-moves] ``move`` as an engine action: an action as it is, except a hint whose
        subject is a clue colour's name (``Hint(1, "colour", "red")``), which becomes its
        index; text as a person types it, ``"play 0"``, ``"discard 2"``, ``"hint 1 red"``,
        ``"hint 1 3"`` (SH-parse).  Text that is no move raises
        :class:`~hanabi_ref.engine.show.ParseError` saying what was expected."""
        from hanabi_ref.engine.show import parse_action

        config = self._state.config
        if isinstance(move, str):
            return parse_action(config, move)
        if isinstance(move, Hint) and isinstance(getattr(move, "subject", None), str):
            kind = "value" if move.kind == "value" else "colour"
            return parse_action(config, f"hint {move.target} {kind} {move.subject}")
        return move

    def apply(self, action: Action | str) -> Game:
        """The game after ``action``; an illegal action raises
        :class:`~hanabi_ref.base.errors.IllegalActionError` naming the clause it breaks
        [2.16-2].  ``action`` may be text or name a colour (:meth:`action`, API-moves).  An
        action object that :meth:`legal_actions` just returned is not checked a second time
        [API-game]."""
        legal: Sequence[Action]
        try:
            legal = self._legal  # unset in a game made by apply until legal_actions is asked
        except AttributeError:
            legal = ()
        # The list holds the hints first, then discards and plays: each kind is sought
        # from its own end.  Text, or a hint naming its colour, is never in it.
        for candidate in legal if action.__class__ is Hint else reversed(legal):
            if candidate is action:
                state = _trusted(self._state, action)
                break
        else:
            if isinstance(action, str) or isinstance(getattr(action, "subject", None), str):
                action = self.action(action)
            assert not isinstance(action, str)
            state = _apply(self._state, action)
        # By the constructor: the compiled build's class refuses object.__new__, and its
        # __new__ runs __init__ (B-compiled).
        return Game(state, self._seed)

    def play_out(self, strategies: str | Sequence[str], *, strategy_seed: int | None = None) -> Game:
        """[API-play] the game played to its end from the deal by the named strategies (one
        name for every seat, or one per seat; ``name:key=value,...`` sets parameters), each
        seat from its own view and seeded as ``simulate`` and ``play`` seed it (from this
        game's seed, or from ``strategy_seed``, ISO-seeds): the same game ``hanabi-ref play``
        plays.  Only a game at its deal can be played out (strategies remember the game
        from its first move)."""
        from hanabi_ref.base.errors import ConfigError
        from hanabi_ref.players.runner import play_game
        from hanabi_ref.players.strategies import factory_for

        config = self._state.config
        if self._state.turns:
            raise ConfigError(f"play_out: the game is at turn {self._state.turns}; strategies play a game from its deal")
        names = [strategies] * config.players if isinstance(strategies, str) else list(strategies)
        if len(names) != config.players:
            raise ConfigError(f"play_out: {len(names)} strategies for {config.players} seats")
        factories = [factory_for(*_named(name)) for name in names]

        def seat_strategy(config: GameConfig, seat: int, seed: int) -> Strategy:
            return factories[seat](config, seat, seed)

        seed = self._seed if self._seed is not None else 0
        record = play_game(config, seat_strategy, seed=seed, deck=None if self._seed is not None else self._state.deck,
                           strategy_seed=strategy_seed)
        return Game(record.final, self._seed)

    # --- what the game shows -----------------------------------------------------

    @property
    def state(self) -> GameState:
        """The engine's immutable state [2.16-1]."""
        return self._state

    @property
    def config(self) -> GameConfig:
        """The configuration [2.9]."""
        return self._state.config

    @property
    def seed(self) -> int | None:
        """The seed the deck was dealt from, None for a given deck [D-seed]."""
        return self._seed

    @property
    def current_player(self) -> int:
        """The seat to move, counted from 0 (C of Algorithm 2.16)."""
        return self._state.current_player

    @property
    def terminal(self) -> bool:
        """Whether step 3 stopped the game [2.16-3]."""
        return self._state.terminal

    @property
    def score(self) -> int:
        """The score step 3 returns, or would return now [2.16-3]."""
        return score(self._state)

    @property
    def turns(self) -> int:
        """Moves made so far [E-9]."""
        return self._state.turns

    @property
    def clue_tokens(self) -> int:
        """Clue tokens left (t) [2.16-tokens]."""
        return self._state.clue_tokens

    @property
    def strikes(self) -> int:
        """Errors made (f) [2.16-errors]."""
        return self._state.strikes

    @property
    def fireworks(self) -> tuple[int, ...]:
        """The height of each suit's firework, in suit order [2.13-4]."""
        return self._state.fireworks

    @property
    def deck_size(self) -> int:
        """Cards left in the stack [2.13-1]."""
        return deck_size(self._state)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every hand face up, slot by slot [2.13-3]."""
        state = self._state
        deck = state.deck
        return tuple(tuple(Card.of(state.config, deck[c]) for c in hand) for hand in state.hands)

    @property
    def knowledge(self) -> tuple[tuple[Knowledge, ...], ...]:
        """What the hints told of each card in each hand [2.14]."""
        config = self._state.config
        return tuple(tuple(Knowledge.of(config, mask) for mask in known) for known in self._state.knowledge)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, oldest first [2.13-2]."""
        state = self._state
        deck = state.deck
        return tuple(Card.of(state.config, deck[c]) for c in state.discard)

    @property
    def history(self) -> History:
        """The public record of the moves so far, one :class:`~hanabi_ref.engine.state.Event`
        each (its ``action``, the card played or discarded, the cards a hint touched)
        [2.17-history]."""
        return self._state.history

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions taken so far, in order."""
        return tuple(event.action for event in self._state.history)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees of this game: every hand but its own, its own cards only as
        their knowledge [2.17-view].  ``str`` of a view is its board."""
        return make_view(self._state, seat)

    def board(self, seat: int | None = None) -> str:
        """The board as text, every card face up, or as ``seat`` sees it [SH-board]."""
        return state_board(self._state) if seat is None else str(self.view(seat))

    def move_texts(self) -> list[str]:
        """Each move so far as a sentence, the drawn cards named [SH-move] (the game is
        replayed for the hands each move saw)."""
        from hanabi_ref.engine.show import state_event_text
        from hanabi_ref.formats.trace import Trace, replay_states

        state = self._state
        states = replay_states(Trace(state.config, state.deck, self.actions))
        return [f"{after.turns}. {state_event_text(after)}" for after in states[1:]]

    # --- files -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The game as a trace object (spec/trace.md): configuration, deck and actions
        [T-trace]."""
        from hanabi_ref.formats.trace import Trace, trace_to_json

        state = self._state
        return trace_to_json(Trace(state.config, state.deck, self.actions, self._seed))

    @classmethod
    def from_json(cls, data: object) -> Game:
        """The game a trace object (or its JSON text) describes, replayed by the engine;
        a malformed trace is a :class:`~hanabi_ref.base.errors.TraceError` naming the place
        [T-trace, T-schema]."""
        from hanabi_ref.base.errors import TraceError
        from hanabi_ref.formats.serial import JsonRuleError, parse_json
        from hanabi_ref.formats.trace import replay, trace_from_json

        if isinstance(data, (str, bytes)):
            try:
                data = parse_json(data.decode("utf-8") if isinstance(data, bytes) else data)
            except (ValueError, JsonRuleError) as error:
                raise TraceError(f"not valid JSON: {error}") from None
        trace = trace_from_json(data)
        return cls(replay(trace), trace.seed)

    def save(self, path: str | Path) -> None:
        """Write the game as a trace file, atomically [T-trace, OUT-atomic]."""
        from hanabi_ref.formats.trace import Trace, save_trace

        state = self._state
        save_trace(Trace(state.config, state.deck, self.actions, self._seed), path)

    @classmethod
    def load(cls, path: str | Path) -> Game:
        """The game of a trace file [T-trace]."""
        from hanabi_ref.formats.trace import load_trace, replay

        trace = load_trace(path)
        return cls(replay(trace), trace.seed)

    # --- printing ----------------------------------------------------------------

    def __str__(self) -> str:
        return state_board(self._state)

    def __repr__(self) -> str:
        state = self._state
        config = state.config
        dealt = f"seed={self._seed}" if self._seed is not None else "deck given"
        over = ", over" if state.terminal else ""
        return (f"<Game {config.preset} {config.players}p {config.variant} {dealt}: turn {state.turns}{over}, "
                f"score {score(state)}>")


_trusted = _apply_legal if ENABLED else successor
"""[2.16-2] the move for an action :meth:`Game.legal_actions` returned: with contracts on,
:func:`~hanabi_ref.engine.transition.apply_legal` (which checks it again, as a precondition),
else the transition itself, as ``apply_legal`` calls it."""
