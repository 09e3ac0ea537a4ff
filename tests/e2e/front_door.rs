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
    assert!(stdout(&output).contains("installed 7 plugins"), "{}", stdout(&output));
    let installed = prefix.join("bin").join("tetrad");
    let listed = isolated_from_home(Command::new(&installed), &home)
        .arg("plugins")
        .output()
        .unwrap();
    assert!(listed.status.success(), "{}", stderr(&listed));
    let text = stdout(&listed);
    assert!(text.lines().any(|l| l.starts_with("random ")), "{text}");
    assert!(text.contains("share/tetrad/plugins (7 used)"), "{text}");
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
    assert_eq!(std::fs::read_dir(&plugins).unwrap().count(), 7);
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
