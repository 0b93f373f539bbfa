"""Findings that hold up — adjusted p-values, fresh-deal confirmation, detectable
effects and team games, each checked against a hand computation."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy import stats as sps

from analysis.stats import balance


def test_bh_adjustment_matches_scipy_and_hand_computation():
    raw = [0.01, 0.04, 0.03, 0.005]
    # by hand: sorted .005 .01 .03 .04 -> p*m/rank = .02 .02 .04 .04 (already monotone)
    assert balance.adjust_pvalues(raw, "bh") == pytest.approx([0.02, 0.04, 0.04, 0.02])
    rng = np.random.default_rng(3)
    many = rng.uniform(0, 0.2, size=25)
    assert balance.adjust_pvalues(many) == pytest.approx(sps.false_discovery_control(many))


def test_holm_adjustment_by_hand():
    raw = [0.01, 0.04, 0.03, 0.005]
    # by hand: .005*4 = .02, .01*3 = .03, .03*2 = .06, .04*1 = .04 -> monotone .06
    assert balance.adjust_pvalues(raw, "holm") == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert balance.adjust_pvalues([0.5, 0.9], "holm") == pytest.approx([1.0, 1.0])


def test_adjustment_leaves_missing_pvalues_out_of_the_family():
    adjusted = balance.adjust_pvalues([0.01, np.nan, 0.04], "bh")
    assert np.isnan(adjusted[1])
    assert adjusted[[0, 2]] == pytest.approx([0.02, 0.04])  # m = 2, not 3
    with pytest.raises(ValueError, match="method"):
        balance.adjust_pvalues([0.1], "bonferroni")


def test_minimum_detectable_effect_by_hand():
    # (1.959964 + 0.841621) * sqrt(0.25 * 0.75 / 400) = 2.801585 * 0.0216506 = 0.060656
    assert balance.minimum_detectable_effect(400, 0.25) == pytest.approx(0.060656, abs=1e-6)
    # quadrupling the games halves it
    assert balance.minimum_detectable_effect(1600, 0.25) == pytest.approx(0.060656 / 2, abs=1e-6)
    assert balance.mde_from_se(0.01) == pytest.approx(0.02801585, abs=1e-7)


# --------------------------------------------------------------------------------------------
# Confirmation on fresh deals
# --------------------------------------------------------------------------------------------

from analysis.cli import main  # noqa: E402
from analysis.present import report  # noqa: E402
from analysis.results import runs, store  # noqa: E402
from analysis.run import confirm as confirmation  # noqa: E402
from analysis.run import tournament  # noqa: E402
from analysis.stats import findings  # noqa: E402
from engines import get_game  # noqa: E402


def test_confirmation_seeds_are_reproducible_and_disjoint():
    branch = tournament.CONFIRM_BRANCH
    fresh = tournament.game_seeds(1, 20_000, branch)
    original = tournament.game_seeds(1, 20_000)
    assert np.array_equal(fresh, tournament.game_seeds(1, 20_000, branch))  # reproducible
    assert np.intersect1d(fresh, original).size == 0                         # disjoint
    assert np.array_equal(tournament.game_seeds(1, 500, branch), fresh[:500])  # prefix-stable
    assert not np.array_equal(fresh[:10], tournament.game_seeds(2, 10, branch))  # run seed


def _small_run(path, bots=("heuristic",), players=3, games=40, seed=5):
    spec = tournament.RunSpec(game="tabula-rasa", players=players, games=games,
                              bots=tournament.fill_lineup(list(bots), players), seed=seed)
    return tournament.run(spec.validated(), path, jobs=1)


def _as_significant(tests):
    tests = tests.copy()
    tests["significant"] = True  # pretend the adjusted test fired, to exercise the replay
    return tests


def test_confirmation_run_is_stored_beside_disjoint_and_resumable(tmp_path):
    original = _small_run(tmp_path / "tr3")
    frame, manifests = runs.load([tmp_path / "tr3"])
    tests = confirmation.confirm(_as_significant(findings.family(frame)), manifests, games=60)
    fresh_dir = tmp_path / "tr3-confirm"
    stored = store.read_manifest(fresh_dir)
    assert stored["seed_branch"] == tournament.CONFIRM_BRANCH and stored["games"] == 60
    fresh = store.load_run(fresh_dir)
    assert set(fresh["seed"]).isdisjoint(set(original.frame["seed"]))
    assert tests.loc[0, "confirm_games"] == 60
    # the report never mixes the fresh deals into the data, even when handed their parent
    frame_again, manifests_again = runs.load([tmp_path])
    assert len(manifests_again) == 1 and frame_again["seed"].nunique() == 40
    # interrupted: a lost part is replayed, the rest reused, the verdict unchanged
    parts = sorted(fresh_dir.glob("part-*.parquet"))
    parts[-1].unlink()
    again = confirmation.confirm(_as_significant(findings.family(frame)), manifests, games=60)
    assert len(list(fresh_dir.glob("part-*.parquet"))) == len(parts)
    assert again.loc[0, "confirm_p"] == pytest.approx(tests.loc[0, "confirm_p"])


def test_chance_finding_is_not_confirmed_and_real_edge_is(tmp_path):
    # balanced seats (all heuristic): a seat "finding" forced significant fails on fresh deals
    _small_run(tmp_path / "even", games=60)
    frame, manifests = runs.load([tmp_path / "even"])
    tests = confirmation.confirm(_as_significant(findings.family(frame)), manifests)
    seat = tests[tests["kind"] == "seat"].iloc[0]
    assert seat["confirmed"] is False and seat["confirm_p"] >= 0.05
    assert "not confirmed on 60 fresh games" in findings.verdict(seat)
    assert not findings.holds(seat)
    # heuristic against random: the bot edge is real, significant after adjustment, confirmed
    _small_run(tmp_path / "mixed", bots=("heuristic", "random"), games=60)
    frame, manifests = runs.load([tmp_path / "mixed"])
    tests = confirmation.confirm(findings.family(frame), manifests)
    bot = tests[(tests["kind"] == "bot") & (tests["subject"] == "heuristic")].iloc[0]
    assert bot["significant"] and bot["confirmed"] is True
    assert "of its seat-games against a fair 33.3%: a significant edge (adjusted p " in \
        findings.verdict(bot)
    assert "confirmed on 60 fresh games: " in findings.verdict(bot)  # the fresh estimate


def test_report_command_confirms_by_default_and_not_with_no_confirm(tmp_path, capsys):
    _small_run(tmp_path / "mixed", bots=("heuristic", "random"), games=60)
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "mixed"), "--out", str(out), "--no-confirm",
                 "--bootstrap", "0"]) == 0
    assert not (tmp_path / "mixed-confirm").exists()
    assert "unconfirmed (not yet replayed on fresh deals)" in out.read_text()
    assert main(["report", str(tmp_path / "mixed"), "--out", str(out), "--jobs", "1",
                 "--confirm-games", "80", "--bootstrap", "0"]) == 0
    text = out.read_text()
    assert "confirmed on 80 fresh games" in text and "Holm over the" in text
    assert "p_adjusted" in text and "mde" in text
    assert store.read_manifest(tmp_path / "mixed-confirm")["games"] == 80
    capsys.readouterr()
    assert main(["report", str(tmp_path / "mixed"), "--confirm-games", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: --confirm-games must be positive")


def test_cli_summary_flags_significant_effect_unconfirmed_with_command(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["tabula-rasa", "--games", "60", "--players", "3", "--seed", "5", "--jobs",
                 "1", "--out", str(out), "--bots", "heuristic,random"]) == 0
    stdout = capsys.readouterr().out
    assert "adjusted with Holm over the 5 tests in this summary" in stdout  # 3 seats, 2 bots
    assert "a significant edge (adjusted p " in stdout
    assert "unconfirmed" in stdout
    assert f"simulate report {out} --out {out}/report.html" in stdout
    assert "no seat edge larger than" not in stdout  # a planning figure is not a bound
    assert "  balance: " in stdout and "p adjusted" in stdout


# --------------------------------------------------------------------------------------------
# Team games
# --------------------------------------------------------------------------------------------


def test_game_declares_tabula_rasa_four_player_partnerships():
    game = get_game("tabula-rasa")
    assert game.teams(4) == ((0, 2), (1, 3))  # rules A5: partners sit opposite
    assert game.teams(3) == ((0,), (1,), (2,))
    assert get_game("ninjato").teams(4) == ((0,), (1,), (2,), (3,))


def _team_frame():
    from tests.test_stats import make_frame

    # four 4p games: team of seats 1+3 wins three (partners share), one is a 2-team tie
    games = [{"scores": [9, 5, 9, 5]}, {"scores": [7, 4, 7, 4]}, {"scores": [8, 8, 8, 8]},
             {"scores": [6, 3, 6, 3]}]
    return make_frame(games, 4, game="tabula-rasa")


def test_partners_sharing_a_win_is_no_tie_and_margin_is_between_teams():
    frame = _team_frame()
    outcomes = balance.game_outcomes(frame)
    assert outcomes["tie"].tolist() == [False, False, True, False]
    assert outcomes["margin"].tolist() == [4.0, 3.0, 0.0, 3.0]
    assert balance.margins(frame).loc[0, "tie_rate"] == pytest.approx(0.25)


def test_team_win_shares_and_team_level_seat_test():
    frame = _team_frame()
    teams = balance.team_win_share(frame)
    assert teams["seats"].tolist() == ["team of seats 1+3", "team of seats 2+4"]
    assert teams["win_share"].tolist() == pytest.approx([3.5 / 4, 0.5 / 4])
    assert teams["fair"].tolist() == [0.5, 0.5]
    adv = balance.seat_advantage(frame).iloc[0]
    assert adv["unit"] == "team" and adv["dof"] == 1 and adv["fair"] == 0.5
    # by hand: observed 3.5 / 0.5 against 2 / 2 -> chi2 = (1.5^2 + 1.5^2) / 2 = 2.25
    assert adv["chi2"] == pytest.approx(2.25)
    seats = balance.seat_win_share(frame)
    assert seats["partnership"].tolist() == ["team of seats 1+3", "team of seats 2+4"] * 2


def test_report_shows_team_win_shares_not_shared_wins(tmp_path):
    _small_run(tmp_path / "tr4", players=4, games=24)
    frame, manifests = runs.load([tmp_path / "tr4"])
    lines = report.headlines(frame)
    text = " ".join(lines)
    assert "cannot tell: the team edges lie between" in text
    assert re.search(r"widest: team of seats (1\+3|2\+4) \[", text)
    assert "100.0% of games end in a shared win" not in text
    html_text = report.render(frame, manifests, bootstrap=0)
    assert "win share by team (partners win together)" in html_text
    assert "team of seats 2+4" in html_text


def test_seat_tests_holm_over_the_seats_by_hand():
    from tests.test_stats import make_frame

    frame = make_frame([{"scores": [2, 1]}] * 3 + [{"scores": [1, 2]}], 2)
    out = balance.seat_tests(frame)
    # shares .75 / .25 against .5: z = .25 / sqrt(.25 / 4) = 1, p = 0.3173 each;
    # Holm: the smaller (tied) p times 2 = 0.6346, the next times 1, made monotone
    assert out["p_value"].tolist() == pytest.approx([0.317311, 0.317311], abs=1e-6)
    assert out["p_holm"].tolist() == pytest.approx([0.634621, 0.634621], abs=1e-6)
    assert out["mde"].tolist() == pytest.approx([2.801585 * 0.25] * 2, abs=1e-6)


def test_simulate_run_confirms_by_default_and_no_confirm_skips(tmp_path):
    path = tmp_path / "mini.toml"
    path.write_text('name = "mini"\nseed = 5\n[[study]]\ngame = "tabula-rasa"\nplayers = 3\n'
                    'bots = ["heuristic", "random"]\nladder = false\n')
    base = ["run", str(path), "--games", "60", "--jobs", "1", "--quiet"]
    assert main(base + ["--out", str(tmp_path / "a"), "--no-confirm"]) == 0
    assert not list((tmp_path / "a").rglob("*-confirm"))
    assert main(base + ["--out", str(tmp_path / "b")]) == 0
    fresh = list((tmp_path / "b").rglob("*-confirm"))
    assert len(fresh) == 1 and store.read_manifest(fresh[0])["games"] == 60
    assert "confirmed on 60 fresh games" in (tmp_path / "b" / "mini" / "report.html").read_text()


def test_confirmation_of_another_size_is_a_clear_error(tmp_path, capsys):
    _small_run(tmp_path / "mixed", bots=("heuristic", "random"), games=60)
    out = str(tmp_path / "r.html")
    assert main(["report", str(tmp_path / "mixed"), "--out", out, "--jobs", "1"]) == 0
    capsys.readouterr()
    assert main(["report", str(tmp_path / "mixed"), "--out", out, "--jobs", "1",
                 "--confirm-games", "90"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "holds 60 fresh games, not 90; remove it" in err


def test_cli_summary_labels_partnerships_and_team_shares(tmp_path, capsys):
    assert main(["tabula-rasa", "--games", "20", "--players", "4", "--seed", "2", "--jobs",
                 "1", "--out", str(tmp_path / "tr4")]) == 0
    stdout = capsys.readouterr().out
    assert "partnership" in stdout and stdout.count("team of seats 1+3") == 3  # 2 seats + team
    assert "Win share by team (partners win together)" in stdout
    assert "  balance: " in stdout and "no team edge larger than" not in stdout
