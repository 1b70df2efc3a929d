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


def _project_text_files():
    """The project's own text: code, R code, documentation (not the tests,
    which name the forbidden strings)."""
    for pattern in ("pybcv/**/*.py", "r_bridge/**/*.py", "R/inst/*.R", "R/R/*.R", "R/*.md",
                    "docs/**/*.md", "docs/**/*.py", "benchmarks/*.py", "benchmarks/*.md",
                    "scripts/*", "*.md"):
        for f in ROOT.glob(pattern):
            if f.is_file() and ".venv" not in f.parts:
                yield f


def test_the_project_cites_nothing_outside_the_repository():
    files = list(_project_text_files())
    assert len(files) > 50
    for f in files:
        text = f.read_text(errors="replace")
        for bad in ("TESTS_SPEC", "shared/paper", "STYLE.md", "rule D"):
            assert bad not in text, f"{f.relative_to(ROOT)} cites {bad!r} (cite docs/conventions.md)"
    cited = set()
    for f in files:
        for m in re.finditer(r'conventions\.md`?[,:]?\s*(?:section\s*)?"([^"]+)"', f.read_text(errors="replace")):
            cited.add(" ".join(m.group(1).replace("#'", " ").split()))   # R roxygen lines
    headings = set(re.findall(r"^## (.+)$", (ROOT / "docs" / "conventions.md").read_text(), flags=re.M))
    assert "The simulated data sets" in cited
    assert cited <= headings, f"cited but not in docs/conventions.md: {cited - headings}"


def _count_phrases():
    """Phrases that write the number of tests as a literal (the registry is
    the one place that knows it): "17 tests", "all 17", "16 rival(s)"."""
    from pybcv.stats import TESTS
    k = len(TESTS)
    return re.compile(rf"\b(?:{k}\s+(?:tests|statistics|significance tests)|all\s+{k}\b|"
                      rf"{k - 1}\s+(?:rival|other)|the\s+{k}\b)", re.I)


#: none: the READMEs are held to the same rule
_COUNTED_ELSEWHERE = set()


def test_no_literal_count_of_tests_in_code_and_docs():
    pat = _count_phrases()
    files = list(_project_text_files()) + sorted((ROOT / "R" / "man").glob("*.Rd")) \
        + sorted((ROOT / "R" / "tests" / "testthat").glob("*.R")) + sorted((ROOT / "tests").glob("*.py"))
    bad = []
    for f in files:
        rel = str(f.relative_to(ROOT))
        if rel in _COUNTED_ELSEWHERE or rel == "tests/test_stats_conventions.py" or "replication" in f.parts:
            continue
        for i, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            if pat.search(line):
                bad.append(f"{rel}:{i}: {line.strip()}")
    assert not bad, "a literal count of tests (use len(TESTS) or say 'every test'):\n" + "\n".join(bad)
