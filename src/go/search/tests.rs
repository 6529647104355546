//! Tests of the search: the thesis settings, expansion, tree reuse, observers, the pass and
//! cleanup rules, dead stones, seeds and deadlines.

use super::endgame::prefer_playing_on;
use super::playout::PlayoutPolicy;
use super::*;
use crate::budget::Budget;
use crate::budget::CancelFlag;
use crate::go::board::{Board, Point};
use crate::go::game::{Game, KoRule};
use crate::go::game::{Rules, Scoring};
use crate::go::{Color, Move, Vertex};
use std::time::{Duration, Instant};

fn far_budget() -> Budget {
    Budget::new(
        Instant::now() + Duration::from_secs(3600),
        CancelFlag::new(),
    )
}

/// The thesis search (one thread, no RAVE) with the given knobs.
fn params(policy: PlayoutPolicy, playouts: u64, expand: u32, c: f64) -> SearchParams {
    SearchParams {
        uct_c: c,
        expand_threshold: expand,
        max_playouts: playouts,
        policy,
        seed: 42,
        ..SearchParams::thesis()
    }
}

fn game(size: usize, scoring: Scoring, komi: f64) -> Game {
    Game::new(
        size,
        Rules {
            scoring,
            ko: KoRule::Positional,
            komi,
        },
    )
    .unwrap()
}

fn visits(s: &SearchSummary, v: &str) -> u32 {
    s.moves
        .iter()
        .find(|m| m.mv.to_string() == v)
        .map_or(0, |m| m.visits)
}

/// Thesis Fig. 6.8 setting (3x3, 50k iterations, MIN 30, komi 0.5, Japanese, uniform random
/// playouts, simple ko): the edge midpoints are preferred to the corners. (tablero's search
/// ranks the centre first even here, so the test compares the edge midpoints with the corners
/// only.)
#[test]
fn thesis_3x3_prefers_edge_midpoints_to_corners() {
    let mut g = game(3, Scoring::Territory, 0.5);
    g.set_rules(Rules {
        ko: KoRule::Simple,
        ..*g.rules()
    });
    let mut p = Player::new(params(PlayoutPolicy::Random, 50_000, 30, 1.0));
    let s = p.search(&g, Color::Black, &far_budget());
    assert_eq!(s.playouts, 50_000);
    let mids = ["B1", "A2", "C2", "B3"].map(|v| visits(&s, v));
    let corners = ["A1", "C1", "A3", "C3"].map(|v| visits(&s, v));
    assert!(
        mids.iter().min() > corners.iter().max(),
        "mids {mids:?} corners {corners:?}"
    );
}

/// Area scoring, light playouts: on 3x3 Black's best move is the centre and it wins.
#[test]
fn area_3x3_plays_centre() {
    let g = game(3, Scoring::Area, 0.5);
    let mut p = Player::new(params(PlayoutPolicy::Light, 20_000, 2, 1.0));
    let s = p.search(&g, Color::Black, &far_budget());
    assert_eq!(s.decision, Decision::Play(Move::parse("B2", 3).unwrap()));
    assert!(s.winrate() > 0.8, "winrate {}", s.winrate());
}

#[test]
fn unvisited_children_come_first() {
    let g = game(5, Scoring::Area, 0.5);
    let mut p = Player::new(params(PlayoutPolicy::Light, 26, 1000, 1.0));
    let s = p.search(&g, Color::Black, &far_budget());
    // 25 points + pass = 26 children, 26 iterations: each child exactly once.
    assert_eq!(s.moves.len(), 26);
    assert!(s.moves.iter().all(|m| m.visits == 1), "{:?}", s.moves);
}

#[test]
fn expansion_waits_for_the_threshold() {
    let g = game(5, Scoring::Area, 0.5);
    let mut p = Player::new(params(PlayoutPolicy::Light, 200, 30, 1.0));
    p.search(&g, Color::Black, &far_budget());
    // Root: 26 children. A child is expanded only after 30 visits, so with 200 iterations
    // only children with >= 30 visits (at most 6) have children of their own.
    for n in p.root.children() {
        let expanded = n.children.get().is_some();
        assert_eq!(expanded, n.visits() > 30, "visits {}", n.visits());
    }
}

#[test]
fn final_move_is_most_visited_then_most_wins() {
    let g = game(5, Scoring::Area, 0.5);
    let mut p = Player::new(params(PlayoutPolicy::Light, 1, 2, 1.0));
    p.search(&g, Color::Black, &far_budget());
    let kids = p.root.children();
    for k in kids {
        k.stats.set(3, 2);
    }
    kids[4].stats.set(3, 4);
    kids[7].stats.set(2, 4);
    let moves = p.root_moves();
    assert_eq!(moves[0].mv, kids[4].mv);
    assert_eq!(moves.last().map(|m| m.mv), Some(kids[7].mv));
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    let mut g = game(9, Scoring::Area, 7.0);
    let mut p = Player::new(params(PlayoutPolicy::Light, 3000, 2, 1.0));
    let s = p.search(&g, Color::Black, &far_budget());
    let Decision::Play(mv) = s.decision else {
        panic!("resigned")
    };
    g.play(Color::Black, mv).unwrap();
    // White's reply: the most visited answer under the chosen move.
    let reply = s.moves[0].pv.get(1).copied().unwrap_or(Move::Pass);
    let reply_visits = p
        .root
        .children()
        .iter()
        .find(|n| n.mv == mv)
        .and_then(|n| n.children().iter().find(|r| r.mv == reply))
        .map_or(0, |r| r.visits());
    assert!(reply_visits > 0);
    g.play(Color::White, reply).unwrap();
    p.prepare_root(&g, Color::Black);
    assert_eq!(p.root_visits(), reply_visits);
    // A move the tree never expanded: a lone root.
    let mut h = g.clone();
    let mut free = h
        .board()
        .empty_points()
        .iter()
        .map(|&q| Move::Play(Board::vertex_of(q as Point)))
        .filter(|&m| h.is_legal(Color::Black, m));
    let (b1, w1) = (free.next().unwrap(), free.next().unwrap());
    h.play(Color::Black, b1).unwrap();
    h.play(Color::White, w1).unwrap();
    p.prepare_root(&h, Color::Black);
    assert!(p.root_visits() <= 1);
    assert_eq!(p.tree_size(), 1);
}

#[test]
fn observer_sees_progress_and_ownership() {
    let g = game(9, Scoring::Area, 7.0);
    let mut p = Player::new(SearchParams {
        threads: 2,
        max_playouts: 0,
        ..SearchParams::default()
    });
    let start = Instant::now();
    let budget = Budget::new(start + Duration::from_millis(300), CancelFlag::new());
    let mut seen: Vec<SearchSnapshot> = Vec::new();
    let mut cb = |s: &SearchSnapshot| seen.push(s.clone());
    let summary = p.search_observed(
        &g,
        Color::Black,
        &budget,
        SearchOptions {
            ownership: true,
            ..SearchOptions::default()
        },
        Some(Observer {
            interval: Duration::from_millis(50),
            callback: &mut cb,
        }),
    );
    assert!(seen.len() >= 4, "{} snapshots", seen.len());
    assert!(seen.windows(2).all(|w| w[0].playouts <= w[1].playouts));
    let last = seen.last().unwrap();
    assert_eq!(last.playouts, summary.playouts);
    let own = last.ownership.as_ref().unwrap();
    assert_eq!(own.len(), 81);
    assert!(own.iter().all(|o| (-1.0..=1.0).contains(o)));
    assert!(own.iter().any(|o| *o != 0.0));
}

#[test]
fn does_not_pass_first_with_moves_left() {
    let mut g = game(9, Scoring::Area, 7.0);
    g.play(Color::Black, Move::parse("E5", 9).unwrap()).unwrap();
    // Pass has the most visits; C3 is close behind.
    let stats = || {
        [
            (Move::Pass, 10, 0.5),
            (Move::parse("C3", 9).unwrap(), 5, 0.47),
        ]
        .into_iter()
        .map(|(mv, visits, winrate)| MoveStat {
            mv,
            visits,
            winrate,
            prior: 0.0,
            pv: vec![],
        })
        .collect::<Vec<_>>()
    };
    let mut moves = stats();
    prefer_playing_on(&mut moves, &g);
    assert_eq!(moves[0].mv.to_string(), "C3");
    // After the opponent passed, passing back is fine.
    g.play(Color::White, Move::Pass).unwrap();
    let mut again = stats();
    prefer_playing_on(&mut again, &g);
    assert_eq!(again[0].mv, Move::Pass);
}

/// A 9×9 position from a diagram (row 9 first, `X` Black, `O` White) after two passes
/// (Black passed first, so Black is to move).
fn finished(rows: [&str; 9]) -> Game {
    let mut sgf = String::from("(;SZ[9]KM[7]RU[Chinese]");
    for (tag, stone) in [("AB", 'X'), ("AW", 'O')] {
        sgf.push_str(tag);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                if ch == stone {
                    sgf.push_str(&format!(
                        "[{}{}]",
                        (b'a' + c as u8) as char,
                        (b'a' + r as u8) as char
                    ));
                }
            }
        }
    }
    sgf.push_str(";B[];W[])");
    crate::go::sgf::load(&sgf, Rules::default(), None).unwrap()
}

#[test]
fn dead_stones_of_a_finished_game_come_from_playing_it_out() {
    // The end of a thesis-player game: black D9-D8 has one liberty (C8) and Black, to
    // move, has no legal move but pass. Playouts that go on from the pass count ended at
    // once and kept the stones alive; GNU Go has them dead, and so do playouts that let
    // both sides play.
    let g = finished([
        "O O O X O O O O .",
        "O O . X O O O O O",
        "O O O O . O O . O",
        "O O O . O O O O .",
        ". O O O . O O O O",
        "O . O . O O . O O",
        ". O O O O O O O .",
        "O O O . O . O O O",
        "O O O O . O O O .",
    ]);
    assert_eq!((g.passes(), g.to_move()), (2, Color::Black));
    let mut p = Player::new(params(PlayoutPolicy::Light, 0, 1, 0.7));
    let dead = p.dead_stones(&g, DEAD_STONE_PLAYOUTS);
    let d98 = ["D8", "D9"].map(|v| Vertex::parse(v, 9).unwrap()).to_vec();
    assert_eq!(dead, vec![d98]);
    let score = p.final_score(&g, DEAD_STONE_PLAYOUTS);
    assert_eq!(score.to_string(), "W+88");
}

#[test]
fn a_group_whose_only_eye_space_is_a_square_four_is_dead() {
    // Black's corner group has no liberty but the empty 2×2 square A1-B2 and White's wall is
    // alive: dead whoever plays first. Heavy playouts alone keep it alive in most runs.
    let g = finished([
        "O O O O O O O O .",
        "O . O . O . O O O",
        "O O O O O O O . O",
        ". O . O . O O O O",
        "O O O O O O . O O",
        "O O O O O O O O .",
        "X X X O . O O O O",
        ". . X O O . O . O",
        ". . X O . O O O .",
    ]);
    let black: Vec<Vertex> = ["A3", "B3", "C1", "C2", "C3"]
        .map(|v| Vertex::parse(v, 9).unwrap())
        .to_vec();
    for seed in 0..3 {
        let mut p = Player::new(SearchParams {
            seed,
            ..SearchParams::default()
        });
        let dead: Vec<Vertex> = p
            .dead_stones(&g, DEAD_STONE_PLAYOUTS)
            .into_iter()
            .flatten()
            .collect();
        assert!(
            black.iter().all(|v| dead.contains(v)),
            "seed {seed}: {dead:?}"
        );
        assert!(
            dead.iter().all(|v| black.contains(v)),
            "seed {seed}: {dead:?}"
        );
        assert_eq!(p.final_score(&g, DEAD_STONE_PLAYOUTS).to_string(), "W+88");
    }
}

#[test]
fn captures_dead_stones_before_answering_a_pass() {
    // Black wins by far with or without the dead white stone A9 in its corner, so pass is
    // as good as any move for the search; the game must still not end with A9 on the
    // board. White passes every turn.
    let rows = [
        "O . X . . . X O .",
        ". X X . . . X O O",
        "X X . . . . X O .",
        ". . . . . . X O O",
        ". . . . . . X O .",
        ". . . . . . X O O",
        ". . . . . . X O .",
        ". . . . . . X O O",
        ". . . . . . X O .",
    ];
    let a9 = Vertex::parse("A9", 9).unwrap();
    for seed in 0..4 {
        let mut g = finished(rows);
        let mut p = Player::new(SearchParams {
            max_playouts: 3000,
            threads: 1,
            seed,
            ..SearchParams::default()
        });
        let mut passed = false;
        for _ in 0..20 {
            let mv = match p.search(&g, Color::Black, &far_budget()).decision {
                Decision::Play(mv) => mv,
                Decision::Resign => panic!("resigned a won game"),
            };
            g.play(Color::Black, mv).unwrap();
            if mv == Move::Pass {
                passed = true;
                break;
            }
            g.play(Color::White, Move::Pass).unwrap();
        }
        assert!(passed, "seed {seed}: Black never passed");
        assert_eq!(g.board().get(a9), None, "seed {seed}: A9 left on the board");
    }
}

#[test]
fn a_forced_move_takes_a_liberty_of_the_dead_chain() {
    // Settled: every move but pass wins for Black after White's pass, and the first one
    // must already attack the dead white stone B8.
    let rows = settled_with(&["B8"]);
    let liberties = ["A8", "C8", "B9", "B7"].map(|v| Move::Play(Vertex::parse(v, 9).unwrap()));
    for seed in 0..6 {
        let mut g = finished(rows);
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        let mut p = Player::new(SearchParams {
            max_playouts: 3000,
            threads: 1,
            seed,
            ..SearchParams::default()
        });
        let s = p.search(&g, Color::Black, &far_budget());
        assert!(
            matches!(s.decision, Decision::Play(m) if liberties.contains(&m)),
            "seed {seed}: {:?} {:?}",
            s.decision,
            &s.moves[..8.min(s.moves.len())]
        );
    }
}

/// KGS cleanup: Black answers every White pass with `kgs-genmove_cleanup` until it passes
/// itself. Each of Black's moves while dead white stones remain in its area (the columns
/// left of its wall at F) must be a liberty of one of them; in the end none is left.
fn cleans_up_without_filling(rows: [&str; 9], seeds: std::ops::Range<u64>) {
    for seed in seeds {
        let mut g = finished(rows);
        let mut p = Player::new(SearchParams {
            max_playouts: 3000,
            threads: 1,
            seed,
            ..SearchParams::default()
        });
        let cleanup = SearchOptions {
            cleanup: true,
            ..SearchOptions::default()
        };
        let mut played = Vec::new();
        let mut passed = false;
        for _ in 0..30 {
            let board = g.board().clone();
            let dead: Vec<Point> = board
                .empty_points()
                .iter()
                .map(|&p| p as Point)
                .filter(|&p| {
                    Board::neighbours(p).iter().any(|&q| {
                        board.cell(q).color() == Some(Color::White) && Board::vertex_of(q).col() < 5
                    })
                })
                .collect();
            let s = p.search_with(&g, Color::Black, &far_budget(), cleanup);
            let Decision::Play(mv) = s.decision else {
                panic!("seed {seed}: resigned a won game");
            };
            played.push(mv.to_string());
            match mv {
                Move::Pass => {
                    assert!(dead.is_empty(), "seed {seed}: passed early: {played:?}");
                    passed = true;
                    break;
                }
                Move::Play(v) => assert!(
                    dead.is_empty() || dead.contains(&Board::point_of(v)),
                    "seed {seed}: {v} is no liberty of a dead chain: {played:?} {:?}",
                    &s.moves[..6.min(s.moves.len())]
                ),
            }
            g.play(Color::Black, mv).unwrap();
            g.play(Color::White, Move::Pass).unwrap();
        }
        assert!(passed, "seed {seed}: never passed: {played:?}");
    }
}

/// A finished 9×9 game: Black's area (columns A–E) is split by its walls into small
/// spaces, White's (F–J) is two-eyed columns.
const SETTLED: [&str; 9] = [
    ". . . X X O . O .",
    ". . . X X O O O O",
    ". . . X X O . O .",
    "X X X X X O O O O",
    "X . . . X O . O .",
    "X . . . X O O O O",
    "X X X X X O . O .",
    ". X . X X O O O O",
    "X . X X X O . O .",
];

fn settled_with(white: &[&str]) -> [&'static str; 9] {
    let mut rows = SETTLED.map(String::from);
    for v in white {
        let v = Vertex::parse(v, 9).unwrap();
        let r = 8 - v.row();
        let mut cells: Vec<char> = rows[r].chars().collect();
        assert_eq!(cells[2 * v.col()], '.', "{v} is not empty");
        cells[2 * v.col()] = 'O';
        rows[r] = cells.into_iter().collect();
    }
    rows.map(|r| &*Box::leak(r.into_boxed_str()))
}

#[test]
fn cleanup_captures_a_lone_dead_stone_first() {
    cleans_up_without_filling(settled_with(&["C5"]), 0..6);
}

#[test]
fn cleanup_captures_a_dead_chain_of_two() {
    cleans_up_without_filling(settled_with(&["B5", "C5"]), 0..6);
}

#[test]
fn cleanup_captures_dead_stones_in_two_spaces() {
    cleans_up_without_filling(settled_with(&["B8", "D4"]), 0..6);
}

#[test]
fn cleanup_never_resigns() {
    // Lost by far for Black (komi 60): genmove resigns, kgs-genmove_cleanup plays on.
    let mut g = finished(settled_with(&["C5"]));
    g.set_komi(60.0);
    let params = SearchParams {
        max_playouts: 3000,
        threads: 1,
        resign_threshold: 0.1,
        ..SearchParams::default()
    };
    let mut p = Player::new(params.clone());
    let plain = p.search(&g, Color::Black, &far_budget());
    assert_eq!(plain.decision, Decision::Resign, "{:?}", &plain.moves[..3]);
    let cleanup = SearchOptions {
        cleanup: true,
        ..SearchOptions::default()
    };
    let mut p = Player::new(params);
    let s = p.search_with(&g, Color::Black, &far_budget(), cleanup);
    assert!(
        matches!(s.decision, Decision::Play(Move::Play(_))),
        "{:?}",
        s.decision
    );
}

#[test]
fn same_seed_same_move() {
    let g = game(9, Scoring::Area, 7.0);
    let run = || {
        let mut p = Player::new(params(PlayoutPolicy::Light, 2000, 2, 0.7));
        let s = p.search(&g, Color::Black, &far_budget());
        (s.decision, s.moves[0].visits)
    };
    assert_eq!(run(), run());
}

#[test]
fn deadline_is_honoured() {
    let g = game(19, Scoring::Area, 7.5);
    let mut p = Player::new(SearchParams {
        threads: 2,
        ..SearchParams::default()
    });
    let start = Instant::now();
    let budget = Budget::new(start + Duration::from_millis(200), CancelFlag::new());
    let s = p.search(&g, Color::Black, &budget);
    assert!(
        start.elapsed() < Duration::from_millis(400),
        "{:?}",
        start.elapsed()
    );
    assert!(matches!(s.decision, Decision::Play(_)));
    // kgs-genmove_cleanup's dead-stone estimate shares the move's deadline: with the
    // deadline already past it stops after one playout and one iteration. The bound is a
    // fraction of the time of the 600-playout estimate on the same board, measured here under
    // the same load.
    let full = Instant::now();
    let _ = p.ownership(&g, 600);
    let bound = full.elapsed() / 3;
    let start = Instant::now();
    let cleanup = SearchOptions {
        cleanup: true,
        ..SearchOptions::default()
    };
    let s = p.search_with(
        &g,
        Color::Black,
        &Budget::new(start, CancelFlag::new()),
        cleanup,
    );
    assert!(
        start.elapsed() < bound,
        "cleanup: {:?}, 600 playouts: {:?}",
        start.elapsed(),
        bound * 3
    );
    assert!(matches!(s.decision, Decision::Play(Move::Play(_))));
    // A cancelled budget still answers with a legal move.
    let cancel = CancelFlag::new();
    cancel.cancel();
    let s = p.search(&g, Color::White, &Budget::new(start, cancel));
    let Decision::Play(m) = s.decision else {
        panic!("resigned")
    };
    assert!(g.is_legal(Color::White, m));
}

#[test]
fn finds_dead_stones() {
    // White E5 has one liberty left inside a black wall: dead.
    let mut g = game(9, Scoring::Area, 0.5);
    for (c, m) in [
        (Color::Black, "D5"),
        (Color::White, "E5"),
        (Color::Black, "E6"),
        (Color::White, "J9"),
        (Color::Black, "E4"),
        (Color::White, "J8"),
    ] {
        g.play(c, Move::parse(m, 9).unwrap()).unwrap();
    }
    let mut p = Player::new(params(PlayoutPolicy::Light, 0, 2, 0.7));
    let dead = p.dead_stones(&g, 400);
    assert!(
        dead.contains(&vec![Vertex::parse("E5", 9).unwrap()]),
        "{dead:?}"
    );
    let black_dead = dead
        .iter()
        .flatten()
        .any(|v| g.board().get(*v) == Some(Color::Black));
    assert!(!black_dead, "{dead:?}");
}

#[test]
fn learned_prior_reaches_the_new_nodes() {
    use super::mm::Table;
    use super::priors::{PriorParams, mm_visits};
    let mut g = game(9, Scoring::Area, 7.0);
    for (c, m) in [
        (Color::Black, "E5"),
        (Color::White, "C3"),
        (Color::Black, "D3"),
    ] {
        g.play(c, Move::parse(m, 9).unwrap()).unwrap();
    }
    let run = |mm: u32| {
        let mut p = Player::new(SearchParams {
            max_playouts: 1,
            threads: 1,
            prior_params: PriorParams {
                mm,
                ..PriorParams::NONE
            },
            ..SearchParams::default()
        });
        p.search(&g, Color::White, &far_budget());
        let kids: Vec<(Point, u32, u32)> = p
            .root
            .children()
            .iter()
            .filter_map(|k| match k.mv {
                Move::Play(v) => Some((Board::point_of(v), k.prior_visits, k.prior_wins)),
                Move::Pass => None,
            })
            .collect();
        kids
    };
    let kids = run(50);
    let points: Vec<Point> = kids.iter().map(|k| k.0).collect();
    let last = [Some(board_point("D3")), Some(board_point("C3"))];
    let mut expected = Vec::new();
    mm_visits(
        Table::builtin(),
        g.board(),
        Color::White,
        &points,
        last,
        50,
        &mut expected,
    );
    assert_eq!(kids.iter().map(|k| k.1).collect::<Vec<_>>(), expected);
    assert!(
        kids.iter().all(|k| k.1 == k.2),
        "the term's visits are all wins"
    );
    assert!(expected.iter().any(|&v| v > 0));
    assert!(run(0).iter().all(|k| k.1 == 0));
}

fn board_point(s: &str) -> Point {
    Board::point_of(Vertex::parse(s, 9).unwrap())
}

/// A root whose children have the given (visits, wins) statistics.
fn root_with(stats: &[(u32, u32)]) -> tree::Node {
    let root = tree::Node::new(Move::Pass, Color::White);
    let kids: Vec<tree::Node> = stats
        .iter()
        .enumerate()
        .map(|(i, &(visits, wins))| {
            let kid = tree::Node::new(Move::Play(Vertex::new(i, 0)), Color::Black);
            kid.stats.set(visits, 2 * wins);
            kid
        })
        .collect();
    assert!(root.children.set(kids.into_boxed_slice()).is_ok());
    root
}

#[test]
fn time_extension_goes_on_while_the_best_move_is_unsettled() {
    use super::driver::past_target_and_settled;
    let now = Instant::now();
    let past = Budget::with_target(
        now - Duration::from_millis(10),
        now + Duration::from_secs(60),
        CancelFlag::new(),
    );
    // Twice the runner-up's visits and the better win rate: settled.
    assert!(past_target_and_settled(
        &root_with(&[(100, 60), (40, 20), (5, 1)]),
        &past
    ));
    // Too few visits ahead, or a runner-up with the better win rate: go on.
    assert!(!past_target_and_settled(
        &root_with(&[(100, 60), (60, 35)]),
        &past
    ));
    assert!(!past_target_and_settled(
        &root_with(&[(100, 50), (45, 32)]),
        &past
    ));
    // Before the target, or with no extension (target = deadline), the rule never stops.
    let ahead = Budget::with_target(
        now + Duration::from_secs(30),
        now + Duration::from_secs(60),
        CancelFlag::new(),
    );
    assert!(!past_target_and_settled(
        &root_with(&[(100, 60), (1, 0)]),
        &ahead
    ));
    let plain = Budget::new(now - Duration::from_millis(10), CancelFlag::new());
    assert!(!past_target_and_settled(
        &root_with(&[(100, 60), (1, 0)]),
        &plain
    ));
}
