//! `tetrad tune`: the noisy cross-entropy method (Szita and Lőrincz 2006) over a plugin's
//! numeric options.
//!
//! Each generation draws `population` candidates from a normal distribution per
//! parameter (the first being the current mean itself), plays every candidate on the same
//! seeded games (a tournament whose entrants are one plugin with different options), keeps
//! the best `elite_fraction` by mean lines, and moves
//! the distribution to the elite's mean and variance plus a noise term that shrinks
//! linearly to zero, which keeps the search from collapsing early. The state after each
//! generation is written to a checkpoint, so an interrupted run resumes where it stopped.

use crate::plugin::Plugin;
use crate::runner::RunSpec;
use crate::tournament::{standings, Entrant, Tournament, Writer};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use tetrad_plugin_api::{derive_seed, SeededRng};

/// What to tune and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// The plugin's name and version.
    pub plugin: String,
    /// Option names to tune.
    pub params: Vec<String>,
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
    /// Rules, as recorded in reports.
    pub rules: serde_json::Value,
}

/// One generation's outcome.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Generation {
    /// Generation number, from 0.
    pub generation: u64,
    /// Best candidate's mean lines.
    pub best_lines: f64,
    /// Mean of the elite's mean lines.
    pub elite_lines: f64,
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
}

impl Checkpoint {
    /// A fresh start.
    pub fn new(config: TuneConfig) -> Checkpoint {
        Checkpoint {
            mean: config.initial_mean.clone(),
            sd: config.initial_sd.clone(),
            history: Vec::new(),
            config,
        }
    }

    /// Reads a checkpoint written by [`Checkpoint::save`].
    pub fn load(path: &Path) -> anyhow::Result<Checkpoint> {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: not a tune checkpoint ({e})", path.display()))
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
        options_string(&self.config, &self.mean)
    }

    /// The best single candidate of any generation (scored on its own generation's
    /// games, so a lucky draw can flatter it), as an options string with its mean lines.
    pub fn best_candidate(&self) -> Option<(String, f64, u64)> {
        self.history
            .iter()
            .max_by(|a, b| a.best_lines.total_cmp(&b.best_lines))
            .map(|g| (options_string(&self.config, &g.best), g.best_lines, g.generation))
    }
}

fn options_string(config: &TuneConfig, values: &[f64]) -> String {
    let tuned = config.params.iter().zip(values).map(|(k, v)| format!("{k}={v:.4}"));
    let fixed = config
        .fixed_options
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string);
    fixed.chain(tuned).collect::<Vec<_>>().join(",")
}

/// A standard normal sample (Box-Muller) from the fixed generator.
fn normal(rng: &mut SeededRng) -> f64 {
    let u1 = rng.unit().max(f64::MIN_POSITIVE);
    let u2 = rng.unit();
    (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
}

/// A generation's candidates: the mean itself first, so a good mean survives the sampling
/// noise of one generation, then `population - 1` draws from the normal distributions.
fn sample_candidates(mean: &[f64], sd: &[f64], population: u64, rng: &mut SeededRng) -> Vec<Vec<f64>> {
    std::iter::once(mean.to_vec())
        .chain((1..population).map(|_| mean.iter().zip(sd).map(|(m, s)| m + s * normal(rng)).collect()))
        .collect()
}

/// Runs the remaining generations, saving the checkpoint after each, and calls
/// `on_generation` with each one's outcome.
pub fn tune(
    plugin: Arc<Plugin>,
    base: &RunSpec,
    checkpoint: &mut Checkpoint,
    path: &Path,
    mut on_generation: impl FnMut(&Generation),
) -> anyhow::Result<()> {
    let config = checkpoint.config.clone();
    let n = config.params.len();
    let elite = ((config.population as f64 * config.elite_fraction).round() as usize).max(1);
    for generation in checkpoint.history.len() as u64..config.generations {
        let mut rng = SeededRng::new(derive_seed(config.seed, generation));
        let candidates = sample_candidates(&checkpoint.mean, &checkpoint.sd, config.population, &mut rng);
        let entrants = candidates
            .iter()
            .enumerate()
            .map(|(i, values)| Entrant {
                label: format!("candidate {i}"),
                plugin: plugin.clone(),
                options: options_string(&config, values),
            })
            .collect();
        let spec = RunSpec {
            seed: derive_seed(config.seed, 1 << 32 | generation),
            games: config.games,
            ..base.clone()
        };
        let tournament = Tournament {
            entrants,
            spec,
            shard: crate::tournament::Shard::ALL,
            isolation: None,
            sprt: None,
        };
        let (records, _) = tournament.play(Vec::new(), &mut Writer::none(), |_| {})?;
        let labels: Vec<String> = tournament.entrants.iter().map(|e| e.label.clone()).collect();
        let table = standings(&labels, &records);
        let mut ranked: Vec<(f64, &Vec<f64>)> = table.iter().map(|s| s.lines.mean).zip(&candidates).collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
        let best = &ranked[..elite];
        let progress = generation as f64 / config.generations.max(1) as f64;
        let noise = config.noise * (1.0 - progress);
        for i in 0..n {
            let mean = best.iter().map(|(_, v)| v[i]).sum::<f64>() / elite as f64;
            let variance = best.iter().map(|(_, v)| (v[i] - mean).powi(2)).sum::<f64>() / elite as f64;
            checkpoint.mean[i] = mean;
            checkpoint.sd[i] = (variance + noise).sqrt();
        }
        let outcome = Generation {
            generation,
            best_lines: best[0].0,
            elite_lines: best.iter().map(|(l, _)| l).sum::<f64>() / elite as f64,
            best: best[0].1.clone(),
            mean: checkpoint.mean.clone(),
            sd: checkpoint.sd.clone(),
        };
        checkpoint.history.push(outcome.clone());
        checkpoint.save(path)?;
        on_generation(&outcome);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_candidate_is_the_mean_and_the_rest_are_drawn_around_it() {
        let mut rng = SeededRng::new(3);
        let candidates = sample_candidates(&[1.0, -2.0], &[0.5, 0.0], 400, &mut rng);
        assert_eq!(candidates.len(), 400);
        assert_eq!(candidates[0], vec![1.0, -2.0]);
        assert!(
            candidates.iter().all(|c| c[1] == -2.0),
            "a zero deviation keeps the value"
        );
        let spread = candidates[1..].iter().filter(|c| c[0] != 1.0).count();
        assert_eq!(spread, 399);
        let mean = candidates[1..].iter().map(|c| c[0]).sum::<f64>() / 399.0;
        assert!((mean - 1.0).abs() < 0.1, "mean {mean}");
    }

    #[test]
    fn normal_samples_have_unit_spread() {
        let mut rng = SeededRng::new(3);
        let samples: Vec<f64> = (0..20_000).map(|_| normal(&mut rng)).collect();
        let mean = samples.iter().sum::<f64>() / samples.len() as f64;
        let var = samples.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / samples.len() as f64;
        assert!(mean.abs() < 0.03 && (var - 1.0).abs() < 0.05, "{mean} {var}");
    }

    #[test]
    fn options_string_keeps_fixed_options_first() {
        let config = TuneConfig {
            plugin: "bcts".into(),
            params: vec!["w1".into(), "w2".into()],
            fixed_options: "controller=dellacherie".into(),
            games: 1,
            generations: 1,
            population: 1,
            elite_fraction: 0.1,
            seed: 1,
            initial_mean: vec![0.0, 0.0],
            initial_sd: vec![10.0, 10.0],
            noise: 4.0,
            rules: serde_json::Value::Null,
        };
        assert_eq!(
            options_string(&config, &[1.0, -2.5]),
            "controller=dellacherie,w1=1.0000,w2=-2.5000"
        );
    }
}
