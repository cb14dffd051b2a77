"""The archive of Spark's classes: named after what the JVM checks it against, mapped when it
exists, written only by a scan that asks for it, and put in place whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from linter.fleet import classdata

pytest.importorskip("pyspark")


def test_the_name_follows_the_java_runtime(tmp_path: Path) -> None:
    one = classdata.archive_path(str(tmp_path), 'openjdk version "17.0.15"')
    other = classdata.archive_path(str(tmp_path), 'openjdk version "17.0.16"')
    assert one is not None
    assert other is not None
    assert one != other
    assert one == classdata.archive_path(str(tmp_path), 'openjdk version "17.0.15"')


def test_mapped_when_there_recorded_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(classdata, "ARCHIVE_DIR", str(tmp_path))
    path = str(tmp_path / "a.jsa")
    assert classdata.java_options(path, record=False) == ("", None)
    assert classdata.java_options(None, record=True) == ("", None)
    options, written = classdata.java_options(path, record=True)
    assert written is not None
    assert written.startswith(path)
    assert written != path
    assert options.startswith(f"-XX:ArchiveClassesAtExit={written} ")
    assert "-Xlog:cds=off" in options  # Java's warnings would land on the command's stdout
    Path(path).write_bytes(b"x")
    assert classdata.java_options(path, record=True)[0].startswith(
        f"-XX:SharedArchiveFile={path} "
    )


def test_switched_off_neither_mapped_nor_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(classdata, "ARCHIVE_DIR", str(tmp_path))
    path = tmp_path / "a.jsa"
    monkeypatch.setenv(classdata.SWITCH, "off")
    assert classdata.java_options(str(path), record=True) == ("", None)
    path.write_bytes(b"x")
    assert classdata.java_options(str(path), record=True) == ("", None)
    monkeypatch.setenv(classdata.SWITCH, "")
    assert classdata.java_options(str(path), record=True)[0].startswith("-XX:SharedArchiveFile=")


class _Gateway:
    def __init__(self, code: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE)
        self.closed = False

    def shutdown(self) -> None:
        self.closed = True


def test_kept_once_the_jvm_has_exited(tmp_path: Path) -> None:
    written, path = tmp_path / "a.jsa.1.tmp", tmp_path / "a.jsa"
    # the "JVM" writes its archive when its stdin closes, as Spark's gateway exits
    code = f"import sys; sys.stdin.read(); open({str(written)!r}, 'w').write('archive')"
    gateway: Any = _Gateway(code)
    classdata.keep(str(written), str(path), gateway)
    assert gateway.closed
    assert path.read_text() == "archive"
    assert not written.exists()


def test_only_the_archives_used_last_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(classdata, "ARCHIVE_DIR", str(tmp_path))
    old = [tmp_path / f"old-{i}.jsa" for i in range(classdata.KEPT)]
    for age, archive in enumerate(old):
        archive.write_bytes(b"x")
        os.utime(archive, (1000.0 + age, 1000.0 + age))  # old-0 used least lately
    classdata.java_options(str(old[0]), record=False)  # mapped now: used last
    written, path = tmp_path / "new.jsa.1.tmp", tmp_path / "new.jsa"
    code = f"import sys; sys.stdin.read(); open({str(written)!r}, 'w').write('archive')"
    classdata.keep(str(written), str(path), _Gateway(code))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.jsa", "old-0.jsa", "old-2.jsa"]


def test_a_failed_dump_leaves_nothing(tmp_path: Path) -> None:
    written, path = tmp_path / "a.jsa.1.tmp", tmp_path / "a.jsa"
    code = f"import sys; sys.stdin.read(); open({str(written)!r}, 'w').write('x'); sys.exit(1)"
    classdata.keep(str(written), str(path), _Gateway(code))
    assert not path.exists()
    assert not written.exists()


def test_the_archive_of_a_failed_scan_is_dropped(tmp_path: Path) -> None:
    written, path = tmp_path / "a.jsa.1.tmp", tmp_path / "a.jsa"
    code = f"import sys; sys.stdin.read(); open({str(written)!r}, 'w').write('archive')"
    classdata.keep(str(written), str(path), _Gateway(code), whole=False)
    assert not path.exists()
    assert not written.exists()


def test_an_old_unnamed_archive_is_removed_by_the_next_recording(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    monkeypatch.setattr(classdata, "ARCHIVE_DIR", str(tmp_path))
    old, recent = tmp_path / "a.jsa.7.tmp", tmp_path / "a.jsa.8.tmp"
    old.write_bytes(b"x")
    recent.write_bytes(b"x")
    os.utime(old, (1, 1))
    classdata.java_options(str(tmp_path / "a.jsa"), record=True)
    assert not old.exists()
    assert recent.exists()  # another scan may be writing it now
