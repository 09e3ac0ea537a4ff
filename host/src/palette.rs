//! The piece colours, written once: the terminal draws with them, the replay page embeds
//! them, and its legend names them.

use ratatui::style::Color;
use tetrad_plugin_api::PieceId;

/// A colour as red, green and blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, for CSS.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// The terminal colour (24-bit).
    pub fn terminal(self) -> Color {
        Color::Rgb(self.0, self.1, self.2)
    }

    /// How far apart two colours look: the "redmean" weighted distance of Thiadmer
    /// Riemersma's "Colour metric" (compuphase.com/cmetric.htm), which weighs red, green
    /// and blue as the eye does closely enough for telling pieces apart. Black to white is
    /// about 765; the old red Z and bright red L were 85 apart.
    pub fn distance(self, other: Rgb) -> f64 {
        let mean_red = (f64::from(self.0) + f64::from(other.0)) / 2.0;
        let (r, g, b) = (
            f64::from(self.0) - f64::from(other.0),
            f64::from(self.1) - f64::from(other.1),
            f64::from(self.2) - f64::from(other.2),
        );
        ((2.0 + mean_red / 256.0) * r * r + 4.0 * g * g + (2.0 + (255.0 - mean_red) / 256.0) * b * b).sqrt()
    }
}

/// Piece colours by piece index: the seven tetrominoes in the usual colours (I cyan, O
/// yellow, T purple, S green, Z red, J blue, L orange), then five more for larger sets;
/// a set of more than twelve kinds repeats them.
pub const PIECES: [Rgb; 12] = [
    Rgb(0, 200, 220),
    Rgb(240, 215, 0),
    Rgb(160, 50, 200),
    Rgb(40, 190, 60),
    Rgb(220, 30, 40),
    Rgb(40, 80, 230),
    Rgb(245, 125, 0),
    Rgb(255, 120, 200),
    Rgb(125, 75, 30),
    Rgb(180, 235, 120),
    Rgb(0, 120, 120),
    Rgb(235, 235, 235),
];

/// Garbage rows, and the grid of empty cells on the replay page.
pub const GARBAGE: Rgb = Rgb(127, 127, 127);

/// The colour a piece of this kind is drawn in.
pub fn piece(piece: PieceId) -> Rgb {
    PIECES[piece.index() % PIECES.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Far enough apart to tell at a glance, on a board cell (see [`Rgb::distance`]).
    const DISTINCT: f64 = 150.0;

    #[test]
    fn every_two_piece_colours_and_garbage_look_apart() {
        let all: Vec<Rgb> = PIECES.iter().copied().chain([GARBAGE]).collect();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                let apart = a.distance(*b);
                assert!(apart >= DISTINCT, "{} and {} are {apart:.0} apart", a.hex(), b.hex());
            }
        }
    }

    #[test]
    fn the_distance_measures_what_the_eye_sees() {
        assert_eq!(Rgb(10, 20, 30).distance(Rgb(10, 20, 30)), 0.0);
        assert!(Rgb(0, 0, 0).distance(Rgb(255, 255, 255)) > 760.0);
        // The two reds a reader could not tell apart.
        assert!(Rgb(205, 0, 0).distance(Rgb(255, 0, 0)) < DISTINCT);
        assert_eq!(Rgb(0, 200, 220).hex(), "#00c8dc");
    }
}
