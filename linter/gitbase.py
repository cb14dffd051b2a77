"""Compare files with their version at a git revision, reading the old text with git itself.

``ksafe diff --git-base REF PATH...``: no checkout, works from any directory inside the
repository, follows renames (git's rename detection between REF and the working tree, or between
REF and a second commit: renamed and edited files are found by similarity), and says which files
are new (lint only) or deleted (a finding). PATH may be a file or a directory (every file under
it, at REF and now).

This is the shell layer: it runs ``git``. Everything it returns is plain data.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

Status = Literal["added", "modified", "deleted", "renamed"]


class GitError(Exception):
    """git could not answer (not a repository, unknown revision, path outside the repo)."""


@dataclass(frozen=True)
class FileChange:
    """One file between ``revision`` and the working tree (or a second commit).

    ``path`` is the file now (as the user would name it: relative to the current directory);
    ``old_path`` is its repository-relative path at ``revision`` (None when added). ``old_text``
    is the content at ``revision``. ``new_text`` is the content at the second commit when there
    is one; against the working tree it is None and the caller reads ``path``.
    """

    status: Status
    path: str
    old_path: str | None
    old_text: str | None
    revision: str
    new_text: str | None = None
    # ``old_path`` as the user would name it (relative to the current directory)
    old_shown: str | None = None

    @property
    def old_file(self) -> tuple[str, str] | None:
        """``(old file relative to the current directory, revision)``; None when added."""
        if self.old_path is None:
            return None
        return (self.old_shown or self.old_path, self.revision)

    @property
    def label_before(self) -> str:
        """How the old version is named in reports: ``path@REV``."""
        return f"{self.old_path}@{self.revision}"


def git(args: Sequence[str], cwd: Path, *, index: Path | None = None) -> str:
    """Run git and return its standard output; failures become :class:`GitError`. ``index``
    replaces the repository's index file for this one command."""
    env = {**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"}
    if index is not None:
        env["GIT_INDEX_FILE"] = str(index)
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            check=False,
            env=env,
        )
    except FileNotFoundError:
        raise GitError("git is not installed (needed for --git-base)") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])}: {message[-1] if message else 'failed'}")
    return done.stdout.decode("utf-8", "replace")


def repo_root(cwd: Path) -> Path:
    try:
        return Path(git(["rev-parse", "--show-toplevel"], cwd).strip())
    except GitError:
        raise GitError(f"{cwd}: not inside a git repository (needed for --git-base)") from None


# git's empty tree: the base of a repository's first commit (HEAD not born yet).
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


def resolve(revision: str, root: Path) -> str:
    """The commit ``revision`` names; the empty tree for ``HEAD`` before the first commit (so a
    pre-commit hook on the first commit lints every file as new)."""
    try:
        return git(["rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], root).strip()
    except GitError:
        if revision == "HEAD" and _unborn(root):
            return EMPTY_TREE
        raise GitError(f"unknown git revision {revision!r}") from None


def _unborn(root: Path) -> bool:
    try:
        git(["symbolic-ref", "--quiet", "HEAD"], root)
    except GitError:
        return False  # detached HEAD that does not resolve: a real error
    return True


def _split_z(output: str) -> list[str]:
    return [item for item in output.split("\0") if item]


def _renames(
    commit: str, root: Path, head: str | None = None, untracked: Sequence[str] = ()
) -> dict[str, str]:
    """new path -> old path, for renames between ``commit`` and ``head`` when given, else the
    index (a ``git mv`` is found there whatever the new content) or the working tree. git's
    similarity detection finds a file both renamed and edited.

    git's working-tree diff leaves ``untracked`` files out, so a file moved without ``git mv``
    and not yet added would read as deleted + added: they are marked intent-to-add in a copy of
    the index (the repository's own index and object store are left untouched)."""
    if head is not None:
        return _renamed(["diff", "-z", "--name-status", "-M", commit, head, "--"], root)
    renames = _renamed(["diff", "-z", "--name-status", "-M", "--cached", commit, "--"], root)
    working = ["diff", "-z", "--name-status", "-M", commit, "--"]
    if not untracked:
        renames.update(_renamed(working, root))
        return renames
    with tempfile.TemporaryDirectory(prefix="ksafe-index-") as folder:
        index = Path(folder) / "index"
        real = root / git(["rev-parse", "--git-path", "index"], root).strip()
        if real.is_file():
            shutil.copyfile(real, index)
        git(["add", "--intent-to-add", "--", *untracked], root, index=index)
        renames.update(_renamed(working, root, index=index))
    return renames


def removed(revision: str, head: str | None = None, cwd: Path | None = None) -> list[str]:
    """Files present at ``revision`` and gone at ``head`` (else from the index): deleted or
    renamed away, relative to the current directory. A pre-commit hook is never given these
    (pre-commit passes only files that exist), so the hook asks git for them."""
    here = Path(cwd or Path.cwd())
    root = repo_root(here)
    commit = resolve(revision, root)
    args = ["diff", "-z", "--name-status", "-M", commit, *([resolve(head, root)] if head
                                                          else ["--cached"]), "--"]
    fields = _split_z(git(args, root))
    gone: list[str] = []
    i = 0
    while i < len(fields):
        status = fields[i]
        if status[:1] == "D" or status[:1] == "R":
            gone.append(os.path.relpath(root / fields[i + 1], here))
        i += 3 if status[:1] in ("R", "C") else 2
    return gone


def _renamed(args: list[str], root: Path, *, index: Path | None = None) -> dict[str, str]:
    fields = _split_z(git(args, root, index=index))
    renames: dict[str, str] = {}
    i = 0
    while i < len(fields):
        status = fields[i]
        if status[:1] in ("R", "C"):
            old, new = fields[i + 1], fields[i + 2]
            if status[0] == "R":
                renames[new] = old
            i += 3
        else:
            i += 2
    return renames


def _files_at(commit: str, root: Path, rel: Iterable[str]) -> set[str]:
    specs = list(rel)
    if not specs:
        return set()
    return set(_split_z(git(["ls-tree", "-r", "-z", "--name-only", commit, "--", *specs], root)))


def _files_now(root: Path, rel: str) -> set[str]:
    listed = _split_z(git(["ls-files", "-z", "--cached", "--others", "--exclude-standard",
                           "--", rel], root))
    return {p for p in listed if (root / p).is_file()}


def _is_topology_name(name: str) -> bool:
    return name.endswith(".txt") and not name.startswith(".")


def _repo_relative(path: str, root: Path) -> str:
    """``path`` (relative to the current directory) as a path relative to the repository root;
    ``realpath`` on both sides so symlinked checkouts and missing files both work."""
    absolute = Path(os.path.realpath(path))
    try:
        return absolute.relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        raise GitError(f"{path}: outside the git repository at {root}") from None


def _check_inside(root: Path, rel: str, shown: str) -> None:
    """Refuse a file that is (or lies under) a symbolic link leading out of the repository: a
    committed link must not make ksafe read, and quote, a file elsewhere on the machine."""
    real, top = os.path.realpath(root / rel), os.path.realpath(root)
    if os.path.commonpath([real, top]) != top:
        raise GitError(f"{shown}: a symbolic link out of the repository; not followed")


def changes(
    revision: str,
    paths: Sequence[str],
    cwd: Path | None = None,
    *,
    head: str | None = None,
) -> list[FileChange]:
    """What happened to each of ``paths`` (files or directories) between ``revision`` and
    ``head`` (a commit; None: the working tree).

    Files unchanged since ``revision`` are reported as ``modified`` (their diff is empty).
    """
    here = Path(cwd or Path.cwd())
    root = repo_root(here)
    commit = resolve(revision, root)
    head_commit = resolve(head, root) if head is not None else None
    targets = _targets(paths, here, root, commit, head_commit)
    untracked = (
        _split_z(git(["ls-files", "-z", "--others", "--exclude-standard", "--",
                      *sorted(targets)], root))
        if head_commit is None and targets else []
    )
    renames = _renames(commit, root, head_commit, untracked)
    sides = _Sides(
        root, here, revision, commit, head, head_commit, renames,
        renamed_from={old: new for new, old in renames.items()},
        at_base=_files_at(commit, root, sorted(targets | set(renames.values()))),
        at_head=(
            _files_at(head_commit, root, sorted(targets | set(renames))) if head_commit else set()
        ),
    )
    out: list[FileChange] = []
    for rel in sorted(targets):
        _check_inside(root, rel, sides.shown(rel))
        change = sides.change(rel, targets)
        if change is not None:
            out.append(change)
    return out


def _targets(
    paths: Sequence[str], here: Path, root: Path, commit: str, head_commit: str | None
) -> set[str]:
    """The repository-relative files ``paths`` stand for, at ``commit`` and at the head."""

    def now(rel: str) -> set[str]:
        if head_commit is None:
            return _files_now(root, rel)
        return _files_at(head_commit, root, [rel])

    targets: set[str] = set()
    for path in paths:
        rel = _repo_relative(str(here / path), root)
        is_dir = (root / rel).is_dir() if head_commit is None else bool(now(f"{rel}/"))
        if is_dir or _files_at(commit, root, [f"{rel}/"]):
            found = _files_at(commit, root, [rel]) | now(rel)
            # a directory stands for the describe() texts below it: its *.txt files (a README,
            # .gitkeep or a properties file beside them is not a topology)
            targets |= {f for f in found if _is_topology_name(PurePosixPath(f).name)}
        else:
            targets.add(rel)
    return targets


@dataclass(frozen=True)
class _Sides:
    """The two sides of a comparison: the base commit and the head (a commit, or None: the
    working tree), with git's renames between them."""

    root: Path
    here: Path
    revision: str
    commit: str
    head: str | None
    head_commit: str | None
    renames: dict[str, str]  # new name -> old name
    renamed_from: dict[str, str]  # old name -> new name
    at_base: set[str]
    at_head: set[str]

    def shown(self, rel: str) -> str:
        return os.path.relpath(self.root / rel, self.here)

    def old_text(self, rel: str) -> str:
        return git(["show", f"{self.commit}:{rel}"], self.root)

    def new_text(self, rel: str) -> str | None:
        return git(["show", f"{self.head_commit}:{rel}"], self.root) if self.head_commit else None

    def exists(self, rel: str) -> bool:
        return rel in self.at_head if self.head_commit else (self.root / rel).is_file()

    def change(self, rel: str, targets: set[str]) -> FileChange | None:
        """What happened to ``rel``; None for an old name followed to a new one also asked for."""
        shown, revision = self.shown, self.revision
        if self.exists(rel) and rel in self.renames:
            old = self.renames[rel]
            return FileChange(
                "renamed", shown(rel), old, self.old_text(old), revision, self.new_text(rel),
                shown(old),
            )
        if rel in self.at_base and self.exists(rel):
            return FileChange(
                "modified", shown(rel), rel, self.old_text(rel), revision, self.new_text(rel),
                shown(rel),
            )
        if rel in self.at_base and rel in self.renamed_from:
            new = self.renamed_from[rel]
            if new in targets:  # the new name was asked for by itself: reported there
                return None
            return FileChange(
                "renamed", shown(new), rel, self.old_text(rel), revision, self.new_text(new),
                shown(rel),
            )
        if rel in self.at_base:
            return FileChange(
                "deleted", shown(rel), rel, self.old_text(rel), revision, None, shown(rel)
            )
        if self.exists(rel):
            return FileChange("added", shown(rel), None, None, revision, self.new_text(rel))
        where = f"at {self.head}" if self.head else "now"
        raise GitError(f"{shown(rel)}: no such file {where} nor at {revision}")


def text_at(revision: str, path: str, cwd: Path | None = None) -> str | None:
    """The content of ``path`` (relative to ``cwd``) at ``revision``; None when it did not exist."""
    here = Path(cwd or Path.cwd())
    root = repo_root(here)
    commit = resolve(revision, root)
    rel = _repo_relative(str(here / path), root)
    if rel not in _files_at(commit, root, [rel]):
        return None
    return git(["show", f"{commit}:{rel}"], root)


def merge_base(first: str, second: str, cwd: Path | None = None) -> str:
    """The commit ``first...second`` diffs from (what pre-commit lists files with); ``first``
    itself when the two share no history."""
    root = repo_root(Path(cwd or Path.cwd()))
    try:
        found = git(["merge-base", resolve(first, root), resolve(second, root)], root).strip()
    except GitError:
        found = resolve(first, root)
    # short, as reports name it (``path@1a2b3c4``)
    return git(["rev-parse", "--short", found], root).strip()
