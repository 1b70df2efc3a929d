"""The import graph of ``pybcv`` has no cycle, counting the imports inside
functions (read with ``ast``, nothing imported), and the package imports its
own modules only at module level: an import inside a function remains only
where it keeps an optional dependency optional (torch, rpy2, dask,
matplotlib, the R bridge)."""
import ast
import os

import pybcv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(pybcv.__file__)))
PACKAGE = "pybcv"


def _modules():
    out = {}
    for folder, _, files in os.walk(os.path.join(ROOT, PACKAGE)):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                out[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    return out


def _targets(module, is_package, node, modules):
    """The package's modules an import statement loads: a submodule loads its
    parent packages too, except those of ``module`` itself (loaded before it)."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[:len(base) - node.level + 1] + ([node.module] if node.module else [])
            base = ".".join(base)
        else:
            base = node.module or ""
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
    out = set()
    for name in names:
        if not (name == PACKAGE or name.startswith(PACKAGE + ".")):
            continue
        while name not in modules:
            name = name.rsplit(".", 1)[0]
        parts = name.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    own = module.split(".")
    return out - {".".join(own[:i]) for i in range(1, len(own))}


def import_graph():
    """({module: modules it imports}, [(module, function, target)] of imports
    of the package's own modules inside functions)."""
    modules = _modules()
    graph, inner = {}, []
    for m, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        is_package = path.endswith("__init__.py")
        edges = graph.setdefault(m, set())
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges.update(_targets(m, is_package, node, modules) - {m})
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, (ast.Import, ast.ImportFrom)):
                        inner += [(m, fn.name, t) for t in _targets(m, is_package, node, modules)]
    return graph, inner


def find_cycle(graph):
    """One cycle as a list of modules, or None."""
    state, stack = {}, []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        state[v] = 2
        stack.pop()
        return None
    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_package_has_no_import_cycle():
    graph, _ = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_no_import_of_the_package_inside_functions():
    _, inner = import_graph()
    assert inner == [], "imports of pybcv's own modules inside functions: " + "; ".join(
        f"{m}.{fn} imports {t}" for m, fn, t in inner)


def test_the_pipeline_imports_neither_the_engine_nor_the_comparison():
    graph, _ = import_graph()
    seen, todo = set(), ["pybcv.pipeline"]
    while todo:
        m = todo.pop()
        for t in graph.get(m, ()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    assert not {t for t in seen if t.startswith(("pybcv.engine", "pybcv.comparison"))}


#: the optional dependencies (pyproject's extras, and what they bring): the
#: only libraries the package may import inside a function, to keep them optional
OPTIONAL = {"torch", "rpy2", "r_bridge", "distributed", "dask", "joblib", "matplotlib", "PIL",
            "sklearn"}


def test_inside_functions_only_optional_dependencies_are_imported():
    found = []
    for m, path in _modules().items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, ast.Import):
                        tops = [a.name.split(".")[0] for a in node.names]
                    elif isinstance(node, ast.ImportFrom) and not node.level:
                        tops = [node.module.split(".")[0]]
                    else:
                        continue
                    found += [f"{m}.{fn.name} imports {t}" for t in tops if t not in OPTIONAL]
    assert found == [], "; ".join(found)
