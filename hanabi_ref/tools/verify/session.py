"""A ``verify`` session, and the engines ``verify`` and ``serve`` start [C-verify, C-serve];
the commands' parsers are in :mod:`hanabi_ref.tools.verify.commands`.

``verify`` drives an engine (an external command, or a built-in peer adapter) through
the conformance vectors and then through seeded random games.  On the
first divergence it writes the shrunk game as a trace file (with our expected state
after every action) and exits with code 1.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hanabi_ref.engine.actions import action_to_json
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.base.escape import escape_text
from hanabi_ref.base.signals import STOP_SIGNALS, stop_signals
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure, ReferenceEngine
from hanabi_ref.tools.protocol.engine import VerifyUsageError as VerifyUsageError
from hanabi_ref.tools.verify.report import REACHABLE, STATE_FIELDS, FieldDifference, decisive_first, render


def make_engine(name: str) -> Engine:
    """``reference`` (our engine) or a built-in peer adapter by name."""
    if name == "reference":
        return ReferenceEngine()
    from hanabi_ref.tools.peers import PEERS

    from hanabi_ref.tools.peers import MissingPeerLibrary

    if name not in PEERS:
        raise VerifyUsageError(f"--engine: unknown engine {name!r} (known: reference, {', '.join(PEERS)})")
    try:
        engine: Engine = PEERS[name]()
    except MissingPeerLibrary as error:  # [C-extras] a usage error, exit code 2
        raise VerifyUsageError(str(error)) from None
    return engine


def parse_players(text: str) -> list[int]:
    """``3``, ``2,3`` or ``2-5``."""
    players: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        try:
            first, last = int(low), int(high or low)
        except ValueError:
            raise VerifyUsageError(f"--players: expected counts such as 3, 2,4 or 2-5, got {text!r}") from None
        if not 1 <= first <= last <= 64:
            raise VerifyUsageError(f"--players: expected counts in 1..64, got {text!r}")
        players.extend(range(first, last + 1))
    return sorted(set(players))


def random_game_configs(args: argparse.Namespace) -> list[GameConfig]:
    """The configurations random games draw from: presets x player counts x variant, with
    the rule options of ``--option`` set on top of each preset (for a peer: on top of the
    configuration it must match) [EP-random, EP-options]."""
    options = rule_options(args)
    if args.against is not None:
        from hanabi_ref.tools.peers import peer_config

        players = parse_players(args.players or "2-5")
        with _option_errors(options, str(args.against)):
            return [peer_config(args.against, p, **options) for p in players]
    presets = (args.rules or ",".join(PRESETS)).split(",")
    for preset in presets:
        if preset not in PRESETS:
            raise VerifyUsageError(f"--rules: unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    players = parse_players(args.players or "2-5")
    configs: list[GameConfig] = []
    for preset in presets:
        with _option_errors(options, f"preset {preset}"):
            configs.extend(make_config(p, preset=preset, variant=args.variant, **options) for p in players)
    return configs


def rule_options(args: argparse.Namespace) -> dict[str, Any]:
    """[EP-options] the ``--option`` pairs (each already parsed by its option's type) as
    keyword overrides of :func:`make_config`; one option given twice is a usage error."""
    options: dict[str, Any] = {}
    for name, value in getattr(args, "option", None) or []:
        if name in options:
            raise VerifyUsageError(f"--option: {name} is given twice")
        options[name] = value
    return options


@contextmanager
def _option_errors(options: dict[str, Any], where: str) -> Iterator[None]:
    """With ``--option``, a configuration P-options refuses (say ``self_hints=true`` where
    hints must touch a card) is a usage error naming ``--option`` and the preset or peer
    [EP-options]."""
    try:
        yield
    except ConfigError as error:
        if options and str(error).startswith("options."):
            raise VerifyUsageError(f"--option: under {where}: {error}") from None
        raise


def run_verify(args: argparse.Namespace) -> bool:
    """The whole ``verify`` command; whether the engine agreed (no divergence).

    [EP-out] ``--out`` is checked before anything runs.  [EP-lifecycle] SIGTERM or SIGHUP
    to verify ends the engine's process group before verify exits with 128 + the signal's
    number (Ctrl-C, a KeyboardInterrupt, ends it the same way)."""
    configs = random_game_configs(args)
    check_out_path(args.out)
    result = with_engine(args, lambda engine: _verify(engine, configs, args))
    return _report(result, args)


def with_engine(args: argparse.Namespace, job: Callable[[Engine], dict[str, Any]]) -> dict[str, Any]:
    """[EP-lifecycle] start the engine of ``args``, run ``job`` on it and stop the engine
    whatever happens; SIGTERM and SIGHUP raise :class:`Terminated` meanwhile, which ends
    the command with 128 + the signal's number after one line, and Ctrl-C a
    KeyboardInterrupt; only the first of them counts, so none cuts the engine's ending
    short.  The result names the engine."""
    try:
        with stop_signals(STOP_SIGNALS, Terminated):
            engine, label = _start_engine(args)
            try:
                result = job(engine)
            finally:
                engine.close()
    except Terminated as terminated:
        print(f"hanabi-ref: {terminated}; the engine was stopped", file=sys.stderr)
        raise SystemExit(128 + terminated.signum) from None
    result["engine"] = label
    return result


def _start_engine(args: argparse.Namespace) -> tuple[Engine, str]:
    """The engine under test and its name in the report."""
    if args.against is not None:
        return make_engine(args.against), str(args.against)
    from hanabi_ref.tools.verify.process import ProcessEngine

    engine = ProcessEngine(args.engine, timeout=args.timeout)
    return engine, engine.name


class Terminated(BaseException):
    """A signal asked verify to end [EP-lifecycle]; a BaseException so that nothing on the
    way (Hypothesis included) takes it for a failing example."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"terminated by {signal.Signals(signum).name}")
        self.signum = signum


def check_out_path(out: str) -> None:
    """[EP-out] ``--out`` must name a file that can be written: its directory exists and
    is writable, and it is not a directory (an existing file other than a regular one,
    such as a device, must itself be writable); else a usage error, before anything runs."""
    target = Path(out)
    directory = target.parent
    if not directory.is_dir():
        raise VerifyUsageError(f"--out {out}: directory {str(directory)!r} does not exist")
    if target.is_dir():
        raise VerifyUsageError(f"--out {out}: is a directory")
    if target.exists() and not target.is_file():
        if not os.access(target, os.W_OK):
            raise VerifyUsageError(f"--out {out}: is not writable")
    elif not os.access(directory, os.W_OK | os.X_OK):
        raise VerifyUsageError(f"--out {out}: directory {str(directory)!r} is not writable")


def _verify(engine: Engine, configs: list[GameConfig], args: argparse.Namespace) -> dict[str, Any]:
    from hanabi_ref.tools.verify.report import Coverage
    from hanabi_ref.tools.verify.run import Report, verify_random_games, verify_vectors

    from hanabi_ref.tools.protocol.seeded import dealing_engine

    result: dict[str, Any] = {"vectors": None, "random_games": None, "divergence": None}
    result["deals"] = "seed" if dealing_engine(engine) else "deck"  # [EP-seed]
    mode = "none" if args.no_views else args.views
    result["views"] = {"offered": engine.shows_views, "checked": engine.shows_views and mode != "none", "mode": mode}
    if mode == "none":
        from hanabi_ref.tools.verify.views import WithoutViews

        engine = WithoutViews(engine)  # [EP-views] verify --no-views
    coverage = Coverage()
    report: Report | None = None
    not_run: dict[str, str] = {}  # [EP-not-run] each phase not run, and why
    if args.no_vectors:
        not_run["vectors"] = "--no-vectors"
    else:
        from hanabi_ref.tools.vectors import all_vectors

        report = verify_vectors(engine, all_vectors(), coverage)
        result["vectors"] = {"checked": report.checked, "skipped": report.skipped, "not_run": report.not_run}
    if report is not None and report.divergence is not None:
        not_run["random_games"] = "a vector diverged"
    elif args.games <= 0:
        not_run["random_games"] = "--games 0"
    else:
        with _progress_bar(args.games) as progress:
            report = verify_random_games(engine, configs, args.games, args.seed, coverage=coverage, progress=progress,
                                         views=mode)
        playing = report.playing_seconds
        result["random_games"] = {
            "games": report.checked, "skipped": report.skipped, "seed": args.seed, "seconds": round(playing, 3),
            "games_per_second": round(report.checked / playing, 2) if playing > 0 else None,
            "shrinking": {"games": report.shrinking, "seconds": round(report.shrinking_seconds, 3)},
        }
        if report.checked == 0 and report.divergence is None:
            raise EngineFailure("the engine refused every configuration of the random games (see --rules, --players)")
    result["not_run"] = not_run
    result["coverage"] = coverage.to_json()
    missing = coverage.missing()
    result["unchecked_fields"] = missing
    result["partial"] = bool(args.partial)
    if report is not None and report.divergence is not None:
        result["divergence"] = _write_divergence(report, args.out)
    return result


@contextmanager
def _progress_bar(games: int) -> Iterator[Any]:
    """[EP-progress] on a terminal, a bar of the games played, the divergences so far and
    games/s; shrinking shown apart.  Nothing when standard error is not a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=games, unit="game", file=sys.stderr, leave=False, desc="random games") as bar:
        def progress(kind: str, count: int, divergences: int) -> None:
            if kind == "game":
                bar.update(count - bar.n)
                bar.set_postfix(divergences=divergences)
            else:
                bar.set_description(f"shrinking (game {count})")

        yield progress


def _write_divergence(report: Any, out: str) -> dict[str, Any]:
    """[EP-shrink, EP-out, EP-repro] the divergence for the report, written to ``out`` as a
    trace with our states and a ``divergence`` object: every differing field, both sides'
    states before and after the diverging step; if writing fails, the report says so
    (``trace`` null, ``trace_error`` why) and the divergence is printed all the same."""
    from hanabi_ref.formats.trace import save_trace

    divergence = report.divergence
    assert divergence is not None
    offending = divergence.offending
    details = {
        "where": report.where,
        "what": divergence.what,
        "step": None if divergence.step is None else action_to_json(divergence.step),
        "offending": None if offending is None else action_to_json(offending),
        "differences": [difference.to_json() for difference in divergence.differences],
        "before": divergence.before,
        "after": divergence.after,
    }
    if divergence.engine_seed is not None:
        details["engine_seed"] = divergence.engine_seed  # [EP-seed, EP-repro]
    result = {
        "where": report.where,
        "what": divergence.what,
        "actions": len(divergence.trace.actions),
        "then": None if offending is None else action_to_json(offending),
        "differences": details["differences"],
        "before": divergence.before,
        "after": divergence.after,
        "trace": out,
        "engine_seed": divergence.engine_seed,
    }
    try:
        save_trace(divergence.trace, out, with_states=True, divergence=details)
    except OSError as error:
        result["trace"] = None
        result["trace_error"] = f"--out {out}: cannot write the reproduction: {error.strerror or error}"
    result["config"] = divergence.trace.config
    return result


def _views_text(views: dict[str, Any], compared: int) -> str:
    """[EP-views, EP-coverage] how many views were compared, or why none."""
    if views["checked"]:
        if views["mode"] == "all":
            return f"{compared} compared (every seat after the deal and after every move of the random games)"
        return (f"{compared} compared (the seat to move after every move of the random games, every seat after the "
                "deal and at the end; --views all: every seat always)")
    if views["offered"]:
        return "not checked (--views none)"
    return "not checked: the engine does not answer observe (EP-observe)"


def _say(text: str, file: Any = None) -> None:
    """[OUT-escape] one line of the report, whose parts may quote the engine's answers and
    the command line, escaped."""
    print(escape_text(text), file=file)


def _report(result: dict[str, Any], args: argparse.Namespace) -> bool:
    """[EP-report, EP-coverage, EP-partial, EP-not-run] the run's outcome; True when the
    engine agreed and reported every field a game's result depends on (or ``--partial``
    was given)."""
    divergence = result["divergence"]
    config = divergence.pop("config") if divergence is not None else None
    incomplete = bool(result["unchecked_fields"]) and not result["partial"]
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        _say(f"engine          {result['engine']}" + ("; deals from its own seed, verify adopts its deal (EP-seed)"
                                                         if result["deals"] == "seed" else ""))
        for line in phase_lines(result):
            _say(line)
        if result["unchecked_fields"]:
            label = "NOT CHECKED    " if result["partial"] else "INCOMPLETE     "
            _say(f"{label} the engine left out {', '.join(result['unchecked_fields'])} (a game's result depends on "
                  "them)" + ("" if result["partial"] else "; --partial checks the rest"))
        if divergence is None:
            _say("divergences     0")
        else:
            _divergence_lines(divergence, config)
    if divergence is not None and divergence.get("trace_error"):
        sys.stdout.flush()
        _say(f"hanabi-ref: {divergence['trace_error']}", file=sys.stderr)
    return divergence is None and not incomplete


def phase_lines(result: dict[str, Any]) -> list[str]:
    """[EP-report, EP-coverage, EP-not-run] what the vectors and the random games
    compared, and of what was not run, that it was not and why: a run stopped by a
    vector counts no rule clause (only the random games do) and compares no view."""
    not_run = result["not_run"]
    vectors, games, coverage = result["vectors"], result["random_games"], result["coverage"]
    lines = []
    if vectors is None:
        lines.append(f"vectors         not run ({not_run['vectors']})")
    elif result["deals"] == "seed":
        lines.append(f"vectors         none checked: the engine deals from its own seed, and each of the "
                     f"{vectors['skipped']} vectors has its deck (EP-seed)")
    else:
        stopped = f"; stopped at the first divergence, {vectors['not_run']} not run" if "random_games" in not_run \
            and not_run["random_games"] == "a vector diverged" else ""
        lines.append(f"vectors         {vectors['checked']} checked, {vectors['skipped']} unsupported{stopped}")
    if games is None:
        lines.append(f"random games    not played ({not_run['random_games']})")
    else:
        shrink = games["shrinking"]
        shrunk = f"; shrinking: {shrink['games']} games, {shrink['seconds']} s" if shrink["games"] else ""
        lines.append(f"random games    {games['games']} played (seed {games['seed']}), {games['games_per_second']} "
                     f"games/s{shrunk}")
    states = coverage["states"]
    if states:
        reported = [f"{field} {coverage['fields'][field]}" for field in STATE_FIELDS if coverage["fields"][field]]
        within = "" if games is not None else " (in the vectors)"
        lines.append(f"fields          {states} states compared{within}; reported: {', '.join(reported) or 'none'}")
    else:
        lines.append("fields          no state compared: the run stopped before the engine's first state answer")
    if games is None:
        lines.append("views           not compared: views are compared in the random games only, and none was played")
        lines.append("rules           not counted: only the random games count the rule clauses, and none was played")
        return lines
    lines.append(f"views           {_views_text(result['views'], coverage['views'])}")
    reached = [clause for clause in REACHABLE if coverage["clauses"][clause]]
    missed = [clause for clause in REACHABLE if not coverage["clauses"][clause]]
    lines.append(f"rules           {len(reached)} of {len(REACHABLE)} reachable clauses exercised: "
                 + ", ".join(f"{clause} {coverage['clauses'][clause]}" for clause in reached))
    if missed:
        lines.append(f"not reached     {', '.join(missed)}")
    return lines


def _divergence_lines(divergence: dict[str, Any], config: GameConfig | None) -> None:
    """[EP-report, EP-summary] the divergence: the one-line summary, every differing field
    side by side (the decisive first), and where the reproduction is."""
    then = "" if divergence["then"] is None else \
        f"; then the trace's next action is {json.dumps(divergence['then'], sort_keys=True)}"
    _say(f"DIVERGENCE      {divergence['where']}: {divergence['what']}")
    shown = [FieldDifference(d["field"], d["reference"], d["engine"], d["note"]) for d in divergence["differences"]]
    for difference in decisive_first(shown):
        for line in render(difference, config):
            _say(f"                {line}")
    where = divergence["trace"] or "not written"
    seeded = "" if divergence["engine_seed"] is None else f", the engine's deal of seed {divergence['engine_seed']}"
    _say(f"reproduction    {where} ({divergence['actions']} actions{seeded}{then}); hanabi-ref explain {where}")
