//! `tetrad tune`: the noisy cross-entropy method (Szita and Lőrincz 2006) over a plugin's
//! numeric options.
//!
//! Each generation draws `population` candidates from a normal distribution per
//! parameter (the first being the current mean itself), plays every candidate on the same
//! seeded games (a tournament whose entrants are one plugin with different options, or in
//! versus each candidate against one opponent from both seats), keeps the best
//! `elite_fraction` by mean lines (in versus by points, see [`rank`]), and moves
//! the distribution to the elite's mean and variance plus a noise term that shrinks
//! linearly to zero, which keeps the search from collapsing early. The state after each
//! generation is written to a checkpoint, so an interrupted run resumes where it stopped.

mod checkpoint;
pub mod versus;

pub use checkpoint::{Checkpoint, CheckpointLock, Generation, Opponent, TuneConfig};
pub use versus::{rank, sprt_match, Score, SprtOutcome};

use crate::player::CreateError;
use crate::plugin::Plugin;
use crate::runner::{probe, RunSpec};
use crate::tournament::{standings, Entrant, Tournament, Writer};
use std::path::Path;
use std::sync::Arc;
use tetrad_plugin_api::{derive_seed, SeededRng};

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

/// Who a generation's candidates play.
pub enum Rival {
    /// Nobody: each plays solo games, ranked by mean lines.
    Solo,
    /// This plugin with these options, in versus.
    Bot(Arc<Plugin>, String),
    /// In versus, the mean the generation was drawn around.
    Mean,
}

/// Runs the remaining generations, saving the checkpoint after each, and calls
/// `on_generation` with each one's outcome.
pub fn tune(
    plugin: Arc<Plugin>,
    base: &RunSpec,
    rival: &Rival,
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
        let options: Vec<String> = candidates.iter().map(|values| config.options(values)).collect();
        // A candidate the plugin refuses (a value out of its range) plays no game and
        // ranks last, rather than ending the run.
        let setup = &base.setup;
        let refusals: Vec<Option<CreateError>> = options.iter().map(|o| probe(&plugin, setup, o).err()).collect();
        let accepted = refusals.iter().filter(|r| r.is_none()).count();
        if accepted == 0 {
            let first = refusals.into_iter().flatten().next().expect("a refusal per candidate");
            anyhow::bail!("generation {generation}: the plugin refused every candidate, the first with: {first}");
        }
        let spec = RunSpec {
            seed: derive_seed(config.seed, 1 << 32 | generation),
            games: config.games,
            ..base.clone()
        };
        let playing: Vec<(usize, String)> = options
            .iter()
            .zip(&refusals)
            .enumerate()
            .filter(|(_, (_, refusal))| refusal.is_none())
            .map(|(i, (options, _))| (i, options.clone()))
            .collect();
        let mean_options = config.options(&checkpoint.mean);
        let mut scores = match rival {
            Rival::Solo => solo_scores(&plugin, &playing, spec)?,
            Rival::Bot(opponent, opponent_options) => {
                versus::play_generation(&plugin, &playing, (opponent, opponent_options), &spec)?
            }
            Rival::Mean => versus::play_generation(&plugin, &playing, (&plugin, &mean_options), &spec)?,
        };
        // A refused candidate has no score, and so ranks below every one that played.
        rank(&mut scores);
        let ranked: Vec<(&Score, &Vec<f64>)> = scores.iter().map(|s| (s, &candidates[s.candidate])).collect();
        let best = &ranked[..elite.min(accepted)];
        let elite = best.len();
        let progress = generation as f64 / config.generations.max(1) as f64;
        let noise = config.noise * (1.0 - progress);
        for i in 0..n {
            let mean = best.iter().map(|(_, v)| v[i]).sum::<f64>() / elite as f64;
            let variance = best.iter().map(|(_, v)| (v[i] - mean).powi(2)).sum::<f64>() / elite as f64;
            checkpoint.mean[i] = mean;
            checkpoint.sd[i] = (variance + noise).sqrt();
        }
        let versus = !matches!(rival, Rival::Solo);
        let elite_points = best.iter().map(|(s, _)| s.points.unwrap_or(0.0)).sum::<f64>() / elite as f64;
        let outcome = Generation {
            generation,
            refused: (candidates.len() - accepted) as u64,
            best_lines: best[0].0.lines,
            elite_lines: best.iter().map(|(s, _)| s.lines).sum::<f64>() / elite as f64,
            best_points: best[0].0.points,
            elite_points: versus.then_some(elite_points),
            ranking: if versus { scores.clone() } else { Vec::new() },
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

/// The solo scores of `playing` (each candidate's number and options): a tournament of
/// them all on the same seeded games, by mean lines.
fn solo_scores(plugin: &Arc<Plugin>, playing: &[(usize, String)], spec: RunSpec) -> anyhow::Result<Vec<Score>> {
    let entrants = playing
        .iter()
        .map(|(i, options)| Entrant {
            label: format!("candidate {i}"),
            plugin: plugin.clone(),
            options: options.clone(),
        })
        .collect();
    let tournament = Tournament {
        entrants,
        spec,
        shard: crate::tournament::Shard::ALL,
        isolation: None,
        sprt: None,
        record: None,
        record_games: None,
    };
    let (records, _) = tournament.play(Vec::new(), &mut Writer::none(), |_| {})?;
    let labels: Vec<String> = tournament.entrants.iter().map(|e| e.label.clone()).collect();
    let table = standings(&labels, &crate::tournament::seats_of(&records));
    Ok(playing
        .iter()
        .zip(table)
        .map(|((candidate, _), standing)| Score {
            candidate: *candidate,
            games: standing.games,
            points: None,
            lines: standing.lines.mean,
            sent_per_piece: 0.0,
        })
        .collect())
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
}
