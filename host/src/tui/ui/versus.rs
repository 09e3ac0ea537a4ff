//! Versus on screen: two boards side by side under a header, each with its garbage
//! meter, its panel and the verdict.

use super::{colour, draw_board, end_cause, later_line, piece_lines, speed_text};
use crate::replay::RecordedEnd;
use crate::tui::app::{App, Garbage, Side};
use crate::tui::keys::Mode;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

/// Columns of each board's panel in versus: two boards of ten columns, their meters and
/// panels fit in 80 columns.
pub(super) const VERSUS_PANEL_WIDTH: u16 = 16;
/// Rows a versus panel needs.
pub(super) const VERSUS_PANEL_HEIGHT: u16 = 20;
/// Columns of the garbage meter beside a versus board.
pub(super) const METER_WIDTH: u16 = 2;

/// Two boards side by side under a header: each with its garbage meter on its left, its
/// player's name on its frame (the board the plugin keys act on framed in yellow), and
/// its panel on its right.
pub(super) fn draw_versus(frame: &mut Frame, app: &App, area: Rect, board_size: (u16, u16)) {
    let [header, boards] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(area);
    draw_header(frame, app, header);
    let side_width = METER_WIDTH + board_size.0 + VERSUS_PANEL_WIDTH;
    let columns = Layout::horizontal([Constraint::Length(side_width); 2]).split(boards);
    let choosing = app.mode() == Mode::Demo;
    for (index, (side, &column)) in app.sides().iter().zip(columns.iter()).enumerate() {
        let [meter, board, panel] = Layout::horizontal([
            Constraint::Length(METER_WIDTH),
            Constraint::Length(board_size.0),
            Constraint::Length(VERSUS_PANEL_WIDTH),
        ])
        .areas(column);
        let board = Rect {
            height: board_size.1,
            ..board
        };
        draw_meter(
            frame,
            side,
            Rect {
                height: board_size.1,
                ..meter
            },
        );
        let mut block = Block::bordered().title(format!(" {} ", app.player(index)));
        if choosing && index == app.selected() {
            block = block.border_style(Color::Yellow);
        }
        draw_board(frame, side, block, board);
        let other = &app.sides()[1 - index];
        draw_versus_panel(frame, app, index, other, panel);
    }
}

/// The rows of garbage waiting to rise, as a red column from the bottom of the well.
fn draw_meter(frame: &mut Frame, side: &Side, area: Rect) {
    let pending = side.garbage().map_or(0, |garbage| garbage.pending) as u16;
    let well = area.height.saturating_sub(2);
    let lines: Vec<Line> = (0..area.height)
        .map(|row| {
            // Row 0 is the frame's top edge; the well's rows follow, its bottom at `well`.
            let from_bottom = well.saturating_sub(row);
            if row >= 1 && row <= well && from_bottom < pending {
                Line::styled("█ ", Color::Red)
            } else {
                Line::from("")
            }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// One line over both boards: the screen, the rules, the seed, the pace, and once the
/// game is over, who won.
fn draw_header(frame: &mut Frame, app: &App, area: Rect) {
    let rules = app.tracked().game().rules();
    let mut parts = vec![
        format!("{} versus", app.mode().name()),
        format!("{} {}x{}", rules.preset, rules.width, rules.height),
        format!("seed {:#x}", app.game_seed()),
    ];
    if let Some((tick, len)) = app.progress() {
        parts.push(format!("tick {tick} of {len}"));
    }
    match (app.countdown(), app.play_time()) {
        (Some(left), _) => parts.push(format!("starts in {}", left.as_secs() + 1)),
        (None, Some(time)) => parts.push(clock_text(time)),
        (None, None) => parts.push(speed_text(app, app.stats().level())),
    }
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let alert = Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    let mut spans = vec![Span::styled(parts.join(" · "), bold)];
    if app.paused() && app.sides().iter().any(|side| side.end().is_none()) {
        spans.push(Span::styled("  PAUSED", alert));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_versus_panel(frame: &mut Frame, app: &App, index: usize, other: &Side, area: Rect) {
    let side = &app.sides()[index];
    let game = side.tracked().game();
    let stats = side.stats();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled("next", bold)];
    match game.preview() {
        Some(next) => lines.extend(piece_lines(game.pieces().kind(next), colour(next))),
        None => lines.push(Line::from(" (off)")),
    }
    lines.extend(later_line(game));
    lines.push(Line::from(""));
    let garbage = side.garbage().unwrap_or(Garbage {
        pending: 0,
        sent: 0,
        received: 0,
    });
    lines.extend([
        narrow_stat("lines", stats.lines.to_string()),
        narrow_stat("pieces", stats.pieces.to_string()),
        narrow_stat("points", stats.score.to_string()),
        narrow_stat("sent", garbage.sent.to_string()),
        narrow_stat("received", garbage.received.to_string()),
        narrow_stat("waiting", garbage.pending.to_string()),
    ]);
    match app.rates(index) {
        // A live game's pace: TETR.IO's three numbers.
        Some(rates) => lines.extend([
            narrow_stat("PPS", format!("{:.2}", rates.pps)),
            narrow_stat("APM", format!("{:.1}", rates.apm)),
            narrow_stat("VS", format!("{:.1}", rates.vs)),
        ]),
        None => lines.push(narrow_stat(
            "µs/upd",
            side.update_us().map_or("-".to_string(), |us| format!("{us:.1}")),
        )),
    }
    if side.violations() > 0 {
        lines.push(narrow_stat("faults", side.violations().to_string()));
    }
    if let Some((plugin, count)) = app.plugin_slot(index) {
        lines.push(Line::from(format!("plugin {} of {count}", plugin + 1)));
    }
    lines.push(Line::from(""));
    let alert = Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    if let Some(end) = side.end() {
        let (verdict, cause) = versus_verdict(end, other.end());
        lines.push(Line::styled(verdict, alert));
        lines.extend(cause.map(Line::from));
        if let Some(error) = side.error() {
            lines.push(Line::from(error.to_string()));
        }
    }
    let panel = Paragraph::new(lines).wrap(Wrap { trim: false });
    frame.render_widget(
        panel.block(Block::new().padding(ratatui::widgets::Padding::left(1))),
        area,
    );
}

/// A game's time as minutes and seconds, to the tenth: `1:05.3`.
fn clock_text(time: std::time::Duration) -> String {
    let tenths = time.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

fn narrow_stat(name: &str, value: String) -> Line<'static> {
    Line::from(format!("{name:<8}{value:>7}"))
}

/// How one board's versus game ended, given how the other's did: the verdict, and why.
fn versus_verdict(end: RecordedEnd, other: Option<RecordedEnd>) -> (&'static str, Option<&'static str>) {
    let both_lost = end.is_loss() && other.is_some_and(RecordedEnd::is_loss);
    match end {
        RecordedEnd::Won => ("WON", None),
        RecordedEnd::Capped => ("DRAW", Some(end_cause(end))),
        RecordedEnd::Unfinished => ("STOPPED", None),
        _ if both_lost => ("DRAW", Some(end_cause(end))),
        _ => ("LOST", Some(end_cause(end))),
    }
}
