//! End-to-end tests: the real `tetrad` binary, real plugin libraries built by cargo, and
//! C plugins built here with the system C compiler against the real header.

mod abi_versions;
mod bad_input;
mod beam;
mod bots;
mod c_plugins;
mod common;
mod cpus;
mod demo;
mod front_door;
mod layout;
mod live;
mod pace;
mod pinned;
mod presets;
mod realtime;
mod replay_page;
mod report;
mod run;
mod sandbox;
mod sequences;
mod tbp;
mod time_controls;
mod timing_versus;
mod tournament;
mod trust_forfeits;
mod trust_forgery;
mod trust_hosting;
mod trust_inputs;
mod trust_isolation;
mod trust_logs;
mod trust_plugins;
mod tune;
mod versus;
mod web;
mod web_browser;
