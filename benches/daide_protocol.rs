//! DAIDE protocol and adjudication throughput: frame encode/decode, message
//! parse/print (tokens and text), MDF → map, and one movement-phase adjudication of the
//! standard opening position.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use bytes::BytesMut;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use tablero::daide::codec::{DaideCodec, Frame};
use tablero::daide::convert::{Names, map_from_mdf};
use tablero::daide::message::{Message, parse_message};
use tablero::daide::text::parse_text;
use tablero::daide::token::TokenTable;
use tablero::diplomacy::judge::{Rules, adjudicate_movement};
use tablero::diplomacy::{Location, Map, Order, Unit, UnitType};
use tokio_util::codec::{Decoder, Encoder};

const NOW: &str = "NOW (SPR 1901) (AUS AMY BUD) (AUS AMY VIE) (AUS FLT TRI) (ENG FLT EDI) \
    (ENG FLT LON) (ENG AMY LVP) (FRA FLT BRE) (FRA AMY MAR) (FRA AMY PAR) (GER FLT KIE) \
    (GER AMY BER) (GER AMY MUN) (ITA FLT NAP) (ITA AMY ROM) (ITA AMY VEN) (RUS AMY MOS) \
    (RUS FLT SEV) (RUS FLT (STP SCS)) (RUS AMY WAR) (TUR FLT ANK) (TUR AMY CON) (TUR AMY SMY)";

fn opening(map: &Map) -> Vec<Unit> {
    let t = TokenTable::standard();
    let names = Names::new(&t, map);
    match Message::from_text(NOW, &t) {
        Ok(Message::Now(Some(p))) => p
            .units
            .iter()
            .filter_map(|u| names.unit(&u.unit).ok())
            .collect(),
        _ => Vec::new(),
    }
}

fn bench(c: &mut Criterion) {
    let t = TokenTable::standard();
    let now = Message::from_text(NOW, &t).expect("valid NOW");
    let now_tokens = now.to_tokens();
    c.bench_function("daide/parse NOW (22 units)", |b| {
        b.iter(|| parse_message(black_box(&now_tokens)))
    });
    c.bench_function("daide/parse NOW text", |b| {
        b.iter(|| parse_text(black_box(NOW), &t))
    });
    c.bench_function("daide/print NOW as text", |b| {
        b.iter(|| black_box(&now).to_text(&t))
    });
    c.bench_function("daide/frame encode+decode NOW", |b| {
        let mut codec = DaideCodec::new();
        let mut buf = BytesMut::new();
        b.iter(|| {
            codec
                .encode(Frame::Dm(now_tokens.clone()), &mut buf)
                .expect("encodes");
            codec.decode(&mut buf).expect("decodes")
        })
    });
    let map = Map::standard();
    let names = Names::new(&t, &map);
    let mdf = names.mdf(&map).expect("standard MDF");
    let mdf_tokens = Message::Mdf(Some(std::sync::Arc::new(mdf.clone()))).to_tokens();
    let mdf_text = Message::Mdf(Some(std::sync::Arc::new(mdf.clone()))).to_text(&t);
    c.bench_function("daide/parse MDF text", |b| {
        b.iter(|| parse_text(black_box(&mdf_text), &t))
    });
    c.bench_function("daide/parse MDF + build map", |b| {
        b.iter(|| match parse_message(black_box(&mdf_tokens)) {
            Ok(Message::Mdf(Some(d))) => map_from_mdf(&d, &t).is_ok(),
            _ => false,
        })
    });
    let units = opening(&map);
    // Everyone moves somewhere adjacent: many bounces.
    let orders: Vec<Order> = units
        .iter()
        .map(|u| {
            let to = match u.kind {
                UnitType::Army => map
                    .army_neighbours(u.location.province)
                    .first()
                    .map(|p| Location::new(*p)),
                UnitType::Fleet => map.fleet_neighbours(u.location).first().copied(),
            };
            match to {
                Some(to) => Order::Move {
                    unit: *u,
                    to,
                    via: None,
                },
                None => Order::Hold(*u),
            }
        })
        .collect();
    c.bench_function("diplomacy/adjudicate S1901 (22 moves)", |b| {
        b.iter(|| {
            adjudicate_movement(
                &map,
                black_box(&units),
                black_box(&orders),
                Rules::default(),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
