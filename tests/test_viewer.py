"""The HTML replay viewer: one self-contained file whose data is the engine's states, and,
in a real headless Chromium, a page that steps, switches views, hides a seat's own cards,
highlights hints, shows a divergence and asks for nothing over the network [VW-file,
VW-network, VW-escape, VW-data, VW-board, VW-move, VW-hint, VW-step, VW-seat,
VW-divergence].

What the page shows is compared with the engine's states from ``replay_states``; card
names, knowledge sets, touched slots and move texts are computed here from the
configuration and the deck, without the viewer's helpers.

The browser tests need Debian's ``/usr/bin/chromium`` and the Python package
``playwright`` (``pip install playwright``; never ``playwright install``, which downloads
browsers).  Without them they are skipped, unless ``HANABI_REF_REQUIRE_BROWSER=1`` (CI),
when they fail.  ``python -m tests.test_viewer docs/viewer.png`` draws the screenshot of
docs/viewer.md.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import html
import io
import json
import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.cli import main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.formats.trace import Trace, replay_states, save_trace
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.viewer import read_divergence, render_viewer, write_viewer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND"]
ENGINES = Path(__file__).parent / "engines"
DATA_BLOCK = re.compile(r'<script type="application/json" id="game-data">(.*?)</script>', re.DOTALL)


# ------------------------------------------------------------------ games and independent readings


def hat_game() -> Trace:
    """A real game: the hat strategy, 4 players, hle, seed 3 (51 moves, hints and plays)."""
    return play_game(make_config(4, "hle"), STRATEGIES["hat"], seed=3).trace


def long_move(state: GameState, plays: int) -> Action:
    """A move that makes the game long: a hint while there is a token (to the next seat,
    about the colour or the value of one of its cards), else one of the first two
    playable cards, else a discard (which regains a token for more hints)."""
    config, seat, n = state.config, state.current_player, state.config.values
    if state.clue_tokens > 0:
        target = (seat + 1) % config.players
        card = state.deck[state.hands[target][state.turns % len(state.hands[target])]]
        if state.turns % 2:
            return Hint(target, "value", card % n + 1)
        return Hint(target, "colour", min(config.suits[card // n].touched_by))
    for slot, card_id in enumerate(state.hands[seat]):
        if plays < 2 and state.fireworks[state.deck[card_id] // n] == state.deck[card_id] % n:
            return Play(slot)
    return Discard(0)


def long_game(config: GameConfig | None = None) -> Trace:
    """A game of :func:`long_move`; by default a long 5-player game of 6 Suits (thesis
    rules): 60 cards, mostly hints and discards, 90 moves (40 draws, 5 moves of the last
    round, and 45 hints: the 8 tokens and the 37 that discards regain, less the last
    round's)."""
    config = config or make_config(5, "thesis", "6 Suits")
    deck = deck_from_seed(config, 11)
    state, actions = initial_state(config, deck), list[Action]()
    while not state.terminal:
        action = long_move(state, sum(isinstance(a, Play) for a in actions))
        actions.append(action)
        state = apply(state, action)
    return Trace(config, deck, tuple(actions))


def name(config: GameConfig, card: int) -> str:
    """A card by name (SH-card), read off the configuration: the suit's abbreviation in
    lower case, a dash if that is longer than a letter, the value."""
    letter = config.suits[card // config.values].abbreviation.lower()
    return f"{letter}{'-' if len(letter) > 1 else ''}{card % config.values + 1}"


def allowed(config: GameConfig, mask: int) -> tuple[list[int], list[int]]:
    """The suits and values a knowledge bitmask allows, bit by bit."""
    suits, values = set(), set()
    for suit in range(config.suit_count):
        for value in range(1, config.values + 1):
            if mask >> (suit * config.values + value - 1) & 1:
                suits.add(suit)
                values.add(value)
    return sorted(suits), sorted(values)


def known_text(config: GameConfig, mask: int) -> str:
    """A knowledge set (a product of suits and values, as hints make them) as SH-knowledge
    writes it: ``{r,g}{1,2}``, one possibility bare, every possibility ``?``."""
    suits, values = allowed(config, mask)
    letters = [config.suits[suit].abbreviation.lower() for suit in suits]

    def part(names: list[str], every: bool) -> str:
        return "?" if every else names[0] if len(names) == 1 else "{" + ",".join(names) + "}"

    return part(letters, len(suits) == config.suit_count) + part(list(map(str, values)), len(values) == config.values)


def known_name(config: GameConfig, mask: int) -> str:
    """What a card its holder cannot see shows [VW-seat]: the suit's letter if one suit is
    allowed, the value if one value is, ``?`` for each part that is not."""
    suits, values = allowed(config, mask)
    letter = config.suits[suits[0]].abbreviation.lower() if len(suits) == 1 else "?"
    return letter + ("-" if len(letter) > 1 else "") + (str(values[0]) if len(values) == 1 else "?")


def touched_slots(config: GameConfig, state: GameState, hint: Hint) -> list[int]:
    """The slots of the target's hand a hint touches, by 2.16-2a: a colour hint the cards
    whose suit that colour touches, a value hint the cards of that value."""
    n, slots = config.values, []
    for slot, card_id in enumerate(state.hands[hint.target]):
        card = state.deck[card_id]
        if (hint.subject in config.suits[card // n].touched_by) if hint.kind == "colour" else card % n + 1 == hint.subject:
            slots.append(slot)
    return slots


def expected_move(config: GameConfig, before: GameState, action: Action, after: GameState) -> str:
    """The words of a move by VW-move, from the two states around it."""
    seat = before.current_player
    if isinstance(action, Hint):
        slots = touched_slots(config, before, action)
        named = config.colours[action.subject].lower() if action.kind == "colour" else f"{action.subject}s"
        touched = f"touches slot{'s' if len(slots) > 1 else ''} {', '.join(map(str, slots))}" if slots else "touches no card"
        return f"seat {seat} hints seat {action.target} {named}: {touched}"
    card = name(config, before.deck[before.hands[seat][action.slot]])
    if isinstance(action, Discard):
        return f"seat {seat} discards {card} from slot {action.slot}"
    outcome = "success" if sum(after.fireworks) > sum(before.fireworks) else "fails: a strike"
    return f"seat {seat} plays {card} from slot {action.slot} ({outcome})"


def page_data(page: str) -> dict[str, Any]:
    """The JSON block of a viewer page."""
    found = DATA_BLOCK.search(page)
    assert found is not None, "no game-data block"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


# ------------------------------------------------------------------ the file [VW-file, VW-network, VW-escape]


@pytest.mark.checks("VW-file", "VW-network")
def test_the_page_is_one_self_contained_file() -> None:
    """[VW-file, VW-network] one document, styles and script inline, one JSON block, a
    Content-Security-Policy that forbids every request, and no address of anything
    outside the file: no ``src``, no ``href`` but the empty ``data:`` icon, no URL."""
    page = render_viewer(hat_game(), replay_states(hat_game()))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<style>") == 1 and page.count("<script") == 2 and len(DATA_BLOCK.findall(page)) == 1
    policy = re.search(r"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                       r"script-src 'sha256-([A-Za-z0-9+/=]+)'; style-src 'unsafe-inline'; img-src data:;", page)
    assert policy is not None
    # [VW-network] the one script allowed is the page's own, named by the hash of its text
    (script,) = re.findall(r"<script>(.*?)</script>", page, re.DOTALL)
    assert base64.b64decode(policy.group(1)) == hashlib.sha256(script.encode("utf-8")).digest()
    assert re.findall(r"\b(?:src|href|action|srcset|poster)\s*=\s*\"([^\"]*)\"", page) == ["data:,"]
    assert not re.search(r"\b(?:https?|ftp|wss?|file):|//[a-z0-9.-]+\.[a-z]{2,}", page, re.IGNORECASE)
    for fetching in ("@import", "url(", "fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "import(", "sendBeacon"):
        assert fetching not in page, fetching


@pytest.mark.checks("VW-file")
def test_a_long_five_player_game_is_well_under_300_kb() -> None:
    """[VW-file] a game of at least 90 moves and 5 players (6 Suits: 60 cards) gives a
    page of at most 300 KB."""
    trace = long_game()
    assert len(trace.actions) >= 90
    size = len(render_viewer(trace, replay_states(trace)).encode("utf-8"))
    assert size <= 300_000, size


@pytest.mark.checks("VW-file", "OUT-atomic")
def test_write_viewer_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[VW-file, OUT-atomic] the file written is the page; a path in a missing directory
    raises OSError and leaves nothing; a failure while rendering leaves an existing file
    as it was and no temporary file beside it."""
    trace = hat_game()
    states = replay_states(trace)
    out = tmp_path / "game.html"
    write_viewer(str(out), trace, states, title="seed 3")
    assert out.read_text(encoding="utf-8") == render_viewer(trace, states, title="seed 3")
    missing = tmp_path / "no such directory" / "game.html"
    with pytest.raises(OSError):
        write_viewer(str(missing), trace, states)
    assert not missing.parent.exists()
    out.write_text("old", encoding="utf-8")
    import hanabi_ref.tools.viewer.html as viewer_html

    def broken(*args: object, **kwargs: object) -> dict[str, Any]:
        raise RuntimeError("interrupted")

    monkeypatch.setattr(viewer_html, "game_data", broken)
    with pytest.raises(RuntimeError):
        write_viewer(str(out), trace, states)
    assert out.read_text(encoding="utf-8") == "old" and sorted(tmp_path.iterdir()) == [out]


@pytest.mark.checks("VW-escape")
def test_text_from_files_is_escaped() -> None:
    """[VW-escape] a title and a divergence whose strings hold markup reach the page as
    text: the title escaped, the JSON block with no ``<`` at all, and the strings read
    back unchanged."""
    hostile = '</script><script>alert("x")</script> & <b>'
    trace = hat_game()
    states = replay_states(trace)
    page = render_viewer(trace, states, title=hostile, divergence={"what": hostile, "where": "</script>"})
    assert "<script>alert" not in page and "<b>" not in page
    assert f"<title>{html.escape(hostile)}</title>" in page
    block = DATA_BLOCK.search(page)
    assert block is not None and "<" not in block.group(1) and ">" not in block.group(1)
    data = page_data(page)
    assert data["title"] == hostile and data["divergence"]["what"] == hostile and data["divergence"]["where"] == "</script>"


# ------------------------------------------------------------------ the data [VW-data, VW-move, VW-hint]


@pytest.mark.checks("VW-data", "VW-move", "VW-hint")
def test_each_step_holds_the_engines_state() -> None:
    """[VW-data, VW-move, VW-hint] step i of the page is the state after i actions:
    fireworks, tokens, strikes, stack size, score, seat to move, each hand's cards by
    name and knowledge, the discard pile, the move in words and the cards its hint
    touched; each read here from the engine's states (a custom game's suits too, whose
    names are longer than a letter)."""
    custom = make_config(2, "thesis", composition=[[2, 1, 1], [2, 1, 1], [1, 1, 1]])  # suits S1, S2, S3
    for trace in (hat_game(), long_game(), long_game(custom)):
        config, states = trace.config, replay_states(trace)
        data = page_data(render_viewer(trace, states))
        assert data["cards"] == [name(config, card) for card in trace.deck] and data["start"] == 0
        assert len(data["steps"]) == len(trace.actions) + 1
        for index, (state, step) in enumerate(zip(states, data["steps"])):
            assert (step["fireworks"], step["tokens"], step["strikes"]) == (list(state.fireworks), state.clue_tokens, state.strikes)
            assert (step["deck"], step["turn"], step["current"]) == (len(state.deck) - state.next_card, index, state.current_player)
            assert step["score"] == (0 if state.remaining == -1 else sum(state.fireworks)) and step["terminal"] == state.terminal
            hands = [[(data["cards"][card_id], data["knowledge"][known]) for card_id, known in hand] for hand in step["hands"]]
            assert hands == [[(name(config, state.deck[card_id]), [known_text(config, mask), *allowed(config, mask)])
                              for card_id, mask in zip(hand, masks)] for hand, masks in zip(state.hands, state.knowledge)]
            assert [data["cards"][card_id] for card_id in step["discard"]] == [name(config, state.deck[c]) for c in state.discard]
            if index == 0:
                assert step["move"] is None and step["touched"] == []
                continue
            before, action = states[index - 1], trace.actions[index - 1]
            assert step["move"] == expected_move(config, before, action, state)
            touched = touched_slots(config, before, action) if isinstance(action, Hint) else []
            assert sorted(step["touched"]) == sorted(before.hands[action.target][slot] for slot in touched) \
                if isinstance(action, Hint) else step["touched"] == []


@pytest.mark.checks("VW-move", "VW-hint")
def test_moves_in_words_on_a_stacked_deck() -> None:
    """[VW-move, VW-hint] the move texts of a game dealt by hand, transcribed from the
    clause: a colour hint touching two slots, a value hint touching one, a play that
    scores, a play that fails, a discard."""
    from tests.helpers import stacked_deck

    config = make_config(2, "thesis")
    deck = stacked_deck(config, [(1, 0), (2, 1), (3, 0), (4, 2), (5, 3), (1, 1), (1, 0), (4, 0), (2, 2), (3, 3)])
    actions: list[Action] = [Hint(1, "colour", 0), Hint(0, "value", 4), Play(0), Play(2), Discard(2)]
    trace = Trace(config, deck, tuple(actions))
    moves = [step["move"] for step in page_data(render_viewer(trace, replay_states(trace)))["steps"]]
    assert moves == [None, "seat 0 hints seat 1 red: touches slots 1, 2", "seat 1 hints seat 0 4s: touches slot 3",
                     "seat 0 plays r1 from slot 0 (success)", "seat 1 plays r4 from slot 2 (fails: a strike)",
                     "seat 0 discards g4 from slot 2"]


# ------------------------------------------------------------------ a verify reproduction [VW-divergence]


@pytest.fixture(scope="module")
def reproduction(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A reproduction file of ``verify``: an engine that reports 9 clue tokens from move 3
    on (made once for the module: its tests only read it)."""
    out = tmp_path_factory.mktemp("reproduction") / "repro.json"
    engine = f"{sys.executable} {ENGINES / 'tampered.py'} 3 clue_tokens=9"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["verify", "--engine", engine, "--no-vectors", "--games", "5", "--players", "3", "--rules", "hle",
              "--out", str(out)])
    return out


@pytest.mark.checks("VW-divergence")
def test_a_reproduction_opens_at_its_divergence(reproduction: Path, tmp_path: Path) -> None:
    """[VW-divergence] ``read_divergence`` gives a reproduction's divergence object (None
    for a plain trace); the page opens at the trace's last step, says what differs with
    both values, and shows both engines' states there, the differing field marked."""
    from hanabi_ref.formats.trace import load_trace

    out = reproduction
    divergence = read_divergence(out)
    assert divergence is not None and "clue_tokens" in divergence["what"]
    trace = load_trace(out)
    data = page_data(render_viewer(trace, replay_states(trace), divergence=divergence))
    shown = data["divergence"]
    assert data["start"] == shown["step"] == len(trace.actions) == 3
    assert shown["what"] == divergence["what"] and shown["then"] is None
    assert [(d["field"], d["theirs"]) for d in shown["differences"]] == [("clue_tokens", "9")]
    rows = {row["field"]: row for row in shown["states"]}
    assert [field for field, row in rows.items() if row["differs"]] == ["clue_tokens"]
    assert rows["clue_tokens"]["theirs"] == "9" and rows["clue_tokens"]["ours"] == str(replay_states(trace)[-1].clue_tokens)
    assert rows["hands"]["ours"].splitlines()[0] == "seat 0: " + " ".join(
        name(trace.config, trace.deck[c]) for c in replay_states(trace)[-1].hands[0])
    plain = tmp_path / "plain.json"
    save_trace(trace, plain)
    assert read_divergence(plain) is None
    assert page_data(render_viewer(trace, replay_states(trace)))["divergence"] is None


@pytest.mark.checks("VW-divergence", "VW-move")
def test_a_divergence_on_a_move_says_whether_the_rules_allow_it() -> None:
    """[VW-divergence, VW-move] when the engines parted on a move the trace does not hold,
    the panel tells that move: in words when the rules allow it, with the forbidding
    clause when they do not; values that are not what a state holds are shown as JSON."""
    trace = hat_game()
    states = replay_states(trace)
    short = Trace(trace.config, trace.deck, trace.actions[:4])
    before = states[4]
    legal = {"what": "after actions[3]: engine refused legal play 0", "offending": {"type": "play", "slot": 0},
             "differences": [{"field": "hands", "reference": [[None]], "engine": {"odd": [1.5]}, "note": ""}]}
    shown = page_data(render_viewer(short, states[:5], divergence=legal))["divergence"]
    card = name(trace.config, before.deck[before.hands[before.current_player][0]])
    assert shown["then"].startswith(f"seat {before.current_player} plays {card} from slot 0 (") and shown["then"].endswith("the rules allow it")
    assert shown["differences"] == [{"field": "hands", "ours": "seat 0: hidden", "theirs": '{"odd": [1.5]}', "note": ""}]
    illegal = dict(legal, offending={"type": "discard", "slot": 9})
    shown = page_data(render_viewer(short, states[:5], divergence=illegal))["divergence"]
    assert shown["then"].startswith(f"seat {before.current_player} discards slot 9: the rules forbid it (2.16-2b")


def inflated_divergence() -> dict[str, Any]:
    """A divergence object as a hostile file may hold one: a thousand differing fields and
    both states with 245,000 fields beyond T-state's, every text 10,000 characters of
    ``<`` (each written as a six-character escape in the page)."""
    big = "<" * 10_000
    fields = ("current", "hands", "knowledge", "fireworks", "discard", "clue_tokens", "strikes", "deck_size", "turns",
              "remaining", "terminal", "score")
    state = {field: big for field in fields} | {f"x{index}": big for index in range(245_000)}
    return {"where": big, "what": big, "differences": [{"field": big, "reference": big, "engine": big, "note": big}] * 1000,
            "after": {"reference": state, "engine": dict(state)}}


@pytest.mark.checks("VW-divergence")
def test_an_inflated_reproduction_gives_a_small_page() -> None:
    """[VW-divergence] whatever the divergence object holds, the panel adds at most about
    700 KB to the page: the tables are cut, each with a row counting what was left out."""
    trace = hat_game()
    states = replay_states(trace)
    plain = len(render_viewer(trace, states).encode("utf-8"))
    page = render_viewer(trace, states, divergence=inflated_divergence())
    assert len(page.encode("utf-8")) - plain <= 700_000
    shown = page_data(page)["divergence"]
    assert shown["differences"][-1]["field"].startswith("(and ") and shown["states"][-1]["field"].startswith("(and ")
    assert len(shown["differences"]) < 100 and len(shown["states"]) <= 12 + 20 + 1


# ------------------------------------------------------------------ in a real browser


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.exists():
        return f"no {CHROMIUM} (Debian: apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (pip install playwright)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by playwright; skipped if either is missing,
    failed then under HANABI_REF_REQUIRE_BROWSER=1."""
    missing = browser_missing()
    if missing is not None:
        if os.environ.get("HANABI_REF_REQUIRE_BROWSER") == "1":
            pytest.fail(f"HANABI_REF_REQUIRE_BROWSER=1, but {missing}")
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


class Opened:
    """A viewer page open in the browser, with every request it made and every script error."""

    def __init__(self, browser: Browser, path: Path, fragment: str = "") -> None:
        self.url = path.resolve().as_uri()
        self.requests: list[str] = []
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport={"width": 1200, "height": 800})
        self.context.route("**/*", self._route)
        self.page: Page = self.context.new_page()
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        started = time.perf_counter()
        self.page.goto(self.url + fragment)
        self.page.wait_for_selector("[data-testid=card]")
        self.seconds = time.perf_counter() - started

    def _route(self, route: Any) -> None:
        """[VW-network] the file itself is served; anything else is refused and noted."""
        if route.request.url == self.url:
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()

    def board(self) -> dict[str, Any]:
        """What the page shows now, read from its elements [VW-board]."""
        return self.boards([""])[0]

    def boards(self, keys: list[str]) -> list[dict[str, Any]]:
        """What the page shows after each of ``keys`` in turn (``""``: none), each sent to
        the document as a keydown event, as a key press does, all in one call."""
        boards: list[dict[str, Any]] = self.page.evaluate(BOARD_SCRIPT, keys)
        return boards

    def close(self) -> None:
        """[VW-network] close, after checking that nothing but the file was asked for and
        that the script raised nothing."""
        self.context.close()
        assert set(self.requests) == {self.url} and self.refused == [], (self.requests, self.refused)
        assert self.errors == []


BOARD_SCRIPT = """(keys) => keys.map((key) => {
  if (key) {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true, cancelable: true}));
  }
  const text = (id) => document.querySelector(`[data-testid=${id}]`).textContent;
  return {
    step: Number(text("step")), tokens: Number(text("tokens")), strikes: Number(text("strikes")),
    deck: Number(text("deck")), score: Number(text("score")), turn: Number(text("turn")), move: text("move"),
    fireworks: [...document.querySelectorAll("[data-testid^=firework-]")].map((node) => Number(node.dataset.height)),
    hands: [...document.querySelectorAll("[data-testid^=hand-]")].map((hand, seat) => ({
      html: seat === Number(document.body.dataset.view) ? hand.outerHTML : null,
      order: [...hand.querySelectorAll("[data-testid=card]")].map((card) => Number(card.dataset.slot)),
      cards: [...hand.querySelectorAll("[data-testid=card]")].sort((a, b) => a.dataset.slot - b.dataset.slot).map((card) => ({
        card: card.dataset.card ?? null, name: card.querySelector(".name").textContent,
        knowledge: card.dataset.knowledge, touched: card.dataset.touched === "true"})),
    })),
    discard: [...document.querySelectorAll("[data-testid=discard] [data-card]")].map((chip) => chip.textContent),
    moves: [...document.querySelectorAll("[data-testid=moves] li")].map((item) => item.textContent),
    current: [...document.querySelectorAll("[data-testid=moves] li")].findIndex((item) => item.classList.contains("current")),
    data: document.getElementById("game-data") !== null,
    divergence: !document.querySelector("[data-testid=divergence]").hidden,
    view: Number(document.body.dataset.view),
  };
})"""


def check_board(board: dict[str, Any], trace: Trace, states: list[GameState], step: int, seat: int | None) -> None:
    """[VW-board, VW-seat, VW-hint, VW-move] the page shows state ``step`` of the game as
    ``seat`` sees it (None: every card face up)."""
    config, state = trace.config, states[step]
    assert board["step"] == step and board["current"] == step and not board["data"]
    assert (board["tokens"], board["strikes"], board["score"], board["turn"]) == (
        state.clue_tokens, state.strikes, 0 if state.remaining == -1 else sum(state.fireworks), state.turns)
    assert board["deck"] == len(state.deck) - state.next_card and board["fireworks"] == list(state.fireworks)
    assert board["discard"] == [name(config, state.deck[card_id]) for card_id in state.discard]
    action = trace.actions[step - 1] if step else None
    touched = touched_slots(config, states[step - 1], action) if isinstance(action, Hint) else []
    for holder, (hand, ids, masks) in enumerate(zip(board["hands"], state.hands, state.knowledge)):
        for slot, (shown, card_id, mask) in enumerate(zip(hand["cards"], ids, masks, strict=True)):
            identity = name(config, state.deck[card_id])
            assert shown["knowledge"] == known_text(config, mask)
            assert shown["touched"] == (isinstance(action, Hint) and holder == action.target and slot in touched)
            if holder == seat:  # [VW-seat] own cards: knowledge only, the identity nowhere in the hand
                assert shown["card"] is None and shown["name"] == known_name(config, mask)
                assert identity not in hand["html"] or identity in {known_name(config, m) for m in masks}
            else:
                assert shown["card"] == shown["name"] == identity
    expected = ["0. the deal"] + [
        f"{index}. {expected_move(config, states[index - 1], trace.actions[index - 1], states[index])}"
        if seat is None or index <= step else f"{index}. seat {states[index - 1].current_player} …"
        for index in range(1, len(states))]
    assert board["moves"] == expected
    assert board["move"] == ("the deal" if step == 0 else f"move {step}: {expected[step].split('. ', 1)[1]}")


def check_steps(opened: Opened, trace: Trace, states: list[GameState], key: str, order: range) -> None:
    """Press ``key`` before each step of ``order`` but the first; at each, check the board
    face up and as each seat sees it (the views chosen by their keys ``0``-``9``, then
    ``a`` again)."""
    seats = list(range(trace.config.players))
    for count, step in enumerate(order):
        if count:
            opened.page.keyboard.press(key)
        boards = opened.boards(["", *map(str, seats), "a"])
        for seat, board in zip([None, *seats, None], boards, strict=True):
            assert board["view"] == (-1 if seat is None else seat)
            check_board(board, trace, states, step, seat)


@pytest.mark.checks("VW-step", "VW-board", "VW-seat", "VW-hint", "VW-move", "VW-network")
def test_the_page_steps_and_shows_every_state_in_a_browser(browser: Browser, tmp_path: Path) -> None:
    """[VW-step, VW-board, VW-seat, VW-hint, VW-move, VW-network] in headless Chromium the
    page loads from a file, shows the state of the engine at every step face up (Right
    arrow forward, Left arrow back), goes to the ends with Home, End and the buttons, to
    a move by a click, stays within the game; in each seat's view (chosen by key or by
    the selector), at every step, that seat's cards show only its knowledge; and nothing
    but the file is ever requested."""
    trace = hat_game()
    states = replay_states(trace)
    last = len(states) - 1
    path = tmp_path / "game.html"
    write_viewer(str(path), trace, states)
    opened = Opened(browser, path)
    page = opened.page
    check_steps(opened, trace, states, "ArrowRight", range(last + 1))
    page.keyboard.press("ArrowRight")
    check_board(opened.board(), trace, states, last, None)
    check_steps(opened, trace, states, "ArrowLeft", range(last, last - 5, -1))
    for control, step in (("Home", 0), ("End", last), ("PageUp", last - 10), ("PageDown", last)):
        page.keyboard.press(control)
        check_board(opened.board(), trace, states, step, None)
    for button, step in (("first", 0), ("next", 1), ("next", 2), ("last", last), ("previous", last - 1), ("next", last)):
        page.click(f"[data-testid={button}]")
        check_board(opened.board(), trace, states, step, None)
    assert page.is_disabled("[data-testid=next]") and page.is_disabled("[data-testid=last]")
    page.click("[data-testid=first]")
    assert page.is_disabled("[data-testid=previous]") and page.is_disabled("[data-testid=first]")
    page.click("[data-testid=moves] li[data-step='17']")
    check_board(opened.board(), trace, states, 17, None)
    page.select_option("[data-testid=seat]", "3")
    check_board(opened.board(), trace, states, 17, 3)
    page.keyboard.press("a")
    check_board(opened.board(), trace, states, 17, None)
    page.keyboard.press("2")
    page.click("[data-testid=moves] li[data-step='20']")
    check_board(opened.board(), trace, states, 20, 2)
    shot = tmp_path / "viewer.png"
    page.screenshot(path=str(shot))
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size < 200_000
    opened.close()


@pytest.mark.checks("VW-file", "VW-network")
def test_a_long_game_opens_at_once(browser: Browser, tmp_path: Path) -> None:
    """[VW-file, VW-network] the page of a game of 90 moves and more opens and steps in
    the browser (the time it takes is printed, not judged)."""
    trace = long_game()
    states = replay_states(trace)
    path = tmp_path / "long.html"
    write_viewer(str(path), trace, states)
    opened = Opened(browser, path)
    print(f"{len(trace.actions)} moves, {path.stat().st_size} bytes, opened in {opened.seconds:.3f} s")
    check_board(opened.board(), trace, states, 0, None)
    opened.page.keyboard.press("End")
    check_board(opened.board(), trace, states, len(states) - 1, None)
    opened.close()


@pytest.mark.checks("VW-divergence", "VW-step", "VW-seat")
def test_a_reproduction_shows_the_divergence_in_a_browser(browser: Browser, reproduction: Path, tmp_path: Path) -> None:
    """[VW-divergence, VW-step, VW-seat] a reproduction's page opens at the divergence,
    with the panel showing the differing field marked and both engines' values; on
    another step only the banner, whose button goes back; in a seat's view the panel
    holds no card."""
    from hanabi_ref.formats.trace import load_trace

    out = reproduction
    trace = load_trace(out)
    states = replay_states(trace)
    path = tmp_path / "repro.html"
    write_viewer(str(path), trace, states, divergence=read_divergence(out))
    opened = Opened(browser, path)
    page = opened.page
    board = opened.board()
    assert board["step"] == len(trace.actions) and board["divergence"]
    check_board(board, trace, states, len(trace.actions), None)
    differs = page.eval_on_selector_all("[data-testid=divergence] tr.differs",
                                        "(rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent))")
    assert ["clue_tokens", str(states[-1].clue_tokens), "9", ""] in differs and ["≠ clue_tokens", str(states[-1].clue_tokens), "9"] in differs
    assert len(differs) == 2
    # [VW-divergence] the differing fields are on the first screen (the page is 800 px high here)
    first = page.query_selector("[data-testid=divergence] tr.differs")
    assert first is not None and (box := first.bounding_box()) is not None and box["y"] + box["height"] <= 800, box
    page.keyboard.press("Home")
    assert not opened.board()["divergence"] and page.is_visible("[data-testid=divergence-banner]")
    page.click("[data-testid=go-divergence]")
    assert opened.board()["divergence"] and opened.board()["step"] == len(trace.actions)
    page.select_option("[data-testid=seat]", "1")
    panel = page.text_content("[data-testid=divergence]") or ""
    assert "diverged" in panel and not any(name(trace.config, card) in panel for card in trace.deck)
    opened.close()


@pytest.mark.checks("VW-divergence", "VW-file")
def test_an_inflated_reproduction_opens_in_a_browser(browser: Browser, tmp_path: Path) -> None:
    """[VW-divergence, VW-file] the page of a hostile divergence object opens, opens at
    the divergence and shows its panel."""
    trace = hat_game()
    states = replay_states(trace)
    path = tmp_path / "inflated.html"
    write_viewer(str(path), trace, states, divergence=inflated_divergence())
    opened = Opened(browser, path)
    board = opened.board()
    assert board["divergence"] and board["step"] == len(trace.actions)
    opened.close()


@pytest.mark.checks("VW-network")
def test_only_the_pages_own_script_runs(browser: Browser, tmp_path: Path) -> None:
    """[VW-network] a script put into the page beside ours (as text that escaped its
    element would be) does not run: the policy names our script by its hash; ours runs."""
    trace = hat_game()
    page = render_viewer(trace, replay_states(trace))
    smuggled = "<script>document.body.dataset.smuggled = 'ran';</script>"
    path = tmp_path / "smuggled.html"
    path.write_text(page.replace("</header>", "</header>" + smuggled, 1), encoding="utf-8")
    opened = Opened(browser, path)
    assert opened.page.evaluate("document.body.dataset.smuggled") is None
    check_board(opened.board(), trace, replay_states(trace), 0, None)
    opened.errors = [error for error in opened.errors if "Content Security Policy" not in error]
    opened.close()


# ------------------------------------------------------------------ the screenshot of docs/viewer.md


def screenshot(out: Path) -> None:
    """Draw docs/viewer.png: the hat game at step 20 as seat 2 sees it (a hint to seat 2
    just given), 1200 x 836."""
    import tempfile

    from playwright.sync_api import sync_playwright

    trace = hat_game()
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
        path = Path(folder) / "game.html"
        write_viewer(str(path), trace, replay_states(trace), title="Hanabi replay: hat strategy, 4 players, seed 3")
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = launched.new_page(viewport={"width": 1200, "height": 836})
        page.goto(path.resolve().as_uri())
        page.select_option("[data-testid=seat]", "2")
        page.click("[data-testid=moves] li[data-step='20']")
        page.screenshot(path=str(out))
        launched.close()


if __name__ == "__main__":
    screenshot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/viewer.png"))


@pytest.mark.checks("VW-url")
def test_every_step_has_an_address(browser: Browser, tmp_path: Path) -> None:
    """[VW-url] a page opened at #turn=7 shows step 7; moving changes the address to the
    new step without a request; a fragment past the end opens the last step; setting the
    fragment moves the page."""
    trace = hat_game()
    states = replay_states(trace)
    last = len(states) - 1
    path = tmp_path / "game.html"
    write_viewer(str(path), trace, states)
    opened = Opened(browser, path, "#turn=7")
    page = opened.page
    check_board(opened.board(), trace, states, 7, None)
    entries = page.evaluate("window.history.length")
    page.keyboard.press("ArrowRight")
    check_board(opened.board(), trace, states, 8, None)
    assert page.evaluate("window.location.hash") == "#turn=8"
    assert page.evaluate("window.history.length") == entries  # replaced, never a new entry
    page.evaluate("window.location.hash = '#turn=3'")
    page.wait_for_function("document.body.getAttribute('data-step') === '3'")
    check_board(opened.board(), trace, states, 3, None)
    opened.close()
    beyond = Opened(browser, path, f"#turn={last + 40}")
    check_board(beyond.board(), trace, states, last, None)
    assert beyond.page.evaluate("window.location.hash") == f"#turn={last}"
    beyond.close()


@pytest.mark.checks("VW-title", "C-replay")
def test_the_replay_page_names_the_rules_the_players_and_the_seed(tmp_path: Path) -> None:
    """[VW-title] replay --html titles its page with the file, rules, variant, players and seed."""
    game, page = tmp_path / "game.json", tmp_path / "game.html"
    assert main(["play", "--strategy", "simple", "--players", "3", "--rules", "hanab-live", "--seed", "12",
                 "--out", str(game)]) == 0
    assert main(["replay", str(game), "--html", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    assert "<title>game.json: hanab-live rules, No Variant, 3 players, seed 12</title>" in text


@pytest.mark.checks("VW-order", "SH-order")
def test_hands_are_laid_out_as_the_rules_players_read_them(browser: Browser, tmp_path: Path) -> None:
    """[VW-order] under hanab-live rules the page shows each hand newest card first (the
    highest card id), under hle oldest first; every card still names its slot."""
    for preset, newest_left in (("hanab-live", True), ("hle", False)):
        config = make_config(3, preset)
        trace = play_game(config, STRATEGIES["simple"], seed=4).trace
        states = replay_states(trace)
        path = tmp_path / f"{preset}.html"
        write_viewer(str(path), trace, states)
        opened = Opened(browser, path)
        for step in (0, 5):
            board = opened.boards(["ArrowRight"] * step if step else [""])[-1]
            for holder, hand in enumerate(board["hands"]):
                ids = states[step].hands[holder]
                expected = sorted(range(len(ids)), key=lambda slot: -ids[slot]) if newest_left else list(range(len(ids)))
                assert hand["order"] == expected, (preset, step, holder)
            check_board(board, trace, states, step, None)
        flipped = opened.boards(["o"])[-1]  # the key o: the other order, and back
        assert [hand["order"] for hand in flipped["hands"]] == [
            sorted(range(len(ids)), key=lambda slot: -ids[slot]) if not newest_left else list(range(len(ids)))
            for ids in states[5].hands]
        again = opened.boards(["o"])[-1]
        assert [hand["order"] for hand in again["hands"]] == [hand["order"] for hand in board["hands"]]
        opened.close()


def opened_hat_game(browser: Browser, tmp_path: Path) -> tuple[Trace, list[GameState], Opened]:
    """:func:`hat_game`'s page, written and open in the browser."""
    trace = hat_game()
    states = replay_states(trace)
    path = tmp_path / "game.html"
    write_viewer(str(path), trace, states)
    return trace, list(states), Opened(browser, path)


def go_to(page: Page, step: int) -> None:
    """Move the page to ``step`` through its address [VW-url], and wait until it is there."""
    page.evaluate(f"window.location.hash = '#turn={step}'")
    page.wait_for_function(f"document.body.getAttribute('data-step') === '{step}'")


@pytest.mark.checks("VW-cards")
def test_the_page_shows_pace_efficiency_and_the_cards_left_by_identity(browser: Browser, tmp_path: Path) -> None:
    """[VW-cards] at steps of a real game: pace and efficiency from the state's numbers and
    the actions so far, and every identity's copies left, discarded and critical, counted
    here from the deck, the discard pile and the successful plays."""
    trace, states, opened = opened_hat_game(browser, tmp_path)
    config, page = trace.config, opened.page
    steps = [0, 9, 23, len(states) - 1]
    for step in steps:
        go_to(page, step)
        state = states[step]
        hints = sum(isinstance(action, Hint) for action in trace.actions[:step])
        points = sum(state.fireworks)
        assert page.text_content("[data-testid=pace]") == str(points + (len(state.deck) - state.next_card) + config.players - 25)
        shown_efficiency = page.text_content("[data-testid=efficiency]") or ""
        if hints:  # two decimals (JavaScript rounds halves up, Python's format to even)
            assert abs(float(shown_efficiency) - points / hints) <= 0.005 + 1e-9, (step, shown_efficiency)
        else:
            assert shown_efficiency == "–"
        cells = page.eval_on_selector_all("[data-testid=cards-cell]", "(cells) => cells.map((c) => [c.dataset.card, "
                                          "Number(c.dataset.left), Number(c.dataset.discarded), c.dataset.critical === 'true'])")
        shown = {card: (left, gone, critical) for card, left, gone, critical in cells}
        assert len(shown) == 25
        for suit in range(5):
            for value in range(1, 6):
                x = suit * 5 + value - 1
                copies = sum(card == x for card in trace.deck)
                gone = sum(trace.deck[card_id] == x for card_id in state.discard)
                played = int(state.fireworks[suit] >= value)  # standard stacks: played up to the height
                left = copies - gone - played
                assert shown[name(config, x)] == (left, gone, left == 1 and not played), (step, name(config, x))
    opened.close()


@pytest.mark.checks("VW-clued")
def test_clued_cards_stay_marked_with_pips_of_what_their_holder_knows(browser: Browser, tmp_path: Path) -> None:
    """[VW-clued] at steps of a real game, the cards marked clued are exactly those in hand
    that some hint so far touched (from the trace's events), and each card's pips are the
    suits its knowledge allows (from the knowledge bitmask, bit by bit)."""
    trace, states, opened = opened_hat_game(browser, tmp_path)
    config, page = trace.config, opened.page
    for step in (0, 6, 20, len(states) - 1):
        go_to(page, step)
        state = states[step]
        touched = {card_id for event in state.history if isinstance(event.action, Hint) for card_id in event.touched}
        cards = page.eval_on_selector_all("[data-testid=card]", "(cards) => cards.map((c) => [Number(c.dataset.seat), "
                                          "Number(c.dataset.slot), c.dataset.clued === 'true', "
                                          "[...c.querySelectorAll('.pip')].map((p) => p.dataset.suit)])")
        assert len(cards) == sum(len(hand) for hand in state.hands)
        for holder, slot, clued, suits in cards:
            card_id = state.hands[holder][slot]
            assert clued == (card_id in touched), (step, holder, slot)
            allowed_suits, _ = allowed(config, state.knowledge[holder][slot])
            assert suits == [config.suits[suit].abbreviation.lower() for suit in allowed_suits], (step, holder, slot)
        assert step == 0 or any(clued for _, _, clued, _ in cards) or not touched
    opened.close()


@pytest.mark.checks("VW-title", "C-play", "OUT-report")
def test_play_writes_the_page_of_its_game_with_the_strategy_in_the_title(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """[VW-title] play --html: the page of the very game played (its data is that game's
    states), titled with the strategy, rules, variant, players and seed; a line says so."""
    page, game = tmp_path / "game.html", tmp_path / "game.json"
    assert main(["play", "--strategy", "natural", "--players", "3", "--rules", "hanab-live", "--seed", "6",
                 "--out", str(game), "--html", str(page)]) == 0
    assert f"hanabi-ref: wrote {page} ({page.stat().st_size:,} bytes)" in capsys.readouterr().err
    text = page.read_text(encoding="utf-8")
    title = "Hanabi: strategy natural, hanab-live rules, No Variant, 3 players, seed 6"
    assert f"<title>{title}</title>" in text
    from hanabi_ref.formats.trace import load_trace
    trace = load_trace(game)
    assert text == render_viewer(trace, replay_states(trace), title=title)
