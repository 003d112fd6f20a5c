"""heistcord: heist-themed tabletop games for Discord."""
__version__ = "0.1.0"
