"""What every layer may use and that knows no game: errors, optional packages, signals, atomic
output files, safe text, statistics, the contracts' switch, the command line's argument types and its watched standard output.
"""
