//! One description of a game's setup: the rules, the piece set, where the pieces come
//! from, the piece cap and the limits. The results file's header, replays, isolation
//! workers and the screens all carry a [`Setup`], and the host's `setup::args` builds it from
//! the command line, so each is written, read and checked in one place.

mod records;

pub use records::{PieceRecord, RulesRecord};

use crate::engine::{AttackTable, GarbageRules, Pace, Sequences, Speed, Timing};
use crate::referee::{Limits, TimeControl};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tetrad_plugin_api::{derive_seed, PieceSet, Rules};

/// The seed of game `index` of a run with seed `run_seed`.
pub fn game_seed(run_seed: u64, index: u64) -> u64 {
    derive_seed(run_seed, index)
}

/// A game's setup, checked: the rules fit the pieces. Serialised as [`SetupRecord`]
/// would be, and checked again when read back.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(into = "SetupRecord", try_from = "SetupRecord")]
pub struct Setup {
    /// The rules.
    pub rules: Rules,
    /// The piece set.
    pub pieces: Arc<PieceSet>,
    /// Given piece sequences, by content, when the games play them instead of seeded pieces.
    pub sequence: Option<SequenceDigest>,
    /// End a game as capped once this many pieces have locked.
    pub max_pieces: Option<u64>,
    /// What ends a game early as a forfeit.
    pub limits: Limits,
    /// In a versus game, the garbage a clear sends; `None` for solo games.
    pub attack: Option<AttackTable>,
    /// In a versus game, when garbage rises.
    pub garbage: GarbageRules,
    /// In a versus game, what one round is.
    pub pace: Pace,
    /// Under the realtime pace, how fast paths are played.
    pub speed: Speed,
    /// Under `guideline`, the timing rules (gravity, lock delay) a real-time game plays
    /// by; `None`: pieces fall only when a player moves them (the game as it was before).
    pub timing: Option<Timing>,
}

/// Piece sequences by content, not by file name: a copy of the file elsewhere is the same
/// sequence, an edited file is not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SequenceDigest {
    /// Games (lines) in the file.
    pub lines: u64,
    /// The 64-bit FNV-1a digest of every game's pieces, in hexadecimal.
    pub fnv1a64: String,
}

impl SequenceDigest {
    /// The digest of `sequences`.
    pub fn of(sequences: &Sequences) -> SequenceDigest {
        SequenceDigest {
            lines: sequences.len(),
            fnv1a64: format!("{:016x}", sequences.digest()),
        }
    }
}

/// How a [`Setup`] is written: plain names, sizes and cells, not yet checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRecord {
    /// The rules by name and size.
    pub rules: RulesRecord,
    /// Every piece by its first orientation.
    pub pieces: Vec<PieceRecord>,
    /// The sequences' digest, if the games play given pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sequence: Option<SequenceDigest>,
    /// The piece cap.
    #[serde(default)]
    pub max_pieces: Option<u64>,
    /// The think limit, in microseconds.
    #[serde(default)]
    pub think_limit_us: Option<u64>,
    /// Violations allowed per game.
    #[serde(default)]
    pub max_violations: Option<u64>,
    /// The time control's clock, as `--tc` writes it (`40/60+0.5`); left out when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<String>,
    /// The time control's time per piece in seconds, as `--st` writes it; left out when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub st: Option<String>,
    /// The attack table of a versus game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack: Option<AttackTable>,
    /// The garbage options of a versus game, left out when plain.
    #[serde(default, skip_serializing_if = "GarbageRules::is_plain")]
    pub garbage: GarbageRules,
    /// The pace of a versus game, left out when `ticks` (so a file without one is `ticks`).
    #[serde(default, skip_serializing_if = "Pace::is_ticks")]
    pub pace: Pace,
    /// Under the realtime pace, the pieces-per-second limit and the move time, left out
    /// when there are none.
    #[serde(default, skip_serializing_if = "Speed::is_free")]
    pub speed: Speed,
    /// The timing rules of a real-time game, left out when there are none (so older files
    /// read as games without them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timing: Option<Timing>,
}

impl From<Setup> for SetupRecord {
    fn from(setup: Setup) -> SetupRecord {
        SetupRecord {
            rules: RulesRecord::of(&setup.rules),
            pieces: PieceRecord::all(&setup.pieces),
            sequence: setup.sequence,
            max_pieces: setup.max_pieces,
            think_limit_us: setup.limits.think_limit_ns.map(|ns| ns / 1000),
            max_violations: setup.limits.max_violations,
            tc: setup.limits.time_control.and_then(|control| control.tc()),
            st: setup.limits.time_control.and_then(|control| control.st()),
            attack: setup.attack,
            garbage: setup.garbage,
            pace: setup.pace,
            speed: setup.speed,
            timing: setup.timing,
        }
    }
}

impl TryFrom<SetupRecord> for Setup {
    type Error = String;

    fn try_from(record: SetupRecord) -> Result<Setup, String> {
        let rules = record.rules.rules()?;
        let pieces = PieceRecord::set(&record.pieces, rules.rotation())?;
        rules.validate(&pieces).map_err(|e| e.to_string())?;
        record.garbage.check()?;
        record.speed.check()?;
        if let Some(timing) = &record.timing {
            timing.check().map_err(|e| e.to_string())?;
            if rules.preset != tetrad_plugin_api::Preset::Guideline {
                return Err(crate::engine::TimingError::Preset(rules.preset.name().to_string()).to_string());
            }
            if record.attack.is_some() && record.pace != Pace::Realtime {
                return Err(format!(
                    "timing rules (gravity, lock delay) in a versus game count time: its pace is realtime, not {}",
                    record.pace
                ));
            }
        }
        if !record.speed.is_free() && record.pace != Pace::Realtime {
            return Err(format!(
                "a speed ({}) is set, but the pace is {}, not realtime",
                record.speed, record.pace
            ));
        }
        let time_control = match (&record.tc, &record.st) {
            (Some(_), Some(_)) => return Err("a setup has a clock (`tc`) or a time per piece (`st`), not both".into()),
            (Some(tc), None) => Some(TimeControl::parse_tc(tc).map_err(|e| format!("tc: {e}"))?),
            (None, Some(st)) => Some(TimeControl::parse_st(st).map_err(|e| format!("st: {e}"))?),
            (None, None) => None,
        };
        Ok(Setup {
            rules,
            pieces: Arc::new(pieces),
            sequence: record.sequence,
            max_pieces: record.max_pieces,
            limits: Limits {
                think_limit_ns: record.think_limit_us.map(|us| us.saturating_mul(1000)),
                max_violations: record.max_violations,
                time_control,
            },
            attack: record.attack,
            garbage: record.garbage,
            pace: record.pace,
            speed: record.speed,
            timing: record.timing,
        })
    }
}

impl Setup {
    /// `rules` with `pieces`, checked, seeded pieces, no cap and no limits.
    pub fn new(rules: Rules, pieces: Arc<PieceSet>) -> Result<Setup, tetrad_plugin_api::RulesError> {
        rules.validate(&pieces)?;
        Ok(Setup {
            rules,
            pieces,
            sequence: None,
            max_pieces: None,
            limits: Limits::default(),
            attack: None,
            garbage: GarbageRules::default(),
            pace: Pace::Ticks,
            speed: Speed::default(),
            timing: None,
        })
    }

    /// The parts in which two setups differ, in words ("rules", "piece sets", ...); empty
    /// if they describe the same games.
    pub fn differences(&self, other: &Setup) -> Vec<&'static str> {
        let (a, b) = (SetupRecord::from(self.clone()), SetupRecord::from(other.clone()));
        let checks = [
            ("rules", a.rules == b.rules),
            ("piece sets", a.pieces == b.pieces),
            ("piece sequences", a.sequence == b.sequence),
            ("piece caps", a.max_pieces == b.max_pieces),
            ("think limits", a.think_limit_us == b.think_limit_us),
            ("violation limits", a.max_violations == b.max_violations),
            ("time controls", (&a.tc, &a.st) == (&b.tc, &b.st)),
            ("attack tables", a.attack == b.attack),
            ("garbage options", a.garbage == b.garbage),
            ("paces", a.pace == b.pace),
            ("speeds", a.speed == b.speed),
            ("timing rules", a.timing == b.timing),
        ];
        checks.iter().filter(|(_, same)| !same).map(|(what, _)| *what).collect()
    }

    /// One line for people: `classic 10x20, preview 1, uniform pieces` (and `, attack
    /// 0,1,2,4` in versus, with the pace and garbage options where they are not plain).
    pub fn rules_text(&self) -> String {
        let rules = &self.rules;
        let mut attack = self
            .attack
            .as_ref()
            .map(|a| format!(", attack {a}"))
            .unwrap_or_default();
        if self.attack.is_some() && !self.pace.is_ticks() {
            attack.push_str(&format!(", pace {}", self.pace));
        }
        if self.attack.is_some() && !self.speed.is_free() {
            attack.push_str(&format!(" ({})", self.speed));
        }
        if self.attack.is_some() && !self.garbage.is_plain() {
            attack.push_str(&format!(", garbage {}", self.garbage));
        }
        let timing = self.timing.map(|t| format!(", {t}")).unwrap_or_default();
        format!(
            "{} {}x{}, preview {}, {} pieces{timing}{attack}",
            rules.preset,
            rules.width,
            rules.height,
            rules.preview,
            rules.randomizer.name()
        )
    }
}

impl Default for Setup {
    /// The default rules (`classic`) with the seven tetrominoes, seeded, uncapped, unlimited.
    fn default() -> Setup {
        Setup::new(Rules::default(), Arc::new(PieceSet::tetrominoes())).expect("the default rules fit the tetrominoes")
    }
}

impl PartialEq for Setup {
    fn eq(&self, other: &Setup) -> bool {
        self.differences(other).is_empty()
    }
}

#[cfg(test)]
mod tests;
