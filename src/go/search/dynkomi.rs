//! Dynamic komi: the komi the playouts count with, moved away from the game's so that the
//! search's win rates stay informative when the game is lopsided. A search that sees every
//! playout won (a handicap game's Black) plays slack moves, one that sees every playout lost
//! (its White) plays at random; both play better aiming at a margin they can still miss or
//! reach (Baudiš 2011 and Pachi's `dynkomi`; Ray's value-situational komi).
//!
//! - `linear`: in a handicap game White gets `stone_value · H · (1 − m / horizon)` extra
//!   points, H the handicap stones and m the moves played, falling to 0 at the horizon
//!   (`moves` on 19×19, scaled by the board's area: 200 there, 45 on 9×9). Without handicap
//!   stones nothing changes.
//! - `situational`: `linear`, plus a shift kept from move to move: after each search the side
//!   that searched gets one point more when its best move's win rate is below `RED` and one
//!   point less above `GREEN`, within an eighth of the board's points; the shift falls to 0
//!   at the horizon as the linear part does, so the endgame is played for the real result.
//!
//! The win rates the search reports (analysis, resignation) are under the moved komi; the
//! score (`final_score`) never is. Off by default: in 9×9 handicap games against GNU Go,
//! White's playouts already win a third of the time with two stones against it, and `linear`
//! at 7 points a stone lost games White wins without it (docs/results/go.md).

use crate::go::Color;
use crate::go::game::Game;

/// Below this win rate of the side to move the situational shift gives it a point.
pub const RED: f64 = 0.35;
/// Above this win rate of the side to move the situational shift takes a point from it.
pub const GREEN: f64 = 0.75;
/// The situational shift stays within the board's points divided by this (10 points on 9×9,
/// 45 on 19×19).
pub const SHIFT_BOUND_DIVISOR: f64 = 8.0;

/// Which dynamic komi the search uses (in configurations: "off", "linear", "situational").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DynamicKomi {
    Off,
    Linear,
    Situational,
}

/// The knobs of dynamic komi.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DynKomiParams {
    pub mode: DynamicKomi,
    /// Points per handicap stone at the start of the game.
    pub stone_value: f64,
    /// Moves, on 19×19, after which the komi is the game's again (scaled by the board area).
    pub moves: u32,
}

impl DynKomiParams {
    /// tablero's defaults: off (on 9×9, 7 points a stone cost White games it wins without
    /// them: docs/results/go.md), 7 points a stone over 200 moves on 19×19 when turned on.
    pub const DEFAULT: DynKomiParams = DynKomiParams {
        mode: DynamicKomi::Off,
        stone_value: 7.0,
        moves: 200,
    };

    /// No dynamic komi (the thesis), whatever the default.
    pub const OFF: DynKomiParams = DynKomiParams {
        mode: DynamicKomi::Off,
        ..Self::DEFAULT
    };

    /// The share of the starting extra komi left after the moves played so far: 1 at the
    /// start, 0 from the horizon on.
    fn remaining(&self, game: &Game) -> f64 {
        let n = game.size() as f64;
        let horizon = (f64::from(self.moves) * n * n / 361.0).max(1.0);
        (1.0 - game.move_count() as f64 / horizon).max(0.0)
    }

    /// Points for White from the handicap stones at this point of the game.
    pub fn linear(&self, game: &Game) -> f64 {
        if self.mode == DynamicKomi::Off {
            return 0.0;
        }
        self.stone_value * game.handicap().len() as f64 * self.remaining(game)
    }
}

impl Default for DynKomiParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The situational shift one player keeps between its searches (points for White).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Situational {
    shift: f64,
}

impl Situational {
    /// The extra points for White the playouts of the next search of `game` count with.
    pub fn extra_komi(&self, params: &DynKomiParams, game: &Game) -> f64 {
        let situational = match params.mode {
            DynamicKomi::Situational => self.shift * params.remaining(game),
            _ => 0.0,
        };
        params.linear(game) + situational
    }

    /// Moves the shift after a search by `color` on a `size`×`size` board whose best move
    /// wins `winrate` of its playouts.
    pub fn update(&mut self, params: &DynKomiParams, size: usize, color: Color, winrate: f64) {
        if params.mode != DynamicKomi::Situational {
            return;
        }
        // +1 makes the game easier for White.
        let toward_white = if color == Color::White { 1.0 } else { -1.0 };
        if winrate < RED {
            self.shift += toward_white;
        } else if winrate > GREEN {
            self.shift -= toward_white;
        }
        let bound = (size * size) as f64 / SHIFT_BOUND_DIVISOR;
        self.shift = self.shift.clamp(-bound, bound);
    }

    /// Points for White the shift holds (before it falls towards the horizon).
    pub fn shift(&self) -> f64 {
        self.shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Move;
    use crate::go::game::Rules;

    const LINEAR: DynKomiParams = DynKomiParams {
        mode: DynamicKomi::Linear,
        ..DynKomiParams::DEFAULT
    };

    fn handicap_game(size: usize, stones: usize) -> Game {
        let mut g = Game::new(size, Rules::default()).unwrap();
        if stones > 0 {
            g.set_handicap(&Game::fixed_handicap_vertices(size, stones).unwrap())
                .unwrap();
        }
        g
    }

    #[test]
    fn linear_falls_from_the_handicap_to_zero_at_the_horizon() {
        let p = LINEAR;
        let mut g = handicap_game(19, 4);
        assert_eq!(p.linear(&g), 28.0);
        for _ in 0..50 {
            g.play(g.to_move(), Move::Pass).unwrap();
        }
        assert!((p.linear(&g) - 21.0).abs() < 1e-9, "{}", p.linear(&g));
        for _ in 0..150 {
            g.play(g.to_move(), Move::Pass).unwrap();
        }
        assert_eq!(p.linear(&g), 0.0);
        // Even games and the off mode: nothing.
        assert_eq!(p.linear(&handicap_game(19, 0)), 0.0);
        assert_eq!(DynKomiParams::OFF.linear(&handicap_game(19, 4)), 0.0);
    }

    #[test]
    fn the_horizon_scales_with_the_board_area() {
        let p = LINEAR;
        let mut g = handicap_game(9, 2);
        // 200 · 81 / 361 = 16200 / 361 ≈ 44.9 moves.
        for _ in 0..22 {
            g.play(g.to_move(), Move::Pass).unwrap();
        }
        let half = p.linear(&g);
        assert!(
            (half - 14.0 * (1.0 - 22.0 * 361.0 / 16200.0)).abs() < 1e-9,
            "{half}"
        );
        for _ in 0..23 {
            g.play(g.to_move(), Move::Pass).unwrap();
        }
        assert_eq!(p.linear(&g), 0.0);
    }

    #[test]
    fn the_situational_shift_helps_the_side_that_is_losing_and_is_bounded() {
        let p = DynKomiParams {
            mode: DynamicKomi::Situational,
            ..DynKomiParams::DEFAULT
        };
        let mut s = Situational::default();
        s.update(&p, 19, Color::White, 0.2);
        assert_eq!(s.shift(), 1.0);
        s.update(&p, 19, Color::Black, 0.9);
        assert_eq!(s.shift(), 2.0, "a winning Black gives White a point");
        s.update(&p, 19, Color::Black, 0.5);
        assert_eq!(s.shift(), 2.0, "inside the band nothing moves");
        s.update(&p, 19, Color::Black, 0.1);
        assert_eq!(s.shift(), 1.0);
        for _ in 0..100 {
            s.update(&p, 19, Color::White, 0.0);
        }
        assert_eq!(s.shift(), 45.125, "within 361 / 8 points");
        let g = handicap_game(19, 0);
        assert_eq!(s.extra_komi(&p, &g), 45.125);
        // The linear mode keeps no shift.
        let mut l = Situational::default();
        l.update(&LINEAR, 19, Color::White, 0.0);
        assert_eq!(l.extra_komi(&LINEAR, &g), 0.0);
    }

    /// White's win rate after `searches` searches of a 9×9 game with nine handicap stones
    /// and komi 0.5, and the player's situational shift then.
    fn searched_winrate(
        dynamic_komi: DynKomiParams,
        genmove: bool,
        searches: usize,
    ) -> (f64, Situational) {
        use crate::budget::{Budget, CancelFlag};
        use crate::go::search::{Player, SearchOptions, SearchParams};
        let params = SearchParams {
            max_playouts: 2000,
            threads: 1,
            seed: 3,
            dynamic_komi,
            ..SearchParams::default()
        };
        let mut player = Player::new(params);
        let g = handicap_game(9, 9);
        let budget = Budget::new(
            std::time::Instant::now() + std::time::Duration::from_secs(3600),
            CancelFlag::new(),
        );
        let options = SearchOptions {
            genmove,
            ..SearchOptions::default()
        };
        let mut winrate = 0.0;
        for _ in 0..searches {
            winrate = player
                .search_with(&g, Color::White, &budget, options)
                .winrate();
        }
        (winrate, player.situational)
    }

    /// White giving nine stones on 9×9 sees almost every playout lost; with linear dynamic
    /// komi (63 points at the start) its win rate is back where moves can be told apart.
    #[test]
    fn linear_komi_lifts_the_win_rate_of_white_in_a_handicap_game() {
        let (off, _) = searched_winrate(DynKomiParams::OFF, true, 1);
        let (linear, _) = searched_winrate(LINEAR, true, 1);
        assert!(off < 0.2, "without dynamic komi White wins {off}");
        assert!(linear > off + 0.2, "linear {linear} vs off {off}");
    }

    /// The situational shift follows the moves the player chooses for the game, not its
    /// analysis or pondering searches.
    #[test]
    fn only_searches_for_a_move_move_the_situational_shift() {
        let situational = DynKomiParams {
            mode: DynamicKomi::Situational,
            stone_value: 0.0,
            ..DynKomiParams::DEFAULT
        };
        let (_, analysed) = searched_winrate(situational, false, 3);
        assert_eq!(analysed.shift(), 0.0);
        let (_, played) = searched_winrate(situational, true, 3);
        assert_eq!(
            played.shift(),
            3.0,
            "one point to the losing White per move"
        );
    }
}
