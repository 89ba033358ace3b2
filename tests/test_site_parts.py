"""The steps of history and glossary pages: rendered in Python (a full build renders some 30,000), held here to
the Jinja templates they were first written as; their links as holes, filled in as the linker would link."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import jinja2
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup, escape

from rulediff.history.timeline import Stretch
from rulediff.references import find_references
from rulediff.site.step_cache import DIFF_HOLE, fill, glossary_step, history_step, holed
from rulediff.words.diff import Op, Piece


def linker(url_of: Any) -> Any:
    """How the Jinja templates linked references (the step's text escaped, each reference whose first
    target ``url_of`` knows wrapped in a link): the oracle the holes, once filled, are held to."""

    def link(text: str) -> Markup:
        if not text or not any(c.isdigit() for c in text):
            return escape(text)
        out: list[str] = []
        pos = 0
        for ref in find_references(text):
            url = next((u for u in (url_of(str(t)) for t in ref.targets) if u), None)
            if url is None or ref.start < pos:
                continue
            out.append(escape(text[pos : ref.start]))
            out.append(Markup('<a class="ref" href="{}">{}</a>').format(url, text[ref.start : ref.end]))
            pos = ref.end
        out.append(escape(text[pos:]))
        return Markup("").join(out)

    return link


HISTORY_STEP = """{% macro pieces(diff, link) -%}
{% for p in diff -%}
{% if p.op == 1 %}<ins>{{ link(p.text) }}</ins>{% elif p.op == -1 %}<del>{{ p.text }}</del>{% elif p.op == 2 %}\
<span class="muted" title="was: {{ p.old }}">{{ link(p.text) }}</span>{% else %}{{ link(p.text) }}{% endif %}
{%- endfor %}
{%- endmacro %}
<li id="s{{ index }}" class="step{% if s.quiet %} quiet{% endif %}"><p class="when"><strong>{{ s.from }}</strong>\
{% if s.to is none %} &#8211; today{% elif s.to != s.from %} &#8211; {{ s.to }}{% endif %}: \
{{ s.number or "(unnumbered)" }}{% if s.title and s.number and "." not in s.number %} {{ s.title }}{% endif %}
<span class="badge">{{ s.change }}{% if s.previous %} from {{ s.previous }}{% endif %}</span>\
{% if s.nature and s.nature != "substantive" %} <span class="badge nature">{{ s.nature|replace("_", " ") }}</span>\
{% endif %}{% if s.via %} <span class="badge via">{{ s.via }}</span>{% endif %}
{% if s.diff_link %} <a class="release" href="{{ s.diff_link }}">\
{{ "this release's changes" if not first else "added in this release" }}</a>{% endif %}</p>
{% if s.quiet %}<details><summary>show the change ({{ s.nature|replace("_", " ") }})</summary>{% endif %}
<p class="diff whole">{% if s.diff %}{{ pieces(s.diff, s.link) }}{% else %}{{ s.link(s.text) }}{% endif %}</p>
{% if s.quiet %}</details>{% endif %}</li>
"""

GLOSSARY_STEP = """<li id="s{{ index }}" class="step{% if s.quiet %} quiet{% endif %}"><p class="when">\
<strong>{{ s.from }}</strong>{% if s.to is none %} &#8211; today{% elif s.to != s.from %} &#8211; {{ s.to }}\
{% endif %}: {{ s.term }}
<span class="badge">{{ s.change }}{% if s.previous %} from {{ s.previous }}{% endif %}</span>\
{% if s.nature and s.nature != "substantive" %} <span class="badge nature">{{ s.nature|replace("_", " ") }}</span>\
{% endif %}{% if s.via %} <span class="badge via">{{ s.via }}</span>{% endif %}
{% if s.diff_link %} <a class="release" href="{{ s.diff_link }}">this release's changes</a>{% endif %}</p>
{% if s.quiet %}<details><summary>show the change ({{ s.nature|replace("_", " ") }})</summary>{% endif %}
<p class="diff whole">{% if s.diff %}{% for p in s.diff %}{% if p.op == 1 %}<ins>{{ s.link(p.text) }}</ins>\
{% elif p.op == -1 %}<del>{{ p.text }}</del>{% elif p.op == 2 %}<span class="muted" title="was: {{ p.old }}">\
{{ s.link(p.text) }}</span>{% else %}{{ s.link(p.text) }}{% endif %}{% endfor %}{% else %}{{ s.link(s.text) }}\
{% endif %}</p>
{% if s.quiet %}</details>{% endif %}</li>
"""

_ENV = jinja2.Environment(
    autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True
)


def _url(number: str) -> str | None:
    return None if number.endswith("9") else f"../rules/{number}&x.html"


_TEXT = st.text(alphabet="ab <>&\"'\n?_.", max_size=8) | st.sampled_from(
    ["see rule 702.15", "rules 601.2b\u2013h and 702.9", "section 6, \u201cMultiplayer\u201d", "702.15a Lifelink"]
)
_LABEL = st.sampled_from(["2009-07-11", "2024-09-20 (re-release 2)", "a<b&c"])
_PIECE = st.builds(Piece, st.sampled_from(list(Op)), _TEXT, _TEXT)


@st.composite
def _stretches(draw: st.DrawFn) -> Stretch:
    version = SimpleNamespace(label=draw(_LABEL), id=1)
    last = SimpleNamespace(label=draw(_LABEL), id=2)
    s = Stretch(
        version,
        last,
        draw(st.sampled_from([None, "702", "702.15", "5"])),
        draw(st.sampled_from([None, "", "Lifelink", "Tom & <Jerry>"])),
        draw(_TEXT),
        draw(st.sampled_from(["first seen", "edited", "renumbered and edited", "renamed", "reappears"])),
        draw(st.sampled_from([None, "typography_only", "references_only", "substantive", "renamed"])),
        draw(st.sampled_from([None, "702.13", "Old <name>"])),
        draw(st.lists(_PIECE, max_size=5)),
        draw(st.sampled_from([None, "", "uncertain match", "linked by hand: a & b"])),
    )
    return s


def _view(s: Stretch, to: str | None, **extra: Any) -> dict[str, Any]:
    return {
        "from": s.first.label,
        "to": to,
        "number": s.number,
        "title": s.name,
        "term": s.name or "",
        "change": s.change,
        "nature": s.nature,
        "previous": s.previous,
        "quiet": s.quiet,
        "via": s.link,
        "text": s.text,
        "diff": s.diff,
        **extra,
    }


@settings(max_examples=400, deadline=None)
@given(_stretches(), st.integers(1, 3), st.sampled_from([None, "2011-01-01", "a<b&c"]), st.booleans())
def test_a_history_step_reads_as_its_template_did(s: Stretch, k: int, to: str | None, page: bool) -> None:
    got = history_step(s, k, to, page, None, None)
    view = _view(s, to, diff_link=DIFF_HOLE if page else None, link=holed)
    assert got == _ENV.from_string(HISTORY_STEP).render(s=view, index=k, first=k == 1)


@settings(max_examples=400, deadline=None)
@given(_stretches(), st.integers(1, 3), st.sampled_from([None, "2011-01-01"]), st.sampled_from([None, "../d.html#g"]))
def test_a_glossary_step_reads_as_its_template_did(s: Stretch, k: int, to: str | None, diff_link: str | None) -> None:
    s.name = s.name or "Mana & <Burn>"
    got = glossary_step(s, k, to, diff_link, None, None)
    view = _view(s, to, term=s.name, diff_link=diff_link, link=holed)
    assert got == _ENV.from_string(GLOSSARY_STEP).render(s=view, index=k)


@settings(max_examples=400, deadline=None)
@given(_TEXT, _TEXT)
def test_filled_holes_link_as_the_linker_does(a: str, b: str) -> None:
    text = a + " see rules 702.15, 702.19 and 601.2b\u2013h; section 7 " + b
    assert fill(holed(text), _url) == linker(_url)(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            ["rule 702.15", "rules 601.2b\u2013h", "702.9a", "section 7", "sections 1", "x", " ", ",", "and 5"]
        ),
        max_size=10,
    ).map("".join)
)
def test_references_never_overlap_so_every_text_can_be_holed(text: str) -> None:
    # holed() relies on it: each reference starts after the one before ends.
    from rulediff.references import find_references

    refs = find_references(text)
    assert all(a.end <= b.start for a, b in zip(refs, refs[1:], strict=False))
    assert fill(holed(text), _url) == linker(_url)(text)


def test_stored_steps_read_one_by_one_then_all_at_once(tmp_path: Any) -> None:
    """The first steps asked for are read one by one, the rest after reading them all: the same steps."""
    from rulediff.archive import Archive
    from rulediff.site.step_cache import StoredParts

    with Archive.open(tmp_path / "a.sqlite") as arc:
        first = StoredParts(arc)
        for k in range(6):
            first.put(f"k{k}", f"step {k}")
        first.save()
        later = StoredParts(arc)
        later.ONE_BY_ONE = 3
        got = [later.get(f"k{k}") for k in (5, 0, 9, 1, 2, 3, 4)]
        assert got == ["step 5", "step 0", None, "step 1", "step 2", "step 3", "step 4"]
        assert later.known is not None and later.asked == 3  # the fourth question read them all
