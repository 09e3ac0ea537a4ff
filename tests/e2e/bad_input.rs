//! Every user mistake is one line on stderr naming the file or value, a non-zero exit,
//! never a backtrace.

use crate::common::*;

#[test]
fn missing_plugin_file() {
    let output = run(&["run", "--plugin", "/nonexistent/libnothing.so"]);
    assert_one_line_error(&output, "/nonexistent/libnothing.so: no such file");
}

#[test]
fn file_that_is_not_a_shared_library() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.so");
    std::fs::write(&path, "these are not machine instructions").unwrap();
    let output = run(&["run", "--plugin", path.to_str().unwrap()]);
    assert_one_line_error(&output, &format!("{}: not a loadable shared library", path.display()));
}

#[test]
fn shared_library_that_is_not_a_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let lib = compile_c(dir.path(), "plain", "int plain_answer(void) { return 42; }\n");
    let output = run(&["run", "--plugin", lib.to_str().unwrap()]);
    assert_one_line_error(&output, "not a tetrad plugin");
    assert!(stderr(&output).contains(lib.to_str().unwrap()));
}

#[test]
fn abi_version_mismatch() {
    let dir = tempfile::tempdir().unwrap();
    let source = "#include <stdint.h>\nuint32_t tetrad_abi_version(void) { return 999; }\n";
    let lib = compile_c(dir.path(), "future", source);
    let output = run(&["check", lib.to_str().unwrap()]);
    assert_one_line_error(&output, "ABI version 999, host speaks 1 to 2");
}

#[test]
fn plugin_whose_create_fails_shows_its_message() {
    let output = run(&[
        "run",
        "--plugin",
        &testkit(),
        "--games",
        "3",
        "--options",
        "mode=fail-create",
    ]);
    assert_one_line_error(&output, "create failed: testkit was told to fail at create");
}

#[test]
fn unknown_plugin_option_is_shown_verbatim() {
    let output = run(&["run", "--plugin", "random", "--options", "depth=2"]);
    assert_one_line_error(&output, "unknown option `depth` (this plugin takes no options)");
}

#[test]
fn unknown_bundled_name() {
    let output = run(&["run", "--plugin", "no-such-bot"]);
    assert_one_line_error(&output, "no bundled plugin named `no-such-bot`");
}

#[test]
fn width_zero() {
    let output = run(&["run", "--plugin", "random", "--width", "0"]);
    assert_one_line_error(&output, "width 0 is out of range 4..=32");
}

#[test]
fn leiden_height_beyond_fifteen() {
    let output = run(&["run", "--plugin", "random", "--preset", "leiden", "--height", "16"]);
    assert_one_line_error(&output, "height 16 is out of range 4..=15 for preset leiden");
}

#[test]
fn unknown_preset() {
    let output = run(&["run", "--plugin", "random", "--preset", "tengen"]);
    assert_one_line_error(&output, "unknown preset `tengen`");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn not_a_number() {
    let output = run(&["run", "--plugin", "random", "--games", "many"]);
    assert_one_line_error(&output, "'many'");
}

#[test]
fn piece_set_file_mistakes_name_the_file_and_the_piece() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("holes.toml");
    std::fs::write(&path, "[[piece]]\nname = \"split\"\nshape = \"#.#\"\n").unwrap();
    let output = run(&["run", "--plugin", "random", "--pieces", path.to_str().unwrap()]);
    assert_one_line_error(
        &output,
        &format!("{}: piece `split`: the cells are not connected", path.display()),
    );
    std::fs::write(&path, "[[piece]\n").unwrap();
    assert_one_line_error(
        &run(&["run", "--plugin", "random", "--pieces", path.to_str().unwrap()]),
        "TOML parse error",
    );
    let wide = workspace().join("pieces/pentominoes.toml");
    let output = run(&[
        "run",
        "--plugin",
        "random",
        "--pieces",
        wide.to_str().unwrap(),
        "--width",
        "4",
    ]);
    assert_one_line_error(&output, "piece `I` (5x1) does not fit a 4x20 board");
    let missing = run(&["run", "--plugin", "random", "--pieces", "/nonexistent/set.toml"]);
    assert_one_line_error(&missing, "/nonexistent/set.toml");
}
