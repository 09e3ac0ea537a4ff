//! The tetrad host: the plugin loader, the game loop, the screens and the reports behind the
//! `tetrad` binary, on the rules engine of the `tetrad-engine` crate (re-exported here under
//! its old paths: [`engine`], [`input`], [`pieces`], [`referee`], [`setup`]).
#![deny(unsafe_code)]

pub use tetrad_engine::{engine, handling, input, pieces, referee};

pub mod cli;
pub mod commands;
pub mod fuzzing;
pub mod html_report;
pub mod output;
pub mod palette;
pub mod player;
pub mod plugin;
pub mod process;
pub mod replay;
pub mod replay_page;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod serve;
pub mod setup {
    //! One game's setup (the engine's [`Setup`]), and [`args`], the command line turned
    //! into one.
    pub mod args;
    pub use tetrad_engine::setup::*;
}
pub mod stats;
pub mod tournament;
pub mod tracked;
pub mod tui;
pub mod tune;
pub mod watch;
pub mod web;
