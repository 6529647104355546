//! Property tests for the DAIDE layer: message → tokens → message,
//! message → text → message (and text → message → text), and random junk
//! (tokens, bytes, text) never panics the parsers or the codec.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::BytesMut;
use proptest::prelude::*;
use tablero::daide::codec::{DaideCodec, Frame, Role};
use tablero::daide::message::*;
use tablero::daide::text::{format_tokens, parse_text};
use tablero::daide::token::*;
use tokio_util::codec::{Decoder, Encoder};

fn power() -> impl Strategy<Value = PowerToken> {
    (0u8..7).prop_map(PowerToken)
}

fn province() -> impl Strategy<Value = ProvinceToken> {
    (0..STANDARD_PROVINCES.len()).prop_map(|i| {
        ProvinceToken::from_code(STANDARD_PROVINCES[i].1).expect("standard province code")
    })
}

fn coast() -> impl Strategy<Value = CoastToken> {
    prop::sample::select(CoastToken::ALL.to_vec())
}

fn loc() -> impl Strategy<Value = Loc> {
    prop_oneof![
        province().prop_map(Loc::Prov),
        (province(), coast()).prop_map(|(p, c)| Loc::Coast(p, c)),
    ]
}

fn unit() -> impl Strategy<Value = Unit> {
    (power(), prop::sample::select(UnitKind::ALL.to_vec()), loc())
        .prop_map(|(power, kind, loc)| Unit { power, kind, loc })
}

fn year() -> impl Strategy<Value = i16> {
    INT_MIN..=INT_MAX
}

fn turn() -> impl Strategy<Value = Turn> {
    (prop::sample::select(PhaseToken::ALL.to_vec()), year())
        .prop_map(|(season, year)| Turn { season, year })
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[ -~]{0,8}",
        prop::collection::vec(any::<u8>(), 0..6)
            .prop_map(|v| v.into_iter().map(char::from).collect::<String>()),
    ]
}

fn order() -> impl Strategy<Value = Order> {
    prop_oneof![
        unit().prop_map(Order::Hold),
        (unit(), loc()).prop_map(|(u, l)| Order::Move(u, l)),
        (unit(), unit()).prop_map(|(u, v)| Order::SupportHold(u, v)),
        (unit(), unit(), province()).prop_map(|(u, v, p)| Order::SupportMove(u, v, p)),
        (unit(), unit(), province()).prop_map(|(u, v, p)| Order::Convoy(u, v, p)),
        (unit(), province(), prop::collection::vec(province(), 1..4))
            .prop_map(|(u, p, via)| Order::ConvoyMove(u, p, via)),
        (unit(), loc()).prop_map(|(u, l)| Order::Retreat(u, l)),
        unit().prop_map(Order::Disband),
        unit().prop_map(Order::Build),
        unit().prop_map(Order::Remove),
        power().prop_map(Order::Waive),
    ]
}

fn placed() -> impl Strategy<Value = PlacedUnit> {
    (unit(), prop::option::of(prop::collection::vec(loc(), 0..3)))
        .prop_map(|(unit, retreats)| PlacedUnit { unit, retreats })
}

fn centre_group() -> impl Strategy<Value = CentreGroup> {
    (
        prop_oneof![Just(Owners::Unowned), power().prop_map(Owners::Power),],
        prop::collection::vec(province(), 0..4),
    )
        .prop_map(|(owners, centres)| CentreGroup { owners, centres })
}

fn map_def() -> impl Strategy<Value = MapDef> {
    let adj_unit = prop_oneof![
        Just(AdjUnit::Army),
        Just(AdjUnit::Fleet),
        coast().prop_map(AdjUnit::FleetCoast),
    ];
    let adj_list =
        (adj_unit, prop::collection::vec(loc(), 0..3)).prop_map(|(unit, to)| AdjList { unit, to });
    let prov_adj = (province(), prop::collection::vec(adj_list, 0..3))
        .prop_map(|(province, lists)| ProvinceAdjacency { province, lists });
    let shared = prop::collection::vec(power(), 1..3).prop_map(Owners::Shared);
    let group = (
        prop_oneof![centre_group().prop_map(|g| g.owners), shared],
        prop::collection::vec(province(), 0..3),
    )
        .prop_map(|(owners, centres)| CentreGroup { owners, centres });
    (
        prop::collection::vec(power(), 0..7),
        prop::collection::vec(group, 0..4),
        prop::collection::vec(province(), 0..4),
        prop::collection::vec(prov_adj, 0..4),
    )
        .prop_map(|(powers, centres, non_centres, adjacencies)| MapDef {
            powers,
            centres,
            non_centres,
            adjacencies,
        })
}

fn leaf_message() -> impl Strategy<Value = Message> {
    let variant = (
        prop::sample::select(Param::ALL.to_vec()),
        prop::option::of(year()),
    );
    prop_oneof![
        (text(), text()).prop_map(|(name, version)| Message::Nme { name, version }),
        Just(Message::Obs),
        Just(Message::Gof),
        Just(Message::Off),
        (power(), year()).prop_map(|(power, passcode)| Message::Iam { power, passcode }),
        prop::option::of(text()).prop_map(Message::Map),
        prop::option::of(map_def()).prop_map(|m| Message::Mdf(m.map(std::sync::Arc::new))),
        prop::option::of(
            (power(), year(), prop::collection::vec(variant, 0..4)).prop_map(
                |(power, passcode, variant)| Hello {
                    power,
                    passcode,
                    variant
                }
            )
        )
        .prop_map(Message::Hlo),
        prop::collection::vec(centre_group(), 0..4).prop_map(Message::Sco),
        prop::option::of((turn(), prop::collection::vec(placed(), 0..5)))
            .prop_map(|p| Message::Now(p.map(|(turn, units)| Position { turn, units }))),
        prop::option::of(year()).prop_map(Message::Tme),
        (
            prop::option::of(turn()),
            prop::collection::vec(order(), 0..5)
        )
            .prop_map(|(turn, orders)| Message::Sub { turn, orders }),
        (order(), prop::sample::select(ThxNote::ALL.to_vec()))
            .prop_map(|(order, note)| Message::Thx { order, note }),
        prop_oneof![
            year().prop_map(Missing::Count),
            prop::collection::vec(placed(), 0..4).prop_map(Missing::Units),
        ]
        .prop_map(Message::Mis),
        prop::option::of((
            turn(),
            order(),
            prop::collection::vec(prop::sample::select(OrdResult::ALL.to_vec()), 1..3)
        ))
        .prop_map(|r| Message::Ord(r.map(|(turn, o, results)| OrderReport {
            turn,
            order: Parsed::Ok(o),
            results
        }))),
        prop::collection::vec(power(), 0..3).prop_map(Message::Drw),
        turn().prop_map(Message::Hst),
        (power(), prop::option::of(turn())).prop_map(|(power, turn)| Message::Ccd { power, turn }),
        power().prop_map(Message::Out),
        power().prop_map(Message::Slo),
        (text(), text()).prop_map(|(name, text)| Message::Adm { name, text }),
        (
            turn(),
            prop::collection::vec(
                (power(), text(), text(), year(), prop::option::of(year())).prop_map(
                    |(power, name, version, centres, eliminated)| SummaryEntry {
                        power,
                        name,
                        version,
                        centres,
                        eliminated
                    }
                ),
                0..4
            )
        )
            .prop_map(|(turn, entries)| Message::Smr { turn, entries }),
        text().prop_map(Message::Lod),
        text().prop_map(Message::Sve),
    ]
}

fn message() -> impl Strategy<Value = Message> {
    leaf_message().prop_recursive(2, 16, 1, |inner| {
        prop_oneof![
            inner
                .clone()
                .prop_map(|m| Message::Yes(Box::new(Parsed::Ok(m)))),
            inner
                .clone()
                .prop_map(|m| Message::Rej(Box::new(Parsed::Ok(m)))),
            inner
                .clone()
                .prop_map(|m| Message::Not(Box::new(Parsed::Ok(m)))),
            (inner.clone(), any::<prop::sample::Index>()).prop_map(|(m, ix)| {
                let mut t = m.to_tokens();
                let at = ix.index(t.len() + 1);
                t.insert(at, Token::Param(Param::Err));
                Message::Huh(t)
            }),
            (power(), prop::collection::vec(power(), 0..3), inner.clone()).prop_map(
                |(from, to, m)| Message::Frm {
                    from,
                    to,
                    press: m.to_tokens()
                }
            ),
        ]
    })
}

fn any_token() -> impl Strategy<Value = Token> {
    any::<u16>().prop_filter_map("not a token", |c| TokenTable::standard().decode(c).ok())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn message_tokens_message(m in message()) {
        let toks = m.to_tokens();
        let back = parse_message(&toks);
        prop_assert_eq!(back, Ok(m));
    }

    #[test]
    fn message_text_message_text(m in message()) {
        let t = TokenTable::standard();
        let s = m.to_text(&t);
        let back = Message::from_text(&s, &t);
        prop_assert_eq!(back.as_ref(), Ok(&m), "text {}", s);
        prop_assert_eq!(back.map(|b| b.to_text(&t)).ok(), Some(s));
    }

    #[test]
    fn wire_round_trip(m in message()) {
        let mut codec = DaideCodec::new();
        let mut buf = BytesMut::new();
        codec.encode(Frame::Dm(m.to_tokens()), &mut buf).expect("encodes");
        let frame = codec.decode(&mut buf).expect("decodes").expect("complete");
        let Frame::Dm(toks) = frame else { panic!("not a DM") };
        prop_assert_eq!(parse_message(&toks), Ok(m));
    }

    #[test]
    fn random_tokens_never_panic(toks in prop::collection::vec(any_token(), 0..40)) {
        if let Ok(m) = parse_message(&toks) {
            // Anything accepted re-encodes to something that parses the same.
            prop_assert_eq!(parse_message(&m.to_tokens()), Ok(m));
        } else if let Err(e) = parse_message(&toks) {
            let reply = e.reply(&toks);
            prop_assert!(matches!(reply, Message::Huh(_) | Message::Prn(_)));
        }
    }

    #[test]
    fn mutated_messages_never_panic(
        m in message(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any_token(), 0u8..3), 1..4),
    ) {
        let mut toks = m.to_tokens();
        for (ix, t, kind) in edits {
            let at = ix.index(toks.len() + 1);
            match kind {
                0 => toks.insert(at, t),
                1 if at < toks.len() => { toks.remove(at); }
                _ if at < toks.len() => toks[at] = t,
                _ => {}
            }
        }
        let _ = parse_message(&toks);
        let _ = format_tokens(&toks, &TokenTable::standard());
    }

    #[test]
    fn random_bytes_never_panic_the_codec(bytes in prop::collection::vec(any::<u8>(), 0..300), role in 0u8..3) {
        let mut codec = match role {
            0 => DaideCodec::new(),
            1 => DaideCodec::for_role(Role::Client),
            _ => DaideCodec::for_role(Role::Server),
        };
        let mut buf = BytesMut::from(&bytes[..]);
        while let Ok(Some(frame)) = codec.decode(&mut buf) {
            if let Frame::Dm(toks) = frame {
                let _ = parse_message(&toks);
            }
        }
    }

    #[test]
    fn random_text_never_panics(s in "[ -~]{0,60}") {
        if let Ok(toks) = parse_text(&s, &TokenTable::standard()) {
            let _ = parse_message(&toks);
            let again = format_tokens(&toks, &TokenTable::standard());
            prop_assert_eq!(parse_text(&again, &TokenTable::standard()), Ok(toks));
        }
    }
}
