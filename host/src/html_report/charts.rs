//! The charts, drawn with plotters into SVG strings meant to sit inline in an HTML page.
//!
//! Text is written as SVG `text` elements in the generic `sans-serif` family, so the
//! browser draws it with a font it has; plotters escapes it. Layout estimates text widths
//! at about 0.6 em per character, so long labels are shortened before they are drawn.

use super::data::{UpdateTimes, WonDrawnLost};
use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A chart that could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("drawing the {chart} chart: {message}")]
pub struct ChartError {
    /// Which chart.
    chart: &'static str,
    /// What plotters said.
    message: String,
}

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
type Drawn = Result<(), Box<dyn std::error::Error>>;

const FONT: &str = "sans-serif";
const TEXT: RGBColor = RGBColor(40, 40, 40);
const GRID: RGBColor = RGBColor(225, 225, 225);

/// One colour per entrant, in standings order: Tableau 10, then ten lighter shades;
/// repeats after twenty.
pub fn color(entrant: usize) -> RGBColor {
    const COLORS: [RGBColor; 20] = [
        RGBColor(78, 121, 167),
        RGBColor(242, 142, 43),
        RGBColor(225, 87, 89),
        RGBColor(118, 183, 178),
        RGBColor(89, 161, 79),
        RGBColor(237, 201, 72),
        RGBColor(176, 122, 161),
        RGBColor(255, 157, 167),
        RGBColor(156, 117, 95),
        RGBColor(186, 176, 172),
        RGBColor(174, 199, 232),
        RGBColor(255, 187, 120),
        RGBColor(152, 223, 138),
        RGBColor(255, 152, 150),
        RGBColor(197, 176, 213),
        RGBColor(196, 156, 148),
        RGBColor(247, 182, 210),
        RGBColor(199, 199, 199),
        RGBColor(219, 219, 141),
        RGBColor(158, 218, 229),
    ];
    COLORS[entrant % COLORS.len()]
}

/// `label` cut to `chars` characters, with an ellipsis if it was longer.
pub fn shorten(label: &str, chars: usize) -> String {
    if label.chars().count() <= chars {
        label.to_string()
    } else {
        let kept: String = label.chars().take(chars.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// Draws on a fresh `width` x `height` SVG and returns its text. The `xmlns` attribute is
/// left out: an SVG element inside HTML needs none, and the page refers to no address.
fn svg(chart: &'static str, size: (u32, u32), draw: impl FnOnce(&Area) -> Drawn) -> Result<String, ChartError> {
    let fail = |err: Box<dyn std::error::Error>| ChartError {
        chart,
        message: err.to_string(),
    };
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        root.fill(&WHITE).map_err(|e| fail(e.into()))?;
        draw(&root).map_err(fail)?;
        root.present().map_err(|e| fail(e.into()))?;
    }
    Ok(text.replacen(r#" xmlns="http://www.w3.org/2000/svg""#, "", 1))
}

/// An axis of `count` bands of width 1 over `[0, count]`, with one key point at each
/// band's centre: each band is one entrant, labelled by a formatter. `reversed` runs it
/// from the far end (for rows listed top to bottom).
#[derive(Clone, Copy)]
struct Bands {
    count: usize,
    reversed: bool,
}

impl Ranged for Bands {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let share = value / self.count.max(1) as f64;
        let share = if self.reversed { 1.0 - share } else { share };
        limit.0 + (share * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            return Vec::new();
        }
        (0..self.count).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> std::ops::Range<f64> {
        0.0..self.count as f64
    }
}

/// A legend in its own area: one coloured line and label per entrant.
fn legend(area: &Area, labels: &[&str]) -> Drawn {
    for (i, label) in labels.iter().enumerate() {
        let y = 40 + 28 * i as i32;
        area.draw(&PathElement::new(vec![(8, y), (36, y)], color(i).stroke_width(3)))?;
        let style = (FONT, 19)
            .into_font()
            .color(&TEXT)
            .pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(shorten(label, 22), (44, y), style))?;
    }
    Ok(())
}

/// The survival curves of every entrant on one chart, with a legend at its right.
/// `curves` holds each entrant's label and [`super::data::survival`] corners.
pub fn survival(curves: &[(&str, Vec<(u64, f64)>)]) -> Result<String, ChartError> {
    let longest = curves
        .iter()
        .flat_map(|(_, points)| points.last().map(|p| p.0))
        .max()
        .unwrap_or(0)
        .max(1);
    // Room for the legend: one line per entrant.
    let height = 480.max(60 + 28 * curves.len() as u32);
    svg("survival", (1100, height), |root| {
        let (plot, side) = root.split_horizontally(860);
        let mut chart = ChartBuilder::on(&plot)
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d((1..longest.max(10)).log_scale(), 0.0..1.03)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .x_desc("pieces played (log scale)")
            .y_desc("games still alive")
            .y_labels(12)
            .y_label_formatter(&|share| format!("{:.0}%", share * 100.0))
            .axis_desc_style((FONT, 19))
            .label_style((FONT, 17).into_font().color(&TEXT))
            .draw()?;
        for (i, (_, points)) in curves.iter().enumerate() {
            let points = points.iter().map(|&(x, share)| (x.max(1), share));
            chart.draw_series(LineSeries::new(points, color(i).stroke_width(2)))?;
        }
        let labels: Vec<&str> = curves.iter().map(|(label, _)| *label).collect();
        legend(&side, &labels)
    })
}

/// Histograms of lines cleared per game, one panel per entrant, all on the same axes.
/// `counts` holds each entrant's label and its count per bin of `width` lines.
pub fn lines(counts: &[(&str, Vec<u64>)], width: u64) -> Result<String, ChartError> {
    let columns = counts.len().clamp(1, 3);
    let rows = counts.len().div_ceil(columns).max(1);
    let bins = counts.iter().map(|(_, c)| c.len()).max().unwrap_or(1).max(1) as u64;
    let top = counts
        .iter()
        .flat_map(|(_, c)| c.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    svg("lines", (1100, 300 * rows as u32), |root| {
        let panels = root.split_evenly((rows, columns));
        for (i, ((label, counts), panel)) in counts.iter().zip(&panels).enumerate() {
            let mut chart = ChartBuilder::on(panel)
                .margin(12)
                .caption(shorten(label, 36), (FONT, 21).into_font().color(&color(i)))
                .x_label_area_size(44)
                .y_label_area_size(50)
                .build_cartesian_2d(0..bins * width, 0..top)?;
            chart
                .configure_mesh()
                .light_line_style(WHITE)
                .bold_line_style(GRID)
                .x_labels(6)
                .y_labels(5)
                .x_desc("lines cleared")
                .y_desc("games")
                .axis_desc_style((FONT, 17))
                .label_style((FONT, 16).into_font().color(&TEXT))
                .draw()?;
            chart.draw_series(counts.iter().enumerate().filter(|(_, &n)| n > 0).map(|(bin, &n)| {
                let x = bin as u64 * width;
                Rectangle::new([(x, 0), (x + width, n)], color(i).filled())
            }))?;
            chart.draw_series(counts.iter().enumerate().filter(|(_, &n)| n > 0).map(|(bin, &n)| {
                let x = bin as u64 * width;
                Rectangle::new([(x, 0), (x + width, n)], WHITE.stroke_width(1))
            }))?;
        }
        Ok(())
    })
}

/// The shades of the four update-time percentiles, light to dark.
const PERCENTILE_COLORS: [RGBColor; 4] = [
    RGBColor(158, 202, 225),
    RGBColor(66, 146, 198),
    RGBColor(8, 81, 156),
    RGBColor(8, 29, 88),
];

/// Update-time percentiles as grouped bars on a logarithmic axis, one group per entrant.
pub fn update_times(times: &[(&str, UpdateTimes)]) -> Result<String, ChartError> {
    let values = || {
        times
            .iter()
            .flat_map(|(_, t)| t.named().map(|(_, v)| v))
            .filter(|&v| v > 0.0)
    };
    let low = values().fold(f64::INFINITY, f64::min);
    let high = values().fold(0.0, f64::max);
    let (low, high) = if low.is_finite() {
        (
            10f64.powf(low.log10().floor()),
            10f64.powf(high.log10().ceil()).max(low * 10.0),
        )
    } else {
        (0.1, 1.0)
    };
    let groups = times.len().max(1);
    // About 8 pixels a character. Names that would be cut short past recognition give
    // way to the entrants' numbers, as in the tables and the pairwise matrix.
    let label_chars = (860 / groups / 8).min(30);
    let numbered = label_chars < 10 && times.iter().any(|(label, _)| label.chars().count() > label_chars);
    svg("update-time", (1100, 460), |root| {
        let (plot, side) = root.split_horizontally(920);
        let bands = Bands {
            count: groups,
            reversed: false,
        };
        let mut chart = ChartBuilder::on(&plot)
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(bands, (low..high).log_scale())?;
        chart
            .configure_mesh()
            .light_line_style(WHITE)
            .bold_line_style(GRID)
            .disable_x_mesh()
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                match times.get(i) {
                    Some(_) if numbered => (i + 1).to_string(),
                    Some((label, _)) => shorten(label, label_chars),
                    None => String::new(),
                }
            })
            .y_label_formatter(&|us| micros(*us))
            .y_desc("time per update")
            .axis_desc_style((FONT, 19))
            .label_style((FONT, 17).into_font().color(&TEXT))
            .draw()?;
        for (i, (_, t)) in times.iter().enumerate() {
            chart.draw_series(
                t.named()
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, v))| *v > 0.0)
                    .map(|(k, &(_, v))| {
                        let left = i as f64 + 0.1 + 0.2 * k as f64;
                        Rectangle::new([(left, low), (left + 0.18, v)], PERCENTILE_COLORS[k].filled())
                    }),
            )?;
        }
        for (k, (name, _)) in UpdateTimes::default().named().iter().enumerate() {
            let y = 40 + 26 * k as i32;
            side.draw(&Rectangle::new(
                [(8, y - 8), (30, y + 8)],
                PERCENTILE_COLORS[k].filled(),
            ))?;
            let style = (FONT, 19)
                .into_font()
                .color(&TEXT)
                .pos(Pos::new(HPos::Left, VPos::Center));
            side.draw(&Text::new(name.to_string(), (40, y), style))?;
        }
        Ok(())
    })
}

/// Microseconds as an axis label: "0.1 µs", "10 µs", "1 ms".
fn micros(us: f64) -> String {
    if us >= 1000.0 {
        format!("{} ms", trim(us / 1000.0))
    } else {
        format!("{} µs", trim(us))
    }
}

/// A number without trailing zeros: 0.1, 10, 2.5.
fn trim(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A cell's colour: red for a record lost, white for even, blue for won.
fn heat(share: f64) -> RGBColor {
    let (far, strength) = if share < 0.5 {
        ((214.0, 96.0, 77.0), (0.5 - share) * 2.0)
    } else {
        ((69.0, 117.0, 180.0), (share - 0.5) * 2.0)
    };
    let mix = |c: f64| (255.0 + (c - 255.0) * strength).round() as u8;
    RGBColor(mix(far.0), mix(far.1), mix(far.2))
}

/// The pairwise matrix as a heat map: row against column, each cell coloured by the
/// share of seeds the row won and labelled with its won count and won-drawn-lost record.
pub fn pairwise(labels: &[String], matrix: &[Vec<Option<WonDrawnLost>>]) -> Result<String, ChartError> {
    let n = labels.len().max(1);
    let cell = (640 / n as u32).clamp(48, 110);
    let row_labels: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, label)| format!("{}. {}", i + 1, shorten(label, 28)))
        .collect();
    let label_width = row_labels.iter().map(|l| l.chars().count()).max().unwrap_or(4) as u32 * 9 + 24;
    let size = (label_width + cell * n as u32 + 40, cell * n as u32 + 80);
    svg("pairwise", size, |root| {
        let mut chart = ChartBuilder::on(root)
            .margin(16)
            .top_x_label_area_size(40)
            .y_label_area_size(label_width)
            .build_cartesian_2d(
                Bands {
                    count: n,
                    reversed: false,
                },
                Bands {
                    count: n,
                    reversed: true,
                },
            )?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_label_formatter(&|x| format!("{}", x.floor() as usize + 1))
            .y_label_formatter(&|y| row_labels.get(y.floor() as usize).cloned().unwrap_or_default())
            .label_style((FONT, 18).into_font().color(&TEXT))
            .draw()?;
        let centred = Pos::new(HPos::Center, VPos::Center);
        let big = TextStyle::from((FONT, 26).into_font()).pos(centred);
        let small = TextStyle::from((FONT, 16).into_font()).pos(centred);
        for (i, row) in matrix.iter().enumerate() {
            for (j, record) in row.iter().enumerate() {
                let (x, y) = (j as f64, i as f64);
                let share = record.and_then(WonDrawnLost::share);
                let fill = match (record, share) {
                    (None, _) => RGBColor(235, 235, 235),
                    (Some(_), None) => WHITE,
                    (Some(_), Some(share)) => heat(share),
                };
                chart.draw_series([
                    Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill.filled()),
                    Rectangle::new([(x, y), (x + 1.0, y + 1.0)], WHITE.stroke_width(2)),
                ])?;
                let Some(WonDrawnLost { won, drawn, lost }) = *record else {
                    continue;
                };
                let ink = if share.is_some_and(|s| (s - 0.5).abs() > 0.3) {
                    WHITE
                } else {
                    BLACK
                };
                chart.draw_series([
                    Text::new(won.to_string(), (x + 0.5, y + 0.42), big.color(&ink)),
                    Text::new(format!("{won}-{drawn}-{lost}"), (x + 0.5, y + 0.75), small.color(&ink)),
                ])?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests;
