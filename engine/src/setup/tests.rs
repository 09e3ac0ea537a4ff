use super::*;
use tetrad_plugin_api::{Preset, Randomizer};

fn setup() -> Setup {
    let rules = Rules {
        width: 12,
        randomizer: Randomizer::Bag,
        ..Rules::preset(Preset::Simplified)
    };
    let mut setup = Setup::new(rules, Arc::new(PieceSet::tetrominoes())).expect("valid");
    setup.max_pieces = Some(500);
    setup.limits = Limits {
        think_limit_ns: Some(2_000_000),
        max_violations: Some(3),
        time_control: Some(crate::referee::TimeControl::parse_tc("40/60+0.5").expect("valid")),
    };
    setup
}

#[test]
fn a_setup_reads_back_as_it_was_written() {
    let setup = setup();
    let text = serde_json::to_string(&setup).expect("serialises");
    assert!(text.contains(r#""preset":"simplified""#), "{text}");
    assert!(text.contains(r#""think_limit_us":2000"#), "{text}");
    assert!(text.contains(r#""tc":"40/60+0.5""#), "{text}");
    let back: Setup = serde_json::from_str(&text).expect("reads back");
    assert_eq!(back, setup);
    assert_eq!(back.rules, setup.rules);
    assert_eq!(back.limits, setup.limits);
    assert_eq!(back.pieces.len(), 7);
}

#[test]
fn a_setup_that_cannot_be_played_is_refused_when_read() {
    let mut value = serde_json::to_value(setup()).expect("serialises");
    value["rules"]["width"] = 99.into();
    let err = serde_json::from_value::<Setup>(value).expect_err("too wide");
    assert!(err.to_string().contains("width"), "{err}");
    let mut value = serde_json::to_value(setup()).expect("serialises");
    value["rules"]["preset"] = "tengen".into();
    let err = serde_json::from_value::<Setup>(value).expect_err("unknown preset");
    assert!(err.to_string().contains("tengen"), "{err}");
    let mut value = serde_json::to_value(setup()).expect("serialises");
    value["pieces"][0]["name"] = "\u{1b}[2J".into();
    let err = serde_json::from_value::<Setup>(value).expect_err("a name that is not text");
    assert!(
        err.to_string()
            .contains("piece `\\u{1b}[2J`: the name must be non-empty text"),
        "{err}"
    );
}

#[test]
fn differences_name_each_part_that_differs() {
    let a = setup();
    let mut b = a.clone();
    assert!(a.differences(&b).is_empty());
    b.max_pieces = None;
    b.limits.max_violations = None;
    b.sequence = Some(SequenceDigest {
        lines: 2,
        fnv1a64: "0123456789abcdef".to_string(),
    });
    assert_eq!(a.differences(&b), ["piece sequences", "piece caps", "violation limits"]);
    b.rules.height = 10;
    assert_eq!(a.differences(&b)[0], "rules");
    assert_ne!(a, b);
}

#[test]
fn timing_rules_are_recorded_under_guideline_and_refused_elsewhere() {
    use crate::engine::{Gravity, Timing};
    let mut setup = Setup::new(Rules::preset(Preset::Guideline), Arc::new(PieceSet::srs())).expect("valid");
    let plain = serde_json::to_string(&setup).expect("serialises");
    assert!(
        !plain.contains("timing"),
        "a game without timing rules writes none: {plain}"
    );
    setup.timing = Some(Timing {
        gravity: Gravity::Fixed(0.02),
        ..Timing::guideline()
    });
    let text = serde_json::to_string(&setup).expect("serialises");
    let back: Setup = serde_json::from_str(&text).expect("reads back");
    assert_eq!(back.timing, setup.timing);
    assert!(back
        .rules_text()
        .contains("gravity 0.02G, lock delay 500 ms, 15 move resets"));
    let mut other = back.clone();
    other.timing = None;
    assert_eq!(back.differences(&other), ["timing rules"]);
    let mut value = serde_json::to_value(self::setup()).expect("serialises");
    value["timing"] = serde_json::json!({ "gravity": "guideline" });
    let err = serde_json::from_value::<Setup>(value).expect_err("not under simplified");
    assert!(err.to_string().contains("guideline only, not simplified"), "{err}");
    let mut value = serde_json::to_value(&setup).expect("serialises");
    value["attack"] = serde_json::to_value(crate::engine::AttackTable::guideline()).expect("serialises");
    let err = serde_json::from_value::<Setup>(value.clone()).expect_err("versus by ticks counts no time");
    assert!(err.to_string().contains("its pace is realtime, not ticks"), "{err}");
    value["pace"] = serde_json::json!("realtime");
    let versus: Setup = serde_json::from_value(value).expect("versus at the realtime pace");
    assert_eq!((versus.pace, versus.timing), (Pace::Realtime, setup.timing));
}
