//! `tetrad`: loads Tetris solver plugins, plays them, and reports.

use clap::error::ErrorKind;
use clap::Parser;
use std::process::ExitCode;
use tetrad::cli::{Cli, Command};
use tetrad::commands;
/// Exit code for a command line that could not be parsed.
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return report_usage_error(err),
    };
    let outcome = match cli.command {
        Command::Run(args) => commands::run(args),
        Command::Plugins(args) => commands::plugins(args),
        Command::Check(args) => commands::check(args),
        Command::Tournament(args) => commands::tournament(args),
        Command::Merge(args) => commands::merge(args),
        Command::Tune(args) => commands::tune(args),
        Command::Worker(args) => commands::worker(args),
        Command::Demo(args) => tetrad::tui::demo(args),
        Command::Play(args) => tetrad::tui::play(args),
        Command::Replay(args) => tetrad::tui::replay(args),
    };
    outcome.unwrap_or_else(|err| {
        // A closed pipe (`tetrad run | head`) is the reader's choice, not an error.
        if err
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
        {
            return ExitCode::SUCCESS;
        }
        // One line: the error and its causes, never a backtrace.
        let text = format!("{err:#}").replace('\n', " ");
        eprintln!("tetrad: {text}");
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
            let rendered = err.render().to_string();
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid command line");
            eprintln!("tetrad: {} (see `tetrad --help`)", first.trim_start_matches("error: "));
            ExitCode::from(USAGE_ERROR)
        }
    }
}
