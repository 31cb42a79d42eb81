"""A fake bot for the failure tests: answers requests with the lines of a file.

Usage: python -m tests.bots.scripted ANSWERS_FILE PID_FILE.  It writes its process id
(and that of a child it starts, which sleeps) to PID_FILE, one a line, so that a test can
check that both were ended and reaped.  Line i of ANSWERS_FILE answers request i; the
word HANG sleeps forever, EXIT ends the process with code 3 after writing to stderr,
``SLOW ANSWER`` waits 0.6 seconds, then answers ANSWER.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def main() -> None:
    answers = open(sys.argv[1], encoding="utf-8").read().split("\n")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    with open(sys.argv[2], "a", encoding="ascii") as pids:
        pids.write(f"{os.getpid()}\n{sleeper.pid}\n")
    for index, _request in enumerate(sys.stdin):
        answer = answers[index] if index < len(answers) else "EXIT"
        if answer == "HANG":
            time.sleep(3600)
        if answer.startswith("SLOW "):
            time.sleep(0.6)
            answer = answer[5:]
        if answer == "EXIT":
            sys.stderr.write("scripted bot: out of answers\n")
            sys.exit(3)
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
