"""Games as files: canonical JSON, traces, their schemas and hanab.live's format.
"""
