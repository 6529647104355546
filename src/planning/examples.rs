//! Small classic PDDL tasks with known optimal plan lengths, used by tests, benches and demos.

/// A named domain/problem pair and its optimal plan length (unit costs), if known.
pub struct Example {
    pub name: &'static str,
    pub domain: &'static str,
    pub problem: String,
    pub optimal: Option<usize>,
}

pub const BLOCKSWORLD: &str = r#"
; 4-operator blocksworld
(define (domain blocksworld)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (ontable ?x - block) (clear ?x - block)
               (handempty) (holding ?x - block))
  (:action pick-up
    :parameters (?x - block)
    :precondition (and (clear ?x) (ontable ?x) (handempty))
    :effect (and (not (ontable ?x)) (not (clear ?x)) (not (handempty)) (holding ?x)))
  (:action put-down
    :parameters (?x - block)
    :precondition (holding ?x)
    :effect (and (not (holding ?x)) (clear ?x) (handempty) (ontable ?x)))
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (not (holding ?x)) (not (clear ?y)) (clear ?x) (handempty) (on ?x ?y)))
  (:action unstack
    :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x) (handempty))
    :effect (and (holding ?x) (clear ?y) (not (clear ?x)) (not (handempty)) (not (on ?x ?y)))))
"#;

/// The Sussman anomaly: optimal length 6.
pub const BLOCKSWORLD_SUSSMAN: &str = r#"
(define (problem sussman) (:domain blocksworld)
  (:objects a b c - block)
  (:init (clear c) (on c a) (ontable a) (clear b) (ontable b) (handempty))
  (:goal (and (on a b) (on b c))))
"#;

/// Reverse a tower of 4 (a on b on c on d → d on c on b on a): optimal length 8.
pub const BLOCKSWORLD_REVERSE4: &str = r#"
(define (problem reverse4) (:domain blocksworld)
  (:objects a b c d - block)
  (:init (clear a) (on a b) (on b c) (on c d) (ontable d) (handempty))
  (:goal (and (on d c) (on c b) (on b a))))
"#;

pub const GRIPPER: &str = r#"
(define (domain gripper)
  (:requirements :strips :typing :equality)
  (:types room ball gripper)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper)
               (carry ?b - ball ?g - gripper))
  (:action move
    :parameters (?from ?to - room)
    :precondition (and (at-robby ?from) (not (= ?from ?to)))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
"#;

/// Four balls from room a to room b: optimal length 11.
pub const GRIPPER_4: &str = r#"
(define (problem gripper-4) (:domain gripper)
  (:objects rooma roomb - room b1 b2 b3 b4 - ball left right - gripper)
  (:init (at-robby rooma) (free left) (free right)
         (at b1 rooma) (at b2 rooma) (at b3 rooma) (at b4 rooma))
  (:goal (and (at b1 roomb) (at b2 roomb) (at b3 roomb) (at b4 roomb))))
"#;

/// Grid Sokoban in the cell/adjacency encoding: pushing a box into a hole removes it.
pub const SOKOBAN: &str = r#"
(define (domain sokoban-grid)
  (:requirements :strips :typing :negative-preconditions)
  (:types cell dir box)
  (:predicates (avatar ?c - cell) (box-at ?b - box ?c - cell) (occupied ?c - cell)
               (adj ?d - dir ?c1 ?c2 - cell) (hole ?c - cell) (gone ?b - box))
  (:action move
    :parameters (?d - dir ?from ?to - cell)
    :precondition (and (avatar ?from) (adj ?d ?from ?to) (not (occupied ?to)))
    :effect (and (not (avatar ?from)) (avatar ?to)))
  (:action push
    :parameters (?d - dir ?from ?bc ?to - cell ?b - box)
    :precondition (and (avatar ?from) (adj ?d ?from ?bc) (adj ?d ?bc ?to) (box-at ?b ?bc)
                       (not (occupied ?to)) (not (hole ?to)))
    :effect (and (not (avatar ?from)) (avatar ?bc) (not (box-at ?b ?bc)) (box-at ?b ?to)
                 (not (occupied ?bc)) (occupied ?to)))
  (:action push-into-hole
    :parameters (?d - dir ?from ?bc ?to - cell ?b - box)
    :precondition (and (avatar ?from) (adj ?d ?from ?bc) (adj ?d ?bc ?to) (box-at ?b ?bc)
                       (hole ?to))
    :effect (and (not (avatar ?from)) (avatar ?bc) (not (box-at ?b ?bc)) (gone ?b)
                 (not (occupied ?bc)))))
"#;

/// Builds a Sokoban-grid problem from an ASCII map: `w` wall, `A` avatar, `1` box, `0` hole,
/// `.` floor. Walls are not cells; the board edge has no adjacency.
pub fn sokoban_problem(name: &str, map: &str) -> String {
    let rows: Vec<&str> = map
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let cell = |x: usize, y: usize| format!("c{x}_{y}");
    let at = |x: usize, y: usize| rows.get(y).and_then(|r| r.as_bytes().get(x)).copied();
    let mut cells = Vec::new();
    let mut init = Vec::new();
    let mut boxes = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.bytes().enumerate() {
            if ch == b'w' {
                continue;
            }
            cells.push(cell(x, y));
            match ch {
                b'A' => init.push(format!("(avatar {})", cell(x, y))),
                b'1' => {
                    let b = format!("b{}", boxes.len());
                    init.push(format!("(box-at {b} {})", cell(x, y)));
                    init.push(format!("(occupied {})", cell(x, y)));
                    boxes.push(b);
                }
                b'0' => init.push(format!("(hole {})", cell(x, y))),
                _ => {}
            }
            for (d, dx, dy) in [
                ("up", 0i64, -1i64),
                ("down", 0, 1),
                ("left", -1, 0),
                ("right", 1, 0),
            ] {
                let nx = x as i64 + dx;
                let ny = y as i64 + dy;
                if nx < 0 || ny < 0 {
                    continue;
                }
                match at(nx as usize, ny as usize) {
                    Some(c) if c != b'w' => init.push(format!(
                        "(adj {d} {} {})",
                        cell(x, y),
                        cell(nx as usize, ny as usize)
                    )),
                    _ => {}
                }
            }
        }
    }
    let goal: Vec<String> = boxes.iter().map(|b| format!("(gone {b})")).collect();
    format!(
        "(define (problem {name}) (:domain sokoban-grid)\n  (:objects up down left right - dir {} - cell {} - box)\n  (:init {})\n  (:goal (and {})))\n",
        cells.join(" "),
        boxes.join(" "),
        init.join(" "),
        goal.join(" ")
    )
}

/// A small Sokoban level (optimum checked by breadth-first search in the tests).
pub const SOKOBAN_SMALL_MAP: &str = "
wwwwwww
wA....w
w.1.1.w
w.....w
w..0.0w
wwwwwww
";

/// The briefcase world: conditional effects under `forall`.
pub const BRIEFCASE: &str = r#"
(define (domain briefcase)
  (:requirements :strips :typing :conditional-effects :negative-preconditions)
  (:types place thing)
  (:predicates (at-case ?p - place) (at ?t - thing ?p - place) (in ?t - thing))
  (:action move
    :parameters (?from ?to - place)
    :precondition (and (at-case ?from) (not (at-case ?to)))
    :effect (and (not (at-case ?from)) (at-case ?to)
                 (forall (?t - thing) (when (in ?t) (and (at ?t ?to) (not (at ?t ?from)))))))
  (:action put-in
    :parameters (?t - thing ?p - place)
    :precondition (and (at ?t ?p) (at-case ?p) (not (in ?t)))
    :effect (in ?t))
  (:action take-out
    :parameters (?t - thing)
    :precondition (in ?t)
    :effect (not (in ?t))))
"#;

/// Two things to swap between home and office, ending in the park (optimum checked by BFS).
pub const BRIEFCASE_SWAP: &str = r#"
(define (problem swap) (:domain briefcase)
  (:objects home office park - place p d - thing)
  (:init (at-case home) (at p home) (at d office))
  (:goal (and (at p office) (at d home) (at-case park) (not (in p)))))
"#;

/// All the examples.
pub fn all() -> Vec<Example> {
    let ex = |name, domain, problem: &str, optimal| Example {
        name,
        domain,
        problem: problem.to_string(),
        optimal,
    };
    vec![
        ex(
            "blocksworld-sussman",
            BLOCKSWORLD,
            BLOCKSWORLD_SUSSMAN,
            Some(6),
        ),
        ex(
            "blocksworld-reverse4",
            BLOCKSWORLD,
            BLOCKSWORLD_REVERSE4,
            None,
        ),
        ex("gripper-4", GRIPPER, GRIPPER_4, Some(11)),
        ex("briefcase-swap", BRIEFCASE, BRIEFCASE_SWAP, None),
        Example {
            name: "sokoban-small",
            domain: SOKOBAN,
            problem: sokoban_problem("small", SOKOBAN_SMALL_MAP),
            optimal: None,
        },
    ]
}

/// The five public GVG-AI Sokoban levels (`w` wall, `A` avatar, `1` box, `0` hole). Level 0
/// has an unusable hole at (10,3) that misleads delete-relaxation heuristics.
pub const GVGAI_SOKOBAN_LEVELS: [&str; 5] = [
    "wwwwwwwwwwwww\nw........w..w\nw...1.......w\nw...A.1.w.0ww\nwww.w1..wwwww\nw.......w.0.w\nw.1........ww\nw..........ww\nwwwwwwwwwwwww",
    "wwwwwwwwwwwww\nwwA........ww\nwwww1......ww\nwwww.0......w\nwwww........w\nw..1...w1wwww\nw..0.......0w\nw...........w\nwwwwwwwwwwwww",
    "wwwwwwwwwww\nw...w.....w\nw.w01.ww.1w\nw...1.....w\nwwwww0....w\nww........w\nww..w..w.Aw\nww..w..w.0w\nwwwwwwwwwww",
    "wwwwwww\nw..0A.w\nw.w0w.w\nw...1.w\nw011.ww\nw..wwww\nwwwwwww",
    "wwwwwwwww\nww.0....w\nww...1A.w\nw....w..w\nwww1w...w\nwww...w.w\nwww0....w\nwwwwwwwww",
];
