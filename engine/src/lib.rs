//! The tetrad engine: the rules (one game under a `Rules` value, tick by tick), piece-set
//! files, one game's setup, and the referee that says when and why a game ends. The
//! `tetrad` command, the Python package, the runner and the replay verifier all play on
//! it, so they all agree on every game. It has no command line, terminal, chart, sandbox
//! or plugin loader: a player is whatever hands the referee an [`referee::Answer`].
#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod engine;
pub mod handling;
pub mod input;
pub mod pieces;
pub mod referee;
pub mod setup;
