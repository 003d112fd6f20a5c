"""Only the package list lives here (pyproject.toml has everything else): the code packages
found by name, plus heistcord_data and heistcord_rules, which pyproject.toml maps to the top-level
data/ folder and to docs/rules/. (pyproject.toml alone can't both discover packages and add a renamed one.)
The development scripts in tools/ and the tests stay out of the wheel: only the names listed are included."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["bot", "bot.*", "cogs", "cogs.*", "rendering", "rendering.*"]) + ["heistcord_data", "heistcord_rules"])
