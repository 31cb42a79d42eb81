"""The ``playability`` commands: their parsers, and handlers that print
:mod:`hanabi_ref.tools.playability.report` [PL-cli].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap; the handlers import what they run.
"""

from __future__ import annotations

import argparse

from hanabi_ref.base.cliargs import Subparsers, UsageError, add_command, add_questions, positive, seed


def add_playability(commands: Subparsers) -> None:
    """[PL-cli] ``playability count`` and ``playability table``."""
    playability = add_command(commands, "playability", command_playability,
                              help="which deck orders can be played perfectly (thesis §3)")
    questions = add_questions(playability)
    count = questions.add_parser("count", help="count (or estimate) the playable orders of a deck")
    count.add_argument("--counts", required=True, help="cards per value, colours separated by /: 3,2,2,2,1 or 2,1,1/2,1,1")
    count.add_argument("--hand-size", type=positive, required=True, help="hand size m of the single player")
    count.add_argument("--samples", type=positive, default=None, help="estimate from N random shuffles instead of counting")
    count.add_argument("--seed", type=seed, default=None, help="seed of the shuffles (with --samples; default 0)")
    count.add_argument("--json", action="store_true", help="print one JSON object")
    table = questions.add_parser("table", help="print Appendix A of the thesis, computed")
    table.add_argument("--json", action="store_true", help="print one JSON object")


def command_playability(args: argparse.Namespace) -> int:
    """[PL-cli] Exact or sampled playability counts, and Appendix A."""
    from hanabi_ref.tools.playability import report

    if args.question == "table":
        return report.print_table(args.json)
    if args.seed is not None and args.samples is None:
        raise UsageError("hanabi-ref: playability count: --seed only applies with --samples")
    return report.print_count(args.counts, args.hand_size, args.samples, args.seed or 0, args.json)
