"""The replay viewer as one self-contained HTML file [VW-file, VW-network, VW-escape].

:func:`render_viewer` writes the whole document: the page's frame, its styles and script
(``viewer.css`` and ``viewer.js`` beside this module, copied in) and the game's data
(:func:`hanabi_ref.tools.viewer.data.game_data`) as one JSON block.  Nothing is fetched: no
scripts, styles, fonts or images from elsewhere, and a Content-Security-Policy that
forbids every request the page could make.  The script draws the chosen step in the
chosen view: the keys and buttons [VW-step], the seats' views, which show a seat's own
cards as their knowledge only and first take the JSON block out of the page [VW-seat],
and the touched cards [VW-hint].
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from hanabi_ref.base.atomic import write_text_atomically
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import Trace, read_json_file
from hanabi_ref.tools.viewer.data import about_text, game_data

def content_security_policy(script: str) -> str:
    """[VW-network] the page may run one script, its own, named by the SHA-256 of its
    text (``script``, the inline element's whole content), apply its inline styles and
    show ``data:`` images; every other script (one a file's text might smuggle in),
    and every request (scripts, styles, fonts, images, fetches, forms), is refused."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return (f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
            "img-src data:; base-uri 'none'; form-action 'none'")


def render_viewer(trace: Trace, states: Sequence[GameState], *, title: str | None = None,
                  divergence: dict[str, Any] | None = None) -> str:
    """[VW-file, VW-data, VW-divergence] the whole HTML document of the viewer for
    ``trace``, whose states (after the deal and after each action, as
    :func:`~hanabi_ref.formats.trace.replay_states` gives them) are ``states``; ``title`` names
    the page (by default the configuration); ``divergence``, the object of a verify
    reproduction file, adds its panel and opens the page at the divergence."""
    name = title if title is not None else default_title(trace.config)
    data = game_data(trace, states, name, divergence)
    return document(name, about_text(trace.config), script_json(data))


def write_viewer(path: str | Path, trace: Trace, states: Sequence[GameState], *, title: str | None = None,
                 divergence: dict[str, Any] | None = None) -> None:
    """[VW-file, OUT-atomic] :func:`render_viewer` written to ``path`` atomically: the
    document is complete before a byte is written, and an error leaves no file (or the
    old one untouched); :class:`OSError` as :func:`~hanabi_ref.base.atomic.write_text_atomically`
    raises it."""
    write_text_atomically(path, render_viewer(trace, states, title=title, divergence=divergence))


def read_divergence(path: str | Path) -> dict[str, Any] | None:
    """[VW-divergence, EP-repro] the ``divergence`` object of a verify reproduction file,
    None for a file without one (a plain trace).  A file that cannot be read or is not
    JSON raises what :func:`~hanabi_ref.formats.trace.read_json_file` raises (one line)."""
    data = read_json_file(path)
    divergence = data.get("divergence") if isinstance(data, dict) else None
    return divergence if isinstance(divergence, dict) else None


def default_title(config: GameConfig) -> str:
    """[VW-board] the page's title when none is given."""
    return f"Hanabi replay: {config.players} players, {config.variant}"


def file_title(name: str, trace: Trace) -> str:
    """[VW-title] the title of a file's page: its name, the rules, the variant, the players
    and the seed the deck was dealt from (when the file names one)."""
    config = trace.config
    seed = "" if trace.seed is None else f", seed {trace.seed}"
    return f"{name}: {config.preset} rules, {config.variant}, {config.players} players{seed}"


def script_json(data: object) -> str:
    """[VW-escape] ``data`` as JSON that can stand inside a ``<script>`` element: ``<``,
    ``>`` and ``&`` written as ``\\u`` escapes, so no text from a file can close the
    element or open another (JSON.parse reads the escapes back as the characters)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def asset(name: str) -> str:
    """[VW-file] one of the page's own files (``viewer.js``, ``viewer.css``), read from
    the package; neither may contain the closing tag of the element it goes into."""
    text = resources.files("hanabi_ref.tools.viewer").joinpath(name).read_text(encoding="utf-8")
    if "</script" in text.lower() or "</style" in text.lower():
        raise ValueError(f"VW-file: {name} must not contain a closing </script> or </style> tag")
    return text


def document(title: str, about: str, data: str) -> str:
    """[VW-file, VW-network, VW-escape, VW-url] the page: the frame the script fills, the
    styles and script inline, the data in a ``application/json`` block; ``title`` and
    ``about`` escaped as HTML text.  The script keeps the step in the page's address
    (``#turn=N``) and opens at the step an address names."""
    script = f"\n{asset('viewer.js')}"
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(script)}">',
        '<meta name="referrer" content="no-referrer">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title>",
        '<link rel="icon" href="data:,">',
        f"<style>\n{asset('viewer.css')}</style>",
        "</head>",
        "<body>",
        frame(title, about),
        f'<script type="application/json" id="game-data">{data}</script>',
        f"<script>{script}</script>",
        "</body>",
        "</html>",
        "",
    ])


def icon(path: str) -> str:
    """[VW-step, VW-network] a button's symbol (⏮ ◀ ▶ ⏭) drawn inline, so that it shows
    without a font that has the character and without a request."""
    return f'<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true"><path d="{path}" fill="currentColor"/></svg>'


def frame(title: str, about: str) -> str:
    """[VW-step, VW-board, VW-seat] the page's fixed elements, each with the ``id`` the
    script fills and a ``data-testid`` a test reads: the buttons, the step, the view
    selector (filled with "all cards face up" and each seat), the board, the move list."""
    return f"""<header>
<h1 id="title" data-testid="title">{html.escape(title)}</h1>
<p id="about" data-testid="about">{html.escape(about)}</p>
<p id="divergence-banner" data-testid="divergence-banner" hidden></p>
</header>
<noscript><p>This replay is drawn by its inline script: allow scripts to see it.</p></noscript>
<nav aria-label="steps">
<button type="button" id="first" data-testid="first" title="first step (Home)" aria-label="first step">{icon('M3 2h2v12H3z M14 2v12L6 8z')}</button>
<button type="button" id="previous" data-testid="previous" title="previous step (Left arrow)" aria-label="previous step">{icon('M12 2v12L4 8z')}</button>
<button type="button" id="next" data-testid="next" title="next step (Right arrow)" aria-label="next step">{icon('M4 2v12l8-6z')}</button>
<button type="button" id="last" data-testid="last" title="last step (End)" aria-label="last step">{icon('M2 2v12l8-6z M11 2h2v12h-2z')}</button>
<span class="position">step <b id="step" data-testid="step">0</b> / <span id="last-step" data-testid="last-step">0</span></span>
<label>view <select id="seat" data-testid="seat"></select></label>
<span class="keys">keys: ← → Home End, a: all face up, 0-9: a seat's view, o: the other hand order</span>
</nav>
<div id="move" data-testid="move" aria-live="polite"></div>
<main>
<section class="board">
<section id="divergence" data-testid="divergence" hidden></section>
<div class="status">
<span><span class="label">score</span><b id="score" data-testid="score"></b></span>
<span><span class="label">clue tokens</span><b id="tokens" data-testid="tokens"></b><span id="token-pips" class="pips"></span></span>
<span><span class="label">strikes</span><b id="strikes" data-testid="strikes"></b><span id="strike-pips" class="pips"></span></span>
<span><span class="label">deck</span><b id="deck" data-testid="deck"></b></span>
<span><span class="label">turn</span><b id="turn" data-testid="turn"></b></span>
<span title="score + deck + players - maximum score: the moves that can still go without losing a needed card"><span class="label">pace</span><b id="pace" data-testid="pace"></b></span>
<span title="cards played per clue given so far"><span class="label">efficiency</span><b id="efficiency" data-testid="efficiency"></b></span>
<span id="current" data-testid="current"></span>
</div>
<div id="fireworks" data-testid="fireworks"></div>
<div id="hands" data-testid="hands"></div>
<h2 class="small">discard pile (oldest first)</h2>
<div id="discard" data-testid="discard"></div>
<h2 class="small">cards by identity: copies left, ✕ a copy discarded, a ring: critical (one copy left)</h2>
<table id="cards-left" data-testid="cards-left" class="cards-left"></table>
</section>
<aside>
<h2>moves</h2>
<ol id="moves" data-testid="moves"></ol>
</aside>
</main>"""
