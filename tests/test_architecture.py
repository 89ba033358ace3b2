"""The road, computed from the code: every import of the package (lazy ones and type-only ones included) read
with ast, no cycle among modules, nothing walking back up the stages (records -> parsers -> words -> matcher ->
render -> archive -> history / identify / cite -> site / update -> cli), no module importing the package face or a
shim, and the lists of modules that stamp stored results naming modules that exist and cover what they import.

    python -m tests.test_architecture      prints the stages, the arrows between them and the module count
"""

from __future__ import annotations

import ast
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rulediff"

# The stages of the road, lowest first; a module may import its own stage or a lower one.
STAGES = (
    ("records", 0),  # errors, model, coverage, numbering, text, dates, _version
    ("support", 0),
    ("data", 0),  # files shipped with the code (the published corrections)
    ("parsers", 1),
    ("words", 2),
    ("matcher", 3),
    ("render", 4),
    ("archive", 5),
    ("history", 6),
    ("identify", 7),
    ("cite", 7),
    ("site", 8),
    ("update", 8),  # following the official rules page: archives what it fetches, rebuilds the site
    ("cli", 9),
    ("face", 10),  # rulediff/__init__.py, __main__.py and the shims
)
RANK = dict(STAGES)
# Modules kept at their old import paths for the names the README documents (CHANGELOG.md): nothing imports them.
SHIMS = {"rulediff.report", "rulediff.notes", "rulediff.bulletin"}
FACE = {"rulediff", "rulediff.__main__", *SHIMS}
# Tests of the README's examples are the one place the shims are imported.
SHIM_USERS = {"test_readme_api.py"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def stage(mod: str) -> str:
    if mod in FACE:
        return "face"
    name = mod.split(".")[1]
    return name if (PACKAGE / name).is_dir() else "records"


def _type_only(tree: ast.Module) -> set[int]:
    """Line numbers of the imports under ``if TYPE_CHECKING:`` (they make no runtime cycle)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                for n in ast.walk(inner):
                    if isinstance(n, ast.Import | ast.ImportFrom):
                        out.add(n.lineno)
    return out


def imports_of(path: Path, own: str) -> list[tuple[str, int, bool]]:
    """(module imported, line, type-only) for every import of a package module in ``path``."""
    known = modules()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typed = _type_only(tree)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    out: list[tuple[str, int, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            # "from . import x" names a module when there is one by that name
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod for a in node.names]
        else:
            continue
        for t in targets:
            if t == "rulediff" or t.startswith("rulediff."):
                while t not in known and "." in t:  # "import rulediff.x.y" where y is a name: its module
                    t = t.rpartition(".")[0]
                out.append((t, node.lineno, node.lineno in typed))
    return out


@cache
def graph() -> dict[str, list[tuple[str, int, bool]]]:
    return {m: [i for i in imports_of(p, m) if i[0] != m] for m, p in modules().items()}


def test_every_module_is_on_a_stage() -> None:
    assert {stage(m) for m in modules()} <= set(RANK)


def test_no_import_walks_back_up_the_road() -> None:
    wrong = sorted(
        {
            f"{modules()[m].relative_to(ROOT)}:{line}: {m} ({stage(m)}) imports {t} ({stage(t)})"
            for m, edges in graph().items()
            for t, line, _ in edges
            if RANK[stage(t)] > RANK[stage(m)] and m not in FACE
        }
    )
    assert not wrong, "\n".join(wrong)


def test_nothing_imports_the_package_face_or_a_shim() -> None:
    wrong = [
        f"{modules()[m].relative_to(ROOT)}:{line}: imports {t}"
        for m, edges in graph().items()
        if m not in ("rulediff.__main__", *SHIMS)
        for t, line, _ in edges
        if t in FACE
    ]
    for test in sorted((ROOT / "tests").glob("*.py")):
        if test.name in SHIM_USERS:
            continue
        for t, line, _ in imports_of(test, f"tests.{test.stem}"):
            if t in SHIMS or (t == "rulediff" and _names_a_shim(test, line)):
                wrong.append(f"tests/{test.name}:{line}: imports the shim {t}")
    assert not wrong, "\n".join(wrong)


def _names_a_shim(path: Path, line: int) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(n, ast.ImportFrom) and n.lineno == line and any(f"rulediff.{a.name}" in SHIMS for a in n.names)
        for n in ast.walk(tree)
    )


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (runtime imports, lazy ones included)."""
    edges = {m: sorted({t for t, _, typed in es if not typed}) for m, es in graph().items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles_lazy_imports_included() -> None:
    assert cycles() == []


def test_above_the_archive_only_its_face_is_imported() -> None:
    """History, identify, the site and the CLI reach the archive through ``rulediff.archive`` alone: its parts
    and stored formats are its own."""
    wrong = sorted(
        {
            f"{modules()[m].relative_to(ROOT)}:{line}: imports {t}"
            for m, edges in graph().items()
            if RANK[stage(m)] > RANK["archive"] and m not in FACE
            for t, line, _ in edges
            if stage(t) == "archive" and t != "rulediff.archive"
        }
    )
    assert not wrong, "\n".join(wrong)


def test_the_archive_is_made_of_parts_not_a_tower() -> None:
    """No class of the archive derives from another of its own (the Archive composes its parts)."""
    own = set()
    bases = []
    for m, path in modules().items():
        if stage(m) != "archive":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                own.add(node.name)
                bases.extend((node.name, ast.unparse(b)) for b in node.bases)
    assert not [(c, b) for c, b in bases if b in own]


def test_the_word_diff_is_a_leaf_of_the_matcher() -> None:
    """The words stage imports nothing of the matcher (nor of anything above it)."""
    for m, edges in graph().items():
        if stage(m) == "words":
            assert all(RANK[stage(t)] <= RANK["words"] for t, _, _ in edges), m


def closure(root: str, *, within: tuple[str, ...]) -> set[str]:
    """The modules ``root`` imports at run time, directly or not, among the stages ``within``."""
    seen = {root}
    todo = [root]
    while todo:
        for t, _, typed in graph()[todo.pop()]:
            if not typed and stage(t) in within and t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def test_the_code_digests_name_modules_that_exist_and_cover_what_they_import() -> None:
    from rulediff.archive.codec import ENGINE_MODULES
    from rulediff.matcher.glossary import PAIRING_MODULES
    from rulediff.site.step_cache import PART_MODULES
    from rulediff.site.steps import _CODE as STEP_MODULES
    from rulediff.support.code_digest import module_path
    from rulediff.words.edits import EDIT_MODULES

    for name in (*ENGINE_MODULES, *EDIT_MODULES, *PART_MODULES, *STEP_MODULES, *PAIRING_MODULES):
        assert name in modules(), f"{name} is named in a code digest but is no module"
        assert module_path(name) == modules()[name]
    with pytest.raises(LookupError):
        module_path("rulediff.no_such_module")
    # What decides an alignment: everything the classifier imports (support plumbing and errors aside).
    engine = closure("rulediff.matcher.classify", within=("records", "words", "matcher")) - {"rulediff.errors"}
    assert engine - {"rulediff.dates", "rulediff._version"} <= set(ENGINE_MODULES)
    edits = closure("rulediff.words.edits", within=("records", "words")) - {"rulediff.errors"}
    assert edits - {"rulediff.dates", "rulediff._version"} <= set(EDIT_MODULES)
    # (the glossary's matcher names its own code: the digest that names it is no part of what it pairs by)
    pairing = closure("rulediff.matcher.glossary", within=("records", "support", "words", "matcher"))
    aside = {"rulediff.errors", "rulediff.dates", "rulediff._version", "rulediff.support.code_digest"}
    assert pairing - aside <= set(PAIRING_MODULES)


def road() -> str:
    """The stages with their modules, and the arrows between stages with how many imports each carries."""
    arrows: Counter[tuple[str, str]] = Counter()
    for m, edges in graph().items():
        for t, _, _ in edges:
            if stage(t) != stage(m):
                arrows[(stage(m), stage(t))] += 1
    lines = []
    for name, rank in sorted(STAGES, key=lambda s: -s[1]):
        mods = sorted(m for m in modules() if stage(m) == name)
        lines.append(f"{rank:2} {name:9} {len(mods):2} modules")
    lines.append("arrows (importer -> imported: imports)")
    lines += [f"   {a} -> {b}: {n}" for (a, b), n in sorted(arrows.items(), key=lambda kv: (-RANK[kv[0][0]], kv[0]))]
    lines.append(f"cycles: {len(cycles())}")
    return "\n".join(lines)


def test_the_readme_layout_names_every_module() -> None:
    """The README's layout is drawn from the code: every module of the package is named there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Layout") :]
    missing = [
        str(path.relative_to(ROOT))
        for path in modules().values()
        if path.name != "__init__.py"
        and path.name not in layout
        and path.parent.name not in ("parsers", "identify")  # one module per format, named by the table
    ]
    assert not missing, missing


if __name__ == "__main__":
    print(road())
