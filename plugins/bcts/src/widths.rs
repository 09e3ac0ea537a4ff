//! The one dispatch from an orientation's width and whether the detail features count to
//! loops compiled for them: `W` and `DETAIL` as constants the feature loops unroll on.

/// Evaluates `$call` with the constants `W` (the orientation's width, 1 to 4) and `DETAIL`
/// in scope, chosen from `$width` and `$detail`; `$wider` for an orientation of another
/// width. Without `$wider` the width is at most 4 (the caller made sure), and any width
/// not 1 to 3 is taken as 4.
macro_rules! by_width_and_detail {
    ($width:expr, $detail:expr, $call:expr, _ => $wider:expr) => {
        by_width_and_detail!(@match $width, $detail, $call,
            (4, true) => by_width_and_detail!(@ 4, true, $call),
            _ => $wider)
    };
    ($width:expr, $detail:expr, $call:expr) => {
        by_width_and_detail!(@match $width, $detail, $call, _ => by_width_and_detail!(@ 4, true, $call))
    };
    // The arms both forms share, then the last ones as given.
    (@match $width:expr, $detail:expr, $call:expr, $($last:tt)*) => {
        match ($width, $detail) {
            (1, false) => by_width_and_detail!(@ 1, false, $call),
            (2, false) => by_width_and_detail!(@ 2, false, $call),
            (3, false) => by_width_and_detail!(@ 3, false, $call),
            (4, false) => by_width_and_detail!(@ 4, false, $call),
            (1, true) => by_width_and_detail!(@ 1, true, $call),
            (2, true) => by_width_and_detail!(@ 2, true, $call),
            (3, true) => by_width_and_detail!(@ 3, true, $call),
            $($last)*
        }
    };
    (@ $w:literal, $d:literal, $call:expr) => {{
        const W: usize = $w;
        const DETAIL: bool = $d;
        $call
    }};
}
