//! Helpers: run the binary, find built plugins, compile C plugins.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `tetrad` binary under test.
pub fn tetrad() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tetrad"))
}

/// Runs `tetrad` with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    tetrad().args(args).output().expect("run tetrad")
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts the run failed with exactly one line on stderr containing `needle`, and
/// nothing that looks like a panic or a backtrace.
pub fn assert_one_line_error(output: &Output, needle: &str) {
    let err = stderr(output);
    assert!(!output.status.success(), "expected failure, stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line expected, got: {err}");
    assert!(err.contains(needle), "`{needle}` not in: {err}");
    for noise in ["panicked", "backtrace", "RUST_BACKTRACE"] {
        assert!(!err.contains(noise), "`{noise}` in: {err}");
    }
}

/// A plugin library built by cargo for these tests (next to the binary, or in `deps/`).
pub fn built_plugin(crate_name: &str) -> PathBuf {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_tetrad"));
    let dir = exe.parent().expect("binary has a folder");
    let file = format!(
        "{}{}{}",
        std::env::consts::DLL_PREFIX,
        crate_name.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    );
    [dir.join(&file), dir.join("deps").join(&file)]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{file} not built next to {}", exe.display()))
}

/// The test plugin that misbehaves on request.
pub fn testkit() -> String {
    built_plugin("tetrad-testkit").display().to_string()
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("host is in the workspace")
        .to_path_buf()
}

/// Compiles C source into a shared library in `dir`, against the real header.
pub fn compile_c(dir: &Path, name: &str, source: &str) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, source).expect("write C source");
    compile_c_file(dir, name, &src)
}

/// Compiles a C file into a shared library in `dir`, against the real header.
pub fn compile_c_file(dir: &Path, name: &str, src: &Path) -> PathBuf {
    compile_c_against(dir, name, src, &workspace().join("plugin-api/include"))
}

/// Compiles a C file into a shared library in `dir`, against the header in `include` (a
/// frozen copy of an older version's, say).
pub fn compile_c_against(dir: &Path, name: &str, src: &Path, include: &Path) -> PathBuf {
    let out = dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let status = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".to_string()))
        .args([
            "-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-shared", "-fPIC", "-I",
        ])
        .arg(include)
        .arg(src)
        .arg("-o")
        .arg(&out)
        .status()
        .expect("run the C compiler (cc)");
    assert!(status.success(), "compiling {} failed", src.display());
    out
}

/// The exit status of `tetrad run` when the plugin forfeited every game.
pub const ALL_FORFEITED: i32 = 3;

/// Parses the output of a `tetrad run --format json` whose plugin forfeited every game:
/// the summary is printed, and the exit status says so.
pub fn forfeited_json(output: &Output) -> serde_json::Value {
    assert_eq!(output.status.code(), Some(ALL_FORFEITED), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("valid JSON")
}

/// Parses `tetrad run --format json` output.
pub fn json(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "tetrad failed: {}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("valid JSON")
}

/// Whether the process `pid` runs (exists and is not a zombie waiting to be reaped).
pub fn process_running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| !stat.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
}
