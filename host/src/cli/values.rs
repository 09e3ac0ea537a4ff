//! The checks on the command line's values: counts within bounds, finite numbers, shards,
//! SPRT bounds, presets and randomizers, each refused in clap's one-line error.

use tetrad_plugin_api::{Preset, Randomizer};

pub(super) fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("`{text}` is not ELO0,ELO1 with ELO0 < ELO1 (for example 0,20)");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a.is_finite() && b.is_finite() && a < b {
        Ok((a, b))
    } else {
        Err(bad())
    }
}

pub(super) fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("`{text}` is not K/N with 1 <= K <= N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if (1..=n).contains(&k) {
        Ok((k, n))
    } else {
        Err(bad())
    }
}

/// Most games of a run, of a tournament (per entrant), or of one tune generation (in all):
/// a run keeps every game's result in memory until its summary.
pub const MAX_GAMES: u64 = 1_000_000;

/// Most games played at once.
pub const MAX_JOBS: usize = 1024;

/// Most candidates of a `tune` generation.
pub const MAX_POPULATION: u64 = 100_000;

/// `--games` from `min` to [`MAX_GAMES`].
pub(super) fn games_parser(min: u64) -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(min..=MAX_GAMES)
}

/// A finite number.
pub(super) fn parse_finite(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if value.is_finite() => Ok(value),
        Ok(_) => Err(format!("`{text}` is not a finite number")),
        Err(_) => Err(format!("`{text}` is not a number")),
    }
}

/// A finite number `>= 0`.
pub(super) fn parse_non_negative(text: &str) -> Result<f64, String> {
    let value = parse_finite(text)?;
    if value < 0.0 {
        return Err(format!("`{text}` is negative"));
    }
    Ok(value)
}

/// A finite number `> 0`.
pub(super) fn parse_positive(text: &str) -> Result<f64, String> {
    let value = parse_finite(text)?;
    if value <= 0.0 {
        return Err(format!("`{text}` is not a positive number"));
    }
    Ok(value)
}

/// A share in (0, 1].
pub(super) fn parse_fraction(text: &str) -> Result<f64, String> {
    let value = parse_finite(text)?;
    if !(value > 0.0 && value <= 1.0) {
        return Err(format!("`{text}` is not in (0, 1]"));
    }
    Ok(value)
}

/// A chance in [0, 1].
pub(super) fn parse_unit_interval(text: &str) -> Result<f64, String> {
    let value = parse_finite(text)?;
    if !(0.0..=1.0).contains(&value) {
        return Err(format!("`{text}` is not in 0..=1"));
    }
    Ok(value)
}

/// A named set of garbage options.
pub(super) fn parse_garbage_set(text: &str) -> Result<crate::engine::GarbageSet, String> {
    text.parse()
}

/// A versus pace: `ticks`, `pieces` or `realtime`.
pub(super) fn parse_pace(text: &str) -> Result<crate::engine::Pace, String> {
    text.parse()
}

/// Comma-separated finite numbers, checked and kept as written.
pub(super) fn parse_numbers(text: &str) -> Result<String, String> {
    for value in text.split(',') {
        parse_finite(value)?;
    }
    Ok(text.to_string())
}

/// Comma-separated finite numbers `>= 0`, checked and kept as written.
pub(super) fn parse_deviations(text: &str) -> Result<String, String> {
    for value in text.split(',') {
        parse_non_negative(value)?;
    }
    Ok(text.to_string())
}

pub(super) fn parse_preset(text: &str) -> Result<Preset, String> {
    text.parse().map_err(|e: tetrad_plugin_api::RulesError| e.to_string())
}

pub(super) fn parse_randomizer(text: &str) -> Result<Randomizer, String> {
    text.parse().map_err(|e: tetrad_plugin_api::RulesError| e.to_string())
}

/// A size in bytes: a number, with `K`, `M` or `G` (powers of 1024) after it if wanted.
pub(super) fn parse_size(text: &str) -> Result<u64, String> {
    let (number, unit) = match text.trim().char_indices().last() {
        Some((at, c)) if c.is_ascii_alphabetic() => (&text.trim()[..at], c.to_ascii_uppercase()),
        _ => (text.trim(), 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        _ => return Err(format!("`{text}` is not a size (a number, then K, M or G)")),
    };
    let value: u64 = number
        .parse()
        .map_err(|_| format!("`{text}` is not a size (a number, then K, M or G)"))?;
    value
        .checked_shl(shift)
        .filter(|bytes| bytes >> shift == value && *bytes >= 16 << 20)
        .ok_or_else(|| format!("`{text}` is out of range (16M and up)"))
}
