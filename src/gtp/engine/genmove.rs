//! Move generation and analysis on the engine: the move's budget from the clock, `genmove`
//! (plain, analysed and with live GoGui graphics), the analysis commands, and GoGui graphics
//! from a search.

use std::time::{Duration, Instant};

use super::{ANALYSIS_HORIZON, GoEngine, LIVE_GFX_INTERVAL};
use crate::budget::{Budget, CancelFlag};
use crate::go::game::Game;
use crate::go::search::{Decision, Observer, SearchOptions, SearchSnapshot, SearchSummary};
use crate::go::{Color, Move};
use crate::gtp::analysis::{AnalyzeArgs, report_line};
use crate::gtp::command::{CommandError, GfxKind};
use crate::gtp::gogui;
use crate::gtp::session::CommandContext;

impl GoEngine {
    /// The move's budget from its clock (a target and a maximum), capped by
    /// `limits.max_move`, counted from the command's arrival (`start`).
    pub(super) fn budget(&self, color: Color, start: Instant, cancel: &CancelFlag) -> Budget {
        let size = self.game.size();
        let time = self
            .clock
            .move_budget(color, self.game.move_count(), size * size);
        Budget::with_target(
            start + self.limits.cap_move(time.target),
            start + self.limits.cap_move(time.max),
            cancel.clone(),
        )
    }

    /// Generates a move; `play` puts it on the board. Never returns an illegal move. With
    /// `analyze`, the search's reports are streamed and the result is `play <move>`.
    pub(super) fn generate(
        &mut self,
        color: Color,
        cleanup: bool,
        play: bool,
        ctx: &mut CommandContext<'_>,
        analyze: Option<&AnalyzeArgs>,
    ) -> Result<String, CommandError> {
        let start = ctx.received();
        let budget = self.budget(color, start, ctx.cancel_flag());
        let decision = if let Some(args) = analyze {
            ctx.stream("");
            let summary = {
                let mut report = |snapshot: &SearchSnapshot| {
                    if let Some(line) = report_line(args, color, snapshot) {
                        ctx.stream(&line);
                    }
                };
                // Without an interval only the search's last snapshot is reported: as KataGo, one
                // `info` line always precedes `play` (the CGOS client reads it).
                let observer = Observer {
                    interval: args.interval.unwrap_or(ANALYSIS_HORIZON),
                    callback: &mut report,
                };
                let options = SearchOptions {
                    cleanup,
                    ownership: args.ownership,
                    genmove: play,
                    ..SearchOptions::default()
                };
                self.player
                    .search_live(&self.game, color, &budget, options, Some(observer))
            };
            filtered_decision(args, color, &summary, &self.game)
        } else if self.live_gfx {
            let sink = &mut self.gfx_sink;
            let summary = {
                let mut draw =
                    |snapshot: &SearchSnapshot| sink(&gogui::live_block(snapshot, color));
                let observer = Observer {
                    interval: LIVE_GFX_INTERVAL,
                    callback: &mut draw,
                };
                let options = SearchOptions {
                    cleanup,
                    genmove: play,
                    ..SearchOptions::default()
                };
                self.player
                    .search_live(&self.game, color, &budget, options, Some(observer))
            };
            // Before the response, so that GoGui does not draw stale markup afterwards.
            sink(gogui::LIVE_CLEAR);
            summary.decision
        } else {
            // `play` false (`reg_genmove`): the move is not for the game, so the player's game
            // state (the situational komi) stays as it is.
            let options = SearchOptions {
                cleanup,
                genmove: play,
                ..SearchOptions::default()
            };
            let summary = self
                .player
                .search_live(&self.game, color, &budget, options, None);
            tracing::debug!(
                playouts = summary.playouts,
                root_visits = summary.root_visits,
                winrate = summary.winrate(),
                elapsed_ms = summary.elapsed.as_millis() as u64,
                "genmove {color}: {:?}",
                summary.decision
            );
            summary.decision
        };
        let prefix = if analyze.is_some() { "play " } else { "" };
        let mv = match decision {
            Decision::Resign => {
                if play {
                    self.clock.record_move(color, start.elapsed());
                }
                return Ok(format!("{prefix}resign"));
            }
            Decision::Play(m) if self.game.is_legal(color, m) => m,
            Decision::Play(m) => {
                tracing::error!("player chose illegal {m} for {color}; passing instead");
                Move::Pass
            }
        };
        if play {
            self.game
                .play(color, mv)
                .map_err(|_| CommandError::IllegalMove)?;
            self.clock.record_move(color, start.elapsed());
            self.ponder_for = Some(color.opponent());
        }
        Ok(format!("{prefix}{mv}"))
    }

    /// `lz-analyze` and friends: searches until stopped, streaming a report every interval.
    pub(super) fn analyze(
        &mut self,
        args: &AnalyzeArgs,
        ctx: &mut CommandContext<'_>,
    ) -> Result<String, CommandError> {
        let color = args.color.unwrap_or(self.game.to_move());
        ctx.stream("");
        let horizon = self.limits.cap_analysis(ANALYSIS_HORIZON);
        let budget = Budget::new(ctx.received() + horizon, ctx.cancel_flag().clone());
        let mut reported = Instant::now();
        loop {
            let summary = {
                let mut report = |snapshot: &SearchSnapshot| {
                    // The search also calls back when it ends: no report right after another,
                    // and none once the analysis was stopped.
                    let due = args.interval.is_some_and(|i| reported.elapsed() >= i / 2);
                    if due && !ctx.is_cancelled() {
                        if let Some(line) = report_line(args, color, snapshot) {
                            ctx.stream(&line);
                        }
                        reported = Instant::now();
                    }
                };
                let observer = args.interval.map(|interval| Observer {
                    interval,
                    callback: &mut report,
                });
                let options = SearchOptions {
                    ownership: args.ownership,
                    ..SearchOptions::default()
                };
                self.player
                    .search_live(&self.game, color, &budget, options, observer)
            };
            if budget.expired() {
                break;
            }
            if summary.playouts == 0 {
                // Nothing more to learn (no search, or nothing to search): wait to be stopped.
                while !budget.expired() {
                    std::thread::sleep(Duration::from_millis(2));
                }
                break;
            }
            // The search stopped by itself (a playout cap): go on with the same tree.
        }
        Ok(String::new())
    }

    /// The `tablero-*` GoGui analyze commands: a search of `analysis_time`, then its picture.
    pub(super) fn gfx(
        &mut self,
        kind: GfxKind,
        color: Option<Color>,
        ctx: &CommandContext<'_>,
    ) -> Result<String, CommandError> {
        let color = color.unwrap_or(self.game.to_move());
        let budget = Budget::new(
            ctx.received() + self.limits.cap_move(self.analysis_time),
            ctx.cancel_flag().clone(),
        );
        let mut last: Option<SearchSnapshot> = None;
        {
            let mut keep = |snapshot: &SearchSnapshot| last = Some(snapshot.clone());
            let observer = Observer {
                // Only the snapshot at the end is wanted.
                interval: ANALYSIS_HORIZON,
                callback: &mut keep,
            };
            let options = SearchOptions {
                ownership: kind == GfxKind::Ownership,
                ..SearchOptions::default()
            };
            self.player
                .search_live(&self.game, color, &budget, options, Some(observer));
        }
        let snapshot = last.ok_or_else(|| CommandError::Other("no search result".into()))?;
        Ok(match kind {
            GfxKind::Pv => gogui::pv(&snapshot),
            GfxKind::Visits => gogui::visits(&snapshot, color),
            GfxKind::Winrates => gogui::winrates(&snapshot, color),
            GfxKind::Ownership => {
                let own = snapshot
                    .ownership
                    .as_ref()
                    .ok_or_else(|| CommandError::Other("no ownership estimate".into()))?;
                gogui::ownership(own, self.game.size())
            }
        })
    }
}

/// The decision of a `genmove_analyze` search, honouring the request's `avoid`/`allow`: a
/// filtered-out choice is replaced by the most visited permitted legal move, else a pass.
fn filtered_decision(
    args: &AnalyzeArgs,
    color: Color,
    summary: &SearchSummary,
    game: &Game,
) -> Decision {
    match summary.decision {
        Decision::Play(mv) if !args.permits(color, mv) => summary
            .moves
            .iter()
            .filter(|m| m.visits > 0 && args.permits(color, m.mv) && game.is_legal(color, m.mv))
            .map(|m| Decision::Play(m.mv))
            .next()
            .unwrap_or(Decision::Play(Move::Pass)),
        d => d,
    }
}
