"""A fake engine for verify's failure tests: answers requests with the lines of a file.

Usage: python scripted.py ANSWERS_FILE.  Line i of the file answers request i; the word
HANG sleeps forever, EXIT ends the process with code 3 after writing to stderr.
"""

import sys
import time

answers = open(sys.argv[1], encoding="utf-8").read().split("\n")
for index, _request in enumerate(sys.stdin):
    answer = answers[index] if index < len(answers) else "EXIT"
    if answer == "HANG":
        time.sleep(3600)
    if answer == "EXIT":
        sys.stderr.write("scripted engine: out of answers\n")
        sys.exit(3)
    sys.stdout.write(answer + "\n")
    sys.stdout.flush()
