"""A fake engine for the hostile-input fuzz test: answers hello, then one request with
raw bytes from a file, then exits.

Usage: python relay.py PAYLOAD_FILE.  The payload is written as it is (it may be invalid
UTF-8, hold several lines or none, or be over a megabyte); the engine then closes its
output and exits, so that ``verify`` never waits for a later answer.
"""

import sys

stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
payload = open(sys.argv[1], "rb").read()
if stdin.readline():
    stdout.write(b'{"ok": true, "name": "relay"}\n')
    stdout.flush()
if stdin.readline():
    stdout.write(payload)
    stdout.flush()
