"""The recommendation team: four seats that share one recommender and speak the hat code
of the RL notes [RL-train-team, RL-train-turn, RL-train-teacher].

Every seat plays the same rule (:func:`team_action`): a received play recommendation is
carried out; else, with a token, the seat *sends information* (the sum of every other
seat's recommendation, RL-hat-sum, as one reveal, RL-hat-embed); else it discards as
recommended, or its newest card.  A receiver decodes its own recommendation from the
reveal (RL-hat-decode) and keeps it until it acts.  The recommender is a function of the
recommendation observation of a target (RL-hat-observations): the hand-coded rule of the
paper's recommendation strategy (:func:`teacher_hat`, the teacher of behaviour cloning)
or a learned model.

:class:`TeamStrategy` is the team as a :class:`~hanabi_ref.players.strategy.Strategy`: it reads
views only and decodes every reveal it sees, so it can play under ``simulate`` and
against the checks of ``spec/isolation.md``.  :func:`play_team_games` plays the same rule
for many games at once, asks the recommender for the hats of all of them in one call and
hands each receiver the hat the sender computed for it (what decoding gives, as the
tests check): that is how the games of training are played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import GameMoves
from hanabi_ref.tools.rl.encoders import Vector, public_observation, recommendation_observation
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.hat import HatCode, board_reader
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event, History
from hanabi_ref.players.strategies.hat.player import Snapshot, snapshot_of
from hanabi_ref.players.strategies.hat.values import DISCARD
from hanabi_ref.players.strategies.hat.recommendation import Told, may_have_been_played, playable_identities, recommend
from hanabi_ref.players.strategies.adapt import ForeignMove, is_off_rule, mover_before
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyError, StrategyFactory
from hanabi_ref.formats.trace import GameRecord
from hanabi_ref.engine.view import PlayerView, view_action_problem, view_from_parts, view_is_legal

Recommender = Callable[[Vector], int]
"""One observation -> one hat (0 .. 2h - 1)."""

BatchRecommender = Callable[[npt.NDArray[np.float32]], npt.NDArray[np.int64]]
"""Observations (n, L) -> hats (n,)."""

HAND: Final = 4
"""The hand size the teacher (the paper's recommendation rule, H-rec-action) is defined for."""


def team_unsupported(config: GameConfig) -> str | None:
    """Why the team cannot play ``config``, or None [RL-train-team]: it needs a hat space
    (the recommendation observation and R >= 2h reveals) and, for the teacher, hands of
    four cards."""
    if config.hand_size != HAND:
        return f"the recommendation team plays hands of {HAND} cards (4 or 5 players), got {config.hand_size}"
    if config.players < 3:
        return f"the recommendation team needs at least 3 players, got {config.players}"
    try:
        HatCode(config, "recommendation")
    except Exception as error:  # an RLError (or a configuration the encoders refuse)
        return str(error)
    return None


def teacher_hat(view: PlayerView, target: int) -> int:
    """[RL-train-teacher] the recommendation of the paper's strategy (H-rec-action) for
    ``target``, computed as it is there for the state after the hint (one token fewer),
    as a hat of the recommendation space: play slot s is h + s, discard slot s is s."""
    snap = snapshot_of(view)
    snap = snap._replace(tokens=snap.tokens - 1)
    hand = [card for card in view.cards[target] if card is not None]
    value = recommend(view.config, snap, hand)
    return HAND + value if value < DISCARD else value - DISCARD


def teacher(config: GameConfig) -> Recommender:
    """[RL-train-teacher] :func:`teacher_hat` read from the recommendation observation
    alone (the target's cards, the fireworks and the discards are all it needs), so that
    it is a recommender like a learned one and a model can learn it exactly."""
    read = board_reader(config)

    def policy(observation: Vector) -> int:
        cards, heights, gone = read(observation)
        hand = [card for card in cards if card >= 0]
        fields, discarded = tuple(heights), tuple(gone)
        value = recommend(config, Snapshot(fields, discarded, 0, 0, 0), as_identities(hand))
        return HAND + value if value < DISCARD else value - DISCARD

    return policy


@attrs.define
class SeatMemory(Told):
    """What one seat of the team remembers [RL-train-turn]: the recommendation it received
    (None once it acted), the identities playable when it was given, and those of them
    played since (the record of H-rec-turn, :class:`Told`, which also notes every move)."""

    def receive(self, hat: int, view: PlayerView) -> None:
        """A recommendation arrives with the reveal that ``view`` (after it) shows."""
        self.received = hat
        self.played_since = []
        self.playable_then = playable_identities(view)


Judge = Callable[[PlayerView, SeatMemory, int], bool]
"""[RL-train-judge] asked when a recommended play may have gone stale (the seat's view, its
memory, the slot): True to play it all the same."""


def recommended_play(memory: SeatMemory, view: PlayerView, hand_size: int, judge: Judge | None = None) -> Play | None:
    """[RL-train-turn] the play the seat was recommended, if it still stands: its slot
    holds a card and no card played since may have had the recommended card's identity
    (one of them still has a copy the seat does not see; H-rec-turn); when one may have,
    ``judge`` (RL-train-judge), if given, decides."""
    value = memory.received
    if value is None or value < hand_size or value - hand_size >= len(view.own_hand):
        return None
    if may_have_been_played(view, memory.played_since) and (judge is None or not judge(view, memory, value - hand_size)):
        return None
    return Play(value - hand_size)


def could_discard(view: PlayerView, seat: int) -> bool:
    """[S-foreign-detect, RL-train-turn] whether ``seat`` could discard in ``view`` (public)."""
    return may_discard(view.config, len(view.hands[seat]), view.clue_tokens)


def may_discard(config: GameConfig, hand_size: int, tokens: int) -> bool:
    """[RL-train-turn] whether a seat with ``hand_size`` cards and ``tokens`` clue tokens may
    discard: a card in hand, and a token short of the maximum or discards allowed at it."""
    return hand_size > 0 and (tokens < config.max_hints or config.options.discard_at_max_hints)


def team_action(code: HatCode, memory: SeatMemory, view: PlayerView, message: Callable[[], int],
                judge: Judge | None = None) -> Action:
    """[RL-train-turn] the team's move for the acting seat of ``view``: the recommended
    play; else, with a token, the reveal of ``message()`` (the embedded hat sum) if it is
    legal; else the recommended discard; else the newest card; and with every token and no
    legal message, the first legal reveal that carries no sum (else the first legal one)."""
    play = recommended_play(memory, view, code.hand_size, judge)
    if play is not None:
        return play
    encoding = message() if view.clue_tokens > 0 else None
    if encoding is not None:
        hint = code.reveal(encoding, view.seat)
        if view_is_legal(view, hint):
            return hint
    size = len(view.own_hand)
    value = memory.received
    if value is not None and value < size and view_is_legal(view, Discard(value)):
        return Discard(value)
    newest = max(range(size), key=view.own_hand.__getitem__)
    if view_is_legal(view, Discard(newest)):
        return Discard(newest)
    if encoding is None:  # with no token left a discard is always allowed [2.16-2b]
        raise StrategyError(f"RL-train-turn: seat {view.seat} has no token to send and no discard allowed")
    legal = [e for e in range(code.reveals) if view_is_legal(view, code.reveal(e, view.seat))]
    public = lambda: public_observation(view, view.seat)  # noqa: E731
    silent = [e for e in legal if code.embedding.recover(e, public) >= code.alphabet]
    if silent or legal:  # one that carries no sum, so that nobody is told a wrong recommendation
        return code.reveal((silent or legal)[0], view.seat)
    return Play(newest)  # no reveal touches a card at all


def _initial_view(view: PlayerView) -> PlayerView:
    """The view of the same seat before the game's first move, when that move was a hint:
    a hint moves no card, so only the knowledge (all sets full), the tokens, the turn and
    the history differ."""
    event = view.history[0]
    assert isinstance(event.action, Hint)
    parts = dict(view.__dict__)
    del parts["key"]
    full = view.tables.all_cards_mask
    parts.update(turns=0, current_player=event.player, clue_tokens=view.clue_tokens + 1, history=History(),
                 knowledge=tuple(tuple(full for _ in known) for known in view.knowledge))
    return view_from_parts(parts)


class TeamStrategy(BaseStrategy):
    """One seat of the recommendation team, reading views only [RL-train-team]: it decodes
    its recommendation from every reveal of another seat, from its own view before the
    reveal (RL-hat-decode)."""

    def __init__(self, config: GameConfig, seat: int, recommender: Recommender, embedding: str = "constant",
                 permutation: int = 0, offset: Callable[[Vector], int] | None = None,
                 judge: Judge | None = None) -> None:
        self.config = config
        self.judge = judge
        self.seat = seat
        self.code = HatCode(config, "recommendation", embedding, seed=permutation, offset_function=offset,
                            recommender=recommender)
        self.memory = SeatMemory()
        self.before: PlayerView | None = None
        """this seat's view after the last move (before the next one)"""
        self.told: dict[int, SeatMemory] = {}
        """what every other seat was last recommended, as this seat computed it [S-foreign-order]"""
        self.unknown: set[int] = set()
        """the seats whose recommendation this seat cannot tell until they move [S-foreign-order]"""

    def observe(self, view: PlayerView, event: Event) -> None:
        before = self.before if self.before is not None else (_initial_view(view) if isinstance(event.action, Hint) else None)
        if event.player != self.seat and event.player not in self.unknown:
            hand, tokens = (before.hands[event.player], before.clue_tokens) if before is not None else mover_before(view, event)
            self.check_move(hand, tokens, event)
        self.unknown.discard(event.player)
        for seat, told in self.told.items():
            told.note(seat, event)
        if isinstance(event.action, Hint):
            assert before is not None
            code, sender = self.code, event.player
            info = code.embedding.recover(code.encoding_of(event.action, sender), lambda: public_observation(before, sender))
            carries = info < code.alphabet
            hats = {seat: code.hat(before, seat) for seat in code.receivers(sender) if seat != self.seat} if carries else {}
            # [RL-train-turn] a seat that may discard sends its message (step 2); one that may not
            # may send the first legal reveal instead (step 5), whose sum nobody meant
            message = could_discard(before, sender) or (sender != self.seat and not self.may_be_last_resort(before, event.action, sender))
            if sender != self.seat and carries and message:
                self.check_choice(before, event.action, sender, info)
            self.remember(view, sender, info if carries else None, hats, message)
            if sender == self.seat:
                pass
            elif carries:  # [RL-hat-decode] the own hat: the sum less the others'
                self.memory.receive((info - sum(hats.values())) % code.alphabet, view)
            elif message:
                # [S-foreign-detect] an honest seat sends no sum only when it may not discard
                raise ForeignMove("RL-train-turn", f"turn {event.turn}: seat {sender}'s reveal carries no hat sum "
                                  "although it could discard")
            else:  # [RL-train-turn] a reveal that carries no sum (sent for want of a legal one) recommends nothing
                self.memory.received = None
        self.memory.note(self.seat, event)
        self.before = view

    def remember(self, view: PlayerView, sender: int, info: int | None, hats: dict[int, int], message: bool) -> None:
        """[S-foreign-order] what every other receiver of ``sender``'s reveal (sum ``info``, None
        if it carries none) now holds: its hat when the reveal was the message; when this seat
        sent it, what the receiver decodes from it (this seat knows every hat); when another
        seat that may not discard sent it, unknown (it may be RL-train-turn's step 5)."""
        for seat in self.code.receivers(sender):
            if seat == self.seat:
                continue
            self.told[seat] = SeatMemory()
            self.unknown.discard(seat)
            if info is None:
                continue
            if sender == self.seat:
                self.told[seat].receive((info - sum(hat for other, hat in hats.items() if other != seat)) % self.code.alphabet, view)
            elif message:
                self.told[seat].receive(hats[seat], view)
            else:
                self.unknown.add(seat)

    def may_be_last_resort(self, before: PlayerView, hint: Hint, sender: int) -> bool:
        """[S-foreign-order, RL-train-turn] whether ``hint``, from a seat that may not discard,
        may be step 5's reveal rather than its message: under an embedding where every reveal
        carries a sum (``modular``) step 5 sends the first legal reveal, so a reveal after one
        this seat sees is legal (one to another seat) is the message.  Under other embeddings,
        always (this seat cannot tell)."""
        if getattr(self.code.embedding, "candidates", None) is None:
            return True
        given = self.code.encoding_of(hint, sender)
        for encoding in range(given):
            reveal = self.code.reveal(encoding, sender)
            if reveal.target == self.seat:
                return True  # its legality depends on this seat's own cards
            if view_action_problem(before, reveal) is None:
                return False
        return True

    def check_choice(self, before: PlayerView, hint: Hint, sender: int, info: int) -> None:
        """[S-foreign-detect, RL-hat-offsets] ForeignMove if ``hint`` is not the reveal an honest
        sender chooses for sum ``info`` under an embedding with several reveals per sum
        (``modular``): the first legal one.  Legality of a reveal to this seat depends on its
        own cards, so it can tell only while the earlier reveals go to other seats."""
        choices = getattr(self.code.embedding, "candidates", None)
        if choices is None:
            return
        given = self.code.encoding_of(hint, sender)
        for encoding in choices(info, lambda: public_observation(before, sender)):
            if encoding == given:
                return
            reveal = self.code.reveal(int(encoding), sender)
            if reveal.target == self.seat:
                return
            if view_action_problem(before, reveal) is None:
                raise ForeignMove("RL-hat-offsets", f"seat {sender}'s reveal {given} carries sum {info}, for which "
                                  f"the first legal reveal is {encoding}")

    def check_move(self, hand: Sequence[int], tokens: int, event: Event) -> None:
        """[S-foreign-order] ForeignMove if another seat's move is none that RL-train-turn
        gives it, from the recommendation it was given (as this seat computed it), its card
        ids ``hand`` and the clue ``tokens`` before the move (public)."""
        mover, config = event.player, self.config
        told = self.told.get(mover, SeatMemory())
        size, value = len(hand), told.received
        play = value - self.code.hand_size if value is not None and 0 <= value - self.code.hand_size < size else None
        newest = max(range(size), key=hand.__getitem__) if hand else 0
        discard = (value if value is not None and value < size else newest) if may_discard(config, size, tokens) else None
        last_play = newest if tokens > 0 and discard is None else None
        if is_off_rule(event.action, play, not told.played_since, discard, tokens > 0, last_play):
            raise ForeignMove("S-foreign-order", f"turn {event.turn}: seat {mover}'s {event.action} is no move of "
                              f"RL-train-turn for its recommendation {value}")

    def act(self, view: PlayerView) -> Action:
        return team_action(self.code, self.memory, view, lambda: self.code.message(view)[0], self.judge)


def team_factory(recommender: Recommender, embedding: str = "constant", permutation: int = 0,
                 offset: Callable[[Vector], int] | None = None, judge: Judge | None = None) -> StrategyFactory:
    """The factory of :class:`TeamStrategy` seats sharing ``recommender`` and ``embedding``
    (RL-hat-offsets: constant, modular, permutation drawn from seed ``permutation``, or
    public with the function ``offset`` of the public observation)."""

    def build(config: GameConfig, seat: int, seed: int) -> Strategy:
        problem = team_unsupported(config)
        if problem is not None:
            raise ConfigError(problem)
        return TeamStrategy(config, seat, recommender, embedding, permutation, offset, judge)

    return build


# ------------------------------------------------------------------ many games at once


@attrs.define
class Decisions:
    """The recommendations of a batch of games, for learning: the observation and the
    hat of each, and the game (its index in the batch) it was made in."""

    observations: list[npt.NDArray[Any]] = attrs.Factory(list)
    hats: list[int] = attrs.Factory(list)
    games: list[int] = attrs.Factory(list)
    half: bool = False
    """keep the observations as float16 (half the memory; their values are 0, 1 and
    belief fractions, which float16 holds to three digits)"""


class _Seat:
    """A seat of :func:`play_team_games`: the strategy interface of
    :class:`~hanabi_ref.players.runner.GameMoves`, with nothing to decide (the driver decides)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.memory = SeatMemory()

    def observe(self, view: PlayerView, event: Event) -> None:
        self.memory.note(self.seat, event)

    def act(self, view: PlayerView) -> Action:
        raise AssertionError("the driver of play_team_games decides")


def _seats_of(row: list[_Seat]) -> StrategyFactory:
    def build(config: GameConfig, seat: int, seed: int) -> Strategy:
        return row[seat]

    return build


class _TurnOffset:
    """[RL-hat-offsets] the public offset of the turn :func:`play_team_games` is playing,
    asked of the offset function at most once per turn (so that an offset drawn at random
    is the same for the sender and its receivers)."""

    def __init__(self, reveals: int) -> None:
        self.reveals = reveals
        self.ask: Callable[[], int] = lambda: 0
        self.value: int | None = None

    def turn(self, ask: Callable[[], int]) -> None:
        self.ask, self.value = ask, None

    def offset(self) -> int:
        if self.value is None:
            self.value = int(self.ask())
        return self.value

    def embed(self, info: int, public: Callable[[], Vector]) -> int:
        return (info + self.offset()) % self.reveals

    def recover(self, encoding: int, public: Callable[[], Vector]) -> int:
        return (encoding - self.offset()) % self.reveals


def play_team_games(config: GameConfig, seeds: Sequence[int], recommender: BatchRecommender,
                    decisions: Decisions | None = None, embedding: str = "constant",
                    permutation: int = 0, offset: Callable[[Vector], int] | None = None,
                    judge: Judge | None = None) -> list[GameRecord]:
    """[RL-train-team] the team's games of deck seeds ``seeds``, played at
    once: every turn, the recommender is asked for the hats of every game whose acting
    seat may send, in one call, and each receiver of a reveal gets what decoding it would
    give (the hat computed for it when the reveal is the message).  ``decisions``: where
    the recommendations of every reveal sent are recorded (the games keep the hats the
    recommender drew, which may be random).  ``offset``: the function of the public
    observation (of the acting seat) of the ``public`` embedding, asked once in a turn
    that uses it.  The records of the games, in order."""
    turn_offset: _TurnOffset | None = None
    if embedding == "public":
        if offset is None:
            raise RLError("RL-hat-offsets", "the 'public' offset needs an offset function")
        code = HatCode(config, "recommendation", "constant")
        code.embedding = turn_offset = _TurnOffset(code.reveals)
    else:
        code = HatCode(config, "recommendation", embedding, seed=permutation)
    rows = [[_Seat(seat) for seat in range(config.players)] for _ in seeds]
    games = [GameMoves(config, _seats_of(row), seed=seed) for row, seed in zip(rows, seeds)]
    live = [index for index, game in enumerate(games) if game.turn is not None]
    while live:
        asks: list[tuple[int, int]] = []  # (game, target) of each observation
        observations: list[Vector] = []
        for index in live:
            seat, view = _turn(games[index])
            if view.clue_tokens > 0 and recommended_play(rows[index][seat].memory, view, code.hand_size, judge) is None:
                for target in code.receivers(seat):
                    asks.append((index, target))
                    observations.append(recommendation_observation(view, target))
        hats: dict[int, dict[int, tuple[int, Vector]]] = {}
        if observations:
            for (index, target), observation, hat in zip(asks, observations, recommender(np.stack(observations)).tolist()):
                hats.setdefault(index, {})[target] = (int(hat), observation)
        still = []
        for index in live:
            seat, view = _turn(games[index])
            if turn_offset is not None:
                assert offset is not None
                turn_offset.turn(lambda: offset(public_observation(view, seat)))  # noqa: B023 (called in this turn only)
            row, sent = rows[index], hats.get(index, {})
            total = sum(hat for hat, _ in sent.values())
            action = team_action(code, row[seat].memory, view, lambda: code.encoding_for(total % code.alphabet, view),
                                 judge)
            if games[index].send(action) is not None:
                still.append(index)
            if not isinstance(action, Hint):
                continue
            received = code.embedding.recover(code.encoding_of(action, seat), _no_public)
            for target, (hat, observation) in sent.items():  # [RL-hat-decode] as each receiver decodes
                if received < code.alphabet:
                    row[target].memory.receive((received - total + hat) % code.alphabet, view)
                else:
                    row[target].memory.received = None
                if decisions is not None:
                    decisions.observations.append(observation.astype(np.float16) if decisions.half else observation)
                    decisions.hats.append(hat)
                    decisions.games.append(index)
        live = still
    return [game.record() for game in games]


def _turn(game: GameMoves) -> tuple[int, PlayerView]:
    assert game.turn is not None
    return game.turn


def _no_public() -> Vector:
    raise AssertionError("the team's embeddings read no public observation")
