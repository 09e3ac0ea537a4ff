//! `tetrad tune --opponent`: candidates ranked by versus points, the closing `--sprt`
//! match, and the mistakes of a versus tune, through the real binary and `bcts`.

use crate::common::*;
use serde_json::Value;

const OPPONENT: &str = "bcts@hold=true,attack=20";

fn versus_tune(checkpoint: &str, opponent: &str, extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = [
        "tune",
        "--plugin",
        "bcts",
        "--options",
        "hold=true",
        "--params",
        "w1,w2",
        "--initial=-12.6,6.6",
        "--sd",
        "6",
        "--preset",
        "guideline",
        "--pace",
        "ticks",
        "--garbage-cap",
        "3",
        "--opponent",
        opponent,
        "--population",
        "4",
        "--elite",
        "0.25",
        "--generations",
        "2",
        "--games",
        "2",
        "--max-pieces",
        "60",
        "--jobs",
        "2",
        "--checkpoint",
        checkpoint,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn number(value: &Value) -> f64 {
    value.as_f64().unwrap_or_else(|| panic!("not a number: {value}"))
}

#[test]
fn versus_tune_ranks_candidates_by_points_and_closes_with_an_sprt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("versus.json");
    let checkpoint = path.to_str().unwrap();
    let sprt = ["--sprt", "0,50", "--sprt-games", "12"];
    let output = tetrad()
        .args(versus_tune(checkpoint, OPPONENT, &sprt))
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(
        stdout(&output).trim().starts_with("hold=true,w1="),
        "{}",
        stdout(&output)
    );
    assert_eq!(
        err.lines().filter(|l| l.contains("% of the points (")).count(),
        2,
        "{err}"
    );

    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["config"]["opponent"]["bot"]["label"], OPPONENT);
    let setup = &saved["config"]["setup"];
    assert_eq!(setup["garbage"]["cap"], 3, "the versus options reach the games");
    assert!(
        setup["attack"].is_object() && setup["pace"].is_null(),
        "versus at the ticks pace: {setup}"
    );
    let history = saved["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    for (g, generation) in history.iter().enumerate() {
        let ranking = generation["ranking"].as_array().unwrap();
        assert_eq!(ranking.len(), 4, "generation {g}: every candidate played");
        let key = |s: &Value| (number(&s["points"]), number(&s["sent_per_piece"]), number(&s["lines"]));
        for score in ranking {
            // Two seeds, each from both seats: four games, so points come in eighths.
            assert_eq!(score["games"], 4);
            let eighths = number(&score["points"]) * 8.0;
            assert_eq!(eighths, eighths.round(), "{score}");
        }
        for pair in ranking.windows(2) {
            let (a, b) = (key(&pair[0]), key(&pair[1]));
            assert!(
                a.0 > b.0 || (a.0 == b.0 && (a.1, a.2) >= (b.1, b.2)),
                "generation {g}: ranked out of order: {} before {}",
                pair[0],
                pair[1]
            );
        }
        assert_eq!(generation["best_points"], ranking[0]["points"]);
        // One elite candidate: the new mean is the best candidate.
        assert_eq!(generation["mean"], generation["best"]);
    }
    // Candidate 0 of a generation is the mean it was drawn around.
    if history[1]["ranking"][0]["candidate"] == 0 {
        assert_eq!(history[1]["best"], history[0]["mean"]);
    }

    let test = &saved["sprt"];
    assert_eq!(test["against"], OPPONENT);
    let played: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| test[k].as_u64().unwrap())
        .sum();
    let verdict = test["verdict"].as_str().unwrap();
    match verdict {
        "undecided" => assert_eq!(played, 12, "an undecided test played its limit"),
        "H0" | "H1" => assert!((1..=12).contains(&played), "{test}"),
        other => panic!("verdict {other}"),
    }
    let line = err
        .lines()
        .find(|l| l.starts_with(&format!("sprt [0, 50] against {OPPONENT}: ")))
        .unwrap_or_else(|| panic!("no sprt line in: {err}"));
    let decision = match verdict {
        "undecided" => "undecided after the limit of 12 games".to_string(),
        accepted => format!("{accepted} accepted"),
    };
    assert!(line.contains(&decision), "{line}");
    assert!(
        line.contains(&format!("in {played} games")) && line.contains("Elo "),
        "{line}"
    );

    // The checkpoint names its opponent: a resume against another is refused.
    let other = tetrad()
        .args(versus_tune(checkpoint, "mean", &["--resume"]))
        .output()
        .unwrap();
    assert_one_line_error(
        &other,
        &format!("written with --opponent {OPPONENT}, not --opponent mean"),
    );
}

#[test]
fn versus_tune_mistakes_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mistake.json");
    let checkpoint = path.to_str().unwrap();
    let mut simplified = versus_tune(checkpoint, "bcts@hold=true", &[]);
    let preset = simplified.iter().position(|a| a == "guideline").unwrap();
    simplified[preset] = "simplified".to_string();
    simplified.retain(|a| !["--pace", "ticks", "--garbage-cap", "3"].contains(&a.as_str()));
    assert_one_line_error(
        &tetrad().args(&simplified).output().unwrap(),
        "--opponent `bcts@hold=true`: option `hold=true` needs rules with hold",
    );
    let solo = |extra: &[&str]| {
        let mut args: Vec<&str> = vec!["tune", "--plugin", "bcts", "--params", "w1", "--checkpoint", checkpoint];
        args.extend(extra);
        tetrad().args(&args).output().unwrap()
    };
    assert_one_line_error(
        &solo(&["--pace", "ticks"]),
        "--pace is an option of versus games: add --opponent",
    );
    assert_one_line_error(
        &solo(&["--sprt", "0,20"]),
        "--sprt plays the tuned mean in versus games: add --opponent",
    );
    assert_one_line_error(&solo(&["--opponent", "no-such-bot"]), "no-such-bot");
    assert!(!path.exists(), "a refused tune writes no checkpoint");
}

#[test]
fn a_tune_against_the_mean_tests_the_answer_against_the_starting_weights() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mean.json");
    let sprt = ["--sprt", "0,50", "--sprt-games", "4"];
    let output = tetrad()
        .args(versus_tune(path.to_str().unwrap(), "mean", &sprt))
        .output()
        .unwrap();
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(saved["config"]["opponent"], "mean");
    assert_eq!(saved["history"][1]["ranking"].as_array().unwrap().len(), 4);
    assert_eq!(saved["sprt"]["against"], "the starting weights");
    assert!(err.contains("sprt [0, 50] against the starting weights: "), "{err}");
}
