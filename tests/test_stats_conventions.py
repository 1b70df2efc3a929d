"""docs/conventions.md is the one statement of the conventions: every
section that pybcv.stats and pybcv.outcomes cite exists, and no code there
cites an outside spec."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "pybcv" / "stats").glob("*.py")) + [ROOT / "pybcv" / "outcomes.py"]


def test_cited_sections_exist():
    doc = (ROOT / "docs" / "conventions.md").read_text()
    headings = set(re.findall(r"^## (.+)$", doc, flags=re.M))
    cited = set()
    for f in SOURCES:
        text = f.read_text()
        # conventions.md, "Section" / conventions.md "Section" / conventions.md, sections "A" and "B"
        for m in re.finditer(r'conventions\.md[,:]?\s*(?:section\s*)?"([^"]+)"(?:\s*and\s*"([^"]+)")?', text):
            cited.update(" ".join(g.split()) for g in m.groups() if g)
    assert cited, "no citation found"
    missing = {c for c in cited if c not in headings}
    assert not missing, f"cited but not in docs/conventions.md: {missing}"


def test_no_outside_spec_citations():
    for f in SOURCES:
        text = f.read_text()
        for bad in ("TESTS_SPEC", "§", "rule D", "[YWSL]"):
            assert bad not in text, f"{f.name} cites {bad!r}"
