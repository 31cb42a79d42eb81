"""hanab.live game files: import to and export from our traces [HL-format, HL-export].

The hanab.live JSON format (``spec/hanab-live.md``) names a card by its *order*, its
index in the deck, which is exactly our card id (an index into S0) [HL-order]; an action
names the card, while our actions name a slot.  Converting therefore replays the game
with our engine, action by action, and reads each card's slot off the state.

Every problem in a file is one :class:`TraceError` line that starts with the JSON path of
the offending field, e.g. ``actions[17].target: card 51 is not in player 2's hand (it is
still in the deck)`` [HL-errors].  No other exception escapes for any input.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, as_identities, identity, suit_of, value_of
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError, IllegalActionError, TraceError
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.legality import illegality, is_deck_play_open
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config, max_moves
from hanabi_ref.engine.presets import PRESETS, default_hand_size
from hanabi_ref.engine.state import GameState, fireworks_sum, is_nothing_playable_left, is_stop_condition
from hanabi_ref.formats.trace import read_json_file
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.variants.engine import engine_variant
from hanabi_ref.engine.variants.model import START_RANK, NotSupported
from hanabi_ref.engine.tables import tables_for

# [HL-colours] the variants we read and write, by their exact hanab.live names.
VARIANTS: Final = ("No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)")
# [HL-players] hanab.live's anonymous player names (DEFAULT_PLAYER_NAMES), seat by seat.
PLAYER_NAMES: Final = ("Alice", "Bob", "Cathy", "Donald", "Emily", "Frank")
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
CLUE_TOKENS: Final = 8  # hanab.live's MaxClueNum
STRIKES: Final = 3  # hanab.live's MaxStrikeNum

# [HL-actions, HL-game-over] hanab.live's action types (ActionType* in the server).
PLAY: Final = 0
DISCARD: Final = 1
COLOUR_CLUE: Final = 2
RANK_CLUE: Final = 3
GAME_OVER: Final = 4
GAME_OVER_BY_VOTE: Final = 5

# [HL-game-over] the end conditions a recorded game-over action may carry.
END_CONDITIONS: Final[Mapping[int, str]] = {
    3: "a player ran out of time",
    4: "terminated by a player",
    6: "idle timeout",
    10: "terminated by vote",
}
VOTE: Final = 10

TOP_LEVEL_KEYS: Final = ("players", "deck", "actions", "options", "notes", "characters", "id", "seed")
REQUIRED_KEYS: Final = ("players", "deck", "actions")

# [HL-options] options that change rules we cannot express: refused unless false.
REFUSED_OPTIONS: Final[Mapping[str, str]] = {
    "cardCycle": "a clue moves the giver's oldest unclued card to the newest slot, a hand order our slots (R-2) do not follow",
    "allOrNothing": "the game goes on after the deck runs out and scores 0 below the maximum, unlike step 3",
    "detrimentalCharacters": "characters restrict the players' moves beyond the rules we model",
    "speedrun": "the game ends with score 0 as soon as a perfect score is impossible, unlike step 3",
}
# [HL-options] options that change nothing we model: checked for type, then ignored.
TIMER_OPTIONS: Final = ("timed", "timeBase", "timePerTurn", "tableName", "maxPlayers")

INT_LIMIT: Final = 10**18
SEED_PREFIX: Final = "hanabi-ref:"
SEED_RE: Final = re.compile(r"hanabi-ref:(0|[1-9][0-9]{0,19})")
SIMPLE_KEY_RE: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class HanabLiveOptions:
    """The rule-relevant content of a file's ``options`` object [HL-options]."""

    variant: str = "No Variant"
    empty_clues: bool = False
    hand_size_change: int = 0
    deck_plays: bool = False
    starting_player: int = 0


@attrs.frozen
class Move:
    """One hanab.live action as read from the file, before conversion [HL-actions]."""

    type: int
    target: int
    value: int


# ------------------------------------------------------------------ error helpers [HL-errors]


def _show(value: object) -> str:
    """A short one-line JSON rendering of a value for a message [HL-errors]."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def _key(key: object) -> str:
    """A key as it appears in a path: bare when simple, else quoted JSON [HL-errors]."""
    text = key if isinstance(key, str) else str(key)
    if SIMPLE_KEY_RE.fullmatch(text):
        return text
    return json.dumps(text if len(text) <= 40 else text[:37] + "...")


def _field(where: str, key: object) -> str:
    return f"{where}.{_key(key)}" if where else _key(key)


def _item(where: str, index: int) -> str:
    return f"{where}[{index}]"


def _error(path: str, reason: str) -> TraceError:
    """The one-line error naming ``path`` [HL-errors]."""
    return TraceError(" ".join(f"{path}: {reason}".splitlines()))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: object, path: str) -> int:
    """An integer of a sane size: every integer of the format is small [HL-errors]."""
    if not _is_int(value):
        raise _error(path, f"must be an integer, got {_show(value)}")
    assert isinstance(value, int)
    if abs(value) >= INT_LIMIT:
        raise _error(path, f"{_show(value)} is out of range")
    return value


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise _error(path, f"must be true or false, got {_show(value)}")
    return value


def _object(value: object, path: str) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise _error(path, f"must be a JSON object, got {_show(value)}")
    return value


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _error(path, f"must be a list, got {_show(value)}")
    return value


def _known_keys(data: dict[Any, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise _error(_field(where, key), f"unknown field (known: {', '.join(allowed)})")


# ------------------------------------------------------------------ players, options, config


def _parse_players(value: object, path: str) -> int:
    """The number of players: a list of 2 to 6 names, player 0 first [HL-players]."""
    names = _list(value, path)
    for index, name in enumerate(names):
        if not isinstance(name, str):
            raise _error(_item(path, index), f"a player name must be a string, got {_show(name)}")
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise _error(path, f"hanab.live games have {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
    return len(names)


def _parse_variant(value: object, path: str) -> str:
    """A variant we support, by its exact hanab.live name [HL-colours, VAR-engine]: one of
    :data:`VARIANTS` or any name the variant model parses and the engine plays; anything
    else is refused naming the part we do not support (VAR-refused)."""
    if not isinstance(value, str):
        raise _error(path, f"must be a variant name, got {_show(value)}")
    if value in VARIANTS:
        return value
    try:
        return engine_variant(value).name
    except NotSupported as error:
        raise _error(path, str(error)) from None


def _check_ignored_option(key: str, value: object, path: str) -> None:
    """Timer and table options change no rule we model; only their types are checked [HL-options]."""
    if key == "timed":
        _bool(value, path)
    elif key == "tableName":
        if not isinstance(value, str):
            raise _error(path, f"must be a string, got {_show(value)}")
    elif key == "timeBase":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value < math.inf:
            raise _error(path, f"must be a finite number >= 0, got {_show(value)}")
    elif _int(value, path) < 0:
        raise _error(path, f"must be >= 0, got {value}")


def _check_refused_option(key: str, value: object, path: str) -> None:
    """An option whose rules we cannot express is accepted only when false [HL-options]."""
    if _bool(value, path):
        raise _error(path, f"not supported ({REFUSED_OPTIONS[key]})")


def _check_counts(key: str, value: object, path: str, players: int) -> None:
    """``startingPlayer`` must name a player and ``numPlayers`` be the number of names
    [HL-options, HL-starting-player]."""
    number = _int(value, path)
    if key == "startingPlayer" and not 0 <= number < players:
        raise _error(path, f"must be a player (0..{players - 1}), got {number}")
    if key == "numPlayers" and number != players:
        raise _error(path, f"{number} players, but the file names {players}")


OPTION_KEYS: Final = (
    "variant",
    "emptyClues",
    "oneExtraCard",
    "oneLessCard",
    "deckPlays",
    "startingPlayer",
    "numPlayers",
    *REFUSED_OPTIONS,
    *TIMER_OPTIONS,
)


def _parse_options(value: object, path: str, players: int) -> HanabLiveOptions:
    """Read the options object; every hanab.live option is handled or refused [HL-options]."""
    data = _object(value, path)
    _known_keys(data, OPTION_KEYS, path)
    for key, option in data.items():
        here = _field(path, key)
        if key in REFUSED_OPTIONS:
            _check_refused_option(key, option, here)
        elif key in TIMER_OPTIONS:
            _check_ignored_option(key, option, here)
        elif key in ("startingPlayer", "numPlayers"):
            _check_counts(key, option, here, players)
    variant = _parse_variant(data.get("variant", "No Variant"), _field(path, "variant"))
    flags = {key: _bool(data.get(key, False), _field(path, key)) for key in ("emptyClues", "oneExtraCard", "oneLessCard", "deckPlays")}
    change = int(flags["oneExtraCard"]) - int(flags["oneLessCard"])
    starting = data.get("startingPlayer", 0)
    return HanabLiveOptions(variant, flags["emptyClues"], change, flags["deckPlays"], starting)


def _config_error(message: str, where: str) -> TraceError:
    """A configuration error re-addressed to the file's field [HL-errors]."""
    field, _, reason = message.partition(": ")
    if field == "players":
        return _error(_field(where, "players"), reason)
    if field == "variant":
        return _error(_field(_field(where, "options"), "variant"), reason)
    if field == "preset":
        return _error("preset", reason)
    return _error(_field(where, "options"), message)


def hanablive_config(players: int, options: HanabLiveOptions, preset: str = "hanab-live", where: str = "") -> GameConfig:
    """Our configuration for a hanab.live game [HL-deal, HL-options, P-presets].

    The hand size is hanab.live's (5, 5, 4, 4, 3 cards for 2 to 6 players) changed by one
    under ``oneExtraCard`` / ``oneLessCard``; ``emptyClues`` sets ``empty_hints``; the
    other rules are the chosen preset's."""
    if not isinstance(preset, str) or preset not in PRESETS:
        raise _error("preset", f"unknown preset {_show(preset)} (known: {', '.join(PRESETS)})")
    overrides: dict[str, Any] = {"empty_hints": True} if options.empty_clues else {}
    if options.deck_plays:
        overrides["deck_plays"] = True  # [HL-deck-plays, R-deck-plays]
    hand_size = default_hand_size(players) + options.hand_size_change
    try:
        return make_config(players, preset, options.variant, hand_size=hand_size, hints=CLUE_TOKENS, errors=STRIKES, **overrides)
    except ConfigError as error:
        raise _config_error(str(error), where) from None


# ------------------------------------------------------------------ the deck [HL-deck]


def _file_rank(config: GameConfig, value: int) -> int:
    """The rank hanab.live writes for our value: START (our 6) is its 7 [HL-up-or-down]."""
    return START_RANK if value == tables_for(config).rule_set.start_value else value


def card_name(config: GameConfig, card: Identity) -> str:
    """A card as its suit's abbreviation and its rank, e.g. ``R1`` [HL-deck]."""
    return f"{config.suits[suit_of(card, config.values)].abbreviation}{value_of(card, config.values)}"


def _parse_card(value: object, path: str, config: GameConfig) -> Identity:
    """One card ``{"suitIndex": s, "rank": r}`` as our identity [HL-deck, HL-colours,
    HL-up-or-down]."""
    data = _object(value, path)
    _known_keys(data, ("suitIndex", "rank"), path)
    for key in ("suitIndex", "rank"):
        if key not in data:
            raise _error(_field(path, key), "missing")
    suit = _int(data["suitIndex"], _field(path, "suitIndex"))
    rank = _int(data["rank"], _field(path, "rank"))
    if not 0 <= suit < config.suit_count:
        raise _error(_field(path, "suitIndex"), f"{_show(suit)} is not a suit of {_show(config.variant)} (0..{config.suit_count - 1})")
    start = tables_for(config).rule_set.start_value
    if start is not None:
        # [HL-up-or-down] hanab.live's START card is rank 7, our value 6.
        if rank not in (1, 2, 3, 4, 5, START_RANK):
            raise _error(_field(path, "rank"), f"{_show(rank)} is not a rank (1..5, or 7 for START)")
        rank = start if rank == START_RANK else rank
    elif not 1 <= rank <= config.values:
        raise _error(_field(path, "rank"), f"{_show(rank)} is not a rank (1..{config.values})")
    return identity(rank, suit, config.values)


def _check_composition(deck: tuple[Identity, ...], config: GameConfig, path: str) -> None:
    """The deck holds each card of the variant exactly as often as its composition [HL-deck, D-explicit]."""
    expected = Counter(tables_for(config).canonical_deck)
    found = Counter(deck)
    for card in sorted(set(expected) | set(found)):
        if found[card] != expected[card]:
            raise _error(
                path,
                f"composition differs from {_show(config.variant)}: {found[card]} copies of "
                f"{card_name(config, card)} (expected {expected[card]})",
            )


def _parse_deck(value: object, path: str, config: GameConfig) -> tuple[Identity, ...]:
    """The whole deck, top card first, as identities [HL-deck]."""
    tables = tables_for(config)
    cards = _list(value, path)
    if len(cards) != tables.deck_size:
        raise _error(path, f"{len(cards)} cards, but {_show(config.variant)} has {tables.deck_size}")
    deck = tuple(_parse_card(card, _item(path, index), config) for index, card in enumerate(cards))
    _check_composition(deck, config, path)
    return deck


# ------------------------------------------------------------------ actions [HL-actions]


def _parse_move(value: object, path: str) -> Move:
    """One action object; ``value`` may be left out of plays and discards [HL-actions]."""
    data = _object(value, path)
    _known_keys(data, ("type", "target", "value", "tableID"), path)
    if "tableID" in data:
        _int(data["tableID"], _field(path, "tableID"))  # [HL-actions] metadata: checked, then ignored
    for key in ("type", "target"):
        if key not in data:
            raise _error(_field(path, key), "missing")
    kind = _int(data["type"], _field(path, "type"))
    if not PLAY <= kind <= GAME_OVER_BY_VOTE:
        raise _error(_field(path, "type"), f"{kind} is not an action type (0 play, 1 discard, 2 colour clue, 3 rank clue, 4 or 5 game over)")
    if "value" not in data and kind not in (PLAY, DISCARD):
        raise _error(_field(path, "value"), "missing")
    move = Move(kind, _int(data["target"], _field(path, "target")), _int(data.get("value", 0), _field(path, "value")))
    if kind in (PLAY, DISCARD) and move.value != 0:
        raise _error(_field(path, "value"), f"must be 0 for a play or a discard, got {move.value}")
    return move


def _card_location(state: GameState, order: int) -> str:
    """Where a card is, for a message [HL-order]."""
    for seat, hand in enumerate(state.hands):
        if order in hand:
            return f"it is in player {seat}'s hand"
    if order >= state.next_card:
        return "it is still in the deck"
    return "it was already played" if order in state.played else "it was already discarded"


def _slot_of(state: GameState, order: int, path: str) -> int:
    """The slot of the card with this order in the hand of the player to move [HL-order]."""
    if not 0 <= order < len(state.deck):
        raise _error(path, f"card {order} is not in the deck (orders 0..{len(state.deck) - 1})")
    hand = state.hands[state.current_player]
    if order not in hand:
        raise _error(path, f"card {order} is not in player {state.current_player}'s hand ({_card_location(state, order)})")
    return hand.index(order)


def _clue(move: Move, state: GameState, path: str) -> Hint:
    """A colour or rank clue as our hint; its target is an absolute seat [HL-actions, HL-colours]."""
    config = state.config
    if not 0 <= move.target < config.players:
        raise _error(_field(path, "target"), f"{move.target} is not a player (0..{config.players - 1})")
    if move.type == RANK_CLUE:
        if not 1 <= move.value <= config.values:
            raise _error(_field(path, "value"), f"{move.value} is not a rank (1..{config.values})")
        if move.value not in state.tables.clue_values:
            clues = ", ".join(map(str, state.tables.clue_values)) or "none"
            raise _error(_field(path, "value"), f"{move.value} is not a rank clue of {_show(config.variant)} (rank clues: {clues})")
        return Hint(move.target, "value", move.value)
    if not config.colours:
        raise _error(_field(path, "type"), f"{_show(config.variant)} has no colour clues")
    if not 0 <= move.value < len(config.colours):
        raise _error(
            _field(path, "value"),
            f"{move.value} is not a clue colour of {_show(config.variant)} (0..{len(config.colours) - 1}: {', '.join(config.colours)})",
        )
    return Hint(move.target, "colour", move.value)


def _action(move: Move, state: GameState, path: str) -> Action:
    """Our action for a play, discard or clue of the file [HL-actions, HL-order]; a play
    of the deck's last card is the play of slot h' [HL-deck-plays], and the play or
    discard of an orange card is read as the other action [HL-orange]."""
    if move.type in (PLAY, DISCARD):
        # [HL-orange] the file records what happened to an orange card: its discard when
        # the player played it, its play when the player discarded it.
        config = state.config
        orange = 0 <= move.target < len(state.deck) and state.tables.rule_set.is_swapped(config, state.deck[move.target])
        played = (move.type == PLAY) != orange
        if move.target == state.next_card and is_deck_play_open(state.config, len(state.deck) - state.next_card):
            if played:
                return Play(len(state.hands[state.current_player]))  # [HL-deck-plays] the deck's last card
            raise _error(_field(path, "target"), f"not supported (a discard of the deck's last card, card {move.target}; "
                         "hanab.live means it for orange cards only)")
        slot = _slot_of(state, move.target, _field(path, "target"))
        return Play(slot) if played else Discard(slot)
    return _clue(move, state, path)


def _game_over(move: Move, config: GameConfig, path: str) -> str:
    """Check a game-over action and say why the game ended [HL-game-over]: type 4 with
    end condition 3, 4 or 6 and a player or -1 (the server) as target; type 5 (a vote)
    with target -1 and end condition 10."""
    if move.type == GAME_OVER_BY_VOTE:
        if (move.target, move.value) != (-1, VOTE):
            raise _error(path, f"a game over by vote (type 5) has target -1 and value {VOTE}, got {move.target} and {move.value}")
    elif move.value not in END_CONDITIONS or move.value == VOTE:
        known = ", ".join(f"{code} ({reason})" for code, reason in END_CONDITIONS.items() if code != VOTE)
        raise _error(_field(path, "value"), f"{move.value} is not an end condition of a type-4 game over: {known}")
    elif not -1 <= move.target < config.players:
        raise _error(_field(path, "target"), f"{move.target} is neither a player (0..{config.players - 1}) nor -1 (the server)")
    return f"{path} ended it: {END_CONDITIONS[move.value]}"


def is_hanablive_over(state: GameState) -> bool:
    """Whether hanab.live has ended the game in ``state`` [HL-end, HL-up-or-down].

    Our step 3 stopped it (hanab.live checks strikes, the last round, the maximum score
    and R-1 as we do), or the last round is on and no card that extends a stack is held
    by a player who still moves (R-4): hanab.live marks the hand of each player who has
    made their last move as unplayable and ends the game when nothing playable is left.
    Under the hanab-live preset (``end_when_nothing_playable``) our step 3 decides that
    too; under another preset only this function does."""
    return state.terminal or is_nothing_playable_left(state.tables, state.deck, state.fireworks, state.played,
                                                      state.hands, state.current_player, state.remaining)


def _end_reason(state: GameState) -> str:
    """Why the game is over, for a message [HL-end, 2.16-3]."""
    config = state.config
    if state.remaining == -1:
        return f"the last allowed strike ended it ({config.max_errors} strikes)"
    if state.remaining == 0:
        return "the last round is over"
    if fireworks_sum(state) == tables_for(config).max_score:
        return "every stack is complete"
    if is_stop_condition(state):
        return "no more points are possible (R-1)"
    return "hanab.live ended it: no player who still moves holds a card that extends a stack (R-4)"


def game_is_over(state: GameState) -> bool:
    """Whether no further action may follow: the preset's step 3 [2.16-3], which under
    the hanab-live preset is hanab.live's own end, its last-round rule included (R-4,
    HL-end).  ``replay --format hanab-live`` reports it as ``terminal``."""
    return state.terminal


def _apply(state: GameState, action: Action, path: str) -> GameState:
    """One move through our engine; an illegal one names its clause [HL-errors, 2.16-2]."""
    problem = illegality(state, action)
    if problem is not None:
        raise _error(path, f"illegal under preset {state.config.preset}: {problem[0]}: {problem[1]}")
    try:
        return apply(state, action)
    except IllegalActionError as error:
        raise _error(path, f"illegal under preset {state.config.preset}: {error}") from None


def _convert_actions(value: object, path: str, config: GameConfig, deck: tuple[int, ...], starting: int = 0) -> tuple[Action, ...]:
    """The file's actions as ours, by replaying them [HL-actions, HL-order, HL-game-over,
    HL-end]; with a ``startingPlayer`` the card orders and players are those of the
    rotated seats [HL-starting-player]."""
    moves = _list(value, path)
    state = initial_state(config, deck)
    actions: list[Action] = []
    ended: str | None = None
    for index, item in enumerate(moves):
        here = _item(path, index)
        move = _parse_move(item, here)
        if ended is not None or game_is_over(state):
            raise _error(here, f"the game is already over ({ended or _end_reason(state)})")
        if move.type in (GAME_OVER, GAME_OVER_BY_VOTE):
            ended = _game_over(move, config, here)
            continue
        if starting and move.type in (PLAY, DISCARD):
            move = attrs.evolve(move, target=_rotated_order(move.target, starting, config))
        elif starting and move.type in (COLOUR_CLUE, RANK_CLUE):
            move = attrs.evolve(move, target=(move.target - starting) % config.players)
        action = _action(move, state, here)
        state = _apply(state, action, here)
        actions.append(action)
    return tuple(actions)


def _rotated_order(order: int, starting: int, config: GameConfig) -> int:
    """[HL-starting-player] our card id of the card of this order: a dealt card moves
    with its player's block to that player's seat, (player - startingPlayer) mod p; the
    stack keeps its order."""
    size = config.hand_size
    if not 0 <= order < config.players * size:
        return order
    player, position = divmod(order, size)
    return (player - starting) % config.players * size + position


def _rotated_deck(deck: tuple[Identity, ...], starting: int, config: GameConfig) -> tuple[Identity, ...]:
    """[HL-starting-player] the deck dealt in blocks to our seats, seat 0 being the
    file's starting player."""
    ours = list(deck)
    for order in range(config.players * config.hand_size):
        ours[_rotated_order(order, starting, config)] = deck[order]
    return tuple(ours)


# ------------------------------------------------------------------ the other fields [HL-format]


def _check_notes(value: object, path: str, players: int) -> None:
    """Notes: none, or one list of strings per player; not used [HL-format]."""
    notes = _list(value, path)
    if notes and len(notes) != players:
        raise _error(path, f"{len(notes)} note lists, but the game has {players} players")
    for seat, player_notes in enumerate(notes):
        for index, note in enumerate(_list(player_notes, _item(path, seat))):
            if not isinstance(note, str):
                raise _error(_item(_item(path, seat), index), f"a note must be a string, got {_show(note)}")


def _check_other_fields(game: dict[Any, Any], where: str, players: int) -> None:
    """``notes``, ``characters`` and ``id`` are checked but carry no rule [HL-format]."""
    if "notes" in game:
        _check_notes(game["notes"], _field(where, "notes"), players)
    if "characters" in game and _list(game["characters"], _field(where, "characters")):
        raise _error(_field(where, "characters"), "not supported (detrimental characters restrict moves beyond the rules we model)")
    if "id" in game:
        _int(game["id"], _field(where, "id"))


def _parse_seed(value: object, path: str, config: GameConfig, deck: tuple[int, ...]) -> int | None:
    """Our seed, if the file names one (``"hanabi-ref:S"``) and it deals exactly this deck
    [HL-export, D-seed]; hanab.live's own seeds name their generator, not ours."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise _error(path, f"must be a string, got {_show(value)}")
    match = SEED_RE.fullmatch(value)
    if match is None or int(match.group(1)) >= 2**64:
        return None
    seed = int(match.group(1))
    return seed if deck_from_seed(config, seed) == deck else None


def trace_from_hanablive(data: object, preset: str = "hanab-live", where: str = "") -> Trace:
    """Validate a hanab.live game and convert it to our trace [HL-format, HL-players,
    HL-options, HL-deck, HL-deal, HL-actions, HL-order, HL-game-over, HL-end, HL-errors,
    HL-starting-player].

    ``preset`` chooses the rules the actions are checked against (hanab.live's own by
    default); ``where`` is the JSON path of the game inside a larger document.  A game
    ended by a game-over action keeps the moves before it.  Every problem is one
    :class:`TraceError` line starting with the offending field's path."""
    game = _object(data, where or "game")
    _known_keys(game, TOP_LEVEL_KEYS, where)
    for key in REQUIRED_KEYS:
        if key not in game:
            raise _error(_field(where, key), "missing")
    players = _parse_players(game["players"], _field(where, "players"))
    options = _parse_options(game.get("options", {}), _field(where, "options"), players)
    config = hanablive_config(players, options, preset, where)
    _check_other_fields(game, where, players)
    deck = _parse_deck(game["deck"], _field(where, "deck"), config)
    # [L-moves] the moves and at most one game-over action: checked before any is read.
    if isinstance(game["actions"], list) and len(game["actions"]) > max_moves(config) + 1:
        raise _error(
            _field(where, "actions"),
            f"{len(game['actions'])} actions, but no game of this configuration lasts more than {max_moves(config)} moves (L-moves)",
        )
    starting = options.starting_player
    if starting:
        deck = _rotated_deck(deck, starting, config)  # [HL-starting-player]
    actions = _convert_actions(game["actions"], _field(where, "actions"), config, deck, starting)
    seed = _parse_seed(game.get("seed"), _field(where, "seed"), config, deck)
    return Trace(config, deck, actions, seed)


def load_hanablive(path: str | Path, preset: str = "hanab-live") -> Trace:
    """Read a hanab.live game file; every problem is one line starting with the path [HL-errors]."""
    data = read_json_file(path)
    try:
        return trace_from_hanablive(data, preset)
    except TraceError as error:
        raise TraceError(f"{path}: {error}") from None


# ------------------------------------------------------------------ export [HL-export]


def _export_problem(config: GameConfig) -> str | None:
    """Why hanab.live cannot express this configuration, or None [HL-export]."""
    if config.variant not in VARIANTS and tables_for(config).model is None:
        return f"config.variant: hanab.live has no variant {_show(config.variant)} (ours: {', '.join(VARIANTS)} and hanab.live's names, spec/variants.md)"
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        return f"config.players: hanab.live games have {MIN_PLAYERS} to {MAX_PLAYERS} players, got {config.players}"
    if (config.max_hints, config.max_errors) != (CLUE_TOKENS, STRIKES):
        return f"config: hanab.live plays with {CLUE_TOKENS} clue tokens and {STRIKES} strikes, got hints {config.max_hints} and errors {_show(config.max_errors)}"
    if abs(config.hand_size - default_hand_size(config.players)) > 1:
        return f"config.hand_size: hanab.live deals {default_hand_size(config.players)} cards to {config.players} players, one more or one less by option; got {config.hand_size}"
    rules = attrs.evolve(PRESETS["hanab-live"].options, empty_hints=config.options.empty_hints, deck_plays=config.options.deck_plays)
    for field in attrs.fields(type(rules)):
        ours, theirs = getattr(config.options, field.name), getattr(rules, field.name)
        if ours != theirs:
            return f"config.options.{field.name}: hanab.live cannot express {_show(ours)} (it plays with {_show(theirs)})"
    return None


def _export_options(config: GameConfig) -> dict[str, Any]:
    """The options object that gives hanab.live our configuration [HL-export, HL-options]."""
    options: dict[str, Any] = {"variant": config.variant}
    if config.options.empty_hints:
        options["emptyClues"] = True
    if config.options.deck_plays:
        options["deckPlays"] = True
    change = config.hand_size - default_hand_size(config.players)
    if change == 1:
        options["oneExtraCard"] = True
    elif change == -1:
        options["oneLessCard"] = True
    return options


def _export_action(state: GameState, action: Action) -> dict[str, int]:
    """One legal action in hanab.live's form; plays and discards name the card's order
    [HL-export, HL-order], the deck's last card by its order [HL-deck-plays], and an
    orange card's play is written as its discard and back [HL-orange]."""
    if isinstance(action, Hint):
        kind = COLOUR_CLUE if action.kind == "colour" else RANK_CLUE
        return {"type": kind, "target": action.target, "value": action.subject}
    hand = state.hands[state.current_player]
    order = state.next_card if isinstance(action, Play) and action.slot == len(hand) else hand[action.slot]  # [HL-deck-plays]
    orange = state.tables.rule_set.is_swapped(state.config, state.deck[order])
    kind = PLAY if isinstance(action, Play) != orange else DISCARD  # [HL-orange]
    return {"type": kind, "target": order, "value": 0}


def _export_actions(trace: Trace) -> list[dict[str, int]]:
    """The actions, each converted in the state it is made in; none may follow
    hanab.live's end of the game [HL-export, HL-end]."""
    try:
        state = initial_state(trace.config, trace.deck)
    except ConfigError as error:
        raise TraceError(str(error)) from None
    exported = []
    for index, action in enumerate(trace.actions):
        here = _item("actions", index)
        if is_hanablive_over(state):
            raise _error(here, f"hanab.live has already ended the game ({_end_reason(state)})")
        after = _apply(state, action, here)
        exported.append(_export_action(state, action))
        state = after
    return exported


def trace_to_hanablive(trace: Trace) -> dict[str, Any]:
    """Our trace as a hanab.live game [HL-export, HL-colours, HL-order].

    Players are named Alice, Bob, ...; the options name the variant and add
    ``emptyClues`` and ``oneExtraCard`` / ``oneLessCard`` where our configuration needs
    them; our seed, if any, is written as ``"hanabi-ref:S"``.  A configuration or a game
    that hanab.live cannot express raises :class:`TraceError`."""
    problem = _export_problem(trace.config)
    if problem is not None:
        raise TraceError(problem)
    n = trace.config.values
    data: dict[str, Any] = {
        "players": list(PLAYER_NAMES[: trace.config.players]),
        "deck": [{"suitIndex": suit_of(card, n), "rank": _file_rank(trace.config, value_of(card, n))}
                 for card in as_identities(trace.deck)],
        "actions": _export_actions(trace),
        "options": _export_options(trace.config),
    }
    if trace.seed is not None:
        data["seed"] = f"{SEED_PREFIX}{trace.seed}"
    return data
