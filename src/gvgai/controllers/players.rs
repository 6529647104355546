//! Multi-player games: one controller per player, all acting on the same state each cycle.
//!
//! A player's controller is given the state seen by its player ([`GameState::seated`]): its
//! forward-model advances take that player's action while the other players act as an
//! [`Opponent`] model says (random, NIL or repeating their last action), and [`super::value`]
//! and [`super::choices`] read that player's score, result and actions. Any search controller
//! (`onestep`, `mcts`, `rhea`, ...) so plays one seat against a modelled opponent. The joint
//! action of a cycle is only played once every controller has chosen (GVG-AI's simultaneous
//! moves); an act over its budget is played as NIL.

use std::time::{Duration, Instant};

use super::{Controller, INIT_TIME};
use crate::budget::{Budget, CancelFlag};
use crate::gvgai::engine::{Action, EngineError, Game, GameState, Opponent, Winner};

/// The result of [`play_players`].
#[derive(Debug, Clone, PartialEq)]
pub struct PlayersResult {
    /// Per player: score (a win with score ≤ 0 is reported as 1, as GVG-AI does).
    pub scores: Vec<f64>,
    pub winners: Vec<Winner>,
    /// GVG-AI's game tick of the last cycle played.
    pub ticks: i32,
    /// Per player: the actions played (`U D L R N S`).
    pub actions: Vec<String>,
    /// Longest `act` call in milliseconds, over all players.
    pub act_ms_max: f64,
    /// Acts that took longer than the act budget (played as NIL).
    pub overspent: usize,
}

/// The seed of player `p`'s view at `tick`.
fn view_seed(seed: i64, tick: i32, p: usize) -> u64 {
    (seed as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((tick as u64) << 8 | p as u64)
}

/// Play `level` of `game` to the end, player `p` choosing with `controllers[p]` (players
/// without a controller play NIL), each modelling the others as `opponent`.
pub fn play_players(
    game: &Game,
    level: usize,
    seed: i64,
    controllers: &mut [&mut dyn Controller],
    opponent: Opponent,
    act_time: Duration,
) -> Result<PlayersResult, EngineError> {
    let mut state = game.start(level, seed)?;
    let n = state.players();
    let cancel = CancelFlag::new();
    for (p, c) in controllers.iter_mut().enumerate().take(n) {
        let view = state.seated(p, opponent, view_seed(seed, -1, p));
        c.init(
            &view,
            &Budget::new(Instant::now() + INIT_TIME, cancel.clone()),
        );
    }
    let mut actions = vec![String::new(); n];
    let mut act_ms_max: f64 = 0.0;
    let mut overspent = 0;
    while !state.is_over() {
        let mut joint = vec![Action::Nil; n];
        for (p, c) in controllers.iter_mut().enumerate().take(n) {
            let view = state.seated(p, opponent, view_seed(seed, state.tick(), p));
            let start = Instant::now();
            let a = c.act(&view, &Budget::new(start + act_time, cancel.clone()));
            let elapsed = start.elapsed();
            act_ms_max = act_ms_max.max(elapsed.as_secs_f64() * 1000.0);
            if elapsed > act_time {
                overspent += 1;
            } else {
                joint[p] = a;
            }
        }
        for (p, a) in joint.iter().enumerate() {
            actions[p].push(a.to_char());
        }
        state.advance_joint(&joint);
    }
    Ok(PlayersResult {
        scores: (0..n).map(|p| reported_score(&state, p)).collect(),
        winners: (0..n).map(|p| state.winner_of(p)).collect(),
        ticks: (state.tick() - 1).max(0),
        actions,
        act_ms_max,
        overspent,
    })
}

/// Player `p`'s score as GVG-AI reports it (a win with score ≤ 0 counts 1).
fn reported_score(state: &GameState, p: usize) -> f64 {
    let s = state.score_of(p);
    if state.winner_of(p) == Winner::PlayerWins && s <= 0.0 {
        1.0
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gvgai::controllers::{Mcts, MctsParams, OneStep, RandomController};

    /// Two avatars race to their own goal; a goal taken scores 1 for its taker and -1 for
    /// the other player, and the game ends when either goal is gone.
    const RACE: &str = "BasicGame square_size=10 no_players=2
    SpriteSet
        goalA > Immovable
        goalB > Immovable
        avatarA > MovingAvatar
        avatarB > MovingAvatar
    LevelMapping
        a > goalA
        b > goalB
        A > avatarA
        B > avatarB
    InteractionSet
        avatarA wall > stepBack
        avatarB wall > stepBack
        goalA avatarA > killSprite scoreChange=1,-1
        goalB avatarB > killSprite scoreChange=-1,1
    TerminationSet
        SpriteCounter stype=goalA limit=0 win=True,False
        SpriteCounter stype=goalB limit=0 win=False,True
        Timeout limit=100 win=False,False";

    fn race() -> Game {
        Game::from_texts(
            "race",
            RACE,
            &[
                "wwwwwwwww\nw  A   aw\nw  B  b w\nwwwwwwwww\n",
                "wwwwwwwwwwwww\nwA         aw\nw   B  b    w\nwwwwwwwwwwwww\n",
            ],
        )
        .unwrap()
    }

    #[test]
    fn joint_actions_score_and_end_per_player() {
        let game = race();
        let mut st = game.start(0, 1).unwrap();
        assert_eq!(st.players(), 2);
        // Player 1 is three steps from its goal, player 0 four.
        for _ in 0..3 {
            st.advance_joint(&[Action::Right, Action::Right]);
        }
        assert!(st.is_over());
        assert_eq!((st.score_of(0), st.score_of(1)), (-1.0, 1.0));
        assert_eq!(st.winner_of(0), Winner::PlayerLoses);
        assert_eq!(st.winner_of(1), Winner::PlayerWins);
        assert_eq!(st.available_actions_of(1).len(), 4);
    }

    #[test]
    fn two_controllers_play_a_two_player_game_to_the_end() {
        let game = race();
        let mut mcts = Mcts::new(3, MctsParams::default());
        let mut one = OneStep::new(4);
        let mut controllers: [&mut dyn Controller; 2] = [&mut mcts, &mut one];
        let r = play_players(
            &game,
            0,
            5,
            &mut controllers,
            Opponent::Random,
            Duration::from_millis(40),
        )
        .unwrap();
        assert_eq!(r.winners.len(), 2);
        assert!(r.winners.contains(&Winner::PlayerWins), "{r:?}");
        assert!(r.ticks < 100, "{r:?}");
        assert_eq!(r.actions[0].len(), r.actions[1].len());
    }

    #[test]
    fn a_seated_search_plays_for_its_player() {
        let game = race();
        let mut rnd = RandomController::new(1);
        let mut mcts = Mcts::new(2, MctsParams::default());
        // Player 1 searches, three steps from its goal; player 0, ten steps from its own,
        // moves at random: player 1 takes its goal first.
        let mut controllers: [&mut dyn Controller; 2] = [&mut rnd, &mut mcts];
        let r = play_players(
            &game,
            1,
            9,
            &mut controllers,
            Opponent::Nil,
            Duration::from_millis(40),
        )
        .unwrap();
        assert_eq!(r.winners[1], Winner::PlayerWins, "{r:?}");
    }
}
