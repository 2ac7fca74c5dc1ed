"""agents.files: a file written for other processes is replaced whole, or left as it was."""

from __future__ import annotations

import pytest

from agents.files import write_whole


def test_a_file_is_replaced_whole_and_a_failed_write_leaves_the_old_one(tmp_path):
    path = tmp_path / "deep" / "pool.json"
    write_whole(path, '{"version": 1}')
    write_whole(path, '{"version": 2}')
    assert path.read_text(encoding="utf-8") == '{"version": 2}'
    with pytest.raises(UnicodeEncodeError):
        write_whole(path, '{"version": "\ud800"}')  # a lone surrogate: UTF-8 cannot write it
    assert path.read_text(encoding="utf-8") == '{"version": 2}'
    assert [p.name for p in path.parent.iterdir()] == ["pool.json"]
