"""Every relative link in the README and docs/ leads somewhere: the file (or folder) exists, and a #fragment names
a heading of the page it points into (GitHub's anchors: lower case, punctuation dropped, spaces to hyphens)."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings (a repeated heading gets -1, -2, ...)."""
    seen: dict[str, int] = {}
    out = set()
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def links(page: Path) -> list[str]:
    """The relative links of a page, outside code blocks."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page):
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            broken.append(f"{target} (no heading #{fragment})")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_check_sees_a_broken_link_and_a_missing_heading(tmp_path):
    page = tmp_path / "a.md"
    page.write_text("# A page\n\n## Set up\n\n[ok](#set-up) [bad](#nowhere) [gone](b.md) [web](https://x.y)\n")
    assert links(page) == ["#set-up", "#nowhere", "b.md"]
    assert anchors(page) == {"a-page", "set-up"}


def test_the_readme_fits_on_a_screen_or_two():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
