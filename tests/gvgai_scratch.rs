use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::path::PathBuf;
use tablero::gvgai::engine::{Action, Game};
#[test]
fn scratch() {
    let name = std::env::var("G").unwrap();
    let level: usize = std::env::var("L").unwrap().parse().unwrap();
    let seed: i64 = std::env::var("S").unwrap().parse().unwrap();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/gvgai/games");
    let game = Game::load(&dir, &name).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed as u64 + 17);
    let actions: Vec<Action> = (0..400)
        .map(|_| Action::ALL[rng.gen_range(0..Action::ALL.len())])
        .collect();
    let s: String = actions.iter().map(|a| a.to_char()).collect();
    println!("ACTIONS {s}");
    let mut st = game.start(level, seed).unwrap();
    let mut i = 0;
    while !st.is_over() && i < 400 {
        let (x, y) = st.avatar().map(|a| (a.x, a.y)).unwrap_or((-1, -1));
        let mut line = format!("{} {:?} {} {}", st.tick(), st.score(), x, y);
        for t in 2..game.rules.desc.types.len() {
            let v = st.sprites_of(t as u16);
            if !v.is_empty() {
                line.push_str(&format!(" t{}={}", t, v.len()));
                if std::env::var("POS").is_ok() {
                    for s in v {
                        line.push_str(&format!("({},{})", s.x, s.y));
                    }
                }
            }
        }
        println!("{line}");
        st.advance(actions[i]);
        i += 1;
    }
}
