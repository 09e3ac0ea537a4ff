//! Drawing: the board in colour (two terminal columns per cell) beside a panel with the
//! next piece and the numbers, a status line, and the keys on request; in versus, two
//! boards side by side, each with its garbage meter and a narrower panel, under a header.
//! Draws `&App` only.

use super::app::{App, Side};
use super::keys::{self, Mode};
use super::speed::{level_interval, Speed};
use crate::replay::RecordedEnd;
use crate::tracked::Cell;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;
use tetrad_plugin_api::{PieceId, PieceKind};
use versus::{draw_versus, METER_WIDTH, VERSUS_PANEL_HEIGHT, VERSUS_PANEL_WIDTH};

/// Columns of the panel beside the board.
const PANEL_WIDTH: u16 = 32;
/// Rows the panel needs.
const PANEL_HEIGHT: u16 = 24;
/// A filled cell.
const FILLED: &str = "██";
/// An empty cell.
const EMPTY: &str = " .";

/// The colour a piece of this kind is drawn in (see [`crate::palette`]).
pub(crate) fn colour(piece: PieceId) -> Color {
    crate::palette::piece(piece).terminal()
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    let rules = app.tracked().game().rules();
    let board_size = (rules.width as u16 * 2 + 2, rules.shown_rows().len() as u16 + 2);
    let versus = app.sides().len() > 1;
    let needed = if versus {
        let side = METER_WIDTH + board_size.0 + VERSUS_PANEL_WIDTH;
        (2 * side, board_size.1.max(VERSUS_PANEL_HEIGHT) + 2)
    } else {
        (board_size.0 + PANEL_WIDTH, board_size.1.max(PANEL_HEIGHT) + 1)
    };
    if area.width < needed.0 || area.height < needed.1 {
        let text = format!(
            "The terminal is {}x{}; this board needs {}x{}. Enlarge it, or press q to quit.",
            area.width, area.height, needed.0, needed.1
        );
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), area);
        return;
    }
    // A status longer than a row wraps: below the board and panel while there are rows to
    // spare, over their bottom rows beyond that, so a long error is read whole.
    let status = status_line(app);
    let wrapped = wrap_text(&status.to_string(), usize::from(area.width));
    let rows = (wrapped.len() as u16).clamp(1, area.height);
    let spare = area.height - (needed.1 - 1);
    let main = Rect {
        height: area.height - rows.min(spare),
        ..area
    };
    let status_area = Rect {
        y: area.y + area.height - rows,
        height: rows,
        ..area
    };
    if versus {
        draw_versus(frame, app, main, board_size);
    } else {
        let [board, panel] =
            Layout::horizontal([Constraint::Length(board_size.0), Constraint::Length(PANEL_WIDTH)]).areas(main);
        let block = Block::bordered().title(format!(" tetrad {} ", app.mode().name()));
        draw_board(
            frame,
            &app.sides()[0],
            block,
            Rect {
                height: board_size.1,
                ..board
            },
        );
        draw_panel(frame, app, panel);
    }
    if rows == 1 {
        frame.render_widget(Paragraph::new(status), status_area);
    } else {
        let lines: Vec<Line> = wrapped.into_iter().map(Line::from).collect();
        frame.render_widget(Clear, status_area);
        frame.render_widget(Paragraph::new(lines), status_area);
    }
    if app.help_shown() {
        draw_help(frame, app.mode(), main);
    }
}

fn draw_board(frame: &mut Frame, side: &Side, block: Block, area: Rect) {
    let tracked = side.tracked();
    let game = tracked.game();
    let rules = game.rules();
    let mut falling = vec![false; rules.width * rules.height];
    let current = game.current();
    if let Some(piece) = current {
        let shape = game.pieces().kind(piece.piece).orientation(piece.pos.orientation);
        for &(dx, dy) in shape.cells() {
            let (x, y) = (i32::from(piece.pos.x + dx), i32::from(piece.pos.y + dy));
            if (0..rules.width as i32).contains(&x) && (0..rules.height as i32).contains(&y) {
                falling[y as usize * rules.width + x as usize] = true;
            }
        }
    }
    let lines: Vec<Line> = rules
        .shown_rows()
        .map(|y| {
            let spans: Vec<Span> = (0..rules.width)
                .map(|x| match (falling[y * rules.width + x], tracked.cell(x, y)) {
                    (true, _) => Span::styled(FILLED, colour(current.map_or(PieceId(0), |c| c.piece))),
                    (false, Some(Cell::Piece(piece))) => Span::styled(FILLED, colour(piece)),
                    (false, Some(Cell::Unknown)) => Span::styled(FILLED, Color::Gray),
                    (false, Some(Cell::Garbage)) => Span::styled(FILLED, Color::DarkGray),
                    // The buffer rows a guideline piece spawns in, left blank over the field.
                    (false, None) if y < rules.buffer_rows() => Span::raw("  "),
                    (false, None) => Span::styled(EMPTY, Color::DarkGray),
                })
                .collect();
            Line::from(spans)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The previewed pieces after the next one, by name in their colours (`then S Z I`), and
/// under rules with hold, the held piece (`hold T`, or `hold -`).
fn later_line(game: &crate::engine::Game) -> Vec<Line<'static>> {
    let name = |piece: PieceId| Span::styled(game.pieces().kind(piece).name().to_string(), colour(piece));
    let mut lines = Vec::new();
    let later: Vec<PieceId> = game.queue().skip(1).collect();
    if !later.is_empty() {
        let mut spans = vec![Span::raw("then")];
        for piece in later {
            spans.push(Span::raw(" "));
            spans.push(name(piece));
        }
        lines.push(Line::from(spans));
    }
    if game.rules().has_hold() {
        let held = game.held().map_or_else(|| Span::raw("-"), name);
        lines.push(Line::from(vec![Span::raw("hold "), held]));
    }
    lines
}

/// A piece's first orientation, drawn in its bounding box.
fn piece_lines(kind: &PieceKind, colour: Color) -> Vec<Line<'static>> {
    let shape = kind.orientation(0);
    (0..shape.height() as i8)
        .map(|row| {
            let spans: Vec<Span> = (0..shape.width() as i8)
                .map(|col| {
                    let cell = (shape.left() + col, shape.top() + row);
                    if shape.cells().contains(&cell) {
                        Span::styled(FILLED, colour)
                    } else {
                        Span::raw("  ")
                    }
                })
                .collect();
            let mut line = vec![Span::raw("  ")];
            line.extend(spans);
            Line::from(line)
        })
        .collect()
}

fn stat(name: &str, value: String) -> Line<'static> {
    Line::from(format!("{name:<12}{value:>16}"))
}

fn draw_panel(frame: &mut Frame, app: &App, area: Rect) {
    let side = &app.sides()[0];
    let game = side.tracked().game();
    let rules = game.rules();
    let stats = side.stats();
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![
        Line::styled(app.player(0), bold),
        Line::from(match (app.plugin_slot(0), app.progress()) {
            (Some((index, count)), _) => format!("plugin {} of {count}", index + 1),
            (_, Some((tick, len))) => format!("tick {tick} of {len}"),
            _ => "at the keyboard".to_string(),
        }),
        Line::from(format!(
            "{} {}x{}, {}",
            rules.preset,
            rules.width,
            rules.height,
            rules.randomizer.name()
        )),
        Line::from(format!("seed {:#018x}", app.game_seed())),
        Line::from(""),
        Line::styled("next", bold),
    ];
    match game.preview() {
        Some(next) => lines.extend(piece_lines(game.pieces().kind(next), colour(next))),
        None => lines.push(Line::from("  (preview off)")),
    }
    lines.extend(later_line(game));
    lines.push(Line::from(""));
    let level = stats.level();
    lines.extend([
        stat("lines", stats.lines.to_string()),
        stat("level", level.to_string()),
        stat("points", stats.score.to_string()),
        stat("pieces", stats.pieces.to_string()),
        stat(
            "pieces/s",
            app.pieces_per_second().map_or("-".to_string(), |r| format!("{r:.1}")),
        ),
        stat(
            "µs/update",
            side.update_us().map_or("-".to_string(), |us| format!("{us:.1}")),
        ),
        stat("speed", speed_text(app, level)),
    ]);
    if side.violations() > 0 {
        lines.push(stat("violations", side.violations().to_string()));
    }
    lines.push(Line::from(""));
    let alert = Style::default().fg(Color::Yellow).add_modifier(Modifier::BOLD);
    if let Some(end) = side.end() {
        lines.push(Line::styled(end_text(end), alert));
        if let Some(error) = side.error() {
            lines.push(Line::from(error.to_string()));
        }
        if app.mode() != Mode::Replay {
            lines.push(Line::from("r restart, n new seed"));
        }
    } else if app.paused() {
        lines.push(Line::styled("PAUSED", alert));
    }
    let panel = Paragraph::new(lines).wrap(Wrap { trim: false });
    frame.render_widget(
        panel.block(Block::new().padding(ratatui::widgets::Padding::horizontal(2))),
        area,
    );
}

fn speed_text(app: &App, level: u32) -> String {
    match app.speed() {
        Speed::Level => format!("level, {} ms", level_interval(level).as_millis()),
        speed => speed.to_string(),
    }
}

fn end_text(end: RecordedEnd) -> String {
    match end {
        RecordedEnd::Won => "WON: the opponent is out".to_string(),
        RecordedEnd::Unfinished => "END: stopped unfinished".to_string(),
        _ => format!("GAME OVER: {}", end_cause(end)),
    }
}

/// Why a game ended, in a few words.
fn end_cause(end: RecordedEnd) -> &'static str {
    match end {
        RecordedEnd::ToppedOut => "topped out",
        RecordedEnd::Capped => "max pieces",
        RecordedEnd::PluginError => "plugin error",
        RecordedEnd::Stalled => "stalled",
        RecordedEnd::Timeout => "too slow",
        RecordedEnd::Violation => "protocol violations",
        RecordedEnd::Crashed => "plugin crashed",
        RecordedEnd::Sandbox => "stopped by the sandbox",
        RecordedEnd::TimeLoss => "lost on time",
        RecordedEnd::Won => "won",
        RecordedEnd::Unfinished => "stopped unfinished",
    }
}

/// The status row: the `o` prompt, the last message, or the key hint.
fn status_line(app: &App) -> Line<'static> {
    let line = match (app.prompt(), app.status()) {
        (Some(text), _) => Line::from(vec![
            Span::styled(
                "open plugin (path or name): ",
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{text}_")),
        ]),
        (None, Some(status)) => Line::from(status.to_string()),
        (None, None) => Line::styled("? keys   q quit", Color::DarkGray),
    };
    // In versus the panels have no room for it.
    let restart = app.sides().len() > 1 && app.mode() != Mode::Replay && app.sides().iter().all(|s| s.end().is_some());
    let keys = match app.is_live() {
        true => "r or n next game   ",
        false => "r restart, n new seed   ",
    };
    match restart {
        true => Line::from(vec![
            Span::styled(keys, Style::default().fg(Color::Yellow)),
            Span::raw(line.to_string()),
        ]),
        false => line,
    }
}

/// `text` in lines of at most `width` characters, broken at spaces where it can be (a
/// word longer than a line is cut where the line ends).
fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0;
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        if len > 0 && len + 1 + word.len() <= width {
            line.push(' ');
            line.extend(&word);
            len += 1 + word.len();
            continue;
        }
        if len > 0 {
            lines.push(std::mem::take(&mut line));
        }
        while word.len() > width {
            lines.push(word.drain(..width).collect());
        }
        len = word.len();
        line.extend(word);
    }
    lines.push(line);
    lines
}

fn draw_help(frame: &mut Frame, mode: Mode, area: Rect) {
    let lines: Vec<Line> = keys::help(mode)
        .map(|(keys, what)| Line::from(format!(" {keys:<10} {what}")))
        .collect();
    let popup = area.centered(Constraint::Length(44), Constraint::Length(lines.len() as u16 + 2));
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(" keys ").title_bottom(" ? or esc to close ");
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

mod versus;

#[cfg(test)]
mod tests;
