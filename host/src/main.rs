//! `tetrad`: loads Tetris solver plugins, plays them, and reports.

use clap::error::ErrorKind;
use std::process::ExitCode;
use tetrad::cli::{Cli, Command, SandboxMode};
use tetrad::commands;
/// Exit code for a command line that could not be parsed.
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let cli = match Cli::parse_args() {
        Ok(cli) => cli,
        Err(err) => return report_usage_error(err),
    };
    // The sandbox's launcher confines itself and starts the bot: nothing else of tetrad's
    // start-up is wanted there.
    if let Command::Sandbox(args) = &cli.command {
        if !args.check {
            return commands::sandbox(args);
        }
    }
    // No child inherits a descriptor it was not given; a descendant that leaves its
    // group comes back here to be ended with its game.
    tetrad::process::inherited_close_on_exec();
    tetrad::process::tree::become_subreaper();
    let level = if cli.verbose { "info" } else { "warn" };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level)).init();
    // Reports keep standard output to themselves; plugin code prints to standard error.
    // The screens, the worker and the seat handle their own output.
    let keeps_own_output = matches!(
        cli.command,
        Command::Demo(_) | Command::Play(_) | Command::Replay(_) | Command::Worker(_) | Command::Seat(_)
    );
    if !keeps_own_output {
        if let Err(err) = tetrad::output::keep_for_reports() {
            log::warn!("standard output shared with plugins: {err}");
        }
        tetrad::plugin::guard_exit();
    }
    tetrad::process::keep_logs(cli.keep_logs);
    tetrad::process::affinity::set_enabled(!cli.no_pin);
    let policy = tetrad::sandbox::Policy {
        mode: match cli.sandbox {
            Some(SandboxMode::BestEffort) => tetrad::sandbox::Mode::BestEffort,
            Some(SandboxMode::Strict) | None => tetrad::sandbox::Mode::Strict,
        },
        read: cli.sandbox_read.clone(),
        limits: tetrad::sandbox::Limits {
            memory_bytes: cli.max_memory,
            cpu_seconds: cli.max_cpu,
            disk_bytes: cli.max_disk,
            ..Default::default()
        },
        launcher: None,
    };
    if let Command::Sandbox(_) = cli.command {
        // `--check`, which tries the sandbox itself rather than running bots inside.
        return finish(commands::sandbox_check(policy));
    }
    if cli.sandbox.is_some() {
        match tetrad::sandbox::enable(policy) {
            Ok(missing) if !missing.is_empty() => {
                eprintln!("tetrad: --sandbox=best-effort: running without {}", missing.join(", "))
            }
            Ok(_) => {}
            Err(err) => {
                eprintln!("tetrad: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    // A worker's and a seat's logs are their parent's to keep or delete.
    let ends_logs = !matches!(cli.command, Command::Worker(_) | Command::Seat(_));
    let outcome = match cli.command {
        Command::Run(args) => commands::run(args),
        Command::Plugins(args) => commands::plugins(args),
        Command::Check(args) => commands::check(args),
        Command::Tournament(args) => commands::tournament(args),
        Command::Versus(args) => commands::versus(args),
        Command::Merge(args) => commands::merge(args),
        Command::Report(args) => commands::report(args),
        Command::Tune(args) => commands::tune(args),
        Command::Worker(args) => commands::worker(args),
        Command::Info(args) => commands::info(args),
        Command::Seat(args) => commands::seat(args),
        Command::Sandbox(_) => unreachable!("the launcher and the check returned above"),
        Command::Install(args) => commands::install(args),
        Command::Demo(args) => commands::demo(args),
        Command::Play(args) => commands::play(args),
        Command::Replay(args) => commands::replay(args),
        Command::Tbp(args) => commands::tbp(args),
    };
    if ends_logs {
        tetrad::plugin::bot::finish_logs();
    }
    // Descendants handed to this process that outlived their games' ends.
    tetrad::process::tree::end_all();
    finish(outcome)
}

/// The exit code of a command's outcome; an error is one line on stderr.
fn finish(outcome: anyhow::Result<ExitCode>) -> ExitCode {
    outcome.unwrap_or_else(|err| {
        // A closed pipe (`tetrad run | head`) is the reader's choice, not an error.
        if err
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return ExitCode::SUCCESS;
        }
        eprintln!("tetrad: {}", one_line(&err));
        ExitCode::FAILURE
    })
}

/// Help and version go out as clap renders them; a usage mistake becomes one line.
fn report_usage_error(err: clap::Error) -> ExitCode {
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            ExitCode::from(if err.use_stderr() { USAGE_ERROR } else { 0 })
        }
        _ => {
            eprintln!(
                "tetrad: {} (see `tetrad --help`)",
                usage_line(&err.render().to_string())
            );
            ExitCode::from(USAGE_ERROR)
        }
    }
}

/// The error and its causes on one line, never a backtrace. A cause whose text the message
/// already holds (an OS error a library error quotes, say) is not repeated. Messages quote
/// what files and plugins say, so control characters are shown escaped, never sent raw.
fn one_line(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let cause = cause.to_string().replace('\n', " ");
        if text.contains(&cause) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&cause);
    }
    tetrad::plugin::printable(text)
}

/// Clap's rendering of a usage mistake as one line: its first line, with the indented
/// lines that follow it (the missing arguments, say), and its tips (`a similar argument
/// exists: '--games'`).
fn usage_line(rendered: &str) -> String {
    let mut lines = rendered.lines().skip_while(|l| l.trim().is_empty());
    let head = lines
        .next()
        .unwrap_or("invalid command line")
        .trim_start_matches("error: ");
    let rest: Vec<&str> = lines.collect();
    let details: Vec<&str> = rest
        .iter()
        .take_while(|l| l.starts_with(' ') && !l.trim().is_empty())
        .map(|l| l.trim())
        .collect();
    let mut line = if details.is_empty() {
        head.to_string()
    } else {
        format!("{}: {}", head.trim_end_matches(':'), details.join(", "))
    };
    for tip in rest.iter().map(|l| l.trim()).filter(|l| l.starts_with("tip: ")) {
        line.push_str("; ");
        line.push_str(tip);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_argument_is_named() {
        let rendered = "error: the following required arguments were not provided:\n  --plugins <PLUGIN>...\n\nUsage: tetrad tournament --plugins <PLUGIN>...\n";
        assert_eq!(
            usage_line(rendered),
            "the following required arguments were not provided: --plugins <PLUGIN>..."
        );
        assert_eq!(
            usage_line("error: unexpected argument '--x' found\n\nUsage: ..."),
            "unexpected argument '--x' found"
        );
    }

    #[test]
    fn a_tip_is_kept() {
        let rendered = "error: unrecognized subcommand 'tournamnet'\n\n  tip: a similar subcommand exists: 'tournament'\n\nUsage: tetrad [OPTIONS] <COMMAND>\n\nFor more information, try '--help'.\n";
        assert_eq!(
            usage_line(rendered),
            "unrecognized subcommand 'tournamnet'; tip: a similar subcommand exists: 'tournament'"
        );
    }

    #[test]
    fn an_os_error_is_said_once() {
        let os = std::io::Error::from(std::io::ErrorKind::NotFound);
        let err = anyhow::Error::new(os).context(format!(
            "pieces.toml: {}",
            std::io::Error::from(std::io::ErrorKind::NotFound)
        ));
        assert_eq!(one_line(&err), "pieces.toml: entity not found");
    }

    #[test]
    fn control_characters_in_a_message_are_escaped() {
        let err = anyhow::anyhow!("format is `\u{1b}[2J\rok`").context("r.json");
        assert_eq!(one_line(&err), "r.json: format is `\\u{1b}[2J\\u{d}ok`");
    }
}
