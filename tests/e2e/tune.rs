//! `tetrad tune`: the cross-entropy method through the real binary, and its checkpoint.

use crate::common::*;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn tune_args(checkpoint: &str, generations: &str) -> Vec<String> {
    [
        "tune",
        "--plugin",
        "bcts",
        "--options",
        "controller=dellacherie",
        "--params",
        "w1,w4,w5",
        "--initial",
        "-1,-1,-4",
        "--preset",
        "simplified",
        "--width",
        "8",
        "--height",
        "10",
        "--games",
        "3",
        "--population",
        "12",
        "--generations",
        generations,
        "--max-pieces",
        "300",
        "--jobs",
        "1",
        "--checkpoint",
        checkpoint,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn generations_in(path: &std::path::Path) -> usize {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .map_or(0, |v| v["history"].as_array().map_or(0, Vec::len))
}

#[test]
fn tune_prints_options_and_resumes_after_a_kill_to_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.json");
    let cut = dir.path().join("cut.json");
    let output = tetrad().args(tune_args(whole.to_str().unwrap(), "8")).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let answer = stdout(&output);
    assert!(answer.trim().starts_with("controller=dellacherie,w1="), "{answer}");
    assert_eq!(generations_in(&whole), 8);
    assert_eq!(
        stderr(&output).lines().filter(|l| l.starts_with("generation ")).count(),
        8
    );

    let mut child = tetrad()
        .args(tune_args(cut.to_str().unwrap(), "8"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while generations_in(&cut) < 2 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut resume = tune_args(cut.to_str().unwrap(), "8");
    resume.push("--resume".to_string());
    let resumed = tetrad().args(&resume).output().unwrap();
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(
        stdout(&resumed),
        answer,
        "the resumed run ends where the uninterrupted one did"
    );

    assert_one_line_error(
        &tetrad().args(tune_args(cut.to_str().unwrap(), "8")).output().unwrap(),
        "already exists; pass --resume",
    );
    assert_one_line_error(
        &tetrad()
            .args(
                tune_args(cut.to_str().unwrap(), "9")
                    .into_iter()
                    .chain(["--resume".to_string()])
                    .collect::<Vec<_>>(),
            )
            .output()
            .unwrap(),
        "other tune arguments",
    );
}

#[test]
fn tune_rejects_an_option_the_plugin_does_not_know() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.json");
    let output = run(&[
        "tune",
        "--plugin",
        "bcts",
        "--params",
        "depth",
        "--generations",
        "1",
        "--checkpoint",
        path.to_str().unwrap(),
    ]);
    assert_one_line_error(&output, "unknown option `depth`");
}

#[test]
fn whole_number_options_are_tuned_rounded() {
    // chasm's constants are whole numbers: a candidate of `hole=-500.3172` is refused,
    // with --whole it plays as `hole=-500`.
    let dir = tempfile::tempdir().unwrap();
    let args = |checkpoint: &str, whole: &[&str]| {
        let mut args = vec![
            "tune",
            "--plugin",
            "chasm",
            "--params",
            "hole,chasm",
            "--initial=-500,400",
            "--sd",
            "30",
            "--width",
            "6",
            "--height",
            "10",
            "--games",
            "2",
            "--population",
            "4",
            "--generations",
            "2",
            "--max-pieces",
            "100",
            "--jobs",
            "1",
            "--checkpoint",
        ];
        args.push(checkpoint);
        args.extend_from_slice(whole);
        run(&args)
    };
    let refused = args(dir.path().join("a.json").to_str().unwrap(), &[]);
    assert_one_line_error(&refused, "option `hole`: cannot read `-500.0000` as an integer");
    let tuned = args(dir.path().join("b.json").to_str().unwrap(), &["--whole", "hole,chasm"]);
    assert!(tuned.status.success(), "{}", stderr(&tuned));
    let answer = stdout(&tuned);
    let values: Vec<&str> = answer.trim().split(',').collect();
    assert_eq!(values.len(), 2, "{answer}");
    for (value, key) in values.iter().zip(["hole=", "chasm="]) {
        let number = value.strip_prefix(key).unwrap_or_else(|| panic!("{answer}"));
        assert!(number.parse::<i64>().is_ok(), "{answer}");
    }
    assert_one_line_error(
        &args(dir.path().join("c.json").to_str().unwrap(), &["--whole", "lowest"]),
        "--whole names `lowest`, which is not one of --params",
    );
}

#[test]
fn a_candidate_the_plugin_refuses_ranks_last_and_the_tune_goes_on() {
    // Playouts are a count: candidates drawn below 0 are refused by monte-carlo. They
    // play no game, rank last, and the tune ends with a count the plugin takes.
    let dir = tempfile::tempdir().unwrap();
    let checkpoint = dir.path().join("mc.json");
    let output = run(&[
        "tune",
        "--plugin",
        "monte-carlo",
        "--preset",
        "leiden",
        "--options",
        "threads=1",
        "--params",
        "playouts",
        "--whole",
        "playouts",
        "--initial",
        "2",
        "--sd",
        "10",
        "--population",
        "6",
        "--games",
        "1",
        "--generations",
        "2",
        "--max-pieces",
        "20",
        "--jobs",
        "1",
        "--checkpoint",
        checkpoint.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("generation 0: best") && stderr(&output).contains("candidates refused by the plugin"),
        "{}",
        stderr(&output)
    );
    let answer = stdout(&output);
    let playouts: i64 = answer
        .trim()
        .strip_prefix("threads=1,playouts=")
        .unwrap()
        .parse()
        .unwrap();
    assert!(playouts >= 0, "{answer}");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&checkpoint).unwrap()).unwrap();
    assert!(saved["history"][0]["refused"].as_u64().unwrap() > 0, "{saved}");
}
