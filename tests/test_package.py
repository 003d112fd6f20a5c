"""The built wheel works on its own: built from a copy of the checkout, installed into a
fresh venv in a temporary folder, and run from a temporary working directory with no
way to see the checkout (no PYTHONPATH, ``python -I``). It plays one seeded bot game of
every title to the end with the installed package, drawing every kind of picture, and
``heistcord`` without a token prints its one line."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.parent.name for p in (ROOT / "bot" / "games").glob("*/__init__.py"))
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                    "*.sqlite3*", "*.db*", ".env")


def copy_source(root: Path, target: Path) -> None:
    """The checkout's source as git sees it (tracked files, and new ones not ignored), symlinks copied as links:
    nothing a developer keeps beside it (a venv, databases, a dangling link) is copied or followed. Outside a git
    checkout (an unpacked source archive), everything but NOT_SOURCE."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                                capture_output=True)
    except FileNotFoundError:  # no git
        listed = subprocess.CompletedProcess([], 1)
    if listed.returncode != 0:
        shutil.copytree(root, target, ignore=NOT_SOURCE, symlinks=True)
        return
    for name in filter(None, listed.stdout.decode().split("\0")):
        path = root / name
        if not path.is_symlink() and not path.exists():  # deleted, not yet committed
            continue
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target / name, follow_symlinks=False)


def clean_env() -> dict[str, str]:
    """The caller's environment (pip's settings included) without anything that would
    point python at the checkout or configure the bot."""
    drop = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "VIRTUAL_ENV")
    return {k: v for k, v in os.environ.items() if k not in drop and not k.startswith(("DISCORD_", "HEISTCORD_"))}


def run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=clean_env(), capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"{args} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv holding the wheel built from (a copy of) this checkout, and its dependencies."""
    tmp = tmp_path_factory.mktemp("package")
    source = tmp / "source"
    copy_source(ROOT, source)  # building in the checkout would leave build/ there
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp / "dist", source], cwd=tmp)
    (wheel,) = (tmp / "dist").glob("heistcord-*.whl")
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp)  # this pip installs into it
    run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", wheel], cwd=tmp)
    return venv


def test_the_source_copied_is_what_git_tracks(tmp_path):
    """A dangling symlink, a venv or a database beside the source (all ignored) are not copied; new files are."""
    repo = tmp_path / "checkout"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "mod.py").write_text("x = 1\n")
    (repo / ".gitignore").write_text("/out/\n*.db\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    (repo / "pkg" / "new.py").write_text("y = 2\n")  # not committed yet: part of the source all the same
    (repo / "games.db").write_text("private")
    (repo / "out").symlink_to(tmp_path / "gone")  # dangling, and ignored
    copy_source(repo, tmp_path / "copy")
    copied = sorted(str(p.relative_to(tmp_path / "copy")) for p in (tmp_path / "copy").rglob("*") if p.is_file())
    assert copied == [".gitignore", "pkg/mod.py", "pkg/new.py"]


def test_the_wheel_ships_the_data_and_fonts(installed):
    (wheel,) = (installed.parent / "dist").glob("heistcord-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {str(p.relative_to(ROOT / "data")) for p in (ROOT / "data").rglob("*") if p.is_file()}
    assert shipped and {f"heistcord_data/{name}" for name in shipped} <= names
    rules = {f"heistcord_rules/{p.name}" for p in (ROOT / "docs" / "rules").glob("*.md")}
    assert {f"heistcord_rules/{game}.md" for game in GAMES} <= rules <= names  # sent by "Full rules"
    assert not any(name.startswith(("data/", "tests/", "docs/", "tools/")) for name in names)  # tools/: scripts
    assert "heistcord_data/ratings/bots.json" in names  # the bots' seeded ladder
    tools = [n for n in names if n.startswith(("bot/bench", "bot/balance", "bot/strength")) or n.endswith("/fit.py")]
    assert not tools  # benchmarks, the balance and strength reports and the fit scripts live in tools/, not the wheel


def test_the_installed_package_plays_every_game_outside_the_checkout(installed, tmp_path):
    script = tmp_path / "package_smoke.py"
    shutil.copy(ROOT / "tests" / "package_smoke.py", script)
    shutil.copytree(ROOT / "tests" / "fakediscord", tmp_path / "fakediscord", ignore=NOT_SOURCE)
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    result = run([installed / "bin" / "python", "-I", script, installed, ROOT, *GAMES], cwd=cwd)
    print(result.stdout)
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == GAMES + ["discord"], result.stdout
    assert all("final" in line and "board" in line for line in lines[:-1])


def test_the_installed_heistcord_without_a_token_says_what_to_set(installed, tmp_path):
    result = subprocess.run([str(installed / "bin" / "heistcord")], cwd=tmp_path, env=clean_env(),
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0], result.stderr
    assert result.stdout == ""


def test_postgresql_is_an_extra_the_plain_install_runs_without_and_names_when_asked_for(installed, tmp_path):
    python = installed / "bin" / "python"
    missing = subprocess.run([str(python), "-I", "-c", "import asyncpg"], cwd=tmp_path, env=clean_env(),
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode != 0 and "asyncpg" in missing.stderr  # the plain wheel brings no PostgreSQL driver
    env = clean_env() | {"DISCORD_TOKEN": "MTA.shaped.token", "HEISTCORD_DATABASE_URL": "postgresql://u:pw@h/db"}
    for args in ([], ["db", "copy", "--from", "x.sqlite3", "--to", "postgresql://u:pw@h/db"]):
        result = subprocess.run([str(installed / "bin" / "heistcord"), *args], cwd=tmp_path, env=env,
                                capture_output=True, text=True, timeout=120)
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        assert result.returncode != 0 and len(lines) == 1, result.stderr
        assert "pip install 'heistcord[postgres]'" in lines[0] and "pw" not in lines[0], lines[0]
