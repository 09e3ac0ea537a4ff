//! A process bot's manifest: a TOML file naming the program to start, its arguments, its
//! environment, where it runs, and the protocol it speaks. Relative paths are the
//! manifest's folder's.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The protocol a bot process speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// tetrad's own bot protocol (`docs/protocol.md`).
    #[default]
    Tetrad,
    /// The Tetris Bot Protocol (`docs/tbp.md`).
    Tbp,
}

/// The file-name extension of manifests.
pub const MANIFEST_EXTENSION: &str = "toml";

/// The largest manifest read: a manifest is a few lines.
const MANIFEST_CAP: u64 = 64 << 10;

/// A process bot's manifest, read and resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The file.
    pub path: PathBuf,
    /// The bot's name before it has said hello.
    pub name: String,
    /// The program, resolved against the manifest's folder when it names a relative path.
    pub program: PathBuf,
    /// Its arguments: the rest of `command`, then `args`.
    pub args: Vec<String>,
    /// Variables added to tetrad's environment.
    pub env: BTreeMap<String, String>,
    /// Where the program runs.
    pub working_dir: PathBuf,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// For a TBP bot: how long it calculates before each `suggest`, in milliseconds (a
    /// TBP bot searches between messages and answers with its best move so far).
    pub think_ms: u64,
    /// Whether the bot shares the CPU of the thread that waits for its answers (see
    /// `process::affinity`): by default a bot of tetrad's protocol does (it thinks only
    /// while asked) and a TBP bot does not (it may search on several threads between
    /// messages); `pin = true` or `false` in the manifest says otherwise.
    pub pin: bool,
}

/// The manifest as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestFile {
    name: String,
    command: Vec<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    working_dir: Option<PathBuf>,
    #[serde(default)]
    protocol: Protocol,
    #[serde(default)]
    think_ms: u64,
    pin: Option<bool>,
}

impl Manifest {
    /// Reads the manifest at `path`; the error is one line naming the file.
    pub fn load(path: &Path) -> Result<Manifest, String> {
        // Opening a FIFO would wait for a writer, and a device could be read without end: a
        // manifest is a plain file, told by its metadata before anything is opened.
        let metadata = std::fs::metadata(path).map_err(|err| format!("{}: {err}", path.display()))?;
        if !metadata.is_file() {
            return Err(format!(
                "{}: not a bot manifest ({}, not a plain file)",
                path.display(),
                crate::input::file_kind(&metadata)
            ));
        }
        let text = crate::input::read_text(path, MANIFEST_CAP).map_err(|e| e.to_string())?;
        Manifest::parse(path, &text)
    }

    /// Reads a manifest's text; `path` places its relative paths and names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Manifest, String> {
        let bad = |problem: String| format!("{}: not a bot manifest ({problem})", path.display());
        let file: ManifestFile = toml::from_str(text).map_err(|e| bad(e.message().to_string()))?;
        let mut command = file.command.into_iter();
        let program = command
            .next()
            .filter(|program| !program.is_empty())
            .ok_or_else(|| bad("`command` is empty".to_string()))?;
        if file.name.trim().is_empty() {
            return Err(bad("`name` is empty".to_string()));
        }
        let folder = std::path::absolute(path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        // A bare program name is looked up on PATH, as a shell would; a path is the
        // manifest's folder's.
        let program = if program.contains('/') {
            folder.join(program)
        } else {
            PathBuf::from(program)
        };
        Ok(Manifest {
            path: path.to_path_buf(),
            name: file.name,
            program,
            args: command.chain(file.args).collect(),
            env: file.env,
            working_dir: folder.join(file.working_dir.unwrap_or_default()),
            protocol: file.protocol,
            think_ms: file.think_ms,
            pin: file.pin.unwrap_or(file.protocol != Protocol::Tbp),
        })
    }

    /// The command that starts the bot.
    pub fn command(&self) -> Command {
        let mut command = Command::new(&self.program);
        command.args(&self.args).envs(&self.env).current_dir(&self.working_dir);
        command
    }

    /// Whether `path` names a manifest, by its extension.
    pub fn is_manifest(path: &Path) -> bool {
        path.extension().is_some_and(|e| e == MANIFEST_EXTENSION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_shares_its_waiting_threads_cpu_unless_it_speaks_tbp_or_says_otherwise() {
        let path = Path::new("/bots/b/bot.toml");
        let read = |extra: &str| Manifest::parse(path, &format!("name = \"b\"\ncommand = [\"./b\"]\n{extra}")).unwrap();
        assert!(read("").pin);
        assert!(!read("protocol = \"tbp\"\n").pin);
        assert!(read("protocol = \"tbp\"\npin = true\n").pin);
        assert!(!read("pin = false\n").pin);
    }

    #[test]
    fn paths_are_the_manifests_folders_and_bare_programs_are_searched() {
        let path = Path::new("/bots/greedy/bot.toml");
        let text = "name = \"greedy\"\ncommand = [\"python3\", \"greedy.py\"]\nargs = [\"-q\"]\n\
                    env = { A = \"1\" }\nworking_dir = \"run\"\n";
        let manifest = Manifest::parse(path, text).unwrap();
        assert_eq!(manifest.program, PathBuf::from("python3"));
        assert_eq!(manifest.args, ["greedy.py", "-q"]);
        assert_eq!(manifest.working_dir, PathBuf::from("/bots/greedy/run"));
        assert_eq!(manifest.env["A"], "1");
        let local = Manifest::parse(path, "name = \"c\"\ncommand = [\"./bot\"]\n").unwrap();
        assert_eq!(local.program, PathBuf::from("/bots/greedy/./bot"));
        assert_eq!(local.working_dir, PathBuf::from("/bots/greedy/"));
    }

    #[test]
    fn a_bad_manifest_is_one_line_naming_the_file() {
        let path = Path::new("b.toml");
        for (text, problem) in [
            ("name = \"x\"\n", "missing field `command`"),
            ("name = \"x\"\ncommand = []\n", "`command` is empty"),
            ("command = [\"x\"]\n", "missing field `name`"),
            (
                "name = \"x\"\ncommand = [\"x\"]\nflavour = 1\n",
                "unknown field `flavour`",
            ),
            ("name = ", "expected"),
        ] {
            let err = Manifest::parse(path, text).unwrap_err();
            assert!(err.starts_with("b.toml: not a bot manifest ("), "{err}");
            assert!(err.contains(problem), "{err}");
            assert!(!err.contains('\n'), "{err}");
        }
    }
}
