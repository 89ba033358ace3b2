"""Every official text release 1999-2026 parses, with its effective date, one node per numbered line,
examples under the right rule, and pinned counts from 2009-09 on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulediff import parse
from rulediff.numbering import RuleNumber

from .conftest import cr_manifest, cr_txt_files, needs_cr_corpus

pytestmark = needs_cr_corpus

# The MANIFEST's encoding column, as Python codecs: the test decodes on its own, not through rulediff.
ENCODINGS = {
    "mac-roman": "mac-roman",
    "utf-8": "utf-8",
    "cp1252": "cp1252",
    "ascii": "cp1252",
    "utf-16-be (BOM)": "utf-16",
    "utf-16-le (BOM)": "utf-16",
    "utf-8-sig": "utf-8-sig",
}
BREAKS = re.compile(r"\r\r\n|\r\n|\r|\n")
# (the last form is a subrule printed without its rule's digits, "408.f" in 1999-11-01, "306.b" in 2008-10-01)
NUMBERED = re.compile(
    r"^(?:[1-9]\.|[1-9]\d\d\.|[1-9]\d\d\.\d+[a-z]{0,2}\.?)(?:\s|$|(?<=\.)[A-Z])|^[1-9]\d\d\.[a-z]{1,2}\.?\s"
)
# In hard-wrapped releases a line may start with a number only because "See rule" wrapped before it.
WRAPPED_REFERENCE = re.compile(r"\b(?:rules?|and|or|[Ss]ee)\s*$")

# file: (rules, subrules, examples, glossary terms), for every release from 2009-09 on.
PINNED = {
    "cr-20090904.txt": (684, 864, 189, 419),
    "cr-20091001.txt": (714, 886, 195, 424),
    "cr-20100201.txt": (718, 919, 200, 425),
    "cr-20100423.txt": (730, 946, 201, 431),
    "cr-20100618.txt": (766, 963, 201, 441),
    "cr-20100716.txt": (776, 975, 203, 442),
    "cr-20101001.txt": (782, 988, 204, 444),
    "cr-20110204.txt": (785, 996, 207, 449),
    "cr-20110401.txt": (786, 1002, 207, 449),
    "cr-20110501.txt": (799, 1017, 212, 452),
    "cr-20110617.txt": (802, 1023, 212, 454),
    "cr-20110715.txt": (802, 1022, 212, 454),
    "cr-20110930.txt": (819, 1046, 217, 460),
    "cr-20120201.txt": (821, 1049, 218, 461),
    "cr-20120501.txt": (823, 1058, 218, 463),
    "cr-20120601.txt": (831, 1060, 218, 465),
    "cr-20120701.txt": (831, 1062, 219, 465),
    "cr-20121001.txt": (836, 1072, 220, 470),
    "cr-20130201.txt": (840, 1082, 220, 474),
    "cr-20130501.txt": (841, 1089, 223, 476),
    "cr-20130713.txt": (841, 1100, 222, 478),
    "cr-20130927.txt": (843, 1108, 222, 483),
    "cr-20131101.txt": (843, 1109, 222, 483),
    "cr-20140201.txt": (845, 1113, 222, 484),
    "cr-20140501.txt": (845, 1113, 222, 484),
    "cr-20140601.txt": (861, 1139, 223, 493),
    "cr-20140718.txt": (862, 1141, 223, 494),
    "cr-20140925.txt": (864, 1144, 223, 496),
    "cr-20150123.txt": (870, 1156, 223, 500),
    "cr-20150327.txt": (871, 1160, 225, 502),
    "cr-20150717.txt": (869, 1171, 226, 503),
    "cr-20150926.txt": (873, 1176, 226, 506),
    "cr-20151113.txt": (874, 1180, 226, 507),
    "cr-20160116.txt": (875, 1183, 226, 509),
    "cr-20160408.txt": (878, 1193, 229, 511),
    "cr-20160722.txt": (897, 1220, 238, 516),
    "cr-20160826.txt": (904, 1228, 238, 519),
    "cr-20160930.txt": (903, 1250, 241, 524),
    "cr-20161111.txt": (907, 1263, 241, 526),
    "cr-20170120.txt": (908, 1269, 242, 527),
    "cr-20170428.txt": (909, 1291, 243, 531),
    "cr-20170605.txt": (910, 1300, 243, 531),
    "cr-20170708.txt": (913, 1303, 244, 533),
    "cr-20170825.txt": (916, 1314, 244, 533),
    "cr-20170929.txt": (918, 1320, 244, 534),
    "cr-20180119.txt": (921, 1327, 244, 538),
    "cr-20180427.txt": (931, 1346, 242, 542),
    "cr-20180608.txt": (933, 1351, 243, 543),
    "cr-20180713.txt": (934, 1366, 243, 544),
    "cr-20180810.txt": (934, 1369, 243, 547),
    "cr-20181005.txt": (937, 1380, 243, 550),
    "cr-20190125.txt": (941, 1387, 243, 554),
    "cr-20190503.txt": (945, 1388, 243, 555),
    "cr-20190614.txt": (947, 1391, 244, 555),
    "cr-20190712.txt": (957, 1388, 244, 559),
    "cr-20190823.txt": (958, 1409, 245, 560),
    "cr-20191004.txt": (965, 1421, 248, 562),
    "cr-20200124.txt": (966, 1426, 249, 563),
    "cr-20200417.txt": (976, 1458, 250, 571),
    "cr-20200601.txt": (976, 1459, 250, 570),
    "cr-20200703.txt": (978, 1473, 251, 571),
    "cr-20200807.txt": (979, 1478, 251, 571),
    "cr-20200925.txt": (982, 1494, 252, 576),
    "cr-20201120.txt": (985, 1508, 254, 578),
    "cr-20210205.txt": (988, 1526, 257, 585),
    "cr-20210215.txt": (988, 1526, 258, 585),
    "cr-20210422.txt": (991, 1530, 258, 589),
    "cr-20210618.txt": (993, 1537, 260, 591),
    "cr-20210723.txt": (1014, 1565, 260, 600),
    "cr-20210924.txt": (1022, 1586, 262, 606),
    "cr-20211119.txt": (1024, 1593, 265, 612),
    "cr-20220218.txt": (1027, 1599, 265, 616),
    "cr-20220429.txt": (1031, 1620, 265, 621),
    "cr-20220610.txt": (1037, 1631, 266, 625),
    "cr-20220708.txt": (1038, 1631, 266, 625),
    "cr-20220908.txt": (1040, 1640, 266, 629),
    "cr-20221007.txt": (1068, 1692, 270, 642),
    "cr-20221118.txt": (1080, 1711, 271, 647),
    "cr-20230203.txt": (1083, 1717, 272, 650),
    "cr-20230414.txt": (1090, 1752, 274, 656),
    "cr-20230616.txt": (1093, 1760, 274, 659),
    "cr-20230901.txt": (1095, 1779, 276, 661),
    "cr-20231013.txt": (1097, 1791, 276, 664),
    "cr-20231117.txt": (1100, 1799, 276, 668),
    "cr-20240202.txt": (1108, 1829, 276, 673),
    "cr-20240308.txt": (1109, 1832, 276, 675),
    "cr-20240412.txt": (1115, 1847, 277, 681),
    "cr-20240607.txt": (1117, 1850, 278, 683),
    "cr-20240730.txt": (1123, 1870, 279, 690),
    "cr-20240920.txt": (1128, 1888, 279, 698),
    "cr-20241108.txt": (1124, 1883, 272, 698),
    "cr-20250207.txt": (1127, 1895, 274, 703),
    "cr-20250404.txt": (1136, 1911, 275, 708),
    "cr-20250606.txt": (1141, 1918, 275, 711),
    "cr-20250725.txt": (1147, 1932, 276, 715),
    "cr-20250919.txt": (1151, 1942, 275, 721),
    "cr-20251114.txt": (1155, 1954, 276, 725),
    "cr-20260116.txt": (1157, 1957, 276, 725),
    "cr-20260227.txt": (1158, 1962, 276, 726),
    "cr-20260417.txt": (1165, 1973, 277, 730),
    "cr-20260619.txt": (1170, 1983, 277, 735),
    "cr-20260807-rerelease-20260819.txt": (1173, 1989, 277, 739),
    "cr-20260807.txt": (1173, 1989, 277, 739),
}


def _independent_numbered_lines(path: Path) -> dict[int, str]:
    """1-based line -> text of every line of the rules body that starts with a rule number."""
    row = cr_manifest()[f"txt/{path.name}"]
    lines = BREAKS.split(path.read_bytes().decode(ENCODINGS[row["encoding"]]))
    first = next(i for i, ln in enumerate(lines) if re.match(r"\s*100\.1\.?\s", ln))
    end = next(i for i in range(first, len(lines)) if lines[i].strip() == "Glossary")
    start = first
    for j in range(first - 1, max(first - 10, 0), -1):
        s = lines[j].strip()
        if re.match(r"^(?:1|100)\.\s", s):
            start = j
        elif s and not set(s) <= set("-="):
            break
    out: dict[int, str] = {}
    prev = ""
    for i in range(start, end):
        s = lines[i].strip()
        if NUMBERED.match(s) and not WRAPPED_REFERENCE.search(prev):
            out[i + 1] = s
        if s:
            prev = s
    return out


@pytest.mark.parametrize("path", cr_txt_files(), ids=lambda p: p.name)
def test_release_parses_completely(path: Path) -> None:
    doc = parse(str(path))
    assert doc.version.format == "official-text"  # detected from content
    assert doc.version.effective_date is not None
    assert doc.version.effective_date.isoformat() == cr_manifest()[f"txt/{path.name}"]["effective_date"]

    expected = _independent_numbered_lines(path)
    got = {r.line: r for r in doc.rules}
    assert sorted(got) == sorted(expected), "every numbered line is exactly one node"
    for line, r in got.items():
        assert r.number is not None
        assert expected[line].startswith(str(r.number)) or "typo" in {w.code for w in doc.warnings if w.line == line}
        assert not re.match(r"^\s*[1-9]\d\d\.\d", r.text), f"{r.number}'s text starts with a rule number"

    lines = sorted(got)
    for k, line in enumerate(lines):
        nxt = lines[k + 1] if k + 1 < len(lines) else 10**9
        for ex in got[line].examples:
            assert line < ex.line < nxt, f"example at line {ex.line} is not under {got[line].number}"
            assert ex.text.startswith(("Example", "EXAMPLE"))
    assert len(doc.glossary) > 150
    assert doc.credits


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_counts(name: str) -> None:
    doc = parse(str(cr_txt_files()[0].parent / name))
    c = doc.counts()
    assert (c["rule"], c["subrule"], c["examples"], c["glossary"]) == PINNED[name]


def test_well_known_rules() -> None:
    old = parse(str(cr_txt_files()[0].parent / "cr-20110204.txt"))
    new = parse(str(cr_txt_files()[0].parent / "cr-20260116.txt"))
    assert old.get("702.13").title == "Lifelink"  # type: ignore[union-attr]
    assert old.get("702.15").title == "Reach"  # type: ignore[union-attr]
    assert new.get("702.15").title == "Lifelink"  # type: ignore[union-attr]
    assert [str(r.number) for r in new.children("702.15")] == [f"702.15{c}" for c in "abcdef"]
    assert "704.5z" in new and "704.5aa" not in new
    latest = parse(str(cr_txt_files()[0].parent / "cr-20260807.txt"))
    assert RuleNumber.parse("704.5aa") in latest
    assert latest.get("704.5aa").parent == RuleNumber.parse("704.5")  # type: ignore[union-attr]
