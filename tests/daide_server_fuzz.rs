//! Fuzzing the embedded server's host (`ServerGame`) with random but
//! plausible client messages — orders of every kind for random units and
//! provinces, queries, GOF/DRW toggles, rejoins, disconnects — and random
//! token junk: it never panics, phases only move forward, and the board keeps
//! one unit per province.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;

use proptest::prelude::*;
use tablero::daide::server::{ServerConfig, ServerGame};
use tablero::daide::text::parse_text;
use tablero::daide::token::{STANDARD_POWERS, STANDARD_PROVINCES, Token, TokenTable};

const TEMPLATES: &[&str] = &[
    "SUB ((%P AMY %X) MTO %Y)",
    "SUB ((%P FLT %X) MTO %Y)",
    "SUB ((%P AMY %X) HLD)",
    "SUB ((%P FLT %X) SUP (%Q AMY %Y) MTO %Z)",
    "SUB ((%P AMY %X) SUP (%Q FLT %Y))",
    "SUB ((%P FLT %X) CVY (%Q AMY %Y) CTO %Z)",
    "SUB ((%P AMY %X) CTO %Y VIA (%Z))",
    "SUB ((%P AMY %X) RTO %Y)",
    "SUB ((%P FLT %X) DSB)",
    "SUB ((%P AMY %X) BLD)",
    "SUB ((%P FLT %X) BLD)",
    "SUB ((%P AMY %X) REM)",
    "SUB (%P WVE)",
    "SUB (SPR 1901) ((%P AMY %X) HLD)",
    "NOT (SUB ((%P AMY %X) HLD))",
    "NOT (SUB)",
    "GOF",
    "GOF",
    "GOF",
    "NOT (GOF)",
    "DRW",
    "NOT (DRW)",
    "MIS",
    "HST (SPR 1901)",
    "ORD",
    "NOW",
    "SCO",
    "HLO",
    "TME",
    "MAP",
    "MDF",
    "IAM (%P) (1)",
    "OBS",
    "NME ('a') ('b')",
    "YES (MAP ('standard'))",
    "REJ (MAP ('x'))",
    "SND (%P) (PRP (PCE (%P %Q)))",
    "HUH (ERR)",
];

fn instantiate(t: &str, p: usize, q: usize, x: usize, y: usize, z: usize) -> String {
    let prov = |i: usize| STANDARD_PROVINCES[i % STANDARD_PROVINCES.len()].0;
    t.replace("%P", STANDARD_POWERS[p % 7].0)
        .replace("%Q", STANDARD_POWERS[q % 7].0)
        .replace("%X", prov(x))
        .replace("%Y", prov(y))
        .replace("%Z", prov(z))
}

#[derive(Debug, Clone)]
enum Step {
    Message {
        client: u64,
        template: usize,
        p: usize,
        q: usize,
        x: usize,
        y: usize,
        z: usize,
    },
    Junk {
        client: u64,
        codes: Vec<u16>,
    },
    Disconnect(u64),
    Connect(u64),
    Deadline,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        20 => (1u64..=9, 0..TEMPLATES.len(), 0usize..7, 0usize..7, 0usize..75, 0usize..75, 0usize..75)
            .prop_map(|(client, template, p, q, x, y, z)| Step::Message { client, template, p, q, x, y, z }),
        2 => (1u64..=9, prop::collection::vec(any::<u16>(), 0..12)).prop_map(|(client, codes)| Step::Junk { client, codes }),
        1 => (1u64..=9).prop_map(Step::Disconnect),
        1 => (1u64..=9).prop_map(Step::Connect),
        1 => Just(Step::Deadline),
    ]
}

fn tokens(s: &str) -> Vec<Token> {
    parse_text(s, &TokenTable::standard()).unwrap_or_default()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_client_traffic_never_breaks_the_host(steps in prop::collection::vec(step(), 1..150), seed in any::<u64>()) {
        let mut cfg = ServerConfig::standard(seed);
        cfg.end_year = Some(1905);
        let mut g = ServerGame::new(cfg).expect("standard game");
        // Seven players join properly first.
        for id in 1..=7u64 {
            g.connect(id);
            g.handle(id, &tokens(&format!("NME ('p{id}') ('1')")));
            g.handle(id, &tokens("YES (MAP ('standard'))"));
        }
        prop_assert!(g.started());
        let start = g.game().phase();
        let mut phase = start;
        for s in steps {
            match s {
                Step::Message { client, template, p, q, x, y, z } => {
                    let text = instantiate(TEMPLATES[template], p, q, x, y, z);
                    let toks = tokens(&text);
                    prop_assert!(!toks.is_empty(), "template did not parse: {}", text);
                    let _ = g.handle(client, &toks);
                }
                Step::Junk { client, codes } => {
                    let toks: Vec<Token> = codes.into_iter().filter_map(|c| Token::from_code(c).ok()).collect();
                    let _ = g.handle(client, &toks);
                }
                Step::Disconnect(id) => { let _ = g.disconnect(id); }
                Step::Connect(id) => g.connect(id),
                Step::Deadline => { let _ = g.deadline_expired(); }
            }
            prop_assert!(g.game().phase() >= phase);
            phase = g.game().phase();
            let mut seen = HashSet::new();
            for u in g.game().units() {
                prop_assert!(seen.insert(u.location.province));
            }
        }
    }
}
