//! The tune's state: what is tuned and how ([`TuneConfig`]), each generation's outcome,
//! and the checkpoint file they are saved in, read back and locked.

use super::versus::{Score, SprtOutcome};
use crate::cli::{MAX_GAMES, MAX_POPULATION};
use crate::input::{self, CHECKPOINT_CAP};
use crate::setup::Setup;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// What to tune and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// The plugin's name and version.
    pub plugin: String,
    /// Option names to tune.
    pub params: Vec<String>,
    /// Those of `params` passed to the plugin rounded to whole numbers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub whole: Vec<String>,
    /// Options passed unchanged to every candidate.
    pub fixed_options: String,
    /// Games per candidate per generation.
    pub games: u64,
    /// Generations.
    pub generations: u64,
    /// Candidates per generation.
    pub population: u64,
    /// Share of candidates kept as the elite.
    pub elite_fraction: f64,
    /// Seed of the games and of the sampling.
    pub seed: u64,
    /// Starting mean of every parameter.
    pub initial_mean: Vec<f64>,
    /// Starting standard deviation of each parameter.
    pub initial_sd: Vec<f64>,
    /// Noise added to the variance at generation 0, falling linearly to 0 at the end.
    pub noise: f64,
    /// The rules, pieces and piece cap of every game (in versus, its garbage and pace too).
    pub setup: Setup,
    /// Who the candidates play in versus; solo games when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Opponent>,
}

/// The opponent of a versus tune.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Opponent {
    /// A fixed bot.
    Bot {
        /// As named on the command line: the plugin's name and its options.
        label: String,
        /// The plugin's name and version.
        plugin: String,
        /// Its options.
        options: String,
    },
    /// Each generation plays the mean it was drawn around.
    Mean,
}

impl Opponent {
    /// As the command line names it.
    pub fn label(&self) -> &str {
        match self {
            Opponent::Bot { label, .. } => label,
            Opponent::Mean => "mean",
        }
    }
}

impl TuneConfig {
    /// The options string of one candidate: the fixed options, then each parameter with
    /// its value (rounded for those in [`TuneConfig::whole`]).
    pub fn options(&self, values: &[f64]) -> String {
        let tuned = self.params.iter().zip(values).map(|(k, v)| {
            if self.whole.contains(k) {
                format!("{k}={}", v.round() as i64)
            } else {
                format!("{k}={v:.4}")
            }
        });
        let fixed = self
            .fixed_options
            .split(',')
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string);
        fixed.chain(tuned).collect::<Vec<_>>().join(",")
    }
}

/// One generation's outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Generation {
    /// Generation number, from 0.
    pub generation: u64,
    /// Candidates the plugin refused at creation: they played no game and ranked last.
    #[serde(default, skip_serializing_if = "crate::runner::is_zero")]
    pub refused: u64,
    /// Best candidate's mean lines.
    pub best_lines: f64,
    /// Mean of the elite's mean lines.
    pub elite_lines: f64,
    /// In versus, the best candidate's points per game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_points: Option<f64>,
    /// In versus, the elite's mean points per game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elite_points: Option<f64>,
    /// In versus, every candidate that played, best first (see [`super::rank`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ranking: Vec<Score>,
    /// The best candidate's parameters.
    pub best: Vec<f64>,
    /// The distribution's mean after the update.
    pub mean: Vec<f64>,
    /// The distribution's standard deviations after the update.
    pub sd: Vec<f64>,
}

/// The checkpoint: configuration, distribution, and history.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// What is being tuned.
    pub config: TuneConfig,
    /// Current mean.
    pub mean: Vec<f64>,
    /// Current standard deviations.
    pub sd: Vec<f64>,
    /// Finished generations.
    pub history: Vec<Generation>,
    /// The closing match of the tuned mean, once played (`--sprt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtOutcome>,
}

impl Checkpoint {
    /// A fresh start.
    pub fn new(config: TuneConfig) -> Checkpoint {
        Checkpoint {
            mean: config.initial_mean.clone(),
            sd: config.initial_sd.clone(),
            history: Vec::new(),
            sprt: None,
            config,
        }
    }

    /// Reads a checkpoint written by [`Checkpoint::save`] (at most [`CHECKPOINT_CAP`]
    /// bytes).
    pub fn load(path: &Path) -> anyhow::Result<Checkpoint> {
        let text = input::read_text(path, CHECKPOINT_CAP)?;
        Checkpoint::parse(path, &text)
    }

    /// Reads and checks the text of a checkpoint; `path` is only used in messages. The
    /// checks are those [`super::tune`] relies on: one mean and one deviation per parameter, all
    /// finite, and a history that fits the configuration.
    pub fn parse(path: &Path, text: &str) -> anyhow::Result<Checkpoint> {
        let checkpoint: Checkpoint = serde_json::from_str(text)
            .map_err(|e| anyhow::anyhow!("{}: not a tune checkpoint ({e})", path.display()))?;
        checkpoint
            .check()
            .map_err(|problem| anyhow::anyhow!("{}: not a usable tune checkpoint ({problem})", path.display()))?;
        Ok(checkpoint)
    }

    /// What is wrong with the checkpoint, if anything.
    fn check(&self) -> Result<(), String> {
        let config = &self.config;
        let n = config.params.len();
        if n == 0 {
            return Err("no parameters".to_string());
        }
        if !(1..=MAX_POPULATION).contains(&config.population) {
            return Err(format!(
                "population {} is out of range 1..={MAX_POPULATION}",
                config.population
            ));
        }
        if config.games == 0 || config.population.saturating_mul(config.games) > MAX_GAMES {
            return Err(format!(
                "{} games per candidate; a generation plays 1 to {MAX_GAMES} games",
                config.games
            ));
        }
        if !(config.elite_fraction > 0.0 && config.elite_fraction <= 1.0) {
            return Err(format!("elite fraction {} is not in (0, 1]", config.elite_fraction));
        }
        if !(config.noise.is_finite() && config.noise >= 0.0) {
            return Err(format!("noise {} is not a finite number >= 0", config.noise));
        }
        check_distribution("initial", &config.initial_mean, &config.initial_sd, n)?;
        check_distribution("current", &self.mean, &self.sd, n)?;
        if self.history.len() as u64 > config.generations {
            return Err(format!(
                "{} generations done of {}",
                self.history.len(),
                config.generations
            ));
        }
        for (i, generation) in self.history.iter().enumerate() {
            let at = |problem: String| format!("generation {i}: {problem}");
            if generation.generation != i as u64 {
                return Err(at(format!("numbered {}", generation.generation)));
            }
            check_distribution("its", &generation.mean, &generation.sd, n).map_err(at)?;
            check_values("best candidate", &generation.best, n).map_err(at)?;
            if !(generation.best_lines.is_finite() && generation.elite_lines.is_finite()) {
                return Err(at("lines are not finite".to_string()));
            }
            let points = [generation.best_points, generation.elite_points];
            if points.iter().flatten().any(|p| !(0.0..=1.0).contains(p)) {
                return Err(at("points per game are not within 0 to 1".to_string()));
            }
        }
        Ok(())
    }

    /// Writes the checkpoint atomically (to a temporary file, then renamed).
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        let temporary = path.with_extension("tmp");
        std::fs::write(&temporary, serde_json::to_string_pretty(self)?)
            .map_err(|e| anyhow::anyhow!("{}: {e}", temporary.display()))?;
        std::fs::rename(&temporary, path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok(())
    }

    /// The options string of the current mean.
    pub fn options(&self) -> String {
        self.config.options(&self.mean)
    }

    /// The best single candidate of any generation (scored on its own generation's
    /// games, so a lucky draw can flatter it), as an options string with its score: mean
    /// lines, or in versus points per game. Against the mean, each generation plays
    /// another opponent and no scores compare: the last generation's best is taken.
    pub fn best_candidate(&self) -> Option<(String, f64, u64)> {
        let score = |g: &Generation| g.best_points.unwrap_or(g.best_lines);
        let best = match self.config.opponent {
            Some(Opponent::Mean) => self.history.last(),
            _ => self.history.iter().max_by(|a, b| score(a).total_cmp(&score(b))),
        };
        best.map(|g| (self.config.options(&g.best), score(g), g.generation))
    }
}

/// A mean and standard deviations of `n` finite values each, the deviations `>= 0`.
fn check_distribution(which: &str, mean: &[f64], sd: &[f64], n: usize) -> Result<(), String> {
    check_values(&format!("{which} mean"), mean, n)?;
    check_values(&format!("{which} deviation"), sd, n)?;
    if sd.iter().any(|&s| s < 0.0) {
        return Err(format!("{which} deviation is negative"));
    }
    Ok(())
}

/// `n` finite values.
fn check_values(what: &str, values: &[f64], n: usize) -> Result<(), String> {
    if values.len() != n {
        return Err(format!("{what} has {} values for {n} parameters", values.len()));
    }
    if values.iter().any(|v| !v.is_finite()) {
        return Err(format!("{what} is not finite"));
    }
    Ok(())
}

/// The lock that keeps a second `tetrad tune` off a checkpoint while one runs: an
/// exclusive advisory lock on `FILE.lock` beside the checkpoint `FILE`, held for the
/// whole run. (The checkpoint itself is replaced at every save, so it cannot carry the
/// lock.) The lock file stays behind, empty; the lock ends with the process.
pub struct CheckpointLock {
    _file: File,
}

impl CheckpointLock {
    /// Takes the lock for the checkpoint at `path`, or says that another tune holds it.
    pub fn acquire(path: &Path) -> anyhow::Result<CheckpointLock> {
        let mut name = path.as_os_str().to_os_string();
        name.push(".lock");
        let lock_path = PathBuf::from(name);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(|e| anyhow::anyhow!("{}: {e}", lock_path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(CheckpointLock { _file: file }),
            Err(TryLockError::WouldBlock) => anyhow::bail!(
                "{}: another tetrad tune is using this checkpoint ({} is locked); wait for it to end, or use another --checkpoint",
                path.display(),
                lock_path.display()
            ),
            Err(TryLockError::Error(e)) => anyhow::bail!("{}: {e}", lock_path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> TuneConfig {
        TuneConfig {
            plugin: "bcts".into(),
            params: vec!["w1".into(), "w2".into()],
            whole: Vec::new(),
            fixed_options: "controller=dellacherie".into(),
            games: 1,
            generations: 1,
            population: 1,
            elite_fraction: 0.1,
            seed: 1,
            initial_mean: vec![0.0, 0.0],
            initial_sd: vec![10.0, 10.0],
            noise: 4.0,
            opponent: None,
            setup: Setup::new(
                tetrad_plugin_api::Rules::preset(tetrad_plugin_api::Preset::Simplified),
                std::sync::Arc::new(tetrad_plugin_api::PieceSet::tetrominoes()),
            )
            .expect("valid"),
        }
    }

    #[test]
    fn options_keep_fixed_options_first() {
        let config = config();
        assert_eq!(
            config.options(&[1.0, -2.5]),
            "controller=dellacherie,w1=1.0000,w2=-2.5000"
        );
        // A whole-number option is rounded to the nearest, halves away from zero, and
        // never written as -0.
        let whole = TuneConfig {
            whole: vec!["w2".into()],
            ..config
        };
        assert_eq!(whole.options(&[1.0, -2.5]), "controller=dellacherie,w1=1.0000,w2=-3");
        assert_eq!(whole.options(&[1.0, -0.4]), "controller=dellacherie,w1=1.0000,w2=0");
    }

    #[test]
    fn a_versus_checkpoint_keeps_its_opponent_ranking_and_test_and_a_solo_one_has_none() {
        let solo = Checkpoint::new(config());
        let text = serde_json::to_string(&solo).expect("serialised");
        for field in ["opponent", "ranking", "sprt", "best_points"] {
            assert!(!text.contains(field), "a solo checkpoint reads as before: {text}");
        }
        let mut versus = Checkpoint::new(TuneConfig {
            opponent: Some(Opponent::Bot {
                label: "bcts@hold=true".into(),
                plugin: "bcts 0.1.0".into(),
                options: "hold=true".into(),
            }),
            ..config()
        });
        let score = Score {
            candidate: 0,
            games: 4,
            points: Some(0.625),
            lines: 12.0,
            sent_per_piece: 0.25,
        };
        versus.history.push(Generation {
            generation: 0,
            refused: 0,
            best_lines: 12.0,
            elite_lines: 12.0,
            best_points: Some(0.625),
            elite_points: Some(0.625),
            ranking: vec![score],
            best: vec![1.0, 2.0],
            mean: vec![1.0, 2.0],
            sd: vec![1.0, 1.0],
        });
        let path = Path::new("versus.json");
        let read = Checkpoint::parse(path, &serde_json::to_string(&versus).expect("serialised")).expect("read back");
        assert_eq!(read.config, versus.config);
        assert_eq!(read.history[0].ranking, versus.history[0].ranking);
        assert_eq!(read.best_candidate().map(|(_, score, _)| score), Some(0.625));
        // Points per game are a share: more than 1 is no checkpoint tetrad wrote.
        versus.history[0].best_points = Some(1.5);
        let err = Checkpoint::parse(path, &serde_json::to_string(&versus).expect("serialised")).unwrap_err();
        assert!(
            err.to_string().contains("points per game are not within 0 to 1"),
            "{err}"
        );
    }
}
