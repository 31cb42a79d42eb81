"""HLE's observation text, read strictly as a T-view object [PE-openspiel-views, T-view].

HLE's ``HanabiObservation::ToString`` (OpenSpiel's ``observation_string(seat)``) is what
the engine shows one seat: the life and info tokens, the fireworks, every hand starting
with the observer's own and going round the table (the seat to move marked by a line
``Cur player``, absent once the game is over), each card as ``R3 || X3|RYGWB3`` (the
identity, ``XX`` where it is hidden; what hints revealed directly, ``X`` for nothing;
the colours and ranks still plausible), the deck size and the discard pile.  Every line
must be exactly of this form: one that is not is an :class:`EngineFailure` naming it.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Final

from hanabi_ref.tools.peers.hle_rules import COLOUR_LETTERS, card_json, life_tokens
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.tools.protocol.engine import EngineFailure

CARD: Final = re.compile(r"(XX|[RYGWB]\d) \|\| ([RYGWB]|X)(\d|X)\|([RYGWB]*)(\d*)")
COUNT: Final = re.compile(r"(\d+)")


class _Reader:
    """The observation's lines, one at a time; a failure names the line it could not read."""

    def __init__(self, text: str, seat: int, config: GameConfig, cache: dict[tuple[GameConfig, str], CardLine]) -> None:
        self.lines = text.split("\n")
        self.config = config
        self.cache = cache
        self.index = 0
        self.seat = seat
        self.letters = COLOUR_LETTERS[: config.suit_count]
        self.ranks = "".join(str(rank) for rank in range(1, config.values + 1))

    def peek(self) -> str | None:
        return self.lines[self.index] if self.index < len(self.lines) else None

    def take(self, what: str) -> str:
        line = self.peek()
        if line is None:
            raise self.failure(what)
        self.index += 1
        return line

    def count(self, label: str) -> int:
        """The number on a line ``<label>: N``."""
        line = self.take(f"'{label}: N'")
        match = COUNT.fullmatch(line[len(label) + 2:]) if line.startswith(f"{label}: ") else None
        if match is None:
            raise self.failure(f"'{label}: N'", back=1)
        return int(match.group(1))

    def failure(self, what: str, back: int = 0) -> EngineFailure:
        number = self.index - back
        shown = repr(self.lines[number]) if number < len(self.lines) else "the end of the text"
        return EngineFailure(f"openspiel adapter: line {number + 1} of OpenSpiel's observation string for seat "
                             f"{self.seat} is not {what}: {shown[:120]}")

    def card(self, token: str, what: str) -> dict[str, int] | None:
        """A card ``R3`` of this configuration, None for ``XX``."""
        if token == "XX":
            return None
        if token[0] not in self.letters or token[1] not in self.ranks:
            raise self.failure(what, back=1)
        return card_json(self.letters.index(token[0]), int(token[1]) - 1)


CardLine = tuple[tuple[int, int] | None, tuple[int, ...], tuple[int, ...]]
"""A card line read: the card's (suit, value) or None, and the suits and values of its knowledge."""

CACHE_LINES: Final = 4096


def parse_observation(text: str, config: GameConfig, seat: int, knowledge: bool = True,
                      cache: dict[tuple[GameConfig, str], CardLine] | None = None) -> dict[str, Any]:
    """[PE-openspiel-views] the T-view object of seat ``seat`` that HLE's observation text
    carries: ``seat`` (the observer asked for), ``current`` (only while a seat is marked
    to move), ``hands`` and ``knowledge`` by seat (turned back from the observer's order),
    ``fireworks``, ``discard``, ``clue_tokens``, ``strikes`` (f0 minus the lives) and
    ``deck_size``.  ``knowledge=False`` (OpenSpiel's ``minimal`` observations, which
    show none) leaves knowledge out.  ``cache`` keeps card lines already read (the same
    line reads the same in every observation of a configuration), at most
    :data:`CACHE_LINES` of them."""
    cache = {} if cache is None else cache
    fast = _read_plainly(text, config, seat, knowledge, cache)
    return fast if fast is not None else _read_strictly(text, config, seat, knowledge, cache)


def _read_strictly(text: str, config: GameConfig, seat: int, knowledge: bool,
                   cache: dict[tuple[GameConfig, str], CardLine]) -> dict[str, Any]:
    """:func:`parse_observation` line by line, naming the first line it cannot read."""
    reader = _Reader(text, seat, config, cache)
    lives = reader.count("Life tokens")
    view: dict[str, Any] = {"seat": seat, "clue_tokens": reader.count("Info tokens"),
                            "strikes": life_tokens(config) - lives, "fireworks": _fireworks(reader)}
    if reader.take("'Hands:'") != "Hands:":
        raise reader.failure("'Hands:'", back=1)
    hands, known, offset = _hands(reader, config)
    players = config.players
    view["hands"] = [hands[(j - seat) % players] for j in range(players)]
    if knowledge:
        view["knowledge"] = [known[(j - seat) % players] for j in range(players)]
    if offset is not None:
        view["current"] = (seat + offset) % players
    view["deck_size"] = reader.count("Deck size")
    view["discard"] = _discards(reader)
    if reader.peek() is not None:
        raise reader.failure("the end of the observation")
    return view


_LIFE: Final = re.compile(r"Life tokens: (\d+)")
_INFO: Final = re.compile(r"Info tokens: (\d+)")
_DECK: Final = re.compile(r"Deck size: (\d+)")


@functools.lru_cache(maxsize=64)
def _shapes(config: GameConfig) -> tuple[re.Pattern[str], dict[str, dict[str, int]]]:
    """The fireworks line's pattern and the discard pile's card tokens of ``config``."""
    letters = COLOUR_LETTERS[: config.suit_count]
    fireworks = re.compile("Fireworks: " + "".join(f"{letter}(\\d+) " for letter in letters))
    cards = {f"{letter}{value}": card_json(suit, value - 1)
             for suit, letter in enumerate(letters) for value in range(1, config.values + 1)}
    return fireworks, cards


def _read_plainly(text: str, config: GameConfig, seat: int, knowledge: bool,
                  cache: dict[tuple[GameConfig, str], CardLine]) -> dict[str, Any] | None:
    """[PE-openspiel-views] :func:`parse_observation` for text of exactly the expected
    form whose card lines were all read before, in one pass; None for anything else,
    which the strict reader then reads (and names the line it cannot).  It gives the
    same object as the strict reader for every text it reads (tests/test_verify_views.py
    compares the two)."""
    lines = text.split("\n")
    players, size = config.players, config.hand_size
    if len(lines) < 7 or lines[3] != "Hands:":
        return None
    lives, info, deck = _LIFE.fullmatch(lines[0]), _INFO.fullmatch(lines[1]), _DECK.fullmatch(lines[-2])
    fireworks_line, tokens = _shapes(config)
    heights = fireworks_line.fullmatch(lines[2])
    if lives is None or info is None or deck is None or heights is None or not lines[-1].startswith("Discards:"):
        return None
    hands: list[list[Any]] = [[]]
    known: list[list[Any]] = [[]]
    offset: int | None = None
    for line in lines[4:-2]:
        if line == "-----":
            hands.append([])
            known.append([])
        elif line == "Cur player":
            if offset is not None or hands[-1]:
                return None
            offset = len(hands) - 1
        else:
            read = cache.get((config, line))
            if read is None:
                try:
                    read = _read_card_line(_Reader(line, seat, config, cache), line)
                except EngineFailure:
                    return None  # the strict reader names the line
                _keep(cache, (config, line), read)
            if len(hands[-1]) == size:
                return None
            card, suits, values = read
            hands[-1].append(None if card is None else {"suit": card[0], "value": card[1]})
            known[-1].append({"suits": list(suits), "values": list(values)})
    pile = lines[-1][len("Discards:"):].split(" ")
    if len(hands) != players or pile[0] != "" or any(token not in tokens for token in pile[1:]):
        return None
    view: dict[str, Any] = {"seat": seat, "clue_tokens": int(info.group(1)),
                            "strikes": life_tokens(config) - int(lives.group(1)),
                            "fireworks": [int(height) for height in heights.groups()]}
    view["hands"] = [hands[(j - seat) % players] for j in range(players)]
    if knowledge:
        view["knowledge"] = [known[(j - seat) % players] for j in range(players)]
    if offset is not None:
        view["current"] = (seat + offset) % players
    view["deck_size"] = int(deck.group(1))
    view["discard"] = [dict(tokens[token]) for token in pile[1:]]
    return view


def _fireworks(reader: _Reader) -> list[int]:
    """``Fireworks: R0 Y1 ...`` with every colour once, in order, each followed by a space."""
    what = f"'Fireworks: ' with the heights of {reader.letters}"
    line = reader.take(what)
    pattern = "Fireworks: " + "".join(f"{letter}(\\d+) " for letter in reader.letters)
    match = re.fullmatch(pattern, line)
    if match is None:
        raise reader.failure(what, back=1)
    return [int(height) for height in match.groups()]


def _hands(reader: _Reader, config: GameConfig) -> tuple[list[list[Any]], list[list[Any]], int | None]:
    """The hands and knowledge in the observer's order, and the offset marked ``Cur player``."""
    hands: list[list[Any]] = []
    known: list[list[Any]] = []
    offset: int | None = None
    for block in range(config.players):
        if block > 0 and reader.take("'-----'") != "-----":
            raise reader.failure(f"'-----' before hand {block} of {config.players}", back=1)
        if reader.peek() == "Cur player":
            if offset is not None:
                raise reader.failure("a card (a second 'Cur player')")
            reader.take("'Cur player'")
            offset = block
        cards = _card_lines(reader, config.hand_size)
        hands.append([None if card is None else {"suit": card[0], "value": card[1]} for card, _, _ in cards])
        known.append([{"suits": list(suits), "values": list(values)} for _, suits, values in cards])
    return hands, known, offset


def _card_lines(reader: _Reader, hand_size: int) -> list[CardLine]:
    """The card lines of one hand, up to the next ``-----`` or ``Deck size:`` line."""
    lines = reader.lines
    end = reader.index
    while end < len(lines) and lines[end] != "-----" and not lines[end].startswith("Deck size:"):
        end += 1
    if end - reader.index > hand_size:
        reader.index += hand_size
        raise reader.failure(f"'-----' or 'Deck size: N' (a hand holds at most {hand_size} cards)")
    return [_card_line(reader) for _ in range(end - reader.index)]


def _card_line(reader: _Reader) -> CardLine:
    """``R3 || X3|RYGWB3``: the card (None for ``XX``) and its knowledge: the plausible
    colours and ranks, narrowed to what hints revealed directly (a revealed colour or
    rank that the plausible ones do not imply so shows as more knowledge)."""
    line = reader.take("a card line")
    key = (reader.config, line)
    read = reader.cache.get(key)
    if read is None:
        read = _read_card_line(reader, line)
        _keep(reader.cache, key, read)
    return read


def _keep(cache: dict[tuple[GameConfig, str], CardLine], key: tuple[GameConfig, str], read: CardLine) -> None:
    """Remember a card line read, keeping at most :data:`CACHE_LINES`."""
    if len(cache) >= CACHE_LINES:
        cache.clear()
    cache[key] = read


def _read_card_line(reader: _Reader, line: str) -> CardLine:
    what = "a card line such as 'R3 || X3|RYGWB3'"
    match = CARD.fullmatch(line)
    if match is None:
        raise reader.failure(what, back=1)
    token, colour, rank, colours, ranks = match.groups()
    card = reader.card(token, what)
    if not (_in_order(colours, reader.letters) and _in_order(ranks, reader.ranks)
            and colour in reader.letters + "X" and rank in reader.ranks + "X"):
        raise reader.failure(what, back=1)
    suits = tuple(reader.letters.index(letter) for letter in colours if colour in ("X", letter))
    values = tuple(int(digit) for digit in ranks if rank in ("X", digit))
    return None if card is None else (card["suit"], card["value"]), suits, values


def _in_order(text: str, alphabet: str) -> bool:
    """Whether ``text`` is a selection of ``alphabet``'s characters in its order, none twice."""
    position = -1
    for character in text:
        found = alphabet.find(character)
        if found <= position:
            return False
        position = found
    return True


def _discards(reader: _Reader) -> list[dict[str, int]]:
    """``Discards:`` then `` R3`` per card, oldest first."""
    what = "'Discards:' followed by cards such as ' R3'"
    line = reader.take(what)
    if not line.startswith("Discards:"):
        raise reader.failure(what, back=1)
    tokens = line[len("Discards:"):].split(" ")
    if tokens[0] != "" or any(len(token) != 2 for token in tokens[1:]):
        raise reader.failure(what, back=1)
    pile = [reader.card(token, what) for token in tokens[1:]]
    if any(card is None for card in pile):
        raise reader.failure(what, back=1)
    return [card for card in pile if card is not None]
