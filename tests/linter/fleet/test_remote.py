"""A directory tree on another filesystem, read through Hadoop: the same app directories and the
same bounds as the local reader. A local ``file://`` tree goes through the same Hadoop calls
(listing, ``FileStatus``, ``binaryFiles``) as ``hdfs://`` or ``s3a://`` would."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.spark

TEXT = (Path(__file__).resolve().parents[3] / "fixtures" / "fleet" / "small" / "billing"
        / "v1.txt").read_text(encoding="utf-8")  # fmt: skip


def _read(spark: Any, root: Path) -> dict[str, list[Any]]:
    from linter.fleet.remote import read_tree

    return dict(read_tree(spark, root.as_uri(), 2).collect())


def test_good_apps_read_as_the_local_reader_reads_them(spark: Any, tmp_path: Path) -> None:
    from linter.fleet.tree import app_dirs, read_app

    for app in ("orders", "team/billing"):
        (tmp_path / app).mkdir(parents=True)
        (tmp_path / app / "v1.txt").write_text(TEXT, encoding="utf-8")
        (tmp_path / app / "v2.txt").write_text(TEXT + "\n", encoding="utf-8")
        (tmp_path / app / "v1.properties").write_text("application.id=x\n", encoding="utf-8")
        (tmp_path / app / "DEPLOYED").write_text("v1\n", encoding="utf-8")
    remote = _read(spark, tmp_path)
    local = dict(read_app(item) for item in app_dirs(str(tmp_path)))
    assert sorted(remote) == sorted(local) == ["billing", "orders"]
    for app_id, versions in local.items():
        strip = [(v.version, v.description, v.properties, v.deployed) for v in versions]
        assert [(v.version, v.description, v.properties, v.deployed)
                for v in remote[app_id]] == strip  # fmt: skip
        assert all(v.problem is None for v in remote[app_id])


def test_what_cannot_be_read_is_named_never_read(
    spark: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from linter.fleet import remote

    monkeypatch.setattr(remote, "MAX_FILE_BYTES", len(TEXT) + 10)
    for app in ("big", "empty", "hidden", "piped", "latin1", "nested"):
        (tmp_path / app).mkdir()
    (tmp_path / "big" / "v1.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "big" / "v2.txt").write_text(TEXT * 2, encoding="utf-8")
    (tmp_path / "hidden" / "_SUCCESS").write_text("", encoding="utf-8")
    (tmp_path / "piped" / "v1.txt").write_text(TEXT, encoding="utf-8")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "piped" / "v2.txt")  # read, it would block the scan forever
    (tmp_path / "latin1" / "v1.txt").write_bytes(b"Topologies:\n caf\xe9\n")
    (tmp_path / "nested" / "v1.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "nested" / "old").mkdir()
    (tmp_path / "nested" / "old" / "v0.txt").write_text(TEXT, encoding="utf-8")
    apps = _read(spark, tmp_path)
    problems = {app: "; ".join(v.problem for v in versions if v.problem)
                for app, versions in apps.items()}  # fmt: skip
    big = (tmp_path / "big" / "v2.txt").as_uri().replace("file:///", "file:/")
    assert f"{big}: not read: {2 * len(TEXT)} bytes, over the limit" in problems["big"]
    assert [v.version for v in apps["big"]] == ["v1"]  # the file within the limit is read
    assert "no <version>.txt" in problems["empty"]
    assert "only hidden files, which are not read: _SUCCESS" in problems["hidden"]
    if hasattr(os, "mkfifo"):
        assert "v2.txt: not read: a FIFO, not a regular file" in problems["piped"]
    assert "v1.txt:2:5: expected UTF-8 or UTF-16 text but found byte 0xe9" in problems["latin1"]
    # an app directory inside an app directory is an app of its own, as the local reader has it
    assert (problems["nested"], [v.version for v in apps["old"]]) == ("", ["v0"])
