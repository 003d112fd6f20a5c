"""discord.py cogs: thin adapters from slash commands and buttons to the table
service. The shared presentation has one module per job (``cogs.ui`` lists them and
re-exports their names); a game may add its own cog ``cogs/<key>.py`` (loaded
automatically) for game-specific commands."""
