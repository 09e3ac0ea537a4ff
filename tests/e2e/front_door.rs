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
