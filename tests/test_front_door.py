"""The front door: the set-up as documented (three.js found from any folder, --version), and
evidence written under results/ only when asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlesat.cli import main
from puzzlesat.pictures import viewer

TINY = '''kind = "packing"
board = """
XXX
X.X
XXX
"""
[pieces]
L = """
XXX
X..
"""
J = """
XXX
..X
"""
'''


def test_the_version_is_the_installed_one(capsys):
    from importlib import metadata

    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out.strip() == f"puzzlesat {metadata.version('puzzlesat')}"


def test_three_js_installed_by_the_set_up_is_found_from_any_folder(tmp_path, monkeypatch):
    """The documented `npm install --prefix ~/.local/share/puzzlesat ...` puts three.js where
    a plain `pip install .` finds it, whatever the current folder."""
    three = tmp_path / "data" / "puzzlesat" / "node_modules" / "three"
    three.mkdir(parents=True)
    (three / "package.json").write_text('{"version": "0.187.0"}')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.delenv("PUZZLESAT_THREE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(elsewhere)
    assert viewer.three_folder() == three
    assert "--prefix ~/.local/share/puzzlesat" in viewer.INSTALL


def test_verify_records_only_when_asked(tmp_path, monkeypatch, capsys):
    """Regression: every `verify` wrote results/PUZZLE.json and rewrote the index, so running
    the README's commands changed 9 committed files."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tiny.toml").write_text(TINY)
    args = ["verify", "tiny.toml", "--jobs", "1"]
    assert main(args) == 0
    assert not (tmp_path / "results").exists()
    assert main([*args, "--record"]) == 0
    assert json.loads((tmp_path / "results" / "tiny.json").read_text())["count"] == 8
    assert "[tiny.json](tiny.json)" in (tmp_path / "results" / "index.md").read_text()
    assert main([*args, "--results", "elsewhere"]) == 0  # a folder named: recorded there
    assert (tmp_path / "elsewhere" / "tiny.json").exists()


def test_results_refuses_a_puzzle_without_committed_pictures(tmp_path, capsys):
    assert main(["results", "--only", "tiny", "--results", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no committed pictures of tiny" in err and len(err.strip().splitlines()) == 1
    assert list(Path(tmp_path).iterdir()) == []


def test_the_committed_pictures_are_what_puzzlesat_results_makes(tmp_path):
    """`puzzlesat results` regenerates every committed picture and page; drawings are
    deterministic, so a committed gallery and page must be what it makes now (after changing a
    drawing, run `puzzlesat results` and commit what it writes)."""
    from puzzlesat.pictures import gallery, generate, play

    results = Path(__file__).resolve().parents[1] / "results"
    [spec] = [s for s in generate.GALLERIES if s.puzzle == "iq-block-8"]
    shown = gallery.build_gallery(generate.load_at(spec.puzzle, spec.level), spec.modulo,
                                  spec.cap)
    gallery.write_gallery(shown, tmp_path / spec.folder)
    made = sorted((tmp_path / spec.folder).iterdir())
    assert [p.name for p in made] == sorted(
        p.name for p in (results / "gallery" / spec.folder).iterdir())
    for path in made:
        committed = results / "gallery" / spec.folder / path.name
        assert path.read_bytes() == committed.read_bytes(), f"stale: {committed}"
    page = play.play_page(generate.load_at("scramble-frog", None), None)
    assert page == (results / "play" / "scramble-frog.html").read_text(encoding="utf-8")
