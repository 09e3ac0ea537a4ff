//! Isolated versus seats: a library plugin served as a bot over the bot protocol (the
//! `tetrad` binary run as `tetrad seat`), so a versus game seats it as a process bot. A
//! crash, hang or stray output then forfeits that seat's game through the process
//! flavour's own limits, and the opponent wins; the tournament goes on.

use super::worker::Channel;
use crate::engine::Falling;
use crate::player::{Decision, More, Observation, Player};
use crate::plugin::bot::messages::{Answers, BotMessage, HostMessage, Info, PROTOCOL_VERSION};
use crate::plugin::{Manifest, Plugin, Protocol};
use std::io::{BufRead, Write};
use std::path::Path;
use tetrad_plugin_api::{Board, PieceId, PiecePos};

/// `plugin` as the bot process that `exe` (the `tetrad` binary) serves it from, ending with
/// this process.
pub fn seated(plugin: &Plugin, exe: &Path) -> Plugin {
    let path = plugin.path();
    let manifest = Manifest {
        path: path.to_path_buf(),
        name: plugin.info().name.clone(),
        program: exe.to_path_buf(),
        args: vec![
            "seat".to_string(),
            "--plugin".to_string(),
            path.display().to_string(),
            "--parent-pid".to_string(),
            std::process::id().to_string(),
        ],
        env: Default::default(),
        working_dir: std::env::current_dir().unwrap_or_else(|_| ".".into()),
        protocol: Protocol::Tetrad,
        think_ms: 0,
        // A library answers only while asked: its seat shares the waiting thread's CPU.
        pin: true,
    };
    plugin.played_by(manifest)
}

/// Serves `plugin` over `channel` as a bot that answers ticks, one game, until `quit` or
/// the end of the requests.
pub fn serve_seat(channel: Channel, plugin: &Plugin) -> anyhow::Result<()> {
    let (requests, replies) = channel.into_parts();
    let send = |message: &BotMessage| -> anyhow::Result<()> {
        let mut line = serde_json::to_string(message)?;
        line.push('\n');
        replies
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .write_all(line.as_bytes())?;
        Ok(())
    };
    let clock = crate::watch::clock();
    let mut seated: Option<(Player, tetrad_plugin_api::Rules, Board)> = None;
    for line in requests.lines() {
        let line = line?;
        let message: HostMessage<'_> =
            serde_json::from_str(&line).map_err(|err| anyhow::anyhow!("unreadable message `{line}`: {err}"))?;
        match message {
            HostMessage::Hello { .. } => {
                let info = plugin.info();
                send(&BotMessage::Info(Info {
                    protocol: PROTOCOL_VERSION,
                    name: info.name.clone(),
                    version: Some(info.version.clone()),
                    author: Some(info.author.clone()),
                    description: Some(info.description.clone()),
                    answers: Answers::Tick,
                }))?
            }
            HostMessage::Start(start) => {
                let created = start.setup().and_then(|(rules, pieces)| {
                    let player = Player::library(plugin, &rules, &pieces, start.seed, &start.options)
                        .map_err(|refused| refused.message)?;
                    Ok((player, rules, Board::new(rules.width, rules.height)))
                });
                match created {
                    Ok(game) => {
                        seated = Some(game);
                        send(&BotMessage::Ready)?
                    }
                    Err(message) => send(&BotMessage::Error { message })?,
                }
            }
            HostMessage::Tick {
                field,
                current,
                next,
                new_piece,
                state,
            } => {
                let Some((player, rules, board)) = seated.as_mut() else {
                    anyhow::bail!("a tick before the game started");
                };
                board.set_rows(&field);
                let state = state.to_abi();
                let seen = Observation {
                    rules,
                    board,
                    current: current.map(|f| Falling {
                        piece: PieceId(f.piece),
                        pos: PiecePos {
                            orientation: f.orientation,
                            x: f.x,
                            y: f.y,
                        },
                    }),
                    next: next.map(PieceId),
                    new_piece,
                    more: More::Given(&state),
                };
                let answer = match player.decide(&seen, clock, None).decision {
                    Ok(Decision::Actions(actions)) => BotMessage::Actions { bits: actions.0 },
                    Ok(Decision::Placement(_) | Decision::Path(_)) => unreachable!("a library answers with actions"),
                    Err(failure) => BotMessage::Error {
                        message: failure.message,
                    },
                };
                send(&answer)?
            }
            HostMessage::Piece { .. } => send(&BotMessage::Error {
                message: "this seat answers ticks, not pieces".to_string(),
            })?,
            HostMessage::Quit => break,
        }
    }
    Ok(())
}
