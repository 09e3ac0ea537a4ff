//! Tournaments: several plugins on the same seeded games (game `i` brings the same pieces
//! to every entrant), played in parallel, written to a results file as they finish, and
//! summed up as standings and a pairwise matrix.

mod isolate;
mod output;
mod person;
mod rated;
pub mod record;
mod recorded;
mod sprt;
mod standings;

pub use isolate::{
    follow_parent, seated, serve as serve_worker, serve_seat, Channel as WorkerChannel, ServeOptions,
    DEFAULT_WORKER_THINK_LIMIT_US,
};
pub use output::{csv, fixture_line, markdown, table, Report};
pub use person::{PersonError, PersonResults, PERSON_GAMES};
pub use rated::{match_csv, match_report, match_table, rated, rated_table, GameOutcome, MatchReport, Rated};
pub use record::{read, Config, EntrantConfig, FixtureRecord, GameRecord, Line, RecordError, Writer};
pub use recorded::{folder_for_results, folder_from_results, game_file};
pub use sprt::{Sprt, SprtResult};
pub use standings::{pairings, sign_test, sprt_bounds, sprt_llr, standings, versus_pairings, Pairing, Standing};

use crate::plugin::Plugin;
use crate::replay::{PlayerRecord, Replay};
use crate::runner::{self, game_seed, RunSpec};
use anyhow::Context;
use isolate::{Played, Worker};
use sprt::InOrder;
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};

/// One plugin entered in the tournament.
pub struct Entrant {
    /// The name in the standings: the plugin's name, with its options if it has its own.
    pub label: String,
    /// The loaded plugin (entrants may share one, with different options).
    pub plugin: Arc<Plugin>,
    /// Its options.
    pub options: String,
}

/// This process's share of the games: those whose index is `index` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based share.
    pub index: u64,
    /// Number of shares.
    pub count: u64,
}

impl Shard {
    /// The whole tournament.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether game `game` is in this share.
    pub fn contains(self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// As written on the command line, "K/N" with K from 1.
    pub fn label(self) -> String {
        format!("{}/{}", self.index + 1, self.count)
    }
}

/// Running plugins in worker processes.
#[derive(Clone, Debug)]
pub struct Isolation {
    /// The `tetrad` binary.
    pub exe: PathBuf,
    /// Arguments that give a worker the setup and the seed (the plugin and its options
    /// are added per entrant).
    pub args: Vec<String>,
    /// Where each worker's log (what its plugin printed) goes.
    pub logs: PathBuf,
}

/// A tournament to play.
pub struct Tournament {
    /// The entrants, in order.
    pub entrants: Vec<Entrant>,
    /// The setup, games, seed and jobs (options are per entrant).
    pub spec: RunSpec,
    /// This process's share.
    pub shard: Shard,
    /// Worker processes, or in-process if `None`.
    pub isolation: Option<Isolation>,
    /// Early stop for two entrants.
    pub sprt: Option<Sprt>,
    /// In versus, save a replay of game 0 of the first pair here when it is played.
    pub record: Option<PathBuf>,
    /// Save a replay of every game played into this folder (named by
    /// [`game_file`]).
    pub record_games: Option<PathBuf>,
}

/// What a fixture's completion looks like to whoever watches progress.
pub struct Progress<'a> {
    /// Fixtures finished so far (including resumed ones).
    pub finished: u64,
    /// Fixtures in this share.
    pub total: u64,
    /// The seated entrants' labels, in seat order.
    pub labels: Vec<&'a str>,
    /// The fixture just finished.
    pub fixture: &'a FixtureRecord,
}

impl Tournament {
    /// The configuration written to and checked against the results file.
    pub fn config(&self) -> Config {
        Config {
            entrants: self
                .entrants
                .iter()
                .map(|e| EntrantConfig {
                    label: e.label.clone(),
                    plugin: format!("{} {}", e.plugin.info().name, e.plugin.info().version),
                    options: e.options.clone(),
                })
                .collect(),
            setup: self.spec.setup.clone(),
            games: self.spec.games,
            seed: self.spec.seed,
        }
    }

    /// Whether entrants play each other (the setup has an attack table) rather than alone.
    pub fn is_versus(&self) -> bool {
        self.spec.setup.attack.is_some()
    }

    /// Who plays together on each seed: every entrant alone, or in versus every pair.
    pub fn seatings(&self) -> Vec<Vec<usize>> {
        seatings(self.entrants.len(), self.is_versus())
    }

    /// Fixtures in this share: its games times the seatings.
    pub fn total(&self) -> u64 {
        (0..self.spec.games).filter(|&g| self.shard.contains(g)).count() as u64 * self.seatings().len() as u64
    }

    /// Plays every fixture not in `done`, writing each to `writer` as it finishes, and
    /// returns every fixture (old and new, by game and seating) and the SPRT's state.
    pub fn play(
        &self,
        done: Vec<FixtureRecord>,
        writer: &mut Writer,
        mut on_progress: impl FnMut(Progress<'_>),
    ) -> anyhow::Result<(Vec<FixtureRecord>, Option<SprtResult>)> {
        let finished: HashSet<(u64, Vec<usize>)> = done.iter().map(FixtureRecord::key).collect();
        let seatings = self.seatings();
        let queue: VecDeque<(u64, Vec<usize>)> = (0..self.spec.games)
            .filter(|&g| self.shard.contains(g))
            .flat_map(|g| seatings.iter().map(move |seats| (g, seats.clone())))
            .filter(|key| !finished.contains(key))
            .collect();
        let queue = Mutex::new(queue);
        let stop = AtomicBool::new(false);
        let mut fixtures = done;
        let total = self.total();
        let mut sprt = self.sprt.map(|test| InOrder::new(self, test));
        if let Some(sprt) = &mut sprt {
            fixtures.iter().for_each(|fixture| sprt.add(fixture));
            if let Some(end) = sprt.decided_before() {
                fixtures.retain(|fixture| fixture.game < end);
                fixtures.sort_by_key(FixtureRecord::key);
                return Ok((fixtures, Some(sprt.state())));
            }
        }
        let (sender, receiver) = mpsc::channel::<anyhow::Result<FixtureRecord>>();
        let mut failure = None;
        let writer = Mutex::new(writer);
        std::thread::scope(|scope| {
            for _ in 0..self.spec.jobs.max(1) {
                let sender = sender.clone();
                let (queue, stop, writer) = (&queue, &stop, &writer);
                scope.spawn(move || {
                    let mut workers: Vec<Option<Worker>> = (0..self.entrants.len()).map(|_| None).collect();
                    while !stop.load(Ordering::Relaxed) {
                        let Some((game, seats)) = queue.lock().expect("queue lock").pop_front() else {
                            break;
                        };
                        // The thread that played a fixture writes it before it starts
                        // another, so a finished game is on disk even if the next one takes
                        // the whole process down (a plugin's exit() without isolation).
                        let outcome = self.play_one(game, &seats, &mut workers).and_then(|fixture| {
                            let mut writer = writer.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                            writer.write(&Line::Fixture(fixture.clone()))?;
                            Ok(fixture)
                        });
                        if outcome.is_err() {
                            stop.store(true, Ordering::Relaxed);
                        }
                        if sender.send(outcome).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            for outcome in receiver {
                let fixture = match outcome {
                    Ok(fixture) => fixture,
                    Err(err) => {
                        failure.get_or_insert(err);
                        continue;
                    }
                };
                fixtures.push(fixture);
                let last = fixtures.last().expect("just pushed");
                on_progress(Progress {
                    finished: fixtures.len() as u64,
                    total,
                    labels: last
                        .seats
                        .iter()
                        .map(|s| self.entrants[s.entrant].label.as_str())
                        .collect(),
                    fixture: last,
                });
                if let Some(sprt) = &mut sprt {
                    sprt.add(fixtures.last().expect("just pushed"));
                    if sprt.decided_before().is_some() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        if let Some(err) = failure {
            return Err(err);
        }
        // Games that finished after the test decided are in the results file, but not in
        // the tournament's result: another run may not have played them.
        if let Some(end) = sprt.as_ref().and_then(InOrder::decided_before) {
            fixtures.retain(|fixture| fixture.game < end);
        }
        fixtures.sort_by_key(FixtureRecord::key);
        Ok((fixtures, sprt.map(|sprt| sprt.state())))
    }

    /// Plays one fixture: a versus game of two entrants in process, or one entrant's solo
    /// game in process or in its worker.
    fn play_one(&self, game: u64, seats: &[usize], workers: &mut [Option<Worker>]) -> anyhow::Result<FixtureRecord> {
        let seed = game_seed(self.spec.seed, game);
        if let &[a, b] = seats {
            // Isolated, a library takes its seat as a bot process that serves it.
            let seat = |entrant: usize| -> Arc<Plugin> {
                let plugin = &self.entrants[entrant].plugin;
                match &self.isolation {
                    Some(isolation) if plugin.manifest().is_none() => Arc::new(seated(plugin, &isolation.exe)),
                    _ => Arc::clone(plugin),
                }
            };
            let (a_plugin, b_plugin) = (seat(a), seat(b));
            let options = |entrant: usize| self.entrants[entrant].options.as_str();
            let entrants = [(&*a_plugin, options(a)), (&*b_plugin, options(b))];
            let first = self.record.clone().filter(|_| game == 0 && seats == [0, 1]);
            let every = self
                .record_games
                .as_ref()
                .map(|dir| recorded::game_file(dir, game, seats));
            let paths: Vec<PathBuf> = first.into_iter().chain(every).collect();
            let (mut a_actions, mut b_actions) = (Vec::new(), Vec::new());
            let records = match paths.is_empty() {
                false => [Some(&mut a_actions), Some(&mut b_actions)],
                true => [None, None],
            };
            let [a_result, b_result] = runner::play_fixture(entrants, &self.spec, game, records)?;
            if !paths.is_empty() {
                let player = |plugin: &Plugin, entrant: usize| PlayerRecord::plugin(plugin, options(entrant), 0);
                let played = vec![
                    (player(&a_plugin, a), a_actions, &a_result),
                    (player(&b_plugin, b), b_actions, &b_result),
                ];
                // Isolated, every seat is a bot process, under the think limit a bot has
                // when the setup gives none: the replay says so, as a timeout needs one.
                let mut setup = self.spec.setup.clone();
                if self.isolation.is_some() {
                    let default_ns = crate::player::DEFAULT_BOT_THINK_LIMIT.as_nanos() as u64;
                    setup.limits.think_limit_ns = Some(setup.limits.think_limit_ns.unwrap_or(default_ns));
                }
                let replay = Replay::of_played(&setup, seed, played);
                for path in &paths {
                    replay.save(path)?;
                }
            }
            return Ok(FixtureRecord {
                game,
                seed,
                seats: vec![GameRecord::new(a, &a_result), GameRecord::new(b, &b_result)],
            });
        }
        let entrant = seats[0];
        let who = &self.entrants[entrant];
        let spec = RunSpec {
            options: who.options.clone(),
            ..self.spec.clone()
        };
        let Some(isolation) = &self.isolation else {
            let Some(dir) = &self.record_games else {
                let result = runner::play_game(&who.plugin, &spec, game)?;
                return Ok(FixtureRecord::solo(GameRecord::new(entrant, &result)));
            };
            let mut actions = Vec::new();
            let result = runner::play_game_recorded(&who.plugin, &spec, game, Some(&mut actions))?;
            Replay::of_run_game(&who.plugin, &spec, &result, actions).save(&recorded::game_file(dir, game, seats))?;
            return Ok(FixtureRecord::solo(GameRecord::new(entrant, &result)));
        };
        if let Some(dir) = &self.record_games {
            // A worker reports a game's result, not its ticks: recorded, an isolated library
            // plays as a bot process that serves it (as a versus seat does), so the host
            // sees every tick and a crash or a hang still forfeits one game.
            let plugin = match who.plugin.manifest() {
                None => Arc::new(seated(&who.plugin, &isolation.exe)),
                Some(_) => Arc::clone(&who.plugin),
            };
            let mut actions = Vec::new();
            let result = runner::play_game_recorded(&plugin, &spec, game, Some(&mut actions))?;
            // A bot process plays under the think limit a bot has when the setup gives none:
            // the replay says so, as a timeout needs one.
            let mut recorded = spec;
            let default_ns = crate::player::DEFAULT_BOT_THINK_LIMIT.as_nanos() as u64;
            let limit = &mut recorded.setup.limits.think_limit_ns;
            *limit = Some(limit.unwrap_or(default_ns));
            Replay::of_run_game(&plugin, &recorded, &result, actions).save(&recorded::game_file(dir, game, seats))?;
            return Ok(FixtureRecord::solo(GameRecord::new(entrant, &result)));
        }
        let worker = &mut workers[entrant];
        if worker.is_none() {
            let mut args = isolation.args.clone();
            args.extend(["--plugin".to_string(), who.plugin.path().display().to_string()]);
            args.extend(["--options".to_string(), who.options.clone()]);
            let spawned = Worker::spawn(&isolation.exe, &args, &isolation.logs, &who.label, &who.plugin)
                .with_context(|| format!("starting a worker process ({})", isolation.exe.display()))?;
            *worker = Some(spawned);
        }
        let running = worker.as_mut().expect("spawned above");
        let record = match running.play(entrant, game, seed) {
            Ok(Played::Record(record)) => GameRecord { entrant, ..*record },
            Ok(Played::CreateFailed(message)) => anyhow::bail!("{message}"),
            Err(forfeit) => {
                *worker = None;
                GameRecord::new(entrant, &forfeit)
            }
        };
        Ok(FixtureRecord::solo(record))
    }

    /// The pairwise results of `fixtures` (see [`pairings_of`]).
    pub fn pairings(&self, fixtures: &[FixtureRecord]) -> Vec<Pairing> {
        let labels: Vec<String> = self.entrants.iter().map(|e| e.label.clone()).collect();
        pairings_of(&labels, self.is_versus(), fixtures)
    }
}

/// Who plays together on each seed among `entrants`: each alone, or in versus every pair
/// (the lower index in seat 0).
pub fn seatings(entrants: usize, versus: bool) -> Vec<Vec<usize>> {
    match versus {
        true => (0..entrants)
            .flat_map(|a| (a + 1..entrants).map(move |b| vec![a, b]))
            .collect(),
        false => (0..entrants).map(|e| vec![e]).collect(),
    }
}

/// The pairwise results of `fixtures`: by the versus games' winners, or, solo, by who
/// cleared more lines on each seed.
pub fn pairings_of(labels: &[String], versus: bool, fixtures: &[FixtureRecord]) -> Vec<Pairing> {
    match versus {
        true => versus_pairings(labels, fixtures),
        false => pairings(labels, &seats_of(fixtures)),
    }
}

/// Every seat's game of `fixtures`, by game and entrant.
pub fn seats_of(fixtures: &[FixtureRecord]) -> Vec<GameRecord> {
    let mut seats: Vec<GameRecord> = fixtures.iter().flat_map(|f| f.seats.iter().cloned()).collect();
    seats.sort_by_key(|r| (r.result.index, r.entrant));
    seats
}
