//! End-to-end tests: the real `tetrad` binary, real plugin libraries built by cargo, and
//! C plugins built here with the system C compiler against the real header.

mod bad_input;
mod c_plugins;
mod common;
mod demo;
mod pinned;
mod run;
mod tournament;
mod tune;
