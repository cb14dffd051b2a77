"""Compare files with their version at a git revision, reading the old text with git itself.

``ksafe diff --git-base REF PATH...``: no checkout, works from any directory inside the
repository, follows renames (git's rename detection between REF and the working tree), and says
which files are new (lint only) or deleted (a finding). PATH may be a file or a directory (every
file under it, at REF and now).

This is the shell layer: it runs ``git``. Everything it returns is plain data.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

Status = Literal["added", "modified", "deleted", "renamed"]


class GitError(Exception):
    """git could not answer (not a repository, unknown revision, path outside the repo)."""


@dataclass(frozen=True)
class FileChange:
    """One file between ``revision`` and the working tree.

    ``path`` is the file now (as the user would name it: relative to the current directory);
    ``old_path`` is its repository-relative path at ``revision`` (None when added). ``old_text``
    is the content at ``revision``; the new content is read from ``path`` by the caller.
    """

    status: Status
    path: str
    old_path: str | None
    old_text: str | None
    revision: str

    @property
    def label_before(self) -> str:
        """How the old version is named in reports: ``path@REV``."""
        return f"{self.old_path}@{self.revision}"


def git(args: Sequence[str], cwd: Path) -> str:
    """Run git and return its standard output; failures become :class:`GitError`."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            check=False,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"},
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


def _renames(commit: str, root: Path) -> dict[str, str]:
    """new path -> old path, for renames between ``commit`` and the index (a ``git mv`` is found
    there whatever the new content) or the working tree (git's similarity detection)."""
    renames = _renamed(["diff", "-z", "--name-status", "-M", "--cached", commit, "--"], root)
    renames.update(_renamed(["diff", "-z", "--name-status", "-M", commit, "--"], root))
    return renames


def _renamed(args: list[str], root: Path) -> dict[str, str]:
    fields = _split_z(git(args, root))
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


def changes(revision: str, paths: Sequence[str], cwd: Path | None = None) -> list[FileChange]:
    """What happened to each of ``paths`` (files or directories) since ``revision``.

    Files unchanged since ``revision`` are reported as ``modified`` (their diff is empty).
    """
    here = Path(cwd or Path.cwd())
    root = repo_root(here)
    commit = resolve(revision, root)
    targets: set[str] = set()
    for path in paths:
        rel = _repo_relative(str(here / path), root)
        if (root / rel).is_dir() or _files_at(commit, root, [f"{rel}/"]):
            found = _files_at(commit, root, [rel]) | _files_now(root, rel)
            # a directory stands for the describe() texts below it: its *.txt files (a README,
            # .gitkeep or a properties file beside them is not a topology)
            targets |= {f for f in found if _is_topology_name(PurePosixPath(f).name)}
        else:
            targets.add(rel)
    renames = _renames(commit, root)
    renamed_from = {old: new for new, old in renames.items()}
    at_base = _files_at(commit, root, sorted(targets | set(renames.values())))

    def shown(rel: str) -> str:
        return os.path.relpath(root / rel, here)

    def old_text(rel: str) -> str:
        return git(["show", f"{commit}:{rel}"], root)

    out: list[FileChange] = []
    for rel in sorted(targets):
        _check_inside(root, rel, shown(rel))
        exists = (root / rel).is_file()
        if exists and rel in renames:
            old = renames[rel]
            out.append(FileChange("renamed", shown(rel), old, old_text(old), revision))
        elif rel in at_base and exists:
            out.append(FileChange("modified", shown(rel), rel, old_text(rel), revision))
        elif rel in at_base and rel in renamed_from:
            new = renamed_from[rel]
            if new not in targets:  # followed here: the new name was not asked for by itself
                out.append(FileChange("renamed", shown(new), rel, old_text(rel), revision))
        elif rel in at_base:
            out.append(FileChange("deleted", shown(rel), rel, old_text(rel), revision))
        elif exists:
            out.append(FileChange("added", shown(rel), None, None, revision))
        else:
            raise GitError(f"{shown(rel)}: no such file now nor at {revision}")
    return out


def text_at(revision: str, path: str, cwd: Path | None = None) -> str | None:
    """The content of ``path`` (relative to ``cwd``) at ``revision``; None when it did not exist."""
    here = Path(cwd or Path.cwd())
    root = repo_root(here)
    commit = resolve(revision, root)
    rel = _repo_relative(str(here / path), root)
    if rel not in _files_at(commit, root, [rel]):
        return None
    return git(["show", f"{commit}:{rel}"], root)
