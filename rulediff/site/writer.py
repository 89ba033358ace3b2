"""Writing the static site into its folder and nowhere else."""

# Writing the static site into its folder and nowhere else: paths checked to stay inside, files replaced atomically
# through unique temp files (never through a symlink, never over a device or a FIFO), and a stamp of what each page
# was built from, so a rebuild rewrites only what changed.

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path, PurePosixPath

from ..errors import OutputError
from ..support.safe_write import NEW_FILE, fresh_file_beside
from .journal import JOURNAL, STAMP, note_digest, open_journal, remove_temp_files, safe_relative, writer_path


def _inside(root: Path, rel: str, checked: dict[str, Path] | None = None) -> Path:
    """The path of ``rel`` under ``root``, after checking that no folder on the way is a symlink or leads out.
    ``checked`` (folder -> its path) spares a writer walking and resolving the same folders for every page:
    a folder seen before is only checked to be a plain folder still."""
    clean = safe_relative(rel)
    if clean is None:
        raise OutputError(f"refusing to write outside the site folder: {rel!r}", source=str(root))
    parts = PurePosixPath(clean).parts
    where = "/".join(parts[:-1])
    folder = checked.get(where) if checked is not None else None
    if folder is not None:
        try:
            plain = stat.S_ISDIR(os.lstat(folder).st_mode)
        except OSError:
            plain = False
        if plain:
            return folder / parts[-1]
    real_root = root.resolve()
    folder = root
    for part in parts[:-1]:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise OutputError(
                f"{part!r} is not a plain folder of the site; refusing to write through it", source=str(folder)
            )
        try:
            folder.mkdir(exist_ok=True)
        except OSError as e:
            raise OutputError(f"cannot create the folder: {e.strerror}", source=str(folder)) from None
    if folder.resolve() != real_root and real_root not in folder.resolve().parents:
        raise OutputError(f"refusing to write outside the site folder: {rel!r}", source=str(root))
    if checked is not None:
        checked[where] = folder
    return folder / parts[-1]


def _existing_kind(target: Path | str) -> str | None:
    """None (absent: nothing, or a file where a folder on the way should be), "file", "symlink", or what
    else stands there."""
    try:
        st = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        # A page under a file planted where its folder was is absent: writing it, _inside names the file.
        return None
    if stat.S_ISLNK(st.st_mode):
        return "symlink"
    if stat.S_ISREG(st.st_mode):
        return "file"
    return "folder" if stat.S_ISDIR(st.st_mode) else "special file"


def write_if_changed(
    root: Path,
    rel: str,
    text: str,
    checked: dict[str, Path] | None = None,
    before: Callable[[str, str | None], None] | None = None,
) -> bool:
    """Atomically write ``root/rel`` unless it already holds exactly ``text``; never outside ``root``. A symlink
    at the name is replaced, not followed; a folder, device, FIFO or socket there is an error. ``checked``:
    see ``_inside``; ``before(rel, kind)`` is called when the page is about to be written (not when it is
    kept), with what stands there now ("file", "symlink" or None): it may refuse by raising."""
    target = _inside(root, rel, checked)
    data = text.encode("utf-8")
    kind = _existing_kind(target)
    if kind in ("folder", "special file"):
        raise OutputError(f"a {kind} stands where the site has a page; refusing to replace it", source=str(target))
    if kind == "file" and target.stat().st_size == len(data) and target.read_bytes() == data:
        return False
    if before is not None:
        before(rel, kind)
    try:
        fd, tmp = fresh_file_beside(target)
    except OSError as e:
        raise OutputError(f"cannot write: {e.strerror}", source=str(target)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise OutputError(f"cannot write: {e.strerror}", source=str(target)) from None
        raise
    return True


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def proven(root: Path, rel: str, known: Iterable[str] | None) -> bool:
    """Can the writer prove it wrote ``root/rel``: a name it produces, holding bytes of a digest it recorded
    (``known``; None: an entry of a stamp from before digests were kept, trusted by its name alone)?"""
    if not writer_path(rel):
        return False
    if known is None:
        return True
    allowed = set(known)
    if not allowed:
        return False
    try:
        target = _inside(root, rel)
        if _existing_kind(target) != "file":
            return False
        return digest_of(target.read_bytes()) in allowed
    except (OSError, OutputError):
        return False


def refuse_foreign(root: Path, rel: str) -> OutputError:
    return OutputError(
        "a file rulediff did not write stands where the site has a page; move it away, or use --force to replace it",
        source=str(root / rel),
    )


def is_site(root: Path) -> bool:
    return (root / STAMP).is_file() and not (root / STAMP).is_symlink()


def prepare_folder(root: Path, *, force: bool = False) -> None:
    """Make ``root`` ready for a site: created if absent; an existing folder must be empty or a rulediff
    site (one with our stamp) unless ``force``; never a file or a dangling symlink. A symlink to a folder is the
    folder the user named, and is followed (a site published from ``/var/www`` through a link)."""
    if root.is_symlink() and not root.is_dir():
        raise OutputError("is a dangling symlink; expected a folder", source=str(root))
    if root.exists() and not root.is_dir():
        raise OutputError("exists and is not a folder", source=str(root))
    parent = root.parent if str(root.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"folder {str(parent)!r} does not exist", source=str(root))
    try:
        root.mkdir(exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot create the folder: {e.strerror}", source=str(root)) from None
    # Look at the folder before asking whether it is a site: a build starting beside this one stamps the
    # folder before it puts anything else in, so whatever is seen here was there before, or the stamp is too.
    occupied = any(root.iterdir())
    if is_site(root):
        return
    if occupied and not force:
        raise OutputError(
            "a folder with other files, not a rulediff site; choose an empty folder or use --force", source=str(root)
        )
    # Stamp the folder before any page goes in, so a second build started meanwhile knows it is a site. The
    # stamp is made in place and exclusively, not through a temp file: a build that looked at the folder
    # between another's temp file and its rename took the temp file for a user's file and refused.
    try:
        fd = os.open(root / STAMP, NEW_FILE, 0o666)
    except FileExistsError:
        if is_site(root):
            return  # another build stamped it meanwhile
        if not force:
            raise OutputError(
                "a folder with other files, not a rulediff site; choose an empty folder or use --force",
                source=str(root),
            ) from None
        write_if_changed(root, STAMP, "{}\n")  # replaces what was planted there, never writes through it
        return
    except OSError as e:
        raise OutputError(f"cannot write: {e.strerror}", source=str(root / STAMP)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write("{}\n")
    except OSError as e:  # a full disk: the stamp left empty reads as a site with nothing built yet
        raise OutputError(f"cannot write: {e.strerror}", source=str(root / STAMP)) from None


class SiteWriter:
    """Writes files under ``root`` only when their bytes change, and remembers what each page was built
    from and the digest of the bytes written, so a rebuild after adding one release renders only what that
    release touches. A file is replaced or removed only when the writer can prove it wrote it (``proven``:
    a name it produces, holding bytes it recorded); a file at a page's name it cannot prove is refused
    (``force``: replaced), and one it would remove is left and listed in ``left_alone``.

    One build writes a site at a time (a second waits for the first: see JOURNAL), and a build that stopped
    midway is mended by the next: the pages it had started to write are made again, those it added that are
    no longer part of the site are removed, and so are its temp files. Call ``finish`` at the end of a build,
    or ``close`` when it fails."""

    def __init__(self, root: Path, on_wait: Callable[[], None] | None = None, *, force: bool = False) -> None:
        """``on_wait`` is called once if another build of the site holds it for more than a second."""
        self.root = root
        self.force = force
        self._prefix = os.path.join(root, "")  # the folder's path as text: a page's is this and its name
        self.written = 0
        self.skipped = 0
        self.seen: set[str] = set()
        self.left_alone: list[str] = []
        self.checked: dict[str, Path] = {}  # folders of the site already walked (see _inside)
        self._journal, self._writable, left = open_journal(root, on_wait)
        # A writer dropped without finish or close (a library caller's) lets the next build in when it goes.
        self._release = weakref.finalize(self, os.close, self._journal) if self._journal is not None else None
        # Read after the lock is ours: a build that held it has saved its stamp by now.
        self.stamps, self.digests = self._read_stamps()
        if left is None:  # a journal too long to be a build's: no page stamped is trusted to be as stamped
            left = {rel: set() for rel in self.stamps}
        # The digests each page may hold for the writer to know it as its own: the last stamped, and those an
        # earlier build's journal noted it was about to write (None: a stamp's entry from before digests).
        self.known: dict[str, set[str] | None] = {
            rel: ({d} if d is not None else None) for rel, d in self.digests.items()
        }
        for rel, noted in left.items():
            had = self.known.get(rel, set())
            if had is not None:
                self.known[rel] = had | noted
            self.stamps.pop(rel, None)  # its stamp may be older than the page: made again
        # Pages an earlier build may have written, beside its stamp's (see finish): those its journal names.
        self.owned = set(left)
        if left:
            remove_temp_files(root, [*left, STAMP])

    def _read_stamps(self) -> tuple[dict[str, str], dict[str, str | None]]:
        """The stamp's keys and digests by page (a stamp from before digests: every digest None)."""
        stamp = self.root / STAMP
        if not is_site(self.root):
            return {}, {}
        try:
            data = json.loads(stamp.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return {}, {}  # a damaged stamp (or one nested past the decoder's depth) only costs a full rebuild
        if not isinstance(data, dict):
            return {}, {}
        keys: dict[str, str] = {}
        digests: dict[str, str | None] = {}
        for rel, value in data.items():
            if safe_relative(rel) != rel or rel == STAMP:
                continue
            if isinstance(value, str):
                keys[rel], digests[rel] = value, None
            elif isinstance(value, list) and len(value) == 2 and all(isinstance(x, str) for x in value):
                keys[rel], digests[rel] = value[0], value[1]
        return keys, digests

    def fresh_if(self, rel: str, holds: Callable[[str], bool]) -> bool:
        """Is ``rel`` already built, from a key ``holds`` accepts (a key that names what the page looked up,
        to be looked up again)?"""
        self.seen.add(rel)
        old = self.stamps.get(rel)
        return old is not None and holds(old) and _existing_kind(self._prefix + rel) == "file"

    def proof(self, rels: Iterable[str]) -> dict[str, list[str] | None]:
        """What a worker writing ``rels`` needs to tell this writer's files from others': the digests known
        for each (None: trusted by its name)."""
        out: dict[str, list[str] | None] = {}
        for rel in rels:
            known = self.known.get(rel, set())
            out[rel] = sorted(known) if known is not None else None
        return out

    def expect(self, rels: Iterable[str]) -> None:
        """Note in the journal that ``rels`` are about to be written (by this process or a worker)."""
        self._append("".join(f"{rel}\n" for rel in rels))

    def _append(self, lines: str) -> None:
        data = memoryview(lines.encode("utf-8"))
        if self._journal is None or not data:
            return  # a site whose folder is read-only: nothing can be written there
        if not self._writable:
            raise OutputError("cannot write: Permission denied", source=str(self.root / JOURNAL))
        try:
            while data:
                data = data[os.write(self._journal, data) :]
        except OSError as e:
            raise OutputError(f"cannot write: {e.strerror}", source=str(self.root / JOURNAL)) from None

    def write(self, rel: str, text: str, key: str | None = None) -> None:
        self.seen.add(rel)
        digest = digest_of(text.encode("utf-8")) if rel != STAMP else None

        def before(rel: str, kind: str | None) -> None:
            if rel == STAMP:
                return
            if kind == "file" and not self.force and not proven(self.root, rel, self.known.get(rel, set())):
                raise refuse_foreign(self.root, rel)
            self._append(f"{rel}\t{digest}\n")

        if write_if_changed(self.root, rel, text, self.checked, before):
            self.written += 1
        else:
            self.skipped += 1
        if digest is not None:
            self.digests[rel] = digest
            self.known[rel] = {digest}
        if key is not None:
            self.stamps[rel] = key

    def record(self, rel: str, key: str, wrote: bool, digest: str) -> None:
        """A page another process wrote (``digest``: of its bytes)."""
        self.seen.add(rel)
        self.stamps[rel] = key
        self.digests[rel] = digest
        self.known[rel] = {digest}
        if wrote:
            self.written += 1
        else:
            self.skipped += 1

    def close(self) -> None:
        """Let the next build in, leaving the journal as it is (a build that failed: the next one mends it)."""
        if self._release is not None:
            self._release()  # closes the journal, and the lock goes with it
            self._release = None
        self._journal = None

    def _remove_old(self, rel: str) -> None:
        """Remove the page ``rel`` an earlier build wrote, if it is still there and the writer can prove it is
        its own (only then are its folders looked into, and they are never made: a bogus stamp entry by the
        hundred thousand costs an lstat each), and only through plain folders of the site. One it cannot
        prove is left, and listed in ``left_alone``."""
        if _existing_kind(self._prefix + rel) not in ("file", "symlink"):
            return
        if not proven(self.root, rel, self.known.get(rel, set())):
            self.left_alone.append(rel)
            return
        try:
            target = _inside(self.root, rel)
        except OutputError:
            return  # a stamp entry leading out of the folder removes nothing
        try:
            target.unlink(missing_ok=True)  # a build beside this one may have removed it first
        except OSError as e:
            raise OutputError(f"cannot remove an old page: {e.strerror}", source=str(target)) from None

    def finish(self) -> None:
        """Remove pages an earlier build wrote that this one did not, save the stamp, empty the journal."""
        for rel in sorted((set(self.stamps) | self.owned) - self.seen):
            self._remove_old(rel)
            self.stamps.pop(rel, None)
        self.owned.clear()
        entries: dict[str, str | list[str]] = {}
        # Every file of the site with the digest of its bytes (a file written without a key, such as the
        # index, with an empty key: nothing is kept by it, but it is known as the writer's own).
        for rel in sorted((set(self.stamps) | self.seen) - {STAMP}):
            key = self.stamps.get(rel, "")
            digest = self.digests.get(rel)
            if digest is None and _existing_kind(self._prefix + rel) == "file":
                # (a stamp from before digests, its page kept as it was: its bytes are the page's)
                digest = digest_of((self.root / rel).read_bytes())
            entries[rel] = [key, digest] if digest is not None else key
        self.write(STAMP, json.dumps(entries, indent=0, sort_keys=True) + "\n")
        if self._journal is not None and self._writable:
            try:
                os.ftruncate(self._journal, 0)
            except OSError as e:
                raise OutputError(f"cannot write: {e.strerror}", source=str(self.root / JOURNAL)) from None
            finally:
                self.close()


class Mine:
    """In a worker: replace only a file the build can prove is the site's (see ``proven``), and note in
    the build's journal the digest of each file it is about to write."""

    def __init__(self, root: Path, proof: dict[str, list[str] | None], force: bool) -> None:
        self.root, self.proof, self.force = root, proof, force

    def before(self, digest: str) -> Callable[[str, str | None], None]:
        def check(rel: str, kind: str | None) -> None:
            if kind == "file" and not self.force and not proven(self.root, rel, self.proof.get(rel, [])):
                raise refuse_foreign(self.root, rel)
            note_digest(self.root, rel, digest)

        return check
