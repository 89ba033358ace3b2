"""Constructors for frozen, slotted dataclasses made by the thousand (rule numbers, rules, examples, glossary
entries, pairs, changes, word-diff pieces): each fills the slots through their descriptors, which costs less
than the frozen ``__init__``'s ``object.__setattr__`` per field. No imports of rulediff: every module may use
it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

_T = TypeVar("_T")


def slot_filler(cls: type[_T]) -> Callable[..., _T]:
    """A constructor for the frozen, slotted dataclass ``cls`` taking every field in order (``init=False``
    fields too), the same object its ``__init__`` makes. The caller vouches for the values (no
    ``__post_init__`` runs, no defaults apply). The function is written out for the class's fields, as
    dataclasses writes ``__init__``: a loop over the setters would cost more than the setting."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    scope: dict[str, Any] = {"_new_": object.__new__, "_cls_": cls}
    scope.update((f"_set_{n}_", cls.__dict__[n].__set__) for n in names)
    body = "".join(f"    _set_{n}_(_obj_, {n})\n" for n in names)
    exec(f"def make({', '.join(names)}):\n    _obj_ = _new_(_cls_)\n{body}    return _obj_\n", scope)
    make: Callable[..., _T] = scope["make"]
    return make
