//! The charts' scales and labels.

use super::*;

#[test]
fn labels_are_shortened_by_characters() {
    assert_eq!(shorten("tree-search", 20), "tree-search");
    assert_eq!(shorten("tree-search@depth=1", 8), "tree-se…");
    assert_eq!(shorten("ééééé", 3), "éé…");
}

#[test]
fn heat_runs_from_red_through_white_to_blue() {
    assert_eq!(heat(0.5), WHITE);
    assert_eq!(heat(0.0), RGBColor(214, 96, 77));
    assert_eq!(heat(1.0), RGBColor(69, 117, 180));
}

#[test]
fn axis_times_read_as_people_write_them() {
    assert_eq!(micros(0.1), "0.1 µs");
    assert_eq!(micros(10.0), "10 µs");
    assert_eq!(micros(2500.0), "2.5 ms");
}
