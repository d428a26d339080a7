"""`companion read` end to end on real photos: JSON out, the move from a grid file, clear refusals."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from tests.conftest import shared_path
from vision.labelled import labelled_photos


def _corners_arg(corners: list[list[float]]) -> str:
    return ",".join(f"{v:.1f}" for pt in corners for v in pt)


def test_read_prints_grid_and_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shared_path("boards", "cava_ro", "3_05.json")
    photo = next(p for p in labelled_photos("cava_ro") if p.stem == "3_05")
    prev = json.loads(shared_path("boards", "cava_ro", "3_04.json").read_text())
    grid_file = tmp_path / "before.txt"
    grid_file.write_text("\n".join(prev["grid"]) + "\n")
    status = main(["read", str(photo.image), "--corners", _corners_arg(photo.corners), "--previous",
                   str(grid_file), "--tiles", "ro", "--json", "--no-tesseract"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert len(out["grid"]) == 15 and len(out["confidence"]) == 15 and len(out["corners"]) == 4
    want = sorted(f"{chr(65 + t['col'])}{t['row'] + 1}:{t['letter']}" for t in photo.meta["new_tiles"])
    assert sorted(f"{t['square']}:{t['letter']}" for t in out["new_tiles"]) == want
    assert out["score"] == photo.meta["move_score"]
    assert out["words"]


def test_not_an_image_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("this is text")
    assert main(["read", str(bad), "--corners", "0,0,10,0,10,10,0,10"]) == 2
    err = capsys.readouterr().err
    assert "not an image" in err and err.count("\n") == 1


def test_no_board_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((300, 300, 3), 128, np.uint8))
    assert main(["read", str(grey)]) == 2
    assert "corners" in capsys.readouterr().err


def test_bad_corners_and_missing_file_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    grey = tmp_path / "grey.png"
    cv2.imwrite(str(grey), np.full((300, 300, 3), 128, np.uint8))
    assert main(["read", str(grey), "--corners", "1,2,3"]) == 2
    assert "eight numbers" in capsys.readouterr().err
    assert main(["read", str(tmp_path / "missing.jpg")]) == 2
    assert "no file" in capsys.readouterr().err


def test_previous_photo_gives_the_move(capsys: pytest.CaptureFixture[str]) -> None:
    shared_path("boards", "cava_ro", "1_07.json")
    photos = {p.stem: p for p in labelled_photos("cava_ro") if p.stem in ("1_06", "1_07")}
    now, before = photos["1_07"], photos["1_06"]
    status = main(["read", str(now.image), "--corners", _corners_arg(now.corners), "--previous", str(before.image),
                   "--previous-corners", _corners_arg(before.corners), "--tiles", "ro", "--no-tesseract"])
    out = json.loads(capsys.readouterr().out)
    assert status == 0
    assert out["score"] == now.meta["move_score"]
    assert len(out["new_tiles"]) == len(now.meta["new_tiles"])
    assert all(0.0 <= v <= 1.0 for row in out["confidence"] for v in row)
