//! The tetrad host: the rules engine, the plugin loader, the game loop and the reports
//! behind the `tetrad` binary.
#![deny(unsafe_code)]

pub mod cli;
pub mod commands;
pub mod engine;
pub mod fuzzing;
pub mod html_report;
pub mod input;
pub mod output;
pub mod palette;
pub mod pieces;
pub mod player;
pub mod plugin;
pub mod process;
pub mod referee;
pub mod replay;
pub mod replay_page;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod setup;
pub mod stats;
pub mod tournament;
pub mod tui;
pub mod tune;
pub mod watch;
