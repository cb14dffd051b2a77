"""A throwaway git repository for tests (no global git config needed)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "ksafe tests",
    "GIT_AUTHOR_EMAIL": "tests@ksafe.invalid",
    "GIT_COMMITTER_NAME": "ksafe tests",
    "GIT_COMMITTER_EMAIL": "tests@ksafe.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


class Repo:
    def __init__(self, root: Path, *, init: bool = True) -> None:
        self.root = root
        if init:
            root.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")
            self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str) -> str:
        done = subprocess.run(
            ["git", *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, **GIT_ENV, "HOME": str(self.root)},
        )
        return done.stdout

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def commit(self, message: str = "change") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)
        return self.git("rev-parse", "HEAD").strip()
