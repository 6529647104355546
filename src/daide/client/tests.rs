//! Tests of the sans-I/O DAIDE client: the handshake, order submission, retraction and completion of orders.

use super::*;
use crate::daide::text::parse_text;
use crate::diplomacy::map::STANDARD_MAP_TEXT;

fn text(m: &Message) -> String {
    m.to_text(&TokenTable::standard())
}

fn server(s: &str) -> Message {
    Message::from_text(s, &TokenTable::standard()).unwrap()
}

fn sends(events: &[ClientEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            ClientEvent::Send(m) => Some(text(m)),
            _ => None,
        })
        .collect()
}

fn joined() -> ClientSession {
    let mut s = ClientSession::new(ClientConfig {
        name: "JIC".into(),
        version: "0.1".into(),
        ..ClientConfig::default()
    });
    assert_eq!(sends(&s.start()), ["NME ('JIC') ('0.1')"]);
    assert_eq!(sends(&s.handle(server("MAP ('standard')"))), ["MDF"]);
    let toks = parse_text(STANDARD_MAP_TEXT, &TokenTable::standard()).unwrap();
    assert_eq!(sends(&s.handle_tokens(&toks)), ["YES (MAP ('standard'))"]);
    assert!(
        s.handle(server("HLO (AUS) (2260) ((LVL 0) (MTL 60))"))
            .is_empty()
    );
    assert_eq!(s.passcode(), Some(2260));
    s.handle(server(
            "SCO (AUS BUD TRI VIE) (ENG EDI LON LVP) (UNO BEL BUL DEN GRE HOL NWY POR RUM SER SPA SWE TUN)",
        ));
    s
}

#[test]
fn handshake_now_and_submission() {
    let mut s = joined();
    let ev = s.handle(server(
        "NOW (SPR 1901) (AUS AMY BUD) (AUS AMY VIE) (AUS FLT TRI) (ENG FLT LON)",
    ));
    let [ClientEvent::Position(_), ClientEvent::OrdersNeeded(view)] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(view.units.len(), 4);
    let me = view.me.unwrap();
    assert_eq!(view.owners.values().filter(|p| **p == me).count(), 3);
    let holds: Vec<Order> = view
        .units
        .iter()
        .filter(|u| u.power == me)
        .map(|u| Order::Hold(*u))
        .collect();
    let out = s.submit(view.phase, holds);
    assert_eq!(
        sends(&out),
        [
            "SUB (SPR 1901) ((AUS AMY BUD) HLD) ((AUS AMY VIE) HLD) ((AUS FLT TRI) HLD)",
            "GOF"
        ]
    );
    // A late submission for an old phase is dropped.
    let old = Phase {
        year: 1900,
        season: crate::diplomacy::Season::Spring,
    };
    assert!(sends(&s.submit(old, vec![])).is_empty());
}

fn orders_needed(ev: &[ClientEvent]) -> Option<GameView> {
    ev.iter().find_map(|e| match e {
        ClientEvent::OrdersNeeded(v) => Some(v.clone()),
        _ => None,
    })
}

/// Issue 20's sequence seen by AUS: its F1901 `SUB` completes the turn,
/// the server reads the `GOF` after it two turns on, in S1902.
#[test]
fn a_gof_answered_after_a_later_now_is_retracted() {
    let mut s = joined();
    let units = "(AUS AMY BUD) (AUS AMY VIE) (AUS FLT TRI) (GER AMY KIE)";
    let ev = s.handle(server(&format!("NOW (FAL 1901) {units}")));
    let view = orders_needed(&ev).unwrap();
    assert_eq!(
        sends(&s.submit(view.phase, vec![])),
        [
            "SUB (FAL 1901) ((AUS AMY BUD) HLD) ((AUS AMY VIE) HLD) ((AUS FLT TRI) HLD)",
            "GOF"
        ]
    );
    for m in [
        "THX ((AUS AMY BUD) HLD) (MBV)",
        "THX ((AUS AMY VIE) HLD) (MBV)",
        "THX ((AUS FLT TRI) HLD) (MBV)",
        "MIS",
        "ORD (FAL 1901) ((AUS AMY BUD) HLD) (SUC)",
        "SCO (AUS BUD TRI VIE) (GER BER DEN KIE MUN)",
    ] {
        assert!(sends(&s.handle(server(m))).is_empty(), "{m}");
    }
    // The turn moved on before the GOF was answered. AUS has nothing to
    // adjust: a NOT (GOF) would leave it unready in a turn it sends no GOF in.
    let ev = s.handle(server(&format!("NOW (WIN 1901) {units}")));
    assert!(sends(&ev).is_empty(), "{ev:?}");
    assert!(orders_needed(&ev).is_none(), "AUS has nothing to adjust");
    // Only GER builds; the NOW of S1902 comes before the stale GOF's
    // answer: retract it before this turn's SUB.
    let units = format!("{units} (GER AMY BER)");
    let ev = s.handle(server(&format!("NOW (SPR 1902) {units}")));
    assert_eq!(sends(&ev), ["NOT (GOF)"]);
    let view = orders_needed(&ev).unwrap();
    assert!(sends(&s.handle(server("YES (GOF)"))).is_empty());
    assert!(sends(&s.handle(server("YES (NOT (GOF))"))).is_empty());
    assert_eq!(sends(&s.submit(view.phase, vec![])).len(), 2);
    // This turn's GOF is answered before the next NOW: nothing to retract.
    s.handle(server("YES (GOF)"));
    let ev = s.handle(server(&format!("NOW (FAL 1902) {units}")));
    assert_eq!(sends(&ev), Vec::<String>::new());
    // REJ (GOF), as tablero's server answers a stale GOF, is an answer too.
    let view = orders_needed(&ev).unwrap();
    s.submit(view.phase, vec![]);
    s.handle(server("REJ (GOF)"));
    let ev = s.handle(server(&format!("NOW (WIN 1902) {units}")));
    assert!(sends(&ev).is_empty());
}

/// A stale `GOF` retracted in a winter where the power ends up only waiving: the server was
/// told `NOT (GOF)` and waits for a `GOF`, so one follows the waives (without it the game
/// stalls for good on a server without deadlines).
#[test]
fn a_retraction_is_followed_by_a_gof_even_when_only_waiving() {
    let mut s = joined();
    let units = "(AUS AMY BUD) (AUS AMY VIE)";
    let ev = s.handle(server(&format!("NOW (FAL 1901) {units}")));
    let view = orders_needed(&ev).unwrap();
    assert_eq!(sends(&s.submit(view.phase, vec![])).len(), 2);
    s.handle(server("SCO (AUS BUD TRI VIE SER)"));
    // The winter comes before the GOF's answer: it is retracted.
    let ev = s.handle(server(&format!("NOW (WIN 1901) {units}")));
    assert_eq!(sends(&ev), ["NOT (GOF)"]);
    let view = orders_needed(&ev).unwrap();
    assert_eq!(
        sends(&s.submit(view.phase, vec![])),
        ["SUB (WIN 1901) (AUS WVE) (AUS WVE)", "GOF"]
    );
    // The next winter, with nothing retracted, waives go alone again.
    for m in ["YES (GOF)", "YES (NOT (GOF))", "YES (GOF)"] {
        assert!(sends(&s.handle(server(m))).is_empty(), "{m}");
    }
    let ev = s.handle(server(&format!("NOW (SPR 1902) {units}")));
    let view = orders_needed(&ev).unwrap();
    s.submit(view.phase, vec![]);
    s.handle(server("YES (GOF)"));
    let ev = s.handle(server(&format!("NOW (WIN 1902) {units}")));
    assert!(sends(&ev).is_empty(), "{ev:?}");
    let view = orders_needed(&ev).unwrap();
    assert_eq!(
        sends(&s.submit(view.phase, vec![])),
        ["SUB (WIN 1902) (AUS WVE) (AUS WVE)"]
    );
}

#[test]
fn missing_orders_are_completed_so_that_a_sub_always_goes_out() {
    let mut s = joined();
    s.handle(server("SCO (AUS BUD TRI VIE SER)"));
    let ev = s.handle(server("NOW (WIN 1901) (AUS AMY BUD) (AUS AMY VIE)"));
    let view = orders_needed(&ev).unwrap();
    assert_eq!(
        sends(&s.submit(view.phase, vec![])),
        ["SUB (WIN 1901) (AUS WVE) (AUS WVE)"],
        "waives go without GOF"
    );
    s.handle(server("SCO (AUS BUD)"));
    let ev = s.handle(server("NOW (WIN 1902) (AUS AMY BUD) (AUS AMY VIE)"));
    let view = orders_needed(&ev).unwrap();
    assert_eq!(
        sends(&s.submit(view.phase, vec![])),
        ["SUB (WIN 1902) ((AUS AMY BUD) REM)", "GOF"]
    );
    let ev = s.handle(server(
        "NOW (SUM 1903) (AUS AMY SER) (AUS AMY BUD MRT (VIE GAL))",
    ));
    let view = orders_needed(&ev).unwrap();
    assert_eq!(
        sends(&s.submit(view.phase, vec![])),
        ["SUB (SUM 1903) ((AUS AMY BUD) DSB)", "GOF"]
    );
}

#[test]
fn reported_orders_are_observed_with_the_position_they_were_given_in() {
    let mut s = joined();
    s.handle(server(
        "NOW (SPR 1901) (AUS AMY BUD) (AUS AMY VIE) (ENG FLT LON)",
    ));
    for ord in [
        "ORD (SPR 1901) ((AUS AMY BUD) MTO SER) (SUC)",
        "ORD (SPR 1901) ((AUS AMY VIE) HLD) (SUC)",
        "ORD (SPR 1901) ((ENG FLT LON) MTO NTH) (SUC)",
        // A repeat, another turn's report and a malformed order are not kept.
        "ORD (SPR 1901) ((AUS AMY VIE) HLD) (SUC)",
        "ORD (FAL 1900) ((ENG FLT LON) HLD) (SUC)",
        "ORD (SPR 1901) ((ENG FLT LON) MTO XYZ) (SUC)",
    ] {
        if let Ok(m) = Message::from_text(ord, &TokenTable::standard()) {
            s.handle(m);
        }
    }
    let ev = s.handle(server(
        "NOW (FAL 1901) (AUS AMY SER) (AUS AMY VIE) (ENG FLT NTH)",
    ));
    let Some(ClientEvent::Observed(view, orders)) = ev.first() else {
        panic!("{ev:?}")
    };
    assert_eq!((view.phase.year, view.me), (1901, None));
    assert_eq!(view.phase.season, crate::diplomacy::Season::Spring);
    assert_eq!(view.units.len(), 3);
    assert_eq!(orders.len(), 3, "{orders:?}");
    let moves = orders.iter().filter(|o| matches!(o, Order::Move { .. }));
    assert_eq!(moves.count(), 2);
    // Then the new position (our power's view), then the orders it needs.
    let Some(ClientEvent::Position(now)) = ev.get(1) else {
        panic!("{ev:?}")
    };
    assert_eq!(
        (now.phase.season, now.me.is_some()),
        (crate::diplomacy::Season::Fall, true)
    );
    assert!(matches!(ev.get(2), Some(ClientEvent::OrdersNeeded(_))));
    // Nothing reported, nothing observed.
    let ev = s.handle(server(
        "NOW (WIN 1901) (AUS AMY SER) (AUS AMY VIE) (ENG FLT NTH)",
    ));
    assert!(!ev.iter().any(|e| matches!(e, ClientEvent::Observed(..))));
}

#[test]
fn refused_orders_are_replaced_and_resent_once() {
    let mut s = joined();
    let ev = s.handle(server("NOW (SPR 1901) (AUS AMY BUD) (AUS AMY VIE)"));
    let [ClientEvent::Position(_), ClientEvent::OrdersNeeded(view)] = ev.as_slice() else {
        panic!()
    };
    let m = view.map.clone();
    let bud = view.units[0];
    let vie = view.units[1];
    let orders = vec![
        Order::Move {
            unit: bud,
            to: crate::diplomacy::Location::new(m.province("SEV").unwrap()),
            via: None,
        },
        Order::Hold(vie),
    ];
    s.submit(view.phase, orders);
    let refused = s.handle(server("THX ((AUS AMY BUD) MTO SEV) (FAR)"));
    assert!(sends(&refused).is_empty());
    assert!(
        matches!(refused.as_slice(), [ClientEvent::OrderRefused(t)] if t.ends_with("(FAR)")),
        "{refused:?}"
    );
    let accepted = s.handle(server("THX ((AUS AMY VIE) HLD) (MBV)"));
    assert!(accepted.is_empty(), "{accepted:?}");
    assert_eq!(
        sends(&s.handle(server("MIS"))),
        [
            "SUB (SPR 1901) ((AUS AMY BUD) HLD) ((AUS AMY VIE) HLD)",
            "GOF"
        ]
    );
    assert!(sends(&s.handle(server("MIS"))).is_empty());
}

#[test]
fn retreats_and_adjustments_views() {
    let mut s = joined();
    let ev = s.handle(server(
        "NOW (SUM 1901) (AUS AMY SER) (AUS AMY BUD MRT (VIE GAL)) (RUS AMY BUD)",
    ));
    let [ClientEvent::Position(_), ClientEvent::OrdersNeeded(view)] = ev.as_slice() else {
        panic!("{ev:?}")
    };
    assert_eq!(view.dislodged.len(), 1);
    assert_eq!(view.dislodged[0].retreats.len(), 2);
    // Winter with nothing to adjust for AUS: the position, no orders needed.
    s.handle(server("SCO (AUS BUD TRI VIE)"));
    let ev = s.handle(server(
        "NOW (WIN 1901) (AUS AMY BUD) (AUS AMY VIE) (AUS FLT TRI)",
    ));
    assert!(
        matches!(ev.as_slice(), [ClientEvent::Position(_)]),
        "{ev:?}"
    );
}

#[test]
fn press_is_answered_as_no_press() {
    let mut s = joined();
    let out = s.handle(server("FRM (FRA) (AUS) (PRP (PCE (AUS FRA)))"));
    assert_eq!(
        sends(&out),
        [
            "SND (FRA) (HUH (ERR PRP (PCE (AUS FRA))))",
            "SND (FRA) (TRY ())"
        ]
    );
}

#[test]
fn bad_server_input_gets_huh_or_prn_never_a_panic() {
    let mut s = joined();
    let t = TokenTable::standard();
    let toks = parse_text("NOW (SPR 1901) (AUS AMY", &t).unwrap();
    assert_eq!(
        sends(&s.handle_tokens(&toks)),
        ["PRN (NOW (SPR 1901) (AUS AMY)"]
    );
    let toks = parse_text("NOW (SPR) (AUS AMY BUD)", &t).unwrap();
    assert_eq!(
        sends(&s.handle_tokens(&toks)),
        ["HUH (NOW (SPR ERR) (AUS AMY BUD))"]
    );
    // Our own message refused by the server: reported, not answered.
    assert!(sends(&s.handle(server("HUH (SUB ERR)"))).is_empty());
    // A NOW naming a province the map lacks is reported, not fatal.
    let mut fresh = ClientSession::new(ClientConfig::default());
    let ev = fresh.handle(server("NOW (SPR 1901) (AUS AMY BUD)"));
    assert!(matches!(ev.as_slice(), [ClientEvent::Notice(_)]));
}

#[test]
fn game_end() {
    let mut s = joined();
    assert!(matches!(
        s.handle(server("SLO (AUS)")).as_slice(),
        [ClientEvent::GameOver(GameEnd::Solo(_))]
    ));
    assert!(matches!(
        s.handle(server("SMR (SPR 1910) (AUS ('a') ('b') 18)"))
            .as_slice(),
        [ClientEvent::Summary(_)]
    ));
    assert!(matches!(
        s.handle(server("OFF")).as_slice(),
        [ClientEvent::Off]
    ));
    assert_eq!(s.state(), ClientState::Closed);
    assert_eq!(
        s.rejoin().map(|m| text(&m)),
        Some("IAM (AUS) (2260)".to_string())
    );
}

#[test]
fn budget_follows_the_time_limits() {
    let mut s = ClientSession::new(ClientConfig {
        think_time: Duration::from_secs(30),
        margin: Duration::from_secs(2),
        ..ClientConfig::default()
    });
    s.handle(server("MAP ('standard')"));
    let toks = parse_text(STANDARD_MAP_TEXT, &TokenTable::standard()).unwrap();
    s.handle_tokens(&toks);
    s.handle(server("HLO (AUS) (1) ((LVL 0) (MTL 10) (RTL 5) (BTL 0))"));
    s.handle(server("NOW (SPR 1901) (AUS AMY BUD)"));
    let left = |s: &ClientSession| s.budget(CancelFlag::new()).deadline - Instant::now();
    // MTL 10 − margin 2.
    assert!(left(&s) <= Duration::from_secs(8) && left(&s) > Duration::from_secs(7));
    s.handle(server("TME (4)"));
    assert!(left(&s) <= Duration::from_secs(2));
    s.handle(server("NOW (WIN 1901) (AUS AMY BUD)"));
    // BTL 0: no deadline, the configured thinking time.
    assert!(left(&s) > Duration::from_secs(29));
}

#[test]
fn rejoin_asks_for_the_map_again() {
    let mut s = ClientSession::new(ClientConfig::default());
    let t = TokenTable::standard();
    let aus = t.power("AUS").unwrap();
    assert_eq!(sends(&s.start_rejoin(aus, 2260)), ["IAM (AUS) (2260)"]);
    assert_eq!(sends(&s.handle(server("YES (IAM (AUS) (2260))"))), ["MAP"]);
    assert_eq!(sends(&s.handle(server("MAP ('standard')"))), ["MDF"]);
}
