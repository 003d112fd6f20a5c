"""Development scripts, run from a checkout as ``python -m tools.<name>``; not part of the installed bot
(setup.py's package list leaves this folder out of the wheel)."""
