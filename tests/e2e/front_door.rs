//! What a new user meets first: installing, bare file names, exit codes and a quiet
//! stdout before a plugin has been created.

use crate::common::{assert_one_line_error, run, stderr, stdout, testkit, tetrad};
use std::process::Command;

/// A command with no per-user plugin folder or extra search path of the real user's.
fn isolated_from_home(mut command: Command, home: &std::path::Path) -> Command {
    command
        .env("HOME", home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("TETRAD_PLUGIN_PATH");
    command
}

#[test]
fn install_puts_a_working_tetrad_and_its_plugins_under_a_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("prefix");
    let home = dir.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let mut install = isolated_from_home(tetrad(), &home);
    let output = install.args(["install", "--prefix"]).arg(&prefix).output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("installed 8 plugins"), "{}", stdout(&output));
    let installed = prefix.join("bin").join("tetrad");
    let listed = isolated_from_home(Command::new(&installed), &home)
        .arg("plugins")
        .output()
        .unwrap();
    assert!(listed.status.success(), "{}", stderr(&listed));
    let text = stdout(&listed);
    assert!(text.lines().any(|l| l.starts_with("random ")), "{text}");
    assert!(text.contains("share/tetrad/plugins (8 used)"), "{text}");
    let played = isolated_from_home(Command::new(&installed), &home)
        .args(["run", "--plugin", "tree-search", "--games", "1", "--max-pieces", "20"])
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", stderr(&played));
}

#[test]
fn install_by_default_fills_the_per_user_folders() {
    let dir = tempfile::tempdir().unwrap();
    let mut install = isolated_from_home(tetrad(), dir.path());
    let output = install.arg("install").output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(dir.path().join(".local/bin/tetrad").is_file());
    let plugins = dir.path().join(".local/share/tetrad/plugins");
    assert_eq!(std::fs::read_dir(&plugins).unwrap().count(), 8);
    // The installed tetrad's folder `../share/tetrad/plugins` is the per-user folder:
    // listed once.
    let listed = isolated_from_home(Command::new(dir.path().join(".local/bin/tetrad")), dir.path())
        .arg("plugins")
        .output()
        .unwrap();
    assert!(listed.status.success(), "{}", stderr(&listed));
    let text = stdout(&listed);
    let folder = plugins.display().to_string();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(&folder)).collect();
    assert_eq!(lines, [format!("  {folder} (8 used)")], "{text}");
}

#[test]
fn a_bare_file_name_in_the_current_folder_is_a_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(testkit(), dir.path().join("libmy_plugin.so")).unwrap();
    std::fs::copy(testkit(), dir.path().join("myplugin")).unwrap();
    for name in ["libmy_plugin.so", "myplugin"] {
        let output = tetrad().current_dir(dir.path()).args(["check", name]).output().unwrap();
        assert!(output.status.success(), "{name}: {}", stderr(&output));
        assert!(
            stdout(&output).contains("verdict      ok"),
            "{name}: {}",
            stdout(&output)
        );
    }
}

#[test]
fn a_refused_create_prints_nothing_on_stdout() {
    let output = run(&["run", "--plugin", &testkit(), "--options", "mode=fail-create"]);
    assert_one_line_error(&output, "testkit was told to fail at create");
    assert_eq!(stdout(&output), "");
}

#[test]
fn plugins_lists_as_csv() {
    let output = run(&["plugins", "--format", "csv"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("name,version,abi,flavour,author,description,path,error\n"),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("random,")), "{text}");
}

#[test]
fn a_plugin_crate_outside_the_workspace_needs_the_plugin_api_alone() {
    // Built by cargo as a user would build it, from a crate whose one dependency is
    // tetrad-plugin-api; its target folder sits in the workspace's, so reruns are quick.
    let workspace = crate::common::workspace();
    let dir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "[package]\nname = \"outside\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\ntetrad-plugin-api = {{ path = \"{}\" }}\n\n[workspace]\n",
        workspace.join("plugin-api").display()
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/lib.rs"),
        r#"use tetrad_plugin_api::{Actions, GameSetup, Info, Options, Solver, Tick};

pub struct Outside;

impl Solver for Outside {
    const INFO: Info = Info { name: "outside", version: "0.1.0", author: "a user", description: "drops at once" };

    fn create(_setup: &GameSetup, _options: &mut Options) -> Result<Self, String> {
        Ok(Outside)
    }

    fn update(&mut self, _tick: &Tick) -> Actions {
        Actions::DROP
    }
}

tetrad_plugin_api::export_solver!(Outside);
"#,
    )
    .unwrap();
    // The workspace's lock file pins the same dependency versions, offline.
    std::fs::copy(workspace.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();
    let target = workspace.join("target").join("out-of-tree-plugin");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.path().join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    let lib = target.join("debug").join(format!(
        "{}outside{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let played = run(&[
        "run",
        "--plugin",
        lib.to_str().unwrap(),
        "--games",
        "2",
        "--max-pieces",
        "20",
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    assert!(
        stdout(&played).contains("plugin outside 0.1.0 (ABI 2, rust)"),
        "{}",
        stdout(&played)
    );
}

#[test]
fn no_games_is_refused_in_one_line() {
    for command in ["run --plugin random", "tournament --plugins random tree-search"] {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.extend(["--games", "0"]);
        let output = run(&args);
        assert_one_line_error(&output, "0 is not in 1..=1000000");
        assert_eq!(output.status.code(), Some(2), "{command}");
        assert_eq!(stdout(&output), "", "{command}");
    }
}

#[test]
fn a_misspelt_subcommand_or_option_gets_a_suggestion() {
    let output = run(&["tournamnet", "--plugins", "random"]);
    assert_one_line_error(&output, "tip: a similar subcommand exists: 'tournament'");
    assert_eq!(output.status.code(), Some(2));
    let output = run(&["run", "--plugin", "random", "--game", "3"]);
    assert_one_line_error(&output, "tip: a similar argument exists: '--games'");
}

/// The lines of `output`'s standard error that contain `needle`.
fn stderr_lines_with(output: &std::process::Output, needle: &str) -> usize {
    stderr(output).lines().filter(|l| l.contains(needle)).count()
}

#[test]
fn games_without_a_cap_say_so_once_when_they_start() {
    let unlimited = "games are unlimited (no --max-pieces)";
    let ran = run(&["run", "--plugin", "random", "--games", "3"]);
    assert!(ran.status.success(), "{}", stderr(&ran));
    assert_eq!(stderr_lines_with(&ran, unlimited), 1, "{}", stderr(&ran));
    assert_eq!(stderr(&ran).lines().count(), 1, "{}", stderr(&ran));
    let played = run(&["tournament", "--plugins", "random", "random", "--games", "2"]);
    assert!(played.status.success(), "{}", stderr(&played));
    assert_eq!(stderr_lines_with(&played, unlimited), 1, "{}", stderr(&played));
    // Capped games, or a sequence whose lines end them, say nothing of it.
    let capped = run(&["run", "--plugin", "random", "--games", "3", "--max-pieces", "10"]);
    assert!(capped.status.success(), "{}", stderr(&capped));
    assert_eq!(stderr(&capped), "");
    let dir = tempfile::tempdir().unwrap();
    let sequence = dir.path().join("pieces.txt");
    std::fs::write(&sequence, "I O T\nS Z\n").unwrap();
    let given = run(&["run", "--plugin", "random", "--sequence", sequence.to_str().unwrap()]);
    assert!(given.status.success(), "{}", stderr(&given));
    assert_eq!(stderr_lines_with(&given, unlimited), 0, "{}", stderr(&given));
}

#[test]
fn a_tournament_of_one_entrant_says_it_has_nothing_to_compare() {
    let output = run(&[
        "tournament",
        "--plugins",
        "random",
        "--games",
        "2",
        "--max-pieces",
        "20",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        stderr_lines_with(
            &output,
            "one entrant: its standings have no other entrant to compare with"
        ),
        1,
        "{}",
        stderr(&output)
    );
    assert!(stdout(&output).contains("random"), "{}", stdout(&output));
    let two = run(&[
        "tournament",
        "--plugins",
        "random",
        "random",
        "--games",
        "1",
        "--max-pieces",
        "20",
    ]);
    assert_eq!(stderr_lines_with(&two, "one entrant"), 0, "{}", stderr(&two));
}

#[test]
fn update_times_show_their_maximum_beside_the_mean_and_p99() {
    let args = [
        "tournament",
        "--plugins",
        "random",
        "tree-search",
        "--games",
        "2",
        "--max-pieces",
        "30",
    ];
    let table = run(&args);
    assert!(table.status.success(), "{}", stderr(&table));
    let text = stdout(&table);
    let header = text.lines().find(|l| l.starts_with("plugin ")).expect("a header");
    assert!(header.contains("µs/upd     p99 µs     max µs  forfeits"), "{header}");
    let json = crate::common::json(&run(&[&args[..], &["--format", "json"]].concat()));
    for standing in json["standings"].as_array().unwrap() {
        let (p99, max) = (standing["update_us_p99"].as_f64(), standing["update_us_max"].as_f64());
        assert!(max.unwrap() >= p99.unwrap(), "{standing}");
    }
    let csv = stdout(&run(&[&args[..], &["--format", "csv"]].concat()));
    assert!(csv.starts_with("plugin,") && csv.lines().next().unwrap().contains(",update_us_p99,update_us_max,"));
    let markdown = stdout(&run(&[&args[..], &["--format", "markdown"]].concat()));
    assert!(markdown.contains("| p99 µs | max µs |"), "{markdown}");
    let ran = run(&["run", "--plugin", "random", "--games", "2", "--max-pieces", "20"]);
    let summary = stdout(&ran);
    let update = summary
        .lines()
        .find(|l| l.starts_with("update "))
        .expect("an update line");
    assert!(update.contains(", max ") && update.ends_with(" µs"), "{update}");
    let document = crate::common::json(&run(&[
        "run",
        "--plugin",
        "random",
        "--games",
        "2",
        "--max-pieces",
        "20",
        "--format",
        "json",
    ]));
    let times = &document["summary"]["update_us"];
    assert!(
        times["max"].as_f64().unwrap() >= times["p99"].as_f64().unwrap(),
        "{times}"
    );
}

#[test]
fn a_plugin_has_one_name_in_the_list_and_in_the_standings() {
    // A library that calls itself `testkit`, installed as `dropper`.
    let dir = tempfile::tempdir().unwrap();
    let file = format!(
        "{}tetrad_plugin_dropper{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    std::fs::copy(testkit(), dir.path().join(&file)).unwrap();
    let with_path = |args: &[&str]| {
        tetrad()
            .env("TETRAD_PLUGIN_PATH", dir.path())
            .args(args)
            .output()
            .unwrap()
    };
    let listed = with_path(&["plugins"]);
    assert!(
        stdout(&listed).lines().any(|l| l.starts_with("dropper ")),
        "{}",
        stdout(&listed)
    );
    let by_path = dir.path().join(&file).display().to_string();
    for entrant in ["dropper", by_path.as_str()] {
        let played = with_path(&[
            "tournament",
            "--plugins",
            entrant,
            "random",
            "--games",
            "1",
            "--max-pieces",
            "10",
            "--format",
            "json",
        ]);
        let report = crate::common::json(&played);
        assert_eq!(report["standings"][0]["label"], "dropper", "{entrant}");
    }
}

/// The README's set-up tournament, and the sample of its output the README shows.
fn readme_tournament() -> (Vec<String>, String) {
    let readme = std::fs::read_to_string(crate::common::workspace().join("README.md")).unwrap();
    let command = readme
        .lines()
        .find(|l| l.starts_with("cargo run --release -- tournament "))
        .expect("the README's tournament command");
    let args = command["cargo run --release -- ".len()..]
        .split(' ')
        .map(str::to_string)
        .collect();
    let start = readme.find("```text\nplugin ").expect("the README's sample output") + "```text\n".len();
    let sample = readme[start..start + readme[start..].find("```").unwrap()].to_string();
    (args, sample)
}

#[test]
fn the_readme_is_short_and_shows_todays_output() {
    let readme = std::fs::read_to_string(crate::common::workspace().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines < 350, "the README has {lines} lines; move detail to docs/");
    // The README's command, cut short: its table has the columns and rows of the sample.
    let (mut args, sample) = readme_tournament();
    let games = args.iter().position(|a| a == "--games").unwrap();
    args[games + 1] = "1".to_string();
    let pieces = args.iter().position(|a| a == "--max-pieces").unwrap();
    args[pieces + 1] = "20".to_string();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let first_column = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
            .collect()
    };
    let table = &text[..text.find("\n\n").unwrap()];
    assert_eq!(text.lines().next(), sample.lines().next(), "the table's header");
    assert_eq!(
        first_column(table),
        first_column(&sample[..sample.find("\n\n").unwrap()])
    );
    let pairwise = |text: &str| text.lines().find(|l| l.starts_with("seeds won")).map(str::to_string);
    assert_eq!(pairwise(&text), pairwise(&sample));
}
