"""Constructors for frozen, slotted dataclasses made by the thousand."""

# Constructors for frozen, slotted dataclasses made by the thousand (rule numbers, rules, examples, glossary
# entries, pairs, changes, word-diff pieces): each fills the slots through their descriptors, which costs less than
# the frozen ``__init__``'s ``object.__setattr__`` per field. No imports of rulediff: every module may use it.

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

_T = TypeVar("_T")


def slot_filler(cls: type[_T], params: str) -> Callable[..., _T]:
    """A constructor for the frozen, slotted dataclass ``cls`` taking every field (``init=False`` fields too)
    in the order ``params`` names them, the same object its ``__init__`` makes. The order is the caller's,
    written where it calls: a field added to or dropped from the class fails here, at import, and one moved
    in the class moves nothing (positional calls would otherwise put one value in another's place, silently).
    The caller vouches for the values (no ``__post_init__`` runs, no defaults apply). The function is
    written out for the fields, as dataclasses writes ``__init__``: a loop over the setters would cost more
    than the setting."""
    names = params.split()
    declared = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    if sorted(names) != sorted(declared):
        raise TypeError(f"slot_filler({cls.__name__}): takes {names}, the class has {declared}")
    scope: dict[str, Any] = {"_new_": object.__new__, "_cls_": cls}
    scope.update((f"_set_{n}_", cls.__dict__[n].__set__) for n in names)
    body = "".join(f"    _set_{n}_(_obj_, {n})\n" for n in names)
    exec(f"def make({', '.join(names)}):\n    _obj_ = _new_(_cls_)\n{body}    return _obj_\n", scope)
    make: Callable[..., _T] = scope["make"]
    return make
