//! The attack table of versus games: how many rows of garbage a clear sends, by its
//! lines, and under `guideline` by its spin, combo, back-to-back and perfect clear.

use super::scoring::{Clear, Spin};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use tetrad_plugin_api::{GuidelineAttack, Preset, Rules};

/// What a clear sends: rows by lines cleared (1, 2, 3, ... lines; a larger clear sends
/// the last entry), and for the guideline's clears, rows for T-spins and T-spin minis by
/// lines, a back-to-back bonus, a combo bonus by clears in a row, and a perfect-clear
/// bonus. The seeds' presets use the lines alone (the rest is 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "TableRecord", into = "TableRecord")]
pub struct AttackTable {
    lines: Vec<u32>,
    /// T-spin single, double, triple.
    spins: [u32; 3],
    /// T-spin mini single, mini double.
    minis: [u32; 2],
    back_to_back: u32,
    /// Extra rows for the 1st, 2nd, ... clear in a row; beyond the table, its last entry.
    combo: Vec<u32>,
    perfect_clear: u32,
}

impl AttackTable {
    /// Most entries a list of the table may have.
    pub const MAX_ENTRIES: usize = 16;
    /// Most rows one entry may send.
    pub const MAX_ROWS: u32 = 64;

    /// The guideline's versus table, the shared model's [`GuidelineAttack`]: single 0,
    /// double 1, triple 2, four lines 4; T-spin single 2, double 4, triple 6; mini single
    /// 0, mini double 1; back-to-back +1; the combo table 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5;
    /// a perfect clear +10.
    pub fn guideline() -> AttackTable {
        AttackTable {
            lines: GuidelineAttack::LINES.to_vec(),
            spins: GuidelineAttack::SPINS,
            minis: GuidelineAttack::MINIS,
            back_to_back: GuidelineAttack::BACK_TO_BACK,
            combo: GuidelineAttack::COMBO.to_vec(),
            perfect_clear: GuidelineAttack::PERFECT_CLEAR,
        }
    }

    /// The default table of `rules`' preset: the guideline's under `guideline`, else the
    /// lines table 0, 1, 2, 4.
    pub fn for_rules(rules: &Rules) -> AttackTable {
        match rules.preset {
            Preset::Guideline => AttackTable::guideline(),
            _ => AttackTable::default(),
        }
    }

    /// Rows sent for clearing `lines` lines without a spin, before bonuses (none for none).
    pub fn rows(&self, lines: u32) -> u32 {
        match lines {
            0 => 0,
            n => self.lines[(n as usize).min(self.lines.len()) - 1],
        }
    }

    /// Rows a clear sends: by its lines and spin, plus its bonuses. A lock that clears
    /// nothing sends nothing, a T-spin with no lines included.
    pub fn attack(&self, clear: &Clear) -> u32 {
        if clear.lines == 0 {
            return 0;
        }
        let by_lines = |table: &[u32]| table[(clear.lines as usize).min(table.len()) - 1];
        // A table of lines alone counts a spin's lines as any other.
        let base = match clear.spin {
            Spin::Mini if self.has_bonuses() => by_lines(&self.minis),
            Spin::Full if self.has_bonuses() => by_lines(&self.spins),
            _ => self.rows(clear.lines),
        };
        let combo = self
            .combo
            .get(clear.combo as usize)
            .or(self.combo.last())
            .copied()
            .unwrap_or(0);
        let back_to_back = if clear.back_to_back { self.back_to_back } else { 0 };
        let perfect = if clear.perfect { self.perfect_clear } else { 0 };
        base + combo + back_to_back + perfect
    }

    /// Whether the table has more than rows by lines.
    fn has_bonuses(&self) -> bool {
        let parts = self.spins.iter().chain(&self.minis).chain(&self.combo);
        parts
            .chain([&self.back_to_back, &self.perfect_clear])
            .any(|&rows| rows != 0)
    }

    fn lines_only(lines: Vec<u32>) -> AttackTable {
        AttackTable {
            lines,
            spins: [0; 3],
            minis: [0; 2],
            back_to_back: 0,
            combo: Vec::new(),
            perfect_clear: 0,
        }
    }
}

impl Default for AttackTable {
    /// 0, 1, 2 and 4 rows for a single, double, triple and four-line clear.
    fn default() -> AttackTable {
        AttackTable::lines_only(vec![0, 1, 2, 4])
    }
}

/// An attack table as files hold it: the list of rows by lines alone (as the seeds'
/// presets use it), or every part by name.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum TableRecord {
    Lines(Vec<u32>),
    Full {
        lines: Vec<u32>,
        spins: [u32; 3],
        minis: [u32; 2],
        back_to_back: u32,
        combo: Vec<u32>,
        perfect_clear: u32,
    },
}

impl TryFrom<TableRecord> for AttackTable {
    type Error = String;

    fn try_from(record: TableRecord) -> Result<AttackTable, String> {
        let table = match record {
            TableRecord::Lines(lines) => AttackTable::lines_only(lines),
            TableRecord::Full {
                lines,
                spins,
                minis,
                back_to_back,
                combo,
                perfect_clear,
            } => AttackTable {
                lines,
                spins,
                minis,
                back_to_back,
                combo,
                perfect_clear,
            },
        };
        table.check()?;
        Ok(table)
    }
}

impl From<AttackTable> for TableRecord {
    fn from(table: AttackTable) -> TableRecord {
        if !table.has_bonuses() {
            return TableRecord::Lines(table.lines);
        }
        TableRecord::Full {
            lines: table.lines,
            spins: table.spins,
            minis: table.minis,
            back_to_back: table.back_to_back,
            combo: table.combo,
            perfect_clear: table.perfect_clear,
        }
    }
}

impl AttackTable {
    fn check(&self) -> Result<(), String> {
        if self.lines.is_empty() || self.lines.len() > AttackTable::MAX_ENTRIES {
            return Err(format!(
                "an attack table lists 1 to {} entries (rows sent for 1, 2, 3, ... lines); {} given",
                AttackTable::MAX_ENTRIES,
                self.lines.len()
            ));
        }
        if self.combo.len() > AttackTable::MAX_ENTRIES {
            return Err(format!(
                "a combo table lists at most {} entries; {} given",
                AttackTable::MAX_ENTRIES,
                self.combo.len()
            ));
        }
        let every = self
            .lines
            .iter()
            .chain(&self.spins)
            .chain(&self.minis)
            .chain(&self.combo)
            .chain([&self.back_to_back, &self.perfect_clear]);
        if let Some(too_many) = every.into_iter().find(|&&r| r > AttackTable::MAX_ROWS) {
            return Err(format!(
                "an attack sends at most {} rows; {too_many} given",
                AttackTable::MAX_ROWS
            ));
        }
        Ok(())
    }
}

/// A comma-separated list of rows.
fn rows_list(text: &str) -> Result<Vec<u32>, String> {
    text.split(',')
        .map(|entry| {
            let entry = entry.trim();
            entry
                .parse::<u32>()
                .map_err(|_| format!("`{entry}` is not a number of rows (e.g. 0,1,2,4)"))
        })
        .collect()
}

impl FromStr for AttackTable {
    type Err = String;

    /// The rows by lines (`0,1,2,4`), then optionally, separated by spaces, the named
    /// parts: `spins=2,4,6 minis=0,1 b2b=1 combo=0,1,1,2 pc=10` (a part not given is 0).
    fn from_str(text: &str) -> Result<AttackTable, String> {
        // Words without `=` are the rows by lines (`0, 1,2,4` is one list).
        let (named, lines): (Vec<&str>, Vec<&str>) = text.split_whitespace().partition(|w| w.contains('='));
        let mut table = AttackTable::lines_only(rows_list(&lines.concat())?);
        for part in named {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            let rows = rows_list(value)?;
            let fixed = |count: usize| -> Result<Vec<u32>, String> {
                if rows.len() == count {
                    Ok(rows.clone())
                } else {
                    Err(format!("`{key}` takes {count} entries; {} given", rows.len()))
                }
            };
            match key {
                "spins" => table.spins.copy_from_slice(&fixed(3)?),
                "minis" => table.minis.copy_from_slice(&fixed(2)?),
                "b2b" => table.back_to_back = fixed(1)?[0],
                "pc" => table.perfect_clear = fixed(1)?[0],
                "combo" => table.combo = rows,
                other => {
                    return Err(format!(
                        "unknown part `{other}` (expected spins, minis, b2b, combo or pc)"
                    ))
                }
            }
        }
        table.check()?;
        Ok(table)
    }
}

impl fmt::Display for AttackTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |rows: &[u32]| rows.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        f.write_str(&list(&self.lines))?;
        if self.has_bonuses() {
            write!(
                f,
                " spins={} minis={} b2b={}",
                list(&self.spins),
                list(&self.minis),
                self.back_to_back
            )?;
            // No combo table is no part at all, as it is read: `combo=` alone reads as empty.
            if !self.combo.is_empty() {
                write!(f, " combo={}", list(&self.combo))?;
            }
            write!(f, " pc={}", self.perfect_clear)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guideline_table_adds_spins_combos_back_to_back_and_perfect_clears() {
        let table = AttackTable::guideline();
        let clear = |lines, spin| Clear {
            lines,
            spin,
            ..Clear::default()
        };
        assert_eq!(table.attack(&clear(1, Spin::None)), 0);
        assert_eq!(table.attack(&clear(4, Spin::None)), 4);
        assert_eq!(table.attack(&clear(2, Spin::Full)), 4, "T-spin double");
        assert_eq!(table.attack(&clear(3, Spin::Full)), 6, "T-spin triple");
        assert_eq!(table.attack(&clear(2, Spin::Mini)), 1, "mini double");
        assert_eq!(table.attack(&clear(0, Spin::Full)), 0, "no lines, no attack");
        let chained = Clear {
            combo: 4,
            back_to_back: true,
            ..clear(2, Spin::Full)
        };
        assert_eq!(
            table.attack(&chained),
            4 + 2 + 1,
            "TSD, 5th clear in a row, back-to-back"
        );
        let long = Clear {
            combo: 40,
            ..clear(1, Spin::None)
        };
        assert_eq!(table.attack(&long), 5, "beyond the combo table, its last entry");
        let perfect = Clear {
            perfect: true,
            ..clear(4, Spin::None)
        };
        assert_eq!(table.attack(&perfect), 14);
        // The seeds' table ignores everything but the lines.
        assert_eq!(AttackTable::default().attack(&chained), 1);
        // Written, read and parsed back; the seeds' table stays a plain list.
        let text = table.to_string();
        assert_eq!(
            text,
            "0,1,2,4 spins=2,4,6 minis=0,1 b2b=1 combo=0,1,1,2,2,3,3,4,4,4,5 pc=10"
        );
        assert_eq!(text.parse::<AttackTable>(), Ok(table.clone()));
        let json = serde_json::to_string(&table).unwrap();
        assert!(json.starts_with("{\"lines\":[0,1,2,4]"), "{json}");
        assert_eq!(serde_json::from_str::<AttackTable>(&json).unwrap(), table);
        assert!("0,1 spins=1,2"
            .parse::<AttackTable>()
            .unwrap_err()
            .contains("`spins` takes 3"));
        assert!("0,1 tsd=4"
            .parse::<AttackTable>()
            .unwrap_err()
            .contains("unknown part `tsd`"));
        assert!("0 pc=99".parse::<AttackTable>().unwrap_err().contains("at most 64"));
    }

    /// Every back-to-back, combo (past the table's end) and perfect clear.
    fn streaks() -> impl Iterator<Item = (bool, u32, bool)> {
        [false, true]
            .into_iter()
            .flat_map(|b2b| (0..13).flat_map(move |combo| [(b2b, combo, false), (b2b, combo, true)]))
    }

    #[test]
    fn the_guideline_table_sends_what_the_shared_model_says_for_every_clear() {
        let table = AttackTable::guideline();
        for lines in 0..=6 {
            for spin in [Spin::None, Spin::Mini, Spin::Full] {
                for (back_to_back, combo, perfect) in streaks() {
                    let streak = tetrad_plugin_api::Streak { back_to_back, combo };
                    let clear = Clear {
                        lines,
                        spin,
                        combo,
                        back_to_back: back_to_back && GuidelineAttack::difficult(lines, spin),
                        perfect,
                    };
                    let shared = GuidelineAttack::rows(lines, spin, streak, perfect);
                    assert_eq!(table.attack(&clear), shared, "{clear:?}");
                }
            }
        }
    }

    #[test]
    fn a_table_without_combos_is_written_without_an_empty_combo_part() {
        let table: AttackTable = "0,1,2,4 spins=2,4,6".parse().unwrap();
        let text = table.to_string();
        assert_eq!(text, "0,1,2,4 spins=2,4,6 minis=0,0 b2b=0 pc=0");
        assert_eq!(text.parse::<AttackTable>(), Ok(table));
    }

    #[test]
    fn the_table_reads_parses_and_refuses() {
        let table = AttackTable::default();
        assert_eq!(
            (0..=6).map(|l| table.rows(l)).collect::<Vec<_>>(),
            [0, 0, 1, 2, 4, 4, 4]
        );
        assert_eq!("0, 1,2,4".parse::<AttackTable>(), Ok(table.clone()));
        assert_eq!(table.to_string(), "0,1,2,4");
        assert!("0,x".parse::<AttackTable>().unwrap_err().contains("`x`"));
        assert!("".parse::<AttackTable>().is_err());
        assert!("65".parse::<AttackTable>().unwrap_err().contains("at most 64"));
        let json = serde_json::to_string(&table).unwrap();
        assert_eq!(json, "[0,1,2,4]");
        assert!(serde_json::from_str::<AttackTable>("[]").is_err());
    }
}
