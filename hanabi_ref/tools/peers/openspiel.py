"""OpenSpiel's ``hanabi`` game behind the :class:`~hanabi_ref.tools.protocol.engine.Engine`
interface [PE-openspiel, PE-openspiel-deal, PE-openspiel-actions, PE-openspiel-state,
PE-openspiel-views].

OpenSpiel runs DeepMind's HLE engine, so it plays our ``hle`` preset
(:mod:`hanabi_ref.tools.peers.hle_rules`).  It has no call to choose a dealt card, but it deals
through chance nodes whose outcomes are the card identities, so the adapter deals our
exact deck by applying, at every chance node, the outcome of the next card of S0.  It
has no structured state getters either: the state is parsed from ``str(state)``, and
what each player is shown from ``observation_string(player)``.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Final

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import as_identities, suit_of, value_of
from hanabi_ref.tools.peers import import_peer
from hanabi_ref.tools.peers.hle_observation import CardLine, parse_observation
from hanabi_ref.tools.peers.hle_rules import (
    COLOUR_LETTERS,
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
from hanabi_ref.engine.tables import tables_for

CARD_LINE: Final = re.compile(r"^([RYGWB])(\d) \|\| \S\S\|([RYGWB]*)(\d*)$")
NUMBER_LINE: Final = re.compile(r"^(Life tokens|Info tokens|Deck size): (\d+)$")


class OpenSpielEngine:
    """OpenSpiel's Hanabi, dealt our deck through its chance nodes [PE-openspiel].

    ``check_refusals``: also send actions OpenSpiel does not list as legal to
    ``apply_action``, to check that its own guard refuses them (OpenSpiel then prints
    every refusal on standard error); by default such an action is refused from the
    legal list, which OpenSpiel computes with the same predicate.
    """

    name = "openspiel"
    shows_views = True  # [PE-openspiel-views] read from OpenSpiel's observation strings

    def __init__(self, check_refusals: bool = False, observation_type: str | None = None) -> None:
        self._pyspiel = import_peer("openspiel", "pyspiel", "open-spiel (pyspiel)")
        self._check_refusals = check_refusals
        self._observation_type = observation_type
        """OpenSpiel's ``observation_type`` game parameter ("card_knowledge", its default,
        or "minimal"), for the encoders' check (RL-check); rules are the same either way."""
        self._games: dict[tuple[tuple[str, str], ...], Any] = {}
        self._state: Any = None
        self._config: GameConfig | None = None
        self._deck: tuple[int, ...] = ()
        self._dealt = 0
        self._actions: dict[tuple[int, int], Action] = {}  # (move id, player) -> action
        self._card_lines: dict[tuple[GameConfig, str], CardLine] = {}  # [PE-openspiel-views] lines read

    def unsupported(self, config: GameConfig) -> str | None:
        """[PE-hle-players, PE-hle-variants] and the rule options of the hle preset."""
        return hle_unsupported(config)

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        """Load the game with HLE's parameters for ``config`` and deal ``deck`` [PE-openspiel-deal]."""
        check_supported(self, config)
        if config != self._config:
            self._actions = {}
        self._config, self._deck, self._dealt = config, tuple(deck), 0
        self._state = self._game(config).new_initial_state()
        self._deal()

    def _game(self, config: GameConfig) -> Any:
        parameters: dict[str, int | str] = dict(hle_parameters(config))
        if self._observation_type is not None:
            parameters["observation_type"] = self._observation_type
        key = tuple(sorted((name, str(value)) for name, value in parameters.items()))
        if key not in self._games:
            self._games[key] = self._pyspiel.load_game("hanabi", parameters)
        return self._games[key]

    def _deal(self) -> None:
        """[PE-openspiel-deal] resolve every pending chance node with the next card of S0:
        outcome ``colour * ranks + rank`` deals that card; OpenSpiel asks for the first
        p*h cards player by player (blocks, player 0 first), then one card after every
        play or discard while its deck lasts, and none after the game's final move."""
        config = self.config
        while self.game_state.is_chance_node():
            if self._dealt >= len(self._deck):
                raise EngineFailure("openspiel adapter: OpenSpiel asks for a card but every card of the deck is dealt")
            card = as_identities(self._deck)[self._dealt]
            outcome = suit_of(card, config.values) * config.values + value_of(card, config.values) - 1
            try:
                self.game_state.apply_action(outcome)
            except self._pyspiel.SpielError as error:
                raise EngineFailure(f"openspiel adapter: OpenSpiel refused to deal deck[{self._dealt}]: {error}") from None
            self._dealt += 1

    @property
    def config(self) -> GameConfig:
        """The configuration of the game being played."""
        return started(self._config, "openspiel adapter")

    @property
    def game_state(self) -> Any:
        """The peer's state object of the game being played."""
        return started(self._state, "openspiel adapter")

    def apply(self, action: Action) -> str | None:
        """Apply ``action`` as its OpenSpiel move id, then deal [PE-openspiel-actions]."""
        if self.game_state.is_terminal():
            return "OpenSpiel: the game is over"
        uid = self.action_id(action)
        if isinstance(uid, str):
            return f"not in OpenSpiel's action space: {uid}"
        if not self._check_refusals and uid not in self.game_state.legal_actions():
            return f"OpenSpiel does not list move {uid} ({self.game_state.action_to_string(uid)}) as legal"
        try:
            self.game_state.apply_action(uid)
        except self._pyspiel.SpielError as error:
            return f"OpenSpiel: {error}"
        self._deal()
        return None

    def action_id(self, action: Action) -> int | str:
        """OpenSpiel's move id for ``action``, or why there is none [PE-openspiel-actions]:
        discards 0..h-1, plays h..2h-1, then colour hints 2h + (offset-1)*c + colour,
        then rank hints 2h + (p-1)*c + (offset-1)*r + rank, with c colours, r ranks and
        the target's offset from the hinter."""
        config = self.config
        move = to_hle_move(action, self.current_seat(), config.players)
        if isinstance(move, str):
            return move
        return _move_id(move, config)

    def action_of(self, uid: int) -> Action:
        """Our action for OpenSpiel's move id ``uid`` of the player to move [PE-openspiel-actions]."""
        return self._action_of(uid, self.current_seat())

    def _action_of(self, uid: int, current: int) -> Action:
        key = (uid, current)
        if key not in self._actions:
            self._actions[key] = self._decode(uid, current)
        return self._actions[key]

    def _decode(self, uid: int, current: int) -> Action:
        config = self.config
        h, p, c, r = config.hand_size, config.players, config.suit_count, config.values
        if uid < h:
            move = HLEMove("discard", card_index=uid)
        elif uid < 2 * h:
            move = HLEMove("play", card_index=uid - h)
        elif uid < 2 * h + (p - 1) * c:
            offset, colour = divmod(uid - 2 * h, c)
            move = HLEMove("reveal_color", target_offset=offset + 1, color=colour)
        else:
            offset, rank = divmod(uid - 2 * h - (p - 1) * c, r)
            move = HLEMove("reveal_rank", target_offset=offset + 1, rank=rank)
        return from_hle_move(move, current, p)

    def current_seat(self) -> int:
        """The player to move, as OpenSpiel reports it."""
        player = int(self.game_state.current_player())
        if player < 0:
            raise EngineFailure(f"openspiel adapter: no player to move (OpenSpiel reports player {player})")
        return player

    def legal_actions(self) -> list[Action]:
        """OpenSpiel's legal move ids, as our actions [PE-openspiel-actions]."""
        if self.game_state.is_terminal():
            return []
        current = self.current_seat()
        return [self._action_of(uid, current) for uid in self.game_state.legal_actions()]

    def state(self) -> dict[str, Any]:
        """The T-state object parsed from ``str(state)`` [PE-openspiel-state]."""
        config = self.config
        report = parse_state_string(str(self.game_state), config)
        # [PE-openspiel-state] lives left -> errors made; moves = actions - cards dealt.
        report["strikes"] = life_tokens(config) - report.pop("lives")
        report["turns"] = int(self.game_state.move_number()) - (tables_for(config).deck_size - report["deck_size"])
        report["terminal"] = bool(self.game_state.is_terminal())
        report["score"] = int(self.game_state.returns()[0])
        return report

    def observe(self, seat: int) -> dict[str, Any] | None:
        """The T-view object of ``seat`` read from ``observation_string(seat)``
        [PE-openspiel-views]: what OpenSpiel shows that player, nothing added from the
        state.  Knowledge is left out under ``observation_type`` "minimal", which shows none."""
        text = self.game_state.observation_string(seat)
        return parse_observation(text, self.config, seat, self._observation_type != "minimal", self._card_lines)

    def close(self) -> None:
        """Forget the game (OpenSpiel runs in this process)."""
        self._state, self._config = None, None


def _move_id(move: HLEMove, config: GameConfig) -> int | str:
    """[PE-openspiel-actions] the move id of an HLE move, if OpenSpiel has one."""
    h, p, c, r = config.hand_size, config.players, config.suit_count, config.values
    if move.kind in ("discard", "play"):
        if not 0 <= move.card_index < h:
            return f"slot {move.card_index} is not in 0..{h - 1}"
        return move.card_index + (h if move.kind == "play" else 0)
    if not 1 <= move.target_offset < p:
        return "a player cannot hint its own hand"
    if move.kind == "reveal_color":
        if not 0 <= move.color < c:
            return f"clue colour {move.color} is not in 0..{c - 1}"
        return 2 * h + (move.target_offset - 1) * c + move.color
    if not 0 <= move.rank < r:
        return f"hint value {move.rank + 1} is not in 1..{r}"
    return 2 * h + (p - 1) * c + (move.target_offset - 1) * r + move.rank


def parse_state_string(text: str, config: GameConfig) -> dict[str, Any]:
    """[PE-openspiel-state] HLE's ``HanabiState::ToString``: tokens, fireworks, hands with
    each card's knowledge (``R1 || XX|RYGWB12345``: the colours and ranks still
    plausible), a ``Cur player`` line before the hand of the player to move, deck size and
    discards.  Returns the T-state fields it holds, with ``lives`` for the life tokens."""
    lines = text.splitlines()
    numbers = {m.group(1): int(m.group(2)) for m in map(NUMBER_LINE.match, lines) if m}
    report: dict[str, Any] = {
        "clue_tokens": numbers["Info tokens"],
        "lives": numbers["Life tokens"],
        "deck_size": numbers["Deck size"],
        "fireworks": _fireworks(_line_after(lines, "Fireworks:"), config),
        "discard": [_card(token) for token in _line_after(lines, "Discards:").split()],
    }
    hands, knowledge, current = _hands(lines, config)
    report.update(hands=hands, knowledge=knowledge)
    if current is not None:
        report["current"] = current
    return report


def _line_after(lines: list[str], prefix: str) -> str:
    for line in lines:
        if line.startswith(prefix):
            return line[len(prefix):]
    raise EngineFailure(f"openspiel adapter: no {prefix!r} line in OpenSpiel's state string")


def _card(token: str) -> dict[str, int]:
    return card_json(COLOUR_LETTERS.index(token[0]), int(token[1:]) - 1)


def _fireworks(text: str, config: GameConfig) -> list[int]:
    heights = [0] * config.suit_count
    for token in text.split():
        heights[COLOUR_LETTERS.index(token[0])] = int(token[1:])
    return heights


def _hands(lines: list[str], config: GameConfig) -> tuple[list[Any], list[Any], int | None]:
    """The hands and knowledge, seat by seat, and the seat marked ``Cur player``."""
    start, end = lines.index("Hands:") + 1, next(i for i, line in enumerate(lines) if line.startswith("Deck size:"))
    hands: list[list[dict[str, int]]] = [[]]
    knowledge: list[list[dict[str, list[int]]]] = [[]]
    current = None
    for line in lines[start:end]:
        if line == "-----":
            hands.append([])
            knowledge.append([])
        elif line == "Cur player":
            current = len(hands) - 1
        else:
            card, known = _card_line(line)
            hands[-1].append(card)
            knowledge[-1].append(known)
    if len(hands) != config.players:
        raise EngineFailure(f"openspiel adapter: {len(hands)} hands in OpenSpiel's state string, expected {config.players}")
    return hands, knowledge, current


@functools.lru_cache(maxsize=1 << 15)
def _card_line(line: str) -> tuple[dict[str, int], dict[str, list[int]]]:
    """A hand's card line: the card and its knowledge.  Read once per distinct line (a game
    shows the same lines over and over); the objects returned are shared between states,
    which are only read."""
    return _card(line[:2]), _knowledge(line)


def _knowledge(line: str) -> dict[str, list[int]]:
    match = CARD_LINE.match(line)
    if match is None:
        raise EngineFailure(f"openspiel adapter: cannot read the card line {line!r}")
    colours = [COLOUR_LETTERS.index(letter) for letter in match.group(3)]
    ranks = [int(digit) - 1 for digit in match.group(4)]
    return knowledge_json(colours, ranks)

