//! Tests of the DAIDE message grammar: round trips through text, tokens and messages, and
//! the errors and replies of malformed input.

use super::*;
use crate::daide::text::{format_tokens, parse_text};
use crate::daide::token::{TokenTable, UnitKind};

fn msg(s: &str) -> Message {
    let t = TokenTable::standard();
    let toks = parse_text(s, &t).unwrap();
    parse_message(&toks).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn round(s: &str) {
    let t = TokenTable::standard();
    let m = msg(s);
    assert_eq!(format_tokens(&m.to_tokens(), &t), s, "{m:?}");
}

#[test]
fn reference_examples_round_trip() {
    for s in [
        "SUB ((TUR AMY CON) MTO BUL)",
        "NME ('JIC') ('0.1')",
        "YES (NME ('JIC') ('0.1'))",
        "MAP ('standard')",
        "MAP",
        "MDF",
        "YES (MAP ('standard'))",
        "HLO (AUS) (2260) ((LVL 0))",
        "HLO (AUS) (-17) ((LVL 10) (MTL 1200) (RTL 60) (BTL 60) (AOA) (DSD))",
        "SUB ((AUS AMY BUD) HLD) ((AUS AMY VIE) HLD) ((AUS FLT TRI) HLD)",
        "SUB (SPR 1901) ((ENG FLT BAR) MTO (STP NCS))",
        "SUB ((ENG FLT NWY) SUP (ENG FLT BAR) MTO STP)",
        "SUB ((ENG FLT NTH) CVY (ENG AMY YOR) CTO NWY)",
        "SUB ((ENG AMY YOR) CTO NWY VIA (NTH))",
        "SUB ((ENG AMY LVP) SUP (ENG FLT LON))",
        "SUB ((ITA FLT NAP) BLD) ((RUS FLT GOB) REM) (FRA WVE)",
        "SUB ((RUS FLT (STP SCS)) RTO BOT)"
            .replace("BOT", "GOB")
            .as_str(),
        "SUB ((AUS AMY SER) DSB)",
        "THX ((AUS AMY BUD) HLD) (MBV)",
        "MIS",
        "MIS (-2)",
        "MIS (AUS AMY SER MRT (ALB (BUL ECS)))",
        "GOF",
        "NOT (GOF)",
        "ORD (SPR 1901) ((AUS AMY BUD) HLD) (SUC)",
        "ORD (WIN 1901) (RUS WVE) (SUC)",
        "ORD (FAL 1901) ((AUS AMY BUD) MTO SER) (BNC RET)",
        "ORD (SPR 1901) ((ENG AMY LON) MTO VIA) (NSO)",
        "SCO (AUS BUD TRI VIE) (UNO BEL BUL)",
        "SCO",
        "NOW (SPR 1901) (AUS AMY BUD) (RUS FLT (STP SCS)) (TUR AMY SMY MRT (ARM SYR))",
        "NOW",
        "TME (0)",
        "TME",
        "DRW",
        "DRW (AUS ENG)",
        "NOT (DRW)",
        "HST (FAL 1905)",
        "CCD (ITA)",
        "CCD (ITA) (SPR 1902)",
        "NOT (CCD (ITA))",
        "OUT (AUS)",
        "ADM ('Server') ('hello there')",
        "SLO (TUR)",
        "SMR (SPR 1910) (AUS ('JIC') ('0.1') 18) (ENG ('x') ('1') 0 1905)",
        "OFF",
        "HUH (SUB ((AUS AMY BUD) ERR MTO MTO))",
        "PRN (SUB ((AUS AMY BUD) HLD)",
        "FRM (ENG) (FRA GER) (PRP (PCE (ENG FRA)))",
        "SND (ENG) (HUH (ERR PRP (PCE (ENG FRA))))",
        "OBS",
        "IAM (AUS) (2260)",
        "REJ (IAM (AUS) (2260))",
        "REJ (TME)",
        "SVE ('g1')",
        "LOD ('g1')",
        "MDF (AUS ENG) (((AUS BUD) ((AUS ENG) LON) (UNO BEL)) (BOH NTH)) ((BOH (AMY BUD)) (STP (AMY MOS) ((FLT NCS) BAR) ((FLT SCS) GOB BAL)) (NTH (FLT LON (BUL ECS))))",
    ] {
        round(s);
    }
}

#[test]
fn typed_contents_are_right() {
    let t = TokenTable::standard();
    let m = msg("SUB ((TUR AMY CON) MTO BUL)");
    let Message::Sub { turn: None, orders } = m else {
        panic!("not a SUB")
    };
    assert_eq!(
        orders,
        vec![Order::Move(
            Unit {
                power: t.power("TUR").unwrap(),
                kind: UnitKind::Amy,
                loc: Loc::Prov(t.province("CON").unwrap())
            },
            Loc::Prov(t.province("BUL").unwrap())
        )]
    );
    assert_eq!(msg("MIS (3)"), Message::Mis(Missing::Count(3)));
    assert_eq!(msg("MIS"), Message::Mis(Missing::Units(vec![])));
    let Message::Ord(Some(r)) = msg("ORD (SPR 1901) ((ENG AMY LON) MTO VIA) (NSO)") else {
        panic!()
    };
    assert!(matches!(r.order, Parsed::Raw(_)));
    let Message::Yes(inner) = msg("YES (MAP ('standard'))") else {
        panic!()
    };
    assert_eq!(*inner, Parsed::Ok(Message::Map(Some("standard".into()))));
}

#[test]
fn a_bad_unbalanced_prn_is_answered_by_a_prn_that_parses_back() {
    let t = TokenTable::standard();
    let toks = parse_text("PRN ERR )", &t).unwrap();
    let e = parse_message(&toks).unwrap_err();
    assert_eq!(e, MessageError::Unbalanced);
    let reply = e.reply(&toks);
    assert_eq!(format_tokens(&reply.to_tokens(), &t), "PRN (PRN ERR))");
    assert_eq!(parse_message(&reply.to_tokens()), Ok(reply));
}

#[test]
fn errors_map_to_prn_and_huh() {
    let t = TokenTable::standard();
    let toks = parse_text("SUB ((AUS AMY BUD) HLD", &t).unwrap();
    let e = parse_message(&toks).unwrap_err();
    assert_eq!(e, MessageError::Unbalanced);
    assert_eq!(
        format_tokens(&e.reply(&toks).to_tokens(), &t),
        "PRN (SUB ((AUS AMY BUD) HLD)"
    );
    let toks = parse_text("SUB ((AUS AMY BUD) MTO MTO)", &t).unwrap();
    let e = parse_message(&toks).unwrap_err();
    assert_eq!(e, MessageError::Syntax { position: 8 });
    assert_eq!(
        format_tokens(&e.reply(&toks).to_tokens(), &t),
        "HUH (SUB ((AUS AMY BUD) MTO ERR MTO))"
    );
    for bad in [
        "YES",
        "HLD",
        "SUB (AUS)",
        "NOW (SPR)",
        "GOF GOF",
        "TME (1) (2)",
        "PRN",
    ] {
        let toks = parse_text(bad, &t).unwrap();
        assert!(parse_message(&toks).is_err(), "{bad}");
    }
    assert_eq!(parse_message(&[]), Err(MessageError::Empty));
}
