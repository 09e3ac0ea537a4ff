//! Named sets of garbage options (`--garbage NAME`): the numbers a modern game publishes,
//! each with its source, offered only where a source gives them.

use super::GarbageRules;

/// A modern game's published garbage numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GarbageSet {
    /// Jstris's default garbage delay, 500 ms: "the minimum amount of time an incoming
    /// attack has to be visible in the red bar before a placed block can trigger the
    /// insertion of that garbage" (the Jstris guide, jezevec10/jstris-guide, `guide.md`,
    /// "Garbage Delay"). The guide names no cap, and its messiness is a scale of its own
    /// (-100 to 100) with no default given, so both stay plain.
    Jstris,
}

impl GarbageSet {
    /// Every set, in the order help lists them.
    pub const ALL: [GarbageSet; 1] = [GarbageSet::Jstris];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GarbageSet::Jstris => "jstris",
        }
    }

    /// Its garbage options.
    pub fn rules(self) -> GarbageRules {
        match self {
            GarbageSet::Jstris => GarbageRules {
                delay: 500,
                ..GarbageRules::default()
            },
        }
    }

    /// Whether its delay is a time, which only the realtime pace counts.
    pub fn delay_is_a_time(self) -> bool {
        match self {
            GarbageSet::Jstris => true,
        }
    }
}

impl std::str::FromStr for GarbageSet {
    type Err = String;

    fn from_str(text: &str) -> Result<GarbageSet, String> {
        GarbageSet::ALL
            .into_iter()
            .find(|set| set.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = GarbageSet::ALL.iter().map(|set| set.name()).collect();
                format!("`{text}` is not a garbage set: {}", names.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_jstris_set_is_its_published_delay_and_names_are_checked() {
        let set: GarbageSet = "jstris".parse().unwrap();
        assert_eq!(
            set.rules(),
            GarbageRules {
                delay: 500,
                ..GarbageRules::default()
            }
        );
        assert!(set.delay_is_a_time());
        assert!("tetrio".parse::<GarbageSet>().unwrap_err().contains("jstris"));
    }
}
