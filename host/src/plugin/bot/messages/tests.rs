//! The messages as JSON lines, both ways.

use super::*;

#[test]
fn messages_are_json_lines_with_a_type_and_unknown_fields_are_ignored() {
    let tick = HostMessage::Tick {
        field: Cow::Borrowed(&[0, 3]),
        current: Some(Falling {
            piece: 2,
            orientation: 1,
            x: 3,
            y: -1,
        }),
        next: None,
        new_piece: true,
        state: State {
            queue: vec![4, 0],
            hold: Some(6),
            hold_available: true,
            combo: 2,
            back_to_back: false,
            pending_garbage: 3,
        },
    };
    let text = serde_json::to_string(&tick).unwrap();
    assert_eq!(
        text,
        concat!(
            r#"{"type":"tick","field":[0,3],"current":{"piece":2,"orientation":1,"x":3,"y":-1},"next":null,"#,
            r#""new_piece":true,"queue":[4,0],"hold":6,"hold_available":true,"combo":2,"back_to_back":false,"#,
            r#""pending_garbage":3}"#
        )
    );
    // The state survives the ABI's layout, and a tick without it reads as empty.
    let HostMessage::Tick { state, .. } = serde_json::from_str(&text).unwrap() else {
        panic!("a tick")
    };
    assert_eq!(State::from_abi(&state.to_abi()), state);
    let old: HostMessage<'_> =
        serde_json::from_str(r#"{"type":"tick","field":[0],"current":null,"next":1,"new_piece":false}"#).unwrap();
    assert!(matches!(old, HostMessage::Tick { state, .. } if state == State::default()));
    let placement: BotMessage =
        serde_json::from_str(r#"{"type":"placement","orientation":1,"column":4,"score":9.5}"#).unwrap();
    assert!(matches!(
        placement,
        BotMessage::Placement {
            orientation: 1,
            column: 4,
            slide: 0
        }
    ));
    let info: BotMessage =
        serde_json::from_str(r#"{"type":"info","protocol":1,"name":"b","answers":"tick","extra":[1]}"#).unwrap();
    assert!(matches!(
        info,
        BotMessage::Info(Info {
            answers: Answers::Tick,
            ..
        })
    ));
    assert!(serde_json::from_str::<BotMessage>(r#"{"type":"dance"}"#).is_err());
}

#[test]
fn the_start_mirrors_the_game_info() {
    let rules = Rules::default();
    let start = Start::new(&rules, &PieceSet::tetrominoes(), 7, "a=1");
    let text = serde_json::to_value(HostMessage::Start(Box::new(start))).unwrap();
    assert_eq!(text["type"], "start");
    assert_eq!(text["preset"], "classic");
    assert_eq!(text["pieces"][0]["name"], "I");
    assert_eq!(text["pieces"][0]["box"], 4);
    assert_eq!(text["pieces"][0]["orientations"].as_array().unwrap().len(), 2);
    assert_eq!(text["pieces"][0]["spawn"], serde_json::json!([3, -1]));
    assert_eq!(text["options"], "a=1");
    // A bot reads it back to the same rules and pieces.
    let read: HostMessage<'_> = serde_json::from_value(text).unwrap();
    let HostMessage::Start(start) = read else {
        panic!("a start")
    };
    let (rules_back, pieces) = start.setup().unwrap();
    assert_eq!(
        (
            rules_back.preset,
            rules_back.width,
            rules_back.height,
            rules_back.preview
        ),
        (rules.preset, 10, 20, 1)
    );
    assert_eq!(pieces, PieceSet::tetrominoes());
    // Under guideline, the SRS pieces keep their four states through the message.
    let rules = Rules::preset(tetrad_plugin_api::Preset::Guideline);
    let start = Start::new(&rules, &PieceSet::srs(), 7, "");
    let text = serde_json::to_string(&start).unwrap();
    let (rules_back, pieces) = serde_json::from_str::<Start<'_>>(&text).unwrap().setup().unwrap();
    assert_eq!((rules_back.preset, rules_back.preview), (rules.preset, 6));
    assert_eq!(pieces, PieceSet::srs());
}
