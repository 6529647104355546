//! Tests of the game host: joining, ordering, processing, deadlines, draws.

use super::*;
use crate::daide::token::TokenTable;

fn text(m: &Message) -> String {
    m.to_text(&TokenTable::standard())
}

fn msg(s: &str) -> Vec<Token> {
    crate::daide::text::parse_text(s, &TokenTable::standard()).unwrap()
}

fn sent_to(out: &[Output], id: ClientId) -> Vec<String> {
    out.iter()
        .filter_map(|o| match o {
            Output::Send(i, m) if *i == id => Some(text(m)),
            _ => None,
        })
        .collect()
}

/// Seven players join and accept the map.
fn full_game(cfg: ServerConfig) -> (ServerGame, Vec<String>) {
    let mut g = ServerGame::new(cfg).unwrap();
    let mut last = Vec::new();
    for id in 1..=7 {
        g.connect(id);
        let out = g.handle(id, &msg(&format!("NME ('bot{id}') ('1')")));
        assert_eq!(
            sent_to(&out, id),
            [
                format!("YES (NME ('bot{id}') ('1'))"),
                "MAP ('standard')".to_string()
            ]
        );
        let out = g.handle(id, &msg("MDF"));
        assert!(sent_to(&out, id)[0].starts_with("MDF (AUS ENG FRA GER ITA RUS TUR)"));
        let out = g.handle(id, &msg("YES (MAP ('standard'))"));
        last = sent_to(&out, 1);
    }
    (g, last)
}

/// `SUB` with a hold for every unit of the power played by `id`.
fn holds(g: &ServerGame, id: ClientId) -> String {
    let seat = g.seats.iter().find(|s| s.client == Some(id)).unwrap();
    let map = &g.config().map;
    let pw = map.power_name(seat.power).unwrap().to_string();
    let orders: Vec<String> = g
        .game()
        .units()
        .iter()
        .filter(|u| u.power == seat.power)
        .map(|u| {
            let kind = if u.kind == crate::diplomacy::UnitType::Army {
                "AMY"
            } else {
                "FLT"
            };
            let prov = map.name(u.location.province);
            let at = match u.location.coast {
                Some(_) => format!("({prov} SCS)"),
                None => prov.to_string(),
            };
            format!("(({pw} {kind} {at}) HLD)")
        })
        .collect();
    format!("SUB {}", orders.join(" "))
}

/// The client playing `power`.
fn client_of(g: &ServerGame, power: &str) -> ClientId {
    let p = g.config().map.power(power).unwrap();
    g.seats
        .iter()
        .find(|s| s.power == p)
        .unwrap()
        .client
        .unwrap()
}

#[test]
fn a_gof_trailing_the_last_sub_does_not_leak_into_the_next_phase() {
    let (mut g, _) = full_game(ServerConfig::standard(2));
    for id in 1..=6 {
        g.handle(id, &msg(&holds(&g, id)));
        g.handle(id, &msg("GOF"));
    }
    g.handle(7, &msg(&holds(&g, 7)));
    assert_eq!(g.game().phase().to_string(), "F1901M");
    // Seat 7's GOF for the spring arrives now: refused, it counts for nothing.
    let out = g.handle(7, &msg("GOF"));
    assert_eq!(sent_to(&out, 7), ["REJ (GOF)"]);
    for id in 1..=6 {
        g.handle(id, &msg(&holds(&g, id)));
        g.handle(id, &msg("GOF"));
    }
    assert_eq!(
        g.game().phase().to_string(),
        "F1901M",
        "seat 7 has not ordered"
    );
    g.handle(7, &msg(&holds(&g, 7)));
    assert_eq!(g.game().phase().to_string(), "S1902M");
}

/// Issue 20's reproduction: AUS's `GOF` for F1901 arrives two turns
/// late, after a winter in which AUS had nothing to order.
#[test]
fn a_stale_gof_never_readies_a_power_that_has_not_ordered() {
    let (mut g, _) = full_game(ServerConfig::standard(2));
    let aus = client_of(&g, "AUS");
    let ger = client_of(&g, "GER");
    let others: Vec<ClientId> = (1..=7).filter(|id| *id != aus).collect();
    for id in 1..=7 {
        let sub = if id == ger {
            "SUB ((GER FLT KIE) MTO DEN) ((GER AMY BER) HLD) ((GER AMY MUN) HLD)".to_string()
        } else {
            holds(&g, id)
        };
        g.handle(id, &msg(&sub));
        g.handle(id, &msg("GOF"));
    }
    assert_eq!(g.game().phase().to_string(), "F1901M");
    // F1901: all hold; AUS submits last, its complete SUB processes the turn.
    for &id in &others {
        g.handle(id, &msg(&holds(&g, id)));
        g.handle(id, &msg("GOF"));
    }
    g.handle(aus, &msg(&holds(&g, aus)));
    assert_eq!(g.game().phase().to_string(), "W1901A");
    // W1901: only GER builds, at once.
    g.handle(ger, &msg("SUB ((GER AMY KIE) BLD)"));
    assert_eq!(g.game().phase().to_string(), "S1902M");
    // AUS's GOF sent after its F1901 SUB arrives only now.
    assert_eq!(sent_to(&g.handle(aus, &msg("GOF")), aus), ["REJ (GOF)"]);
    for &id in &others {
        g.handle(id, &msg(&holds(&g, id)));
        g.handle(id, &msg("GOF"));
    }
    assert_eq!(
        g.game().phase().to_string(),
        "S1902M",
        "AUS, connected and with units, has sent nothing for S1902"
    );
    let out = g.handle(aus, &msg(&holds(&g, aus)));
    assert!(
        sent_to(&out, aus)
            .iter()
            .any(|m| m.starts_with("NOW (FAL 1902)"))
    );
}

#[test]
fn a_gof_counts_only_after_a_sub_of_the_same_turn() {
    let (mut g, _) = full_game(ServerConfig::standard(7));
    // GOF alone: refused, not ready.
    for id in 1..=7 {
        assert_eq!(sent_to(&g.handle(id, &msg("GOF")), id), ["REJ (GOF)"]);
    }
    assert_eq!(g.game().phase().to_string(), "S1901M");
    // An incomplete SUB, then GOF: ready (the rest holds).
    for id in 1..=7 {
        let sub = holds(&g, id);
        let first = sub.split(") (").next().unwrap().to_string() + ")";
        g.handle(id, &msg(&first));
        assert_eq!(sent_to(&g.handle(id, &msg("GOF")), id)[0], "YES (GOF)");
    }
    assert_eq!(g.game().phase().to_string(), "F1901M");
    // A complete SUB with NOT (GOF) waits for the GOF.
    for id in 1..=7 {
        g.handle(id, &msg("NOT (GOF)"));
        g.handle(id, &msg(&holds(&g, id)));
    }
    assert_eq!(g.game().phase().to_string(), "F1901M");
    g.handle(1, &msg("GOF"));
    assert_eq!(g.game().phase().to_string(), "F1901M");
    for id in 2..=7 {
        g.handle(id, &msg("GOF"));
    }
    assert_eq!(g.game().phase().to_string(), "S1902M");
}

#[test]
fn a_name_prefix_chooses_the_power() {
    let mut g = ServerGame::new(ServerConfig::standard(5)).unwrap();
    g.connect(1);
    let out = g.handle(1, &msg("NME ('TUR:dumbbot') ('1')"));
    assert_eq!(sent_to(&out, 1)[0], "YES (NME ('TUR:dumbbot') ('1'))");
    let tur = g.config().map.power("TUR").unwrap();
    assert!(g.players().contains(&(tur, "TUR:dumbbot".to_string())));
    g.connect(2);
    let out = g.handle(2, &msg("NME ('tur:other') ('1')"));
    assert_eq!(sent_to(&out, 2), ["REJ (NME ('tur:other') ('1'))"]);
    // An unknown prefix is just a name.
    let out = g.handle(2, &msg("NME ('XYZ:other') ('1')"));
    assert!(sent_to(&out, 2)[0].starts_with("YES"));
}

#[test]
fn game_starts_when_seven_accept_and_refuses_an_eighth() {
    let (mut g, first) = full_game(ServerConfig::standard(1));
    assert!(g.started());
    assert!(first[0].starts_with("HLO ("), "{first:?}");
    assert!(first[1].starts_with("SCO (AUS BUD VIE TRI)"), "{first:?}");
    assert!(first[2].starts_with("NOW (SPR 1901)"), "{first:?}");
    g.connect(8);
    let out = g.handle(8, &msg("NME ('late') ('1')"));
    assert_eq!(sent_to(&out, 8), ["REJ (NME ('late') ('1'))"]);
}

#[test]
fn orders_thx_mis_and_processing() {
    let (mut g, _) = full_game(ServerConfig::standard(2));
    // Find which client plays AUS.
    let aus = g.config().map.power("AUS").unwrap();
    let i = g.seats.iter().position(|s| s.power == aus).unwrap();
    let id = g.seats[i].client.unwrap();
    let out = g.handle(
        id,
        &msg("SUB ((AUS AMY BUD) MTO SER) ((AUS AMY VIE) MTO SEV) ((AUS FLT TRI) MTO VEN)"),
    );
    assert_eq!(
        sent_to(&out, id),
        [
            "THX ((AUS AMY BUD) MTO SER) (MBV)",
            "THX ((AUS AMY VIE) MTO SEV) (FAR)",
            "THX ((AUS FLT TRI) MTO VEN) (MBV)",
            "MIS (AUS AMY VIE)",
        ]
    );
    let out = g.handle(id, &msg("SUB (FAL 1901) ((AUS AMY VIE) HLD)"));
    assert!(sent_to(&out, id)[0].starts_with("REJ (SUB (FAL 1901)"));
    let out = g.handle(id, &msg("SUB ((AUS AMY VIE) HLD)"));
    assert_eq!(sent_to(&out, id), ["THX ((AUS AMY VIE) HLD) (MBV)", "MIS"]);
    // Everyone else submits holds and says GOF: the phase is processed.
    let mut out = Vec::new();
    for s in 0..7 {
        if s != i {
            let c = g.seats[s].client.unwrap();
            // Complete: the last one processes the phase.
            out = g.handle(c, &msg(&holds(&g, c)));
        }
    }
    let to_aus = sent_to(&out, id);
    assert!(
        to_aus.contains(&"ORD (SPR 1901) ((AUS AMY BUD) MTO SER) (SUC)".to_string()),
        "{to_aus:?}"
    );
    assert!(
        to_aus.contains(&"ORD (SPR 1901) ((ITA AMY VEN) HLD) (SUC)".to_string()),
        "{to_aus:?}"
    );
    assert!(to_aus.contains(&"ORD (SPR 1901) ((AUS FLT TRI) MTO VEN) (BNC)".to_string()));
    assert_eq!(to_aus.iter().filter(|s| s.starts_with("ORD")).count(), 22);
    assert!(to_aus.last().unwrap().starts_with("NOW (FAL 1901)"));
    let hst = sent_to(&g.handle(id, &msg("HST (SPR 1901)")), id);
    assert_eq!(hst.len(), 23);
    assert!(hst[22].starts_with("NOW (FAL 1901)"));
    let hst = sent_to(&g.handle(id, &msg("HST (SPR 1900)")), id);
    assert_eq!(hst, ["REJ (HST (SPR 1900))"]);
}

#[test]
fn disconnects_draws_and_year_cap() {
    let mut cfg = ServerConfig::standard(3);
    cfg.end_year = Some(1901);
    let (mut g, _) = full_game(cfg);
    // One player drops: CCD to the others; it no longer blocks processing.
    let out = g.disconnect(7);
    assert!(sent_to(&out, 1).iter().any(|s| s.starts_with("CCD (")));
    for id in 1..=6 {
        g.handle(id, &msg(&holds(&g, id)));
        g.handle(id, &msg("GOF"));
    }
    assert_eq!(g.game().phase().to_string(), "F1901M");
    let mut out = Vec::new();
    for id in 1..=6 {
        out = g.handle(id, &msg(&holds(&g, id)));
    }
    // Year cap 1901: after the fall the game ends in a draw.
    let to1 = sent_to(&out, 1);
    assert!(to1.contains(&"DRW".to_string()), "{to1:?}");
    assert!(to1.iter().any(|s| s.starts_with("SMR (")));
    assert_eq!(to1.last().unwrap(), "OFF");
    assert!(matches!(g.ending(), Some(Ending::Draw(p)) if p.len() == 7));
}

#[test]
fn a_dropped_player_rejoins_with_iam() {
    let (mut g, _) = full_game(ServerConfig::standard(5));
    let seat = g
        .seats
        .iter()
        .find(|s| s.client == Some(7))
        .unwrap()
        .clone();
    let power = text(&Message::Out(seat.token)).replace("OUT ", "");
    g.disconnect(7);
    g.connect(8);
    let wrong = g.handle(8, &msg(&format!("IAM {power} ({})", seat.passcode + 1)));
    assert!(sent_to(&wrong, 8)[0].starts_with("REJ (IAM"));
    g.connect(9);
    let out = g.handle(9, &msg(&format!("IAM {power} ({})", seat.passcode)));
    assert!(sent_to(&out, 9)[0].starts_with("YES (IAM"));
    assert!(sent_to(&out, 1).iter().any(|m| m.starts_with("NOT (CCD")));
    assert_eq!(sent_to(&g.handle(9, &msg("MAP")), 9), ["MAP ('standard')"]);
    let out = g.handle(9, &msg("YES (MAP ('standard'))"));
    let got = sent_to(&out, 9);
    assert!(
        got[0].starts_with("HLO ") && got[1].starts_with("SCO ") && got[2].starts_with("NOW "),
        "{got:?}"
    );
}

#[test]
fn observers_follow_the_game_once_they_accept_the_map() {
    let (mut g, _) = full_game(ServerConfig::standard(6));
    g.connect(20);
    assert_eq!(
        sent_to(&g.handle(20, &msg("OBS")), 20),
        ["YES (OBS)", "MAP ('standard')"]
    );
    // Not yet accepted: no game traffic.
    let out = g.handle(1, &msg(&holds(&g, 1)));
    assert!(sent_to(&out, 20).is_empty());
    let got = sent_to(&g.handle(20, &msg("YES (MAP ('standard'))")), 20);
    assert!(
        got[0].starts_with("SCO ") && got[1].starts_with("NOW "),
        "{got:?}"
    );
    let mut out = Vec::new();
    for id in 2..=7 {
        out = g.handle(id, &msg(&holds(&g, id)));
    }
    assert!(
        sent_to(&out, 20)
            .iter()
            .any(|m| m.starts_with("NOW (FAL 1901)"))
    );
    // Observers cannot order.
    assert!(sent_to(&g.handle(20, &msg("GOF")), 20)[0].starts_with("REJ"));
}

#[test]
fn seat_stats_count_refusals_wrong_turns_and_phases_without_orders() {
    let mut cfg = ServerConfig::standard(9);
    cfg.deadline = Some(10);
    let (mut g, _) = full_game(cfg);
    // Seat 1: one refused order (a move too far), one SUB for another turn.
    let power = {
        let seat = g.seats.iter().find(|s| s.client == Some(1)).unwrap();
        g.config().map.power_name(seat.power).unwrap().to_string()
    };
    let far = format!("SUB (({power} AMY ALB) MTO MOS)");
    assert!(sent_to(&g.handle(1, &msg(&far)), 1)[0].starts_with("THX"));
    let wrong = format!("SUB (FAL 1905) (({power} AMY ALB) HLD)");
    assert!(sent_to(&g.handle(1, &msg(&wrong)), 1)[0].starts_with("REJ (SUB"));
    g.handle(1, &msg(&holds(&g, 1)));
    // Seats 2-6 order; seat 7 sends nothing and the deadline passes.
    for id in 2..=6 {
        g.handle(id, &msg(&holds(&g, id)));
    }
    g.deadline_expired();
    let stats: Vec<SeatStats> = g.seat_stats().into_iter().map(|(_, s)| s).collect();
    let of = |id: ClientId| {
        let i = g.seats.iter().position(|s| s.client == Some(id)).unwrap();
        stats[i]
    };
    assert_eq!(of(1).refused_orders, 1, "{stats:?}");
    assert_eq!(of(1).rejected_subs, 1, "{stats:?}");
    assert_eq!(of(1).phases_without_orders, 0);
    assert_eq!(of(7).phases_without_orders, 1, "{stats:?}");
    assert!(stats.iter().all(|s| s.phases_to_order == 1), "{stats:?}");
}

#[test]
fn missing_a_deadline_is_civil_disorder() {
    let mut cfg = ServerConfig::standard(8);
    cfg.deadline = Some(10);
    let (mut g, first) = full_game(cfg);
    assert!(first.iter().any(|m| m == "TME (10)"), "{first:?}");
    for id in 1..=6 {
        g.handle(id, &msg(&holds(&g, id)));
        g.handle(id, &msg("GOF"));
    }
    let out = g.deadline_expired();
    let to1 = sent_to(&out, 1);
    assert!(
        to1.iter()
            .any(|m| m.starts_with("CCD (") && m.ends_with("(SPR 1901)")),
        "{to1:?}"
    );
    assert!(to1.iter().any(|m| m.starts_with("NOW (FAL 1901)")));
    let seat7 = g
        .seats
        .iter()
        .find(|s| s.client == Some(7))
        .unwrap()
        .clone();
    let power = text(&Message::Out(seat7.token)).replace("OUT ", "");
    let out = g.handle(7, &msg("MIS"));
    assert!(!sent_to(&out, 7).is_empty());
    let hold = g
        .game()
        .units()
        .iter()
        .find(|u| u.power == seat7.power)
        .copied()
        .unwrap();
    let names = Names::new(&TokenTable::standard(), g.game().map());
    let order = Message::Sub {
        turn: None,
        orders: vec![names.daide_order(&Order::Hold(hold)).unwrap()],
    };
    let out = g.handle(7, &order.to_tokens());
    assert!(
        sent_to(&out, 1).contains(&format!("NOT (CCD {power})")),
        "{:?}",
        sent_to(&out, 1)
    );
}

#[test]
fn agreed_draw_and_rejections() {
    let (mut g, _) = full_game(ServerConfig::standard(4));
    let out = g.handle(1, &msg("SND (FRA) (PRP (PCE (AUS FRA)))"));
    assert!(sent_to(&out, 1)[0].starts_with("REJ (SND"));
    let out = g.handle(1, &msg("SUB ((AUS AMY"));
    assert!(sent_to(&out, 1)[0].starts_with("PRN ("));
    let out = g.handle(1, &msg("TME"));
    assert_eq!(sent_to(&out, 1), ["REJ (TME)"]);
    let mut out = Vec::new();
    for id in 1..=7 {
        out = g.handle(id, &msg("DRW"));
    }
    assert!(sent_to(&out, 3).contains(&"DRW".to_string()));
    assert!(g.ending().is_some());
}
