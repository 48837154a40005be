"""The draw, gallery and play commands, and the bench charts."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from puzzlesat.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_play_writes_a_page(tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["play", "diamond-blocks", "--level", "2", "-o", str(out)]) == 0
    page = out.read_text()
    assert "default-src 'none'" in page
    assert 'option value="2" selected' in page


def test_gallery_command_states_the_count(tmp_path, capsys):
    assert main(["gallery", "iq-block-8", "--modulo", "symmetry", "-o", str(tmp_path)]) == 0
    said = capsys.readouterr().out
    assert "48 solutions" in said and "6 classes" in said
    assert len(list(tmp_path.glob("class-*.svg"))) == 6


def test_draw_one_all_and_pieces(tmp_path):
    one = tmp_path / "one.svg"
    assert main(["draw", "pentomino-3x20", "--solution", "2", "-o", str(one)]) == 0
    cells = [e for e in ET.parse(one).getroot().iter() if e.get("class") == "cell"]
    assert len(cells) == 60
    assert main(["draw", "scramble-frog", "--all", "-o", str(tmp_path / "all")]) == 0
    assert len(list((tmp_path / "all").glob("*.svg"))) == 8
    assert main(["draw", "diamond-blocks", "--pieces", "-o", str(tmp_path / "p.svg")]) == 0
    start = ["draw", "mind-lock", "--from", "0x76bd98", "-o", str(tmp_path / "m.svg")]
    assert main(start) == 0
    positions = [e for e in ET.parse(tmp_path / "m.svg").getroot().iter()
                 if e.get("class") == "position"]
    assert len(positions) == 13  # 12 moves


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["draw", "iq-block-8", "--level", "2", "-o", "x.svg"], "--level: does not apply"),
        (["draw", "iq-block-8", "--solution", "49", "-o", "x.svg"], "only 48"),
        (["draw", "iq-block-8", "--from", ".PPP/PYYY/GGGG", "-o", "x.svg"], "no solution from a"),
        (["draw", "mind-lock", "--from", "PPPP/PYYY/GGG.", "-o", "x.svg"], "wrong number"),
        (["gallery", "scramble-frog", "--modulo", "turns", "-o", "d"], "none or symmetry"),
        (["gallery", "mind-lock", "--modulo", "symmetry", "-o", "d"], "modulo none, not"),
        (["play", "no-such-puzzle", "-o", "x.html"], "no puzzle named"),
        (["play", "iq-block-8", "-o", "/no/such/folder/x.html"], "does not exist"),
    ],
)
def test_bad_input_is_one_line(tmp_path, capsys, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error and error.count("\n") == 1


def test_bench_charts(tmp_path):
    pytest.importorskip("matplotlib", reason="charts need matplotlib (the extra 'plots')")
    from puzzlesat.pictures import charts

    csv = tmp_path / "bench.csv"
    csv.write_text(
        "date,puzzle,task,backend,runs,median_seconds,min_seconds,max_seconds,complete,result\n"
        "d,iq-block-8,count,cpsat,3,2.0,1.9,2.1,True,48\n"
        "d,iq-block-8,count,reference,3,0.5,0.4,0.6,True,48\n"
        "d,iq-block-10,count,cpsat,3,90.0,90.0,90.0,False,lower bound\n"
    )
    with_executor = tmp_path / "with-executor.csv"
    with_executor.write_text(
        "date,puzzle,task,backend,executor,runs,median_seconds,complete\n"
        "d,iq-block-10,count,cpsat,local,3,6.0,True\n"
        "d,iq-block-10,count,cpsat,dask-local:2,3,9.0,True\n"
    )
    assert sorted(t.backend for t in charts.bench_timings(with_executor)) == [
        "cpsat", "cpsat on dask-local:2"
    ]
    timings = charts.bench_timings(csv)
    assert {(t.instance, t.backend, t.finished) for t in timings} == {
        ("iq-block-8 (count)", "cpsat", True), ("iq-block-8 (count)", "reference", True),
        ("iq-block-10 (count)", "cpsat", False),
    }
    written = charts.bench_chart(csv, tmp_path / "chart")
    assert [p.suffix for p in written] == [".png", ".svg"]
    assert written[0].read_bytes().startswith(b"\x89PNG")
    ET.parse(written[1])
    edge = ROOT / "results" / "edge-bench.csv"
    if edge.exists():
        assert charts.edge_bench_chart(edge, tmp_path / "edge")[0].stat().st_size > 0


def test_draw_png(tmp_path):
    pytest.importorskip("cairosvg", reason="PNG drawings need cairosvg (the extra 'plots')")
    out = tmp_path / "s.png"
    assert main(["draw", "iq-block-8", "--solution", "48", "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
