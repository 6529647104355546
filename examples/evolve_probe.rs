use std::time::{Duration, Instant};
use tablero::budget::{Budget, CancelFlag};
use tablero::config::EvolveConfig;
use tablero::evolve::dungeon::{self, render};
use tablero::evolve::ga::Selection;
use tablero::gvgai::controllers::{Bfs, Controller};
use tablero::gvgai::engine::{Action, Game};

fn main() {
    let cfg = EvolveConfig {
        dungeon_init_rooms_min: 6,
        dungeon_init_rooms_max: 10,
        dungeon_room_side_max: 7,
        dungeon_window_min: 5,
        dungeon_window_max: 12,
        dungeon_window_penalty: 1.0,
        ..EvolveConfig::default()
    };
    let p = cfg.ga_params(Selection::Tournament, 15, 30);
    let res = dungeon::run(&p, 8, |_| {});
    let r = render::render(&res.dungeon, 8).unwrap();
    println!("{}", r.level);
    let g = Game::from_texts("evodungeon", &r.game, &[&r.level]).unwrap();
    let mut s = g.start(0, 8).unwrap();
    let k0 = s.key();
    let mut s2 = s.clone();
    s2.advance(Action::Nil);
    println!("key stable on NIL: {}", k0 == s2.key());
    let t = Instant::now();
    let mut n = 0;
    for _ in 0..10000 {
        let mut c = s.clone();
        c.advance(Action::Right);
        n += 1;
    }
    println!("copy+advance: {:.1} us", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    let mut c = Bfs::iw();
    let cancel = CancelFlag::new();
    for tick in 0..60 {
        let t = Instant::now();
        let a = c.act(&s, &Budget::new(Instant::now() + Duration::from_millis(1000), cancel.clone()));
        println!("tick {tick} action {a:?} expansions {} {:.0} ms key {}", c.last_expansions, t.elapsed().as_secs_f64() * 1000.0, s.key() % 1000);
        s.advance(a);
        if s.is_over() { println!("over {:?}", s.winner()); break; }
    }
}
