"""The HTML report: content, self-containment (headless Chromium), bad input, --report."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from analysis.cli import main, reporting
from analysis.results import runs, store
from analysis.run import tournament
from tests.conftest import chromium_dom, needs_chromium


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "tr3"
    spec = tournament.RunSpec(game="tabula-rasa", players=3, games=30,
                              bots=("heuristic", "random", "random"), seed=4).validated()
    tournament.run(spec, out, jobs=1)
    return out


@pytest.fixture(scope="module")
def html_file(run_dir, tmp_path_factory) -> Path:
    return reporting.write_report([run_dir], tmp_path_factory.mktemp("rep") / "r.html",
                               bootstrap=10)


def test_report_has_charts_tables_manifest_and_headlines(html_file, run_dir):
    text = html_file.read_text()
    images = re.findall(r'<img [^>]*src="([^"]+)"', text)
    assert len(images) >= 5 and all(s.startswith("data:image/png;base64,") for s in images)
    assert text.count("<table>") >= 8
    manifest = store.read_manifest(run_dir)
    assert manifest["run_id"] in text and manifest["dataset"] in text
    assert "tabula-rasa, 3 players, official rules: " in text and "against the fair share" in text
    assert "Holm over the" in text
    assert "Plackett-Luce" in text


def test_report_makes_no_network_references(html_file):
    text = html_file.read_text()
    assert not re.search(r'(src|href)="(https?:)?//', text)
    assert "<script" not in text and "<link" not in text


def test_directory_of_runs_is_expanded(run_dir, tmp_path):
    assert runs.find_runs([run_dir.parent]) == [run_dir]


@needs_chromium
def test_report_renders_in_headless_chromium(html_file, tmp_path):
    dom = chromium_dom(html_file, tmp_path)
    assert len(re.findall(r"<img ", dom)) >= 5
    assert len(re.findall(r"<table>", dom)) >= 8
    assert "Headline findings" in dom
    sources = re.findall(r'(?:src|href)="([^"]*)"', dom)
    assert all(s.startswith("data:") or s.startswith("#") for s in sources)


#: Measures, once the report has loaded, what a reader sees: the page's width against the
#: window's, and per table whether it fits its box or the box scrolls sideways.
WIDTH_PROBE = """<script>
window.addEventListener('load', () => {
  const view = document.documentElement.clientWidth;
  const lines = [`page ${document.documentElement.scrollWidth} ${view} ${window.innerWidth}`];
  for (const table of document.querySelectorAll('table')) {
    const box = table.parentElement;
    const scrolls = ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    const fits = table.getBoundingClientRect().width <= box.clientWidth;
    const right = Math.round(box.getBoundingClientRect().right);
    const name = (table.caption || box.closest('section').querySelector('h2')).textContent;
    lines.push(`table ${right <= view && (fits || scrolls) ? 'ok' : 'cut'} ${right} ${name}`);
  }
  const out = document.createElement('pre');
  out.id = 'width-probe';
  out.textContent = lines.join('\\n');
  document.body.appendChild(out);
});
</script>"""


@needs_chromium
def test_wide_tables_fit_or_scroll_inside_their_box_at_1300_pixels(
        html_file, tmp_path):
    probe = tmp_path / "probe.html"
    probe.write_text(html_file.read_text().replace("</body>", WIDTH_PROBE + "</body>"))
    dom = chromium_dom(probe, tmp_path, width=1300)
    lines = re.search(r'<pre id="width-probe">(.*?)</pre>', dom, re.S).group(1).splitlines()
    _, page_width, view_width, window_width = lines[0].split()
    assert int(window_width) == 1300  # the screenshot width
    assert int(page_width) <= int(view_width), "the page is wider than the window"
    tables = [line.split(maxsplit=3) for line in lines[1:]]
    assert len(tables) >= 8 and any("Balance table" in t[3] for t in tables)
    assert any("each seat against the fair share" in t[3] for t in tables)
    cut = [t[3] for t in tables if t[1] != "ok"]
    assert cut == [], f"tables running off the page: {cut}"


def test_report_cli_writes_file(run_dir, tmp_path, capsys):
    out = tmp_path / "cli.html"
    assert main(["report", str(run_dir), "--out", str(out), "--bootstrap", "5"]) == 0
    assert out.is_file() and "<img" in out.read_text()


def _corrupt(tmp_path: Path, run_dir: Path) -> Path:
    bad = tmp_path / "bad"
    shutil.copytree(run_dir, bad)
    next(bad.glob("part-*.parquet")).write_bytes(b"not parquet")
    return bad


@pytest.mark.parametrize("case", ["missing", "empty", "corrupt-manifest", "corrupt-part",
                                  "out-is-dir"])
def test_report_cli_bad_input_is_one_line_exit_2(case, run_dir, tmp_path, capsys):
    out = tmp_path / "r.html"
    target = tmp_path / "nothing"
    if case == "empty":
        target.mkdir()
    elif case == "corrupt-manifest":
        target.mkdir()
        (target / "manifest.json").write_text("{oops")
    elif case == "corrupt-part":
        target = _corrupt(tmp_path, run_dir)
    elif case == "out-is-dir":
        target, out = run_dir, tmp_path
    assert main(["report", str(target), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1 and "Traceback" not in err


def test_game_command_writes_report_after_run(tmp_path, capsys):
    out = tmp_path / "after.html"
    code = main(["tabula-rasa", "--games", "8", "--players", "2", "--seed", "2", "--jobs", "1",
                 "--quiet", "--out", str(tmp_path / "run"), "--report", str(out)])
    assert code == 0
    assert out.is_file() and "data:image/png;base64," in out.read_text()


def test_rating_ladder_draws_an_interval_that_leaves_out_its_point_estimate():
    """A bootstrap interval need not contain mu (the ladder run's report once failed on it)."""
    import pandas as pd

    from analysis.present import plots

    table = pd.DataFrame({"bot": ["a", "b"], "mu": [25.0, 30.0],
                          "mu_low": [25.5, 28.0], "mu_high": [27.0, 31.0]})
    fig = plots.rating_ladder(table)
    (segments,) = fig.axes[0].collections
    starts = sorted(seg[0][0] for seg in segments.get_segments())
    assert starts == [25.5, 28.0]


def test_a_report_with_a_skill_ladder_shows_it_and_the_under_stronger_play_column(
        tmp_path, html_file):
    import html

    from analysis.run import ladder

    spec = ladder.LadderSpec(game="tabula-rasa", players=2, levels=("random", "heuristic"),
                             games=(40, 40), seed=3)
    result = ladder.run_ladder(spec, tmp_path / "ladder", jobs=1)
    out = reporting.write_report([result.strongest.run_dir], tmp_path / "r.html",
                                 bootstrap=10, ladders=[result])
    text = html.unescape(out.read_text())
    section = text.split("Under stronger play: the skill ladder</h2>")[1].split("</section>")[0]
    assert "<th>random</th><th>heuristic</th><th>with skill</th>" in section
    assert re.search(r"<td>seat 1</td><td>[+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\]</td>",
                     section)  # each level's edge with its interval
    assert "cost per level" in section and "games/s" in section
    assert "Holm over the report's 4 tests" in section  # 2 seats and 2 trends: one family
    assert "under stronger play</th>" in text  # the designer summary's column
    assert ("tabula-rasa, 2 players, official rules, skill ladder: at heuristic (the "
            "strongest level measured): the largest seat edge") in text  # a headline finding
    assert "largest scoring source at each level" in section
    assert "Measured with the bots that played these runs: heuristic. The largest source at " \
        "each level of the skill ladder" in text  # the scoring sources say their level
    plain = html.unescape(html_file.read_text())  # a report without a ladder
    assert "Under stronger play: the skill ladder" not in plain
    assert "under stronger play</th>" not in plain
    assert "Measured with the bots that played these runs: heuristic, random. Under stronger " \
        "play they may differ: a skill ladder (simulate GAME --ladder" in plain
