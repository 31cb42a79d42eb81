"""The ``spec coverage`` command: its parser, and a handler that runs
:mod:`hanabi_ref.tools.spec_coverage` [C-coverage].

Like every ``commands`` module this one imports nothing heavy at load time, so that
``hanabi-ref --help`` stays cheap; the handler imports what it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hanabi_ref.base.cliargs import InvalidGame, Subparsers, UsageError, add_command, add_questions


def add_spec(commands: Subparsers) -> None:
    """[C-coverage] ``spec coverage``: the clause -> code -> tests -> proofs matrix."""
    spec = add_command(commands, "spec", command_spec, help="facts about spec/ and the code that implements it")
    questions = add_questions(spec)
    coverage = questions.add_parser("coverage", help="which code implements and which tests check each clause")
    coverage.add_argument("--root", default=".", help="the checkout to read (default: the current directory)")
    coverage.add_argument("--write", default=None, metavar="FILE", help="write the matrix as markdown (docs/coverage.md)")
    coverage.add_argument("--check", default=None, metavar="FILE", help="fail unless FILE holds the current matrix")


def command_spec(args: argparse.Namespace) -> int:
    """Print, write or check the coverage matrix; exit 1 naming each uncovered clause
    [C-coverage]."""
    from hanabi_ref.tools import spec_coverage

    write = None if args.write is None else Path(args.write)
    check = None if args.check is None else Path(args.check)
    try:
        code, out, errors = spec_coverage.run_command(Path(args.root), write, check)
    except spec_coverage.CoverageParseError as error:
        raise InvalidGame(f"hanabi-ref: spec coverage: {error}") from None
    except spec_coverage.CoverageInputError as error:
        raise UsageError(f"hanabi-ref: spec coverage: {error}") from None
    for line in out:
        print(line)
    for line in errors:
        print(f"hanabi-ref: spec coverage: {line}", file=sys.stderr)
    return code
