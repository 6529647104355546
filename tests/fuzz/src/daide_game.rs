//! DAIDE state machines fed message sequences: the embedded server's host (`server`, a script
//! of connections, client messages and deadlines) and the client session (`client`, the
//! messages a server sends).

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use tablero::bots::RandBot;
use tablero::budget::{Budget, CancelFlag};
use tablero::daide::client::{ClientConfig, ClientEvent, ClientSession, ClientState};
use tablero::daide::message::{MapDef, Message, Order};
use tablero::daide::server::{ClientId, Output, ServerConfig, ServerGame};
use tablero::daide::text::parse_text;
use tablero::daide::token::TokenTable;
use tablero::diplomacy::play::Player;

use crate::daide::round_trip;

/// Most script lines run per input: enough for a short game.
const MAX_STEPS: usize = 1000;
/// The last year played: the game then ends in a draw.
const END_YEAR: i16 = 1903;

/// One line of a server script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `+D`: client D connects (after its IM/RM handshake).
    Connect(ClientId),
    /// `-D`: client D's connection goes away.
    Disconnect(ClientId),
    /// `!`: the phase deadline passes.
    Deadline,
    /// `D text`: client D sends a message in DAIDE text.
    Send(ClientId, String),
}

impl Step {
    /// The step a script line stands for, if any.
    pub fn parse(line: &str) -> Option<Step> {
        let mut chars = line.chars();
        let first = chars.next()?;
        let digit = |c: Option<char>| c.and_then(|c| c.to_digit(10)).map(u64::from);
        match first {
            '!' => Some(Step::Deadline),
            '+' => digit(chars.next()).map(Step::Connect),
            '-' => digit(chars.next()).map(Step::Disconnect),
            c => Some(Step::Send(
                digit(Some(c))?,
                chars.as_str().trim().to_string(),
            )),
        }
    }
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Step::Connect(id) => write!(f, "+{id}"),
            Step::Disconnect(id) => write!(f, "-{id}"),
            Step::Deadline => write!(f, "!"),
            Step::Send(id, text) => write!(f, "{id} {text}"),
        }
    }
}

/// The host and what the driver knows of its connections.
struct Host {
    game: ServerGame,
    connected: HashSet<ClientId>,
    table: TokenTable,
}

impl Host {
    /// Runs one step as the listener would, closing what the host closes, and checks every
    /// output: it goes to a connection that is open, and every message parses back to itself.
    fn step(&mut self, step: &Step) {
        let out = match step {
            Step::Connect(id) => {
                if self.connected.insert(*id) {
                    self.game.connect(*id);
                }
                return;
            }
            Step::Disconnect(id) => {
                if !self.connected.remove(id) {
                    return;
                }
                self.game.disconnect(*id)
            }
            Step::Deadline => self.game.deadline_expired(),
            Step::Send(id, text) => {
                let Ok(tokens) = parse_text(text, &self.table) else {
                    return;
                };
                if !self.connected.contains(id) {
                    return;
                }
                self.game.handle(*id, &tokens)
            }
        };
        self.deliver(out);
    }

    fn deliver(&mut self, out: Vec<Output>) {
        let mut closed = Vec::new();
        // A broadcast sends one message to each client in turn; a message parses back the same
        // way each time, so a repeat of the one just checked is not checked again.
        let mut last: Option<Message> = None;
        for o in out {
            match o {
                Output::Send(id, m) => {
                    assert!(
                        self.connected.contains(&id) && !closed.contains(&id),
                        "message to client {id}, which is not connected: {m:?}"
                    );
                    if last.as_ref() != Some(&m) {
                        check_reply(&m);
                        last = Some(m);
                    }
                }
                Output::Close(id) => closed.push(id),
            }
        }
        for id in closed {
            if self.connected.remove(&id) {
                let after = self.game.disconnect(id);
                self.deliver(after);
            }
        }
    }

    /// The board holds one unit per province; the phase never goes back; an ended game
    /// stays ended.
    fn check(&self, before: &tablero::diplomacy::Phase, was_over: bool) {
        let mut seen = HashSet::new();
        for u in self.game.game().units() {
            assert!(
                seen.insert(u.location.province),
                "two units in one province"
            );
        }
        assert!(self.game.game().phase() >= *before, "the phase went back");
        assert!(
            !was_over || self.game.ending().is_some(),
            "a finished game restarted"
        );
    }
}

/// Checks that a message the host sends parses back to itself. The map definition is checked
/// once: every game of a run answers `MDF` with the one the first game built, and its few
/// thousand tokens would otherwise take most of the run.
fn check_reply(m: &Message) {
    static MDF: OnceLock<Arc<MapDef>> = OnceLock::new();
    if let Message::Mdf(Some(def)) = m
        && MDF.get().is_some_and(|seen| Arc::ptr_eq(seen, def))
    {
        return;
    }
    round_trip(m);
    if let Message::Mdf(Some(def)) = m {
        let _ = MDF.set(Arc::clone(def));
    }
}

/// A standard game (year cap [`END_YEAR`]) run through a script of [`Step`] lines.
pub fn server(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    // A fresh game is a copy of one made once (building the map takes longer than most inputs).
    static FRESH: OnceLock<ServerGame> = OnceLock::new();
    let game = FRESH.get_or_init(|| {
        let mut cfg = ServerConfig::standard(7);
        cfg.end_year = Some(END_YEAR);
        match ServerGame::new(cfg) {
            Ok(game) => game,
            Err(e) => panic!("the standard game does not start: {e}"),
        }
    });
    let mut host = Host {
        game: game.clone(),
        connected: HashSet::new(),
        table: TokenTable::standard(),
    };
    for line in text.lines().take(MAX_STEPS) {
        let Some(step) = Step::parse(line) else {
            continue;
        };
        let phase = host.game.game().phase();
        let over = host.game.ending().is_some();
        host.step(&step);
        host.check(&phase, over);
    }
}

/// A client session fed server messages, one DAIDE text line each (lines that are not DAIDE
/// text are skipped), ordering with a seeded RandBot whenever asked: everything it sends
/// parses back to itself, its `SUB`s order only its own power's units, and it never returns
/// to its start.
pub fn client(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut session = ClientSession::new(ClientConfig::default());
    let mut player = RandBot::new(1);
    let mut pending = session.start();
    for line in text.lines().take(MAX_STEPS) {
        drain(&mut session, &mut player, std::mem::take(&mut pending));
        let Ok(tokens) = parse_text(line, session.table()) else {
            continue;
        };
        pending = session.handle_tokens(&tokens);
        assert_ne!(session.state(), ClientState::Start, "the session restarted");
    }
    drain(&mut session, &mut player, pending);
}

fn drain(session: &mut ClientSession, player: &mut RandBot, mut events: Vec<ClientEvent>) {
    while !events.is_empty() {
        let mut next = Vec::new();
        for event in events {
            match event {
                ClientEvent::Send(m) => {
                    check_sub(&m, session);
                    round_trip(&m);
                }
                ClientEvent::OrdersNeeded(view) => {
                    let budget = Budget::new(
                        Instant::now() + Duration::from_millis(50),
                        CancelFlag::new(),
                    );
                    let orders = player.orders(&view, budget);
                    next.extend(session.submit(view.phase, orders));
                }
                _ => {}
            }
        }
        events = next;
    }
}

fn check_sub(m: &Message, session: &ClientSession) {
    let Message::Sub { orders, .. } = m else {
        return;
    };
    let me = session.power();
    for order in orders {
        let power = match order {
            Order::Waive(p) => Some(*p),
            o => o.unit().map(|u| u.power),
        };
        assert_eq!(power, me, "a SUB orders another power's unit: {order:?}");
    }
}

#[cfg(test)]
mod seeds {
    //! Seeds from a real game: seven client sessions (DumbBots and RandBots) on the host, one
    //! of them dropping and rejoining with `IAM`, an observer, and out-of-turn `GOF`,
    //! `NOT (GOF)` and a `SUB` for a turn that has passed.

    use std::collections::{BTreeMap, VecDeque};

    use tablero::bots::DumbBot;

    use super::*;

    struct Seat {
        session: ClientSession,
        player: Box<dyn Player>,
        heard: Vec<String>,
    }

    struct Game {
        host: ServerGame,
        seats: BTreeMap<ClientId, Seat>,
        queue: VecDeque<(ClientId, Message)>,
        script: Vec<Step>,
        table: TokenTable,
    }

    impl Game {
        fn events(&mut self, id: ClientId, events: Vec<ClientEvent>) {
            for event in events {
                match event {
                    ClientEvent::Send(m) => self.queue.push_back((id, m)),
                    ClientEvent::OrdersNeeded(view) => {
                        let seat = self.seats.get_mut(&id).unwrap();
                        let budget =
                            Budget::new(Instant::now() + Duration::from_secs(1), CancelFlag::new());
                        let orders = seat.player.orders(&view, budget);
                        let more = seat.session.submit(view.phase, orders);
                        // Out of turn: a GOF before the orders it would confirm, taken back.
                        if id == 2 {
                            self.queue.push_back((id, Message::Gof));
                            self.queue.push_back((
                                id,
                                Message::Not(Box::new(tablero::daide::message::Parsed::Ok(
                                    Message::Gof,
                                ))),
                            ));
                        }
                        self.events(id, more);
                    }
                    _ => {}
                }
            }
        }

        fn send(&mut self, id: ClientId, m: &Message) {
            self.script.push(Step::Send(id, m.to_text(&self.table)));
            let out = self.host.handle(id, &m.to_tokens());
            self.outputs(out);
        }

        fn outputs(&mut self, out: Vec<Output>) {
            for o in out {
                let Output::Send(id, m) = o else { continue };
                let Some(seat) = self.seats.get_mut(&id) else {
                    continue;
                };
                seat.heard.push(m.to_text(&self.table));
                let events = seat.session.handle(m);
                self.events(id, events);
            }
        }

        fn join(&mut self, id: ClientId, player: Box<dyn Player>) {
            self.script.push(Step::Connect(id));
            self.host.connect(id);
            let mut session = ClientSession::new(ClientConfig {
                name: format!("bot{id}"),
                ..ClientConfig::default()
            });
            let events = session.start();
            self.seats.insert(
                id,
                Seat {
                    session,
                    player,
                    heard: Vec::new(),
                },
            );
            self.events(id, events);
        }

        fn run(&mut self, steps: usize) {
            for _ in 0..steps {
                match self.queue.pop_front() {
                    Some((id, m)) => self.send(id, &m),
                    None if self.host.ending().is_none() => {
                        self.script.push(Step::Deadline);
                        let out = self.host.deadline_expired();
                        self.outputs(out);
                    }
                    None => return,
                }
            }
        }
    }

    #[test]
    #[ignore = "writes the DAIDE game seeds: cargo test --release -- --ignored write_daide_game_seeds"]
    fn write_daide_game_seeds() {
        let mut cfg = ServerConfig::standard(7);
        cfg.end_year = Some(END_YEAR);
        let mut g = Game {
            host: ServerGame::new(cfg).unwrap(),
            seats: BTreeMap::new(),
            queue: VecDeque::new(),
            script: Vec::new(),
            table: TokenTable::standard(),
        };
        for id in 1..=7 {
            let player: Box<dyn Player> = if id % 3 == 0 {
                Box::new(RandBot::new(id))
            } else {
                Box::new(DumbBot::new(id))
            };
            g.join(id, player);
        }
        g.run(110);
        // Client 4 drops, rejoins with its passcode, and sends orders for a turn long gone.
        let (power, passcode) = {
            let s = &g.seats[&4].session;
            (s.power().unwrap(), s.passcode().unwrap())
        };
        g.script.push(Step::Disconnect(4));
        let out = g.host.disconnect(4);
        g.outputs(out);
        g.script.push(Step::Connect(4));
        g.host.connect(4);
        let seat = g.seats.get_mut(&4).unwrap();
        seat.session = ClientSession::new(ClientConfig::default());
        let events = seat.session.start_rejoin(power, passcode);
        g.events(4, events);
        let stale = parse_text("SUB (SPR 1901) ((AUS AMY VIE) HLD)", &g.table).unwrap();
        g.queue
            .push_back((4, Message::from_tokens(&stale).unwrap()));
        // An observer.
        g.script.push(Step::Connect(8));
        g.host.connect(8);
        g.queue.push_back((8, Message::Obs));
        let accept = parse_text("YES (MAP ('standard'))", &g.table).unwrap();
        g.queue
            .push_back((8, Message::from_tokens(&accept).unwrap()));
        g.run(2000);
        assert!(g.host.ending().is_some(), "the seed game did not finish");

        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let write = |target: &str, name: String, lines: Vec<String>| {
            std::fs::create_dir_all(dir.join(target)).unwrap();
            std::fs::write(dir.join(target).join(name), lines.join("\n") + "\n").unwrap();
        };
        let script: Vec<String> = g.script.iter().map(Step::to_string).collect();
        // Whole game and its first part (the joins and 1901), which the fuzzer mutates faster.
        let first = script.len().min(MAX_STEPS);
        write("daide_server", "seed-game".into(), script[..first].to_vec());
        let spring = script
            .iter()
            .position(|l| l.contains("(FAL 1901)"))
            .unwrap_or(80);
        write(
            "daide_server",
            "seed-1901".into(),
            script[..spring].to_vec(),
        );
        for (id, seat) in &g.seats {
            let heard: Vec<String> = seat.heard.iter().take(MAX_STEPS).cloned().collect();
            write("daide_client", format!("seed-client-{id}"), heard);
        }
    }
}
