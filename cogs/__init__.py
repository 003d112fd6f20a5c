"""discord.py cogs: thin adapters from slash commands and buttons to the table
service. ``cogs.ui`` holds the shared presentation; a game may add its own cog
``cogs/<key>.py`` (loaded automatically) for game-specific commands."""
